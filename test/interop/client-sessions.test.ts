/**
 * One `Client`, many sessions at once: three sessions to two different servers, in both eras, over stdio
 * (the official server-everything, legacy), Streamable HTTP (our server, modern) and memory (our server, pinned
 * legacy). One middleware, shared by all three, records every message with its session and revision. Every
 * message on every wire is checked against the official schema of its revision.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { Client, type ClientCall, type ClientSession } from 'mcpengine/client';
import { createHttpTransport, serveHttp, type HttpServing } from 'mcpengine/http';
import { createMemoryTransportPair } from 'mcpengine/memory';
import { McpServer } from 'mcpengine/server';
import { StdioClientTransport } from 'mcpengine/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EVERYTHING_MAIN = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

function adder(): McpServer {
  const server = new McpServer({ name: 'adder', version: '1.0.0', instructions: 'Adds numbers' });
  server.addTool<{ a: number; b: number }>({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  });
  return server;
}

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { type: string; text?: string }).text ?? '').join('');

describe('one Client, three concurrent sessions', () => {
  const server = adder();
  let serving: HttpServing;
  const taps: WireTap[] = [];
  const tapped = <T extends Parameters<typeof tapTransport>[0]>(transport: T) => {
    const tap = new WireTap();
    taps.push(tap);
    return tapTransport(transport, tap, 'client');
  };

  beforeAll(async () => {
    serving = await serveHttp(server);
  });
  afterAll(async () => {
    await serving?.close({ drainTimeoutMs: 100 });
  });

  it('keeps revision, server and traffic apart per session', { timeout: 60_000 }, async () => {
    const seen: Pick<ClientCall, 'direction' | 'kind' | 'method' | 'revision' | 'sessionId'>[] = [];
    const client = new Client({ name: 'many-sessions', version: '1.0.0' }).use(async (call, next) => {
      const { direction, kind, method, revision, sessionId } = call;
      seen.push({ direction, kind, method, revision, sessionId });
      return next(call);
    });

    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const sessions: ClientSession[] = await Promise.all([
      client.connect(
        tapped(
          new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_MAIN], stderr: 'ignore' }),
        ),
        { probeTimeoutMs: 10_000 },
      ),
      client.connect(tapped(createHttpTransport(serving.url))),
      client.connect(tapped(clientSide), { revision: '2025-06-18' }),
    ]);
    const [stdio, http, memory] = sessions;
    try {
      expect(
        sessions.map((s) => [s.era, s.serverInfo?.name]),
        'each session has its own handshake',
      ).toEqual([
        ['legacy', 'mcp-servers/everything'],
        ['modern', 'adder'],
        ['legacy', 'adder'],
      ]);
      expect(http!.revision).toBe('2026-07-28');
      expect(memory!.revision).toBe('2025-06-18');
      expect(memory!.instructions).toBe('Adds numbers');
      expect(new Set(sessions.map((s) => s.localId)).size).toBe(3);
      // The negotiated facts are readonly: no setter to fill at connect time.
      expect(() => {
        (http as unknown as { revision: string }).revision = '2024-11-05';
      }).toThrow(TypeError);

      const [echo, sumHttp, sumMemory] = await Promise.all([
        stdio!.callTool({ name: 'echo', arguments: { message: 'hi' } }),
        http!.callTool({ name: 'add', arguments: { a: 2, b: 3 } }),
        memory!.callTool({ name: 'add', arguments: { a: 40, b: 2 } }),
      ]);
      expect([textOf(echo), textOf(sumHttp), textOf(sumMemory)]).toEqual(['Echo: hi', '5', '42']);

      // The shared middleware saw every session's calls, each with its own session id and revision.
      const calls = (session: ClientSession) =>
        seen
          .filter((c) => c.sessionId === session.localId && c.direction === 'outgoing')
          .map((c) => `${c.kind} ${c.method} @${c.revision ?? 'handshake'}`);
      expect(calls(memory!)).toEqual([
        'request initialize @handshake',
        'notification notifications/initialized @2025-06-18',
        'request tools/call @2025-06-18',
      ]);
      expect(calls(http!)).toEqual(['request server/discover @handshake', 'request tools/call @2026-07-28']);
      expect(calls(stdio!)).toContain(`request tools/call @${stdio!.revision}`);

      // Closing one session leaves the others working.
      await memory!.close();
      expect(memory!.isClosed).toBe(true);
      await expect(memory!.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/closed/);
      expect(textOf(await http!.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
      expect(textOf(await stdio!.callTool({ name: 'echo', arguments: { message: 'still' } }))).toBe(
        'Echo: still',
      );
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
    for (const tap of taps) tap.assertClean();
  });
});
