#!/usr/bin/env node
/**
 * Runs the everything server. Default: stdio, where stdout carries only protocol messages and every human
 * message goes to stderr.
 *
 *   node servers/everything/dist/main.js            # stdio
 *   node servers/everything/dist/main.js --banner   # stdio, plus connection instructions on stderr
 */
import { serveStdio } from 'mcpengine/stdio';
import { createEverythingServer } from './server.js';

const args = process.argv.slice(2);
const known = new Set(['--banner', '--help']);
const unknown = args.filter((a) => !known.has(a));
if (unknown.length > 0 || args.includes('--help')) {
  process.stderr.write(
    `${unknown.length > 0 ? `Unknown argument(s): ${unknown.join(' ')}\n` : ''}` +
      'Usage: mcpengine-everything [--banner]\n  Serves the MCPEngine everything server on stdio (all protocol revisions).\n',
  );
  process.exit(unknown.length > 0 ? 2 : 0);
}

const server = createEverythingServer();
if (args.includes('--banner')) {
  process.stderr.write(
    [
      'MCPEngine everything server — speaking MCP on stdio (revisions 2024-11-05 … 2026-07-28).',
      'Connect an MCP client by launching this command as a stdio server:',
      `  command: ${process.execPath}`,
      `  args:    ${process.argv[1] ?? 'servers/everything/dist/main.js'}`,
      'For example, in a client config: {"command": "node", "args": ["servers/everything/dist/main.js"]}',
      'Waiting for messages on stdin (Ctrl+D or SIGTERM to stop).',
      '',
    ].join('\n'),
  );
}
await serveStdio(server);
