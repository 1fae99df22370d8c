#!/usr/bin/env node
/**
 * `mcpengine` — the factory command line. Subcommands arrive with their issues; until then this prints usage.
 */
const [command] = process.argv.slice(2);
const usage = 'Usage: mcpengine <command>\n\nCommands:\n  validate   check an MCP server against the spec (coming)\n';
if (command === undefined || command === '--help' || command === 'help') {
  process.stdout.write(usage);
} else {
  process.stderr.write(`Unknown command: ${command}\n\n${usage}`);
  process.exitCode = 2;
}
