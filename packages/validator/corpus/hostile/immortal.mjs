// Hostile: ignores stdin closing and SIGTERM, and starts a child process of its own. With PID_FILE set, it
// records both process ids there (one per line), so a test can check that neither outlives the validation.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
if (process.env.PID_FILE)
  writeFileSync(process.env.PID_FILE, `${process.pid}\n${child.pid}\n`, { flag: 'a' });
process.on('SIGTERM', () => {});
process.stdin.resume();
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
