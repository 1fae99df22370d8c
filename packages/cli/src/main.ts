#!/usr/bin/env node
/**
 * `mcpengine` — the factory command line. Wires the process to `runCli`; the first Ctrl-C asks the running
 * command to stop (it ends its children and reports), a second one exits at once.
 */
import { runCli } from './cli.js';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});
process.once('SIGTERM', () => interrupt.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  signal: interrupt.signal,
});
