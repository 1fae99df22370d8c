// Hostile: ignores stdin closing and SIGTERM, and leaves a child process of its own behind.
import { spawn } from 'node:child_process';

spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
process.on('SIGTERM', () => {});
process.stdin.resume();
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
