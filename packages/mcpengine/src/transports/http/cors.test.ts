import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { serveHttp, type HttpServing, type ServeHttpOptions } from './node.js';

const servings: HttpServing[] = [];
const taps: WireTap[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close({ drainTimeoutMs: 0 });
  for (const tap of taps.splice(0)) tap.assertClean();
});

async function serve(options: ServeHttpOptions = {}): Promise<HttpServing> {
  const serving = await serveHttp(createTestServer(), options);
  servings.push(serving);
  return serving;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP exchange, as a browser sends it (Node's client sets no Origin of its own). */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: text }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

const INSPECTOR = 'http://localhost:6274';

/** What a browser sends before a POST carrying MCP headers. */
const preflight = (serving: HttpServing, origin: string, requestHeaders: string) =>
  exchange(serving.url, 'OPTIONS', {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': requestHeaders,
  });

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
};

async function initialize(serving: HttpServing, origin: string): Promise<Reply> {
  const tap = new WireTap({ validate: ['server'] });
  taps.push(tap);
  tap.record(INITIALIZE, 'client');
  const reply = await exchange(
    serving.url,
    'POST',
    { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    JSON.stringify(INITIALIZE),
  );
  // Whole-request refusals carry an error without an id, as the transport specs allow: not a message.
  if (reply.headers['content-type']?.startsWith('application/json')) {
    const message = JSON.parse(reply.body);
    if ('id' in message) tap.record(message, 'server');
  }
  return reply;
}

describe('CORS', () => {
  it('is off by default: no preflight answer, no CORS headers', async () => {
    const serving = await serve();
    const answer = await preflight(serving, INSPECTOR, 'content-type');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    const init = await initialize(serving, INSPECTOR);
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers the preflight of an allowed origin with the MCP request headers', async () => {
    const serving = await serve({ cors: { origins: [INSPECTOR] } });
    const answer = await preflight(
      serving,
      INSPECTOR,
      'content-type, authorization, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, mcp-param-region, last-event-id, x-other',
    );
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(INSPECTOR);
    expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
    const granted = answer.headers['access-control-allow-headers']!.split(', ');
    expect(granted.sort()).toEqual(
      [
        'authorization',
        'content-type',
        'last-event-id',
        'mcp-method',
        'mcp-name',
        'mcp-param-region',
        'mcp-protocol-version',
        'mcp-session-id',
      ].sort(),
    );
    expect(answer.headers.vary).toMatch(/Origin/);
  });

  it('lets an allowed page read the answer and its session id', async () => {
    const serving = await serve({ cors: { origins: [INSPECTOR] } });
    const init = await initialize(serving, INSPECTOR);
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBe(INSPECTOR);
    expect(init.headers['access-control-expose-headers']).toMatch(/Mcp-Session-Id/);
    expect(init.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
    expect(init.headers['mcp-session-id']).toBeTruthy();
  });

  it('grants nothing to an origin it does not list', async () => {
    const serving = await serve({ cors: { origins: [INSPECTOR] } });
    const other = 'http://localhost:9999';
    const answer = await preflight(serving, other, 'content-type');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect((await initialize(serving, other)).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the DNS-rebinding defence: a listed origin must also pass the Origin check', async () => {
    const remote = 'https://inspector.example.com';
    const refused = await serve({ cors: { origins: [remote] } });
    const answer = await preflight(refused, remote, 'content-type');
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect((await initialize(refused, remote)).status).toBe(403);

    const allowed = await serve({ cors: { origins: [remote] }, allowedOrigins: [remote] });
    expect((await preflight(allowed, remote, 'content-type')).status).toBe(204);
    const init = await initialize(allowed, remote);
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBe(remote);
  });
});
