/**
 * Redirects against two real HTTP servers on loopback (origin A, where the user pointed the runtime, redirects to
 * origin B): credentials the runtime added from configuration never reach B, same-origin hops keep them, methods
 * are rewritten as fetch does, and the number of hops is bounded.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../corpus/client.js';
import { createOpenApiServer } from '../serve/server.js';
import { CallFailure, MAX_REDIRECTS, redirectTarget } from './http.js';
import type { ApiModel, AuthScheme, OperationTool } from './model.js';
import type { BuiltRequest } from './request.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Origin {
  server: Server;
  url: string;
  seen: Seen[];
  handler: (req: Seen, res: ServerResponse) => void;
}

async function origin(): Promise<Origin> {
  const state: Origin = {
    server: createServer(),
    url: '',
    seen: [],
    handler: (_req, res) => res.writeHead(404).end(),
  };
  state.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      state.seen.push(entry);
      state.handler(entry, res);
    });
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

let a: Origin;
let b: Origin;

beforeAll(async () => {
  [a, b] = await Promise.all([origin(), origin()]);
});
afterAll(async () => {
  await Promise.all([a, b].map((o) => new Promise<void>((resolve) => o.server.close(() => resolve()))));
});
beforeEach(() => {
  a.seen.length = 0;
  b.seen.length = 0;
});

function redirect(res: ServerResponse, status: number, location: string) {
  res.writeHead(status, { location }).end();
}

function ok(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
}

const SECRETS = {
  TEST_HEADER_KEY: 'header-key-secret',
  TEST_QUERY_KEY: 'query-key-secret',
  TEST_COOKIE_KEY: 'cookie-key-secret',
  TEST_TOKEN: 'bearer-token-secret',
};
const EXTRA = 'extra-header-secret';

const schemes: AuthScheme[] = [
  { name: 'hkey', type: 'apiKey', in: 'header', param: 'X-Api-Key', env: { key: 'TEST_HEADER_KEY' } },
  { name: 'qkey', type: 'apiKey', in: 'query', param: 'api_key', env: { key: 'TEST_QUERY_KEY' } },
  { name: 'ckey', type: 'apiKey', in: 'cookie', param: 'session', env: { key: 'TEST_COOKIE_KEY' } },
  { name: 'token', type: 'bearer', scheme: 'Bearer', env: { token: 'TEST_TOKEN' } },
];

function tool(method: 'get' | 'post'): OperationTool {
  return {
    name: method,
    description: method,
    group: 'test',
    method,
    path: '/start',
    inputSchema: { type: 'object', additionalProperties: true },
    annotations: {},
    params: [
      { arg: 'trace', name: 'X-Trace', in: 'header', required: false, style: 'simple', explode: false },
    ],
    ...(method === 'post'
      ? {
          body: {
            contentType: 'application/json',
            encoding: 'json' as const,
            required: true,
            properties: [['note', 'note']] as [string, string][],
          },
        }
      : {}),
    security: [['hkey', 'qkey', 'ckey', 'token']],
    pointer: '/paths/~1start',
  };
}

async function serve() {
  const api: ApiModel = {
    title: 'Redirect API',
    version: '1.0.0',
    envPrefix: 'TEST',
    schemes,
    tools: [tool('get'), tool('post')],
  };
  const served = createOpenApiServer(api, {
    baseUrl: a.url,
    env: SECRETS,
    headers: { 'X-Extra': EXTRA },
    backoffMs: 1,
    log: () => undefined,
  });
  return connect(served.server);
}

/** Every credential the runtime was configured with, as it would appear on the wire. */
const ALL_SECRETS = [...Object.values(SECRETS), EXTRA];

function leaked(request: Seen): string[] {
  const wire = JSON.stringify({ url: request.url, headers: request.headers, body: request.body });
  return ALL_SECRETS.filter((secret) => wire.includes(secret));
}

function expectCredentials(request: Seen) {
  expect(request.headers['x-api-key']).toBe(SECRETS.TEST_HEADER_KEY);
  expect(request.headers['authorization']).toBe(`Bearer ${SECRETS.TEST_TOKEN}`);
  expect(request.headers['cookie']).toBe(`session=${SECRETS.TEST_COOKIE_KEY}`);
  expect(request.headers['x-extra']).toBe(EXTRA);
  expect(new URL(request.url, 'http://x').searchParams.get('api_key')).toBe(SECRETS.TEST_QUERY_KEY);
}

describe('redirects to another origin', () => {
  it('strip every configured credential: header and query API keys, cookie, Authorization, --header', async () => {
    // A echoes the query credential in its Location, as some APIs do when they move a resource.
    a.handler = (req, res) =>
      redirect(res, 302, `${b.url}/landing?${new URL(req.url, a.url).searchParams.toString()}&page=2`);
    b.handler = (_req, res) => ok(res);
    const client = await serve();
    const result = await client.call('get', { trace: 't-1' });
    expect(result.isError ?? false).toBe(false);
    expect(a.seen).toHaveLength(1);
    expectCredentials(a.seen[0]!);
    expect(b.seen).toHaveLength(1);
    const landing = b.seen[0]!;
    expect(leaked(landing)).toEqual([]);
    expect(landing.url).toBe('/landing?page=2');
    for (const name of ['x-api-key', 'authorization', 'cookie', 'x-extra'])
      expect(landing.headers[name]).toBeUndefined();
    // What the model put in the call is not configuration and goes on, as with fetch.
    expect(landing.headers['x-trace']).toBe('t-1');
    await client.close();
    client.tap.assertClean();
  });

  it('do not get the credentials back when a later hop returns to the configured origin', async () => {
    a.handler = (req, res) =>
      req.url.startsWith('/start') ? redirect(res, 307, `${b.url}/bounce`) : ok(res);
    b.handler = (_req, res) => redirect(res, 307, `${a.url}/back`);
    const client = await serve();
    const result = await client.call('get', {});
    expect(result.isError ?? false).toBe(false);
    expect(a.seen.map((r) => r.url.split('?')[0])).toEqual(['/start', '/back']);
    expect(leaked(b.seen[0]!)).toEqual([]);
    expect(leaked(a.seen[1]!)).toEqual([]);
    await client.close();
  });

  it('rewrite POST to GET without a body on 303 (and 301/302), keep method and body on 307/308', async () => {
    const client = await serve();
    b.handler = (_req, res) => ok(res);
    for (const [status, method, body] of [
      [303, 'GET', ''],
      [302, 'GET', ''],
      [301, 'GET', ''],
      [307, 'POST', '{"note":"hi"}'],
      [308, 'POST', '{"note":"hi"}'],
    ] as const) {
      a.seen.length = 0;
      b.seen.length = 0;
      a.handler = (_req, res) => redirect(res, status, `${b.url}/moved`);
      const result = await client.call('post', { note: 'hi' });
      expect(result.isError ?? false, `${status}`).toBe(false);
      expect(a.seen[0]!.body).toBe('{"note":"hi"}');
      const moved = b.seen[0]!;
      expect({ status, method: moved.method, body: moved.body }).toEqual({ status, method, body });
      expect(moved.headers['content-type'], `${status}`).toBe(
        method === 'GET' ? undefined : 'application/json',
      );
      expect(leaked(moved)).toEqual([]);
    }
    await client.close();
  });
});

describe('redirects within the origin', () => {
  it('keep every credential, the query credential too when the Location leaves it out', async () => {
    a.handler = (req, res) =>
      req.url.startsWith('/start') ? redirect(res, 301, '/v2/start?page=2') : ok(res);
    const client = await serve();
    const result = await client.call('get', { trace: 't-2' });
    expect(result.isError ?? false).toBe(false);
    expect(a.seen).toHaveLength(2);
    expect(a.seen[1]!.url).toBe(`/v2/start?page=2&api_key=${SECRETS.TEST_QUERY_KEY}`);
    expectCredentials(a.seen[1]!);
    expect(a.seen[1]!.headers['x-trace']).toBe('t-2');
    await client.close();
  });

  it('keep POST and its body on 307', async () => {
    a.handler = (req, res) => (req.url.startsWith('/start') ? redirect(res, 307, '/again') : ok(res));
    const client = await serve();
    const result = await client.call('post', { note: 'hi' });
    expect(result.isError ?? false).toBe(false);
    expect(a.seen.map((r) => [r.method, r.url.split('?')[0], r.body])).toEqual([
      ['POST', '/start', '{"note":"hi"}'],
      ['POST', '/again', '{"note":"hi"}'],
    ]);
    expectCredentials(a.seen[1]!);
    await client.close();
  });
});

describe('the number of redirects', () => {
  it(`is capped at ${MAX_REDIRECTS}: a loop is a tool error naming it, not retried`, async () => {
    a.handler = (_req, res) => redirect(res, 302, '/start');
    const client = await serve();
    const result = await client.call('get', {});
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('a redirect loop');
    expect(text).toContain(`${a.url}/start → ${a.url}/start`);
    expect(text).not.toContain(SECRETS.TEST_QUERY_KEY);
    expect(a.seen).toHaveLength(MAX_REDIRECTS + 1);
    await client.close();
  });

  it(`follows ${MAX_REDIRECTS} redirects and refuses the next one`, async () => {
    let limit = MAX_REDIRECTS;
    a.handler = (req, res) => {
      const n = Number(/^\/r(\d+)/.exec(req.url)?.[1] ?? 0);
      if (n < limit) redirect(res, 302, `/r${n + 1}`);
      else ok(res);
    };
    const client = await serve();
    expect((await client.call('get', {})).isError ?? false).toBe(false);
    expect(a.seen).toHaveLength(MAX_REDIRECTS + 1);
    a.seen.length = 0;
    limit = MAX_REDIRECTS + 1;
    const result = await client.call('get', {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain(`more than ${MAX_REDIRECTS} redirects`);
    expect(a.seen).toHaveLength(MAX_REDIRECTS + 1);
    await client.close();
  });
});

describe('redirectTarget', () => {
  const request: BuiltRequest = {
    url: new URL('https://api.example/v1/x?api_key=k-secret'),
    method: 'POST',
    headers: { 'X-Api-Key': 'h-secret', 'content-type': 'application/json', Authorization: 'Bearer t' },
    body: '{}',
    configured: { headers: ['x-api-key', 'Authorization'], query: [['api_key', 'k-secret']] },
  };

  it('refuses https to http, even on the same host, and schemes other than http(s) or user info', () => {
    expect(() => redirectTarget(request, 307, 'http://api.example/v1/x')).toThrow(CallFailure);
    expect(() => redirectTarget(request, 307, 'http://api.example/v1/x')).toThrow(
      'POST https://api.example/v1/x redirected from https to http (http://api.example/v1/x); refused',
    );
    expect(() => redirectTarget(request, 302, 'file:///etc/passwd')).toThrow(/file: URL; refused/);
    expect(() => redirectTarget(request, 302, 'https://user:pw@api.example/')).toThrow(/user info; refused/);
    expect(() => redirectTarget(request, 302, 'https://[bad')).toThrow(/invalid URL/);
  });

  it('allows http to https and treats a change of port or scheme as another origin', () => {
    const plain = { ...request, url: new URL('http://api.example/v1/x?api_key=k-secret') };
    const upgraded = redirectTarget(plain, 308, 'https://api.example/v1/x?api_key=k-secret');
    expect(upgraded.url.href).toBe('https://api.example/v1/x');
    expect(upgraded.headers).toEqual({ 'content-type': 'application/json' });
    const port = redirectTarget(request, 307, 'https://api.example:8443/v1/x');
    expect(port.headers).toEqual({ 'content-type': 'application/json' });
    expect(port.body).toBe('{}');
  });

  it('drops a query value equal to a configured credential whatever its name, and keeps the rest', () => {
    const next = redirectTarget(request, 302, 'https://cdn.example/f?key=k-secret&sig=abc&api_key=other');
    expect(next.url.href).toBe('https://cdn.example/f?sig=abc&api_key=other');
    expect(next.method).toBe('GET');
    expect(next.body).toBeUndefined();
    expect(next.headers).toEqual({});
  });

  it('keeps HEAD on 303 and PUT on 301/302, as fetch does', () => {
    expect(redirectTarget({ ...request, method: 'HEAD' }, 303, '/y').method).toBe('HEAD');
    const put = redirectTarget({ ...request, method: 'PUT' }, 302, '/y');
    expect([put.method, put.body, put.url.href]).toEqual([
      'PUT',
      '{}',
      'https://api.example/y?api_key=k-secret',
    ]);
    expect(redirectTarget({ ...request, method: 'DELETE' }, 303, '/y').method).toBe('GET');
  });
});
