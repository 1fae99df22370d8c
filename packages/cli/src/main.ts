#!/usr/bin/env node
/**
 * `mcpengine` — the factory command line.
 */
import { validateCommand } from './validate/command.js';

const USAGE =
  'Usage: mcpengine <command>\n\nCommands:\n' +
  '  validate   check an MCP server against the specification (mcpengine validate --help)\n';

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === 'help') {
  process.stdout.write(USAGE);
} else if (command === 'validate') {
  try {
    process.exitCode = await validateCommand(rest, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
    });
  } catch (error) {
    process.stderr.write(
      `mcpengine validate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  }
  // Everything is written and every server stopped: a timer some probe left behind must not hold the exit up.
  setTimeout(() => process.exit(), 1000).unref();
} else {
  process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
  process.exitCode = 2;
}
