// Starts a grandchild that would outlive it, and ignores SIGTERM; records both pids for the test to check.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { main } from '../_server.mjs';
const child = spawn(
  process.execPath,
  ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'],
  { stdio: 'ignore' },
);
writeFileSync(process.env.PIDS_FILE, JSON.stringify({ server: process.pid, grandchild: child.pid }));
process.on('SIGTERM', () => {});
// Stays alive after stdin ends, as badly behaved servers do.
main({ onEnd: () => setInterval(() => {}, 1000) });
