#!/usr/bin/env node
/**
 * Runs the everything server. Default: stdio, where stdout carries only protocol messages and every human
 * message goes to stderr.
 *
 *   node servers/everything/dist/main.js                       # stdio
 *   node servers/everything/dist/main.js --banner              # stdio, plus connection instructions on stderr
 *   node servers/everything/dist/main.js --http [--port N] [--host H]
 *                                                              # Streamable HTTP at /mcp, HTTP+SSE at /sse
 *   node servers/everything/dist/main.js --http --port N --redis redis://127.0.0.1:6379/0 [--idle-timeout-ms MS]
 *                                                              # one node of a scaled-out server (docs/scale-out.md)
 */
import { exitWhenClosed } from 'mcpengine/server';
import { serveStdio } from 'mcpengine/stdio';
import { serveEverythingHttp } from './http.js';
import { createEverythingServer } from './server.js';

const USAGE =
  'Usage: mcpengine-everything [--banner]\n' +
  '       mcpengine-everything --http [--port <N>] [--host <address>] [--redis <url>] [--idle-timeout-ms <ms>]\n' +
  '  Serves the MCPEngine everything server (all protocol revisions) on stdio, or over HTTP:\n' +
  '  Streamable HTTP at /mcp (2025-03-26 … 2026-07-28) and HTTP+SSE at /sse (2024-11-05).\n' +
  '  --port defaults to 3000 and --host to 127.0.0.1.\n' +
  '  --redis <url>            scale-out: keep sessions, resumable streams and tasks in Redis and carry\n' +
  '                           server-to-client traffic over it, so that several processes behind a plain\n' +
  '                           (non-sticky) load balancer serve one server (redis://127.0.0.1:6379/<db>)\n' +
  '  --redis-prefix <prefix>  prefix of every Redis key and channel (default mcpengine:)\n' +
  '  --idle-timeout-ms <ms>   a legacy session unused this long expires (default 600000)\n';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
}

const args = process.argv.slice(2);
let http = false;
let banner = false;
let port = 3000;
let host = '127.0.0.1';
let redisUrl: string | undefined;
let redisPrefix: string | undefined;
let idleTimeoutMs: number | undefined;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  const value = () => {
    const next = args[++i];
    if (next === undefined || next.startsWith('--')) fail(`${arg} needs a value`);
    return next;
  };
  switch (arg) {
    case '--help':
      process.stderr.write(USAGE);
      process.exit(0);
      break;
    case '--banner':
      banner = true;
      break;
    case '--http':
      http = true;
      break;
    case '--port': {
      const text = value();
      port = Number(text);
      if (!/^\d+$/.test(text) || port > 65_535) fail(`Invalid port: ${text}`);
      break;
    }
    case '--host':
      host = value();
      break;
    case '--redis': {
      const text = value();
      if (!/^rediss?:\/\//.test(text)) fail(`Invalid Redis URL (redis://host:port/db expected): ${text}`);
      redisUrl = text;
      break;
    }
    case '--redis-prefix':
      redisPrefix = value();
      break;
    case '--idle-timeout-ms': {
      const text = value();
      idleTimeoutMs = Number(text);
      if (!/^\d+$/.test(text) || idleTimeoutMs <= 0 || !Number.isSafeInteger(idleTimeoutMs)) {
        fail(`Invalid idle timeout: ${text}`);
      }
      break;
    }
    default:
      fail(`Unknown argument: ${arg}`);
  }
}
if (!http && (args.includes('--port') || args.includes('--host'))) fail('--port and --host need --http');
if (!http && (redisUrl !== undefined || idleTimeoutMs !== undefined)) {
  fail('--redis and --idle-timeout-ms need --http');
}
if (redisPrefix !== undefined && redisUrl === undefined) fail('--redis-prefix needs --redis');

if (http) {
  let serving;
  try {
    serving = await serveEverythingHttp({
      host,
      port,
      ...(idleTimeoutMs === undefined ? {} : { sessions: { idleTimeoutMs } }),
      ...(redisUrl === undefined ? {} : { redis: { url: redisUrl, prefix: redisPrefix } }),
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stderr.write(
    [
      'MCPEngine everything server — speaking MCP over HTTP (revisions 2024-11-05 … 2026-07-28).',
      `  Streamable HTTP: ${serving.url}`,
      `  HTTP+SSE:        ${serving.sseUrl ?? '(off)'}`,
      ...(redisUrl === undefined ? [] : [`  Scale-out:       sessions, streams and tasks in Redis`]),
      'Ctrl+C or SIGTERM to stop.',
      '',
    ].join('\n'),
  );
  exitWhenClosed(serving, { drainTimeoutMs: 1_000 });
} else {
  const server = createEverythingServer();
  if (banner) {
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
  exitWhenClosed(await serveStdio(server));
}
