/** `Serving` handles: stdio and HTTP own their server the same way; bin code exits with `exitWhenClosed`. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serveHttp } from '../transports/http/index.js';
import { serveStdio } from '../transports/stdio/index.js';
import { McpServer } from './index.js';

/** A server whose one tool waits for cancellation, so that closing the server is observable. */
function waitingServer(aborted: string[]): McpServer {
  const server = new McpServer({ name: 'serving', version: '1.0.0' });
  server.addTool({
    name: 'wait',
    description: 'Waits until cancelled',
    handler: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => {
          aborted.push(String(ctx.signal.reason));
          reject(ctx.signal.reason);
        }),
      ),
  });
  return server;
}

describe('Serving', () => {
  it('stdio: the end of stdin closes the server and settles `closed`', async () => {
    const server = waitingServer([]);
    const input = new PassThrough();
    const output = new PassThrough();
    const serving = await serveStdio(server, { input, output, drainTimeoutMs: 0 });
    let settled = false;
    void serving.closed.then(() => (settled = true));
    input.end();
    await serving.closed;
    expect(settled).toBe(true);
  });

  it('stdio: close() closes the server, ending its in-flight requests', async () => {
    const aborted: string[] = [];
    const input = new PassThrough();
    const output = new PassThrough();
    const serving = await serveStdio(waitingServer(aborted), { input, output });
    input.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'wait',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      })}\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await serving.close({ drainTimeoutMs: 0 });
    await serving.closed;
    expect(aborted).toHaveLength(1);
  });

  it('HTTP: close() closes the server too, and settles `closed`', async () => {
    const aborted: string[] = [];
    const server = waitingServer(aborted);
    // A second transport on the same server shows that the server itself was closed, not only the listener.
    const stdin = new PassThrough();
    const stdio = await serveStdio(server, { input: stdin, output: new PassThrough() });
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait' } })}\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const serving = await serveHttp(server, { port: 0 });
    await serving.close({ drainTimeoutMs: 0 });
    await serving.closed;
    expect(serving.server.listening).toBe(false);
    expect(aborted).toHaveLength(1);
    await stdio.closed;
  });

  it('exitWhenClosed: a bin exits with code 0 once stdin ends', async () => {
    const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const stdio = fileURLToPath(new URL('../../dist/transports/stdio/index.js', import.meta.url));
    const program = [
      `const { exitWhenClosed, McpServer } = await import(${JSON.stringify(entry)});`,
      `const { serveStdio } = await import(${JSON.stringify(stdio)});`,
      `exitWhenClosed(await serveStdio(new McpServer({ name: 'bin', version: '1.0.0' })));`,
      `process.stderr.write('ready\\n');`,
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    await once(child.stderr, 'data');
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  }, 30_000);
});
