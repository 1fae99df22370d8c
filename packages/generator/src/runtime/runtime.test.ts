/**
 * The runtime against real HTTP servers on loopback: a scripted API (node:http) and the development OAuth
 * authorization server. Every message the MCP server sends is checked against the official schema.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDevAuthServer } from '@mcpengine/dev-auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../corpus/client.js';
import { createOpenApiServer } from '../serve/server.js';
import { ConfigurationError } from './config.js';
import type { ApiModel, OperationTool } from './model.js';
import { backoffMs, retryAfterMs } from './http.js';
import { nextLink } from './pagination.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let api: Server;
let base = '';
const seen: Seen[] = [];
const counters = new Map<string, number>();
let handler: (req: Seen, res: ServerResponse) => void = () => undefined;

beforeAll(async () => {
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      handler(entry, res);
    });
  });
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function tool(
  partial: Partial<OperationTool> & Pick<OperationTool, 'name' | 'method' | 'path'>,
): OperationTool {
  return {
    description: partial.name,
    group: 'test',
    inputSchema: { type: 'object', additionalProperties: true },
    annotations: {},
    params: [],
    security: [],
    pointer: `/paths/${partial.path}`,
    ...partial,
  };
}

function model(tools: OperationTool[], extra: Partial<ApiModel> = {}): ApiModel {
  return { title: 'Test API', version: '1.0.0', envPrefix: 'TEST', schemes: [], tools, ...extra };
}

async function serve(
  apiModel: ApiModel,
  env: Record<string, string> = {},
  options: Record<string, unknown> = {},
) {
  const served = createOpenApiServer(apiModel, {
    baseUrl: base,
    env,
    backoffMs: 1,
    log: () => undefined,
    ...options,
  });
  const client = await connect(served.server);
  return { served, client };
}

describe('requests', () => {
  it('serialises path, query, header and cookie parameters and a form body the OpenAPI way', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    seen.length = 0;
    const { client } = await serve(
      model([
        tool({
          name: 'op',
          method: 'post',
          path: '/items/{id}/{tags}',
          params: [
            { arg: 'id', name: 'id', in: 'path', required: true, style: 'simple', explode: false },
            { arg: 'tags', name: 'tags', in: 'path', required: true, style: 'label', explode: false },
            { arg: 'ids', name: 'ids', in: 'query', required: false, style: 'form', explode: true },
            { arg: 'csv', name: 'csv', in: 'query', required: false, style: 'form', explode: false },
            {
              arg: 'filter',
              name: 'filter',
              in: 'query',
              required: false,
              style: 'deepObject',
              explode: true,
            },
            {
              arg: 'X_Trace',
              name: 'X-Trace',
              in: 'header',
              required: false,
              style: 'simple',
              explode: false,
            },
            { arg: 'session', name: 'session', in: 'cookie', required: false, style: 'form', explode: true },
          ],
          body: {
            contentType: 'application/x-www-form-urlencoded',
            encoding: 'form',
            required: true,
            properties: [
              ['amount', 'amount'],
              ['metadata', 'metadata'],
              ['expand', 'expand'],
            ],
            fields: { metadata: { style: 'deepObject', explode: true } },
          },
        }),
      ]),
    );
    const result = await client.call('op', {
      id: 'a/b',
      tags: ['x', 'y'],
      ids: [1, 2],
      csv: ['p', 'q'],
      filter: { status: 'open', owner: { id: 7 } },
      X_Trace: 't-1',
      session: 's 1',
      amount: 100,
      metadata: { order: '42' },
      expand: ['customer', 'invoice'],
    });
    expect(result.isError ?? false).toBe(false);
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(
      '/items/a%2Fb/.x,y?ids=1&ids=2&csv=p%2Cq&filter%5Bstatus%5D=open&filter%5Bowner%5D%5Bid%5D=7',
    );
    expect(request.headers['x-trace']).toBe('t-1');
    expect(request.headers['cookie']).toBe('session=s%201');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe('amount=100&metadata%5Border%5D=42&expand=customer&expand=invoice');
    await client.close();
    client.tap.assertClean();
  });

  it('refuses a path segment ".." and a header with a line break as tool errors, sending nothing', async () => {
    seen.length = 0;
    const { client } = await serve(
      model([
        tool({
          name: 'get',
          method: 'get',
          path: '/files/{name}',
          params: [
            { arg: 'name', name: 'name', in: 'path', required: true, style: 'simple', explode: false },
            { arg: 'h', name: 'X-H', in: 'header', required: false, style: 'simple', explode: false },
          ],
        }),
      ]),
    );
    const dots = await client.call('get', { name: '..' });
    expect(dots.isError).toBe(true);
    const header = await client.call('get', { name: 'ok', h: 'a\r\nInjected: yes' });
    expect(header.isError).toBe(true);
    expect(seen).toEqual([]);
    await client.close();
    client.tap.assertClean();
  });

  it('uploads multipart files given as base64', async () => {
    handler = (_req, res) => json(res, 201, { uploaded: true });
    const { client } = await serve(
      model([
        tool({
          name: 'upload',
          method: 'post',
          path: '/upload',
          body: {
            contentType: 'multipart/form-data',
            encoding: 'multipart',
            required: true,
            properties: [
              ['file', 'file'],
              ['note', 'note'],
            ],
            files: ['file'],
          },
        }),
      ]),
    );
    const result = await client.call('upload', {
      file: Buffer.from('hello file').toString('base64'),
      note: 'n',
    });
    expect(result.isError ?? false).toBe(false);
    const request = seen.at(-1)!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('hello file');
    expect(request.body).toContain('name="note"');
    await client.close();
  });
});

describe('answers', () => {
  it('turns HTTP ≥ 400 into isError with the status and a bounded excerpt, secrets redacted', async () => {
    handler = (req, res) =>
      json(res, 404, { error: 'not found', echo: req.headers['x-api-key'], padding: 'x'.repeat(5000) });
    const scheme = {
      name: 'key',
      type: 'apiKey',
      in: 'header',
      param: 'X-API-Key',
      env: { key: 'TEST_KEY' },
    } as const;
    const { client } = await serve(
      model([tool({ name: 'get', method: 'get', path: '/x', security: [['key']] })], { schemes: [scheme] }),
      {
        TEST_KEY: 'super-secret-key-123',
      },
    );
    const result = await client.call('get', {});
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/^HTTP 404 Not Found from GET \/x/);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('super-secret-key-123');
    expect(text.length).toBeLessThan(2_300);
    expect(seen.at(-1)!.headers['x-api-key']).toBe('super-secret-key-123');
    await client.close();
    client.tap.assertClean();
  });

  it('cuts long answers with an explicit marker; structured answers stay valid by shortening their arrays', async () => {
    handler = (_req, res) =>
      json(res, 200, {
        items: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}` })),
        total: 2000,
      });
    const { client } = await serve(
      model([
        tool({ name: 'plain', method: 'get', path: '/a' }),
        tool({
          name: 'typed',
          method: 'get',
          path: '/b',
          outputSchema: {
            type: 'object',
            properties: {
              items: { type: ['array', 'null'], items: {} },
              total: { type: ['number', 'null'] },
            },
          },
        }),
      ]),
      {},
      { maxResponseBytes: 5_000 },
    );
    const plain = await client.call('plain', {});
    expect((plain.content[0] as { text: string }).text).toMatch(/…\[truncated: \d+ of \d+ bytes shown/);
    const typed = await client.call('typed', {});
    expect(typed.isError ?? false).toBe(false);
    const structured = typed.structuredContent as { items: unknown[]; total: number; _truncated: string };
    expect(structured.total).toBe(2000);
    expect(structured.items.length).toBeLessThan(2000);
    expect(structured._truncated).toMatch(/list items were left out/);
    await client.close();
    client.tap.assertClean();
  });

  it('reports an answer that does not match the described schema instead of failing the protocol', async () => {
    handler = (_req, res) => json(res, 200, { count: 'not a number' });
    const { client } = await serve(
      model([
        tool({
          name: 'typed',
          method: 'get',
          path: '/c',
          outputSchema: { type: 'object', properties: { count: { type: ['number', 'null'] } } },
        }),
      ]),
    );
    const result = await client.call('typed', {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/does not match the response schema/);
    await client.close();
    client.tap.assertClean();
  });
});

describe('retries and time limits', () => {
  it('retries idempotent calls on 503 honouring Retry-After, and never retries POST', async () => {
    counters.clear();
    handler = (req, res) => {
      const n = (counters.get(req.method) ?? 0) + 1;
      counters.set(req.method, n);
      if (n < 3) json(res, 503, { busy: true }, { 'retry-after': '0' });
      else json(res, 200, { ok: n });
    };
    const { client } = await serve(
      model([
        tool({ name: 'get', method: 'get', path: '/r' }),
        tool({ name: 'post', method: 'post', path: '/r' }),
      ]),
    );
    const get = await client.call('get', {});
    expect(get.isError ?? false).toBe(false);
    expect(counters.get('GET')).toBe(3);
    const post = await client.call('post', {});
    expect(post.isError).toBe(true);
    expect(counters.get('POST')).toBe(1);
    await client.close();
  });

  it('passes a Retry-After longer than the backoff limit on instead of waiting', async () => {
    counters.clear();
    handler = (req, res) => {
      counters.set('n', (counters.get('n') ?? 0) + 1);
      json(res, 429, { slow: true }, { 'retry-after': '3600' });
    };
    const { client } = await serve(model([tool({ name: 'get', method: 'get', path: '/slow' })]));
    const result = await client.call('get', {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /HTTP 429 Too Many Requests .*Retry-After: 3600/,
    );
    expect(counters.get('n')).toBe(1);
    await client.close();
  });

  it('gives up on an API that does not answer within the time limit', async () => {
    handler = () => undefined;
    const { client } = await serve(
      model([tool({ name: 'get', method: 'get', path: '/hang' })]),
      {},
      { timeoutMs: 200, maxRetries: 1 },
    );
    const result = await client.call('get', {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/no answer within .* \(after 2 attempts\)/);
    await client.close();
  });

  it('computes backoff with full jitter and reads Retry-After in both forms', () => {
    expect(backoffMs(0, 500, 30_000, () => 1)).toBe(500);
    expect(backoffMs(3, 500, 30_000, () => 1)).toBe(4_000);
    expect(backoffMs(10, 500, 30_000, () => 1)).toBe(30_000);
    expect(backoffMs(3, 500, 30_000, () => 0)).toBe(0);
    expect(retryAfterMs('7')).toBe(7_000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(
      10_000,
    );
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('pages', () => {
  it('follows cursors up to max_pages and merges the lists', async () => {
    handler = (req, res) => {
      const cursor = new URL(req.url, base).searchParams.get('cursor') ?? '0';
      const n = Number(cursor);
      json(res, 200, { data: [n * 2, n * 2 + 1], meta: { next_cursor: n < 5 ? String(n + 1) : '' } });
    };
    const { client } = await serve(
      model([
        tool({
          name: 'list',
          method: 'get',
          path: '/list',
          params: [
            { arg: 'cursor', name: 'cursor', in: 'query', required: false, style: 'form', explode: true },
          ],
          pagination: { arg: 'max_pages', kind: 'cursor', param: 'cursor', next: ['meta', 'next_cursor'] },
        }),
      ]),
    );
    const one = await client.call('list', {});
    expect((one.content[0] as { text: string }).text).toMatch(
      /more results: call again with max_pages > 1 or cursor="1"/,
    );
    const three = await client.call('list', { max_pages: 3 });
    const text = (three.content[0] as { text: string }).text;
    expect(JSON.parse(text.split('\n')[0]!).data).toEqual([0, 1, 2, 3, 4, 5]);
    expect(text).toMatch(/3 pages fetched \(the limit asked for\); more pages follow/);
    await client.close();
    client.tap.assertClean();
  });

  it('follows Link rel="next" within the origin only', () => {
    expect(
      nextLink(
        '<https://api.example.com/items?page=2>; rel="next", <https://api.example.com/items?page=9>; rel="last"',
      ),
    ).toBe('https://api.example.com/items?page=2');
    expect(nextLink('<https://x/1>; rel="prev"')).toBeUndefined();
  });
});

describe('credentials', () => {
  const bearer = { name: 'token', type: 'bearer', scheme: 'Bearer', env: { token: 'TEST_TOKEN' } } as const;

  it('refuses to start naming the variable when no scheme an operation needs is configured', () => {
    expect(() =>
      createOpenApiServer(
        model([tool({ name: 'get', method: 'get', path: '/x', security: [['token']] })], {
          schemes: [bearer],
        }),
        { baseUrl: base, env: {} },
      ),
    ).toThrow(
      new ConfigurationError(
        'missing environment variable: set TEST_TOKEN (security scheme token of the description)',
      ),
    );
  });

  it('sends a credential once when the operation also declares it as a parameter (the credential wins)', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const inQuery = {
      name: 'key',
      type: 'apiKey',
      in: 'query',
      param: 'key',
      env: { key: 'TEST_KEY' },
    } as const;
    const inCookie = {
      name: 'sid',
      type: 'apiKey',
      in: 'cookie',
      param: 'sid',
      env: { key: 'TEST_SID' },
    } as const;
    const { client } = await serve(
      model(
        [
          tool({
            name: 'get',
            method: 'get',
            path: '/x',
            security: [['key', 'sid']],
            params: [
              { arg: 'key', name: 'key', in: 'query', required: true, style: 'form', explode: true },
              { arg: 'q', name: 'q', in: 'query', required: false, style: 'form', explode: true },
              { arg: 'sid', name: 'sid', in: 'cookie', required: false, style: 'form', explode: true },
              { arg: 'lang', name: 'lang', in: 'cookie', required: false, style: 'form', explode: true },
            ],
          }),
        ],
        { schemes: [inQuery, inCookie] },
      ),
      { TEST_KEY: 'configured-key', TEST_SID: 'configured-sid' },
    );
    seen.length = 0;
    const result = await client.call('get', { key: 'sample', q: 'a', sid: 'sample', lang: 'en' });
    expect(result.isError ?? false).toBe(false);
    expect(seen.at(-1)!.url).toBe('/x?q=a&key=configured-key');
    expect(seen.at(-1)!.headers['cookie']).toBe('sid=configured-sid; lang=en');
    await client.close();
    client.tap.assertClean();
  });

  it('fetches an OAuth2 client-credentials token once, caches it and sends it', async () => {
    const auth = await startDevAuthServer({
      clients: [
        {
          client_id: 'svc',
          client_secret: 'svc-secret-value',
          redirect_uris: ['http://127.0.0.1/cb'],
          grant_types: ['client_credentials'],
        },
      ],
    } as never);
    try {
      handler = (_req, res) => json(res, 200, { ok: true });
      seen.length = 0;
      const oauth = {
        name: 'oauth',
        type: 'oauth2',
        clientCredentials: { tokenUrl: `${auth.issuer}/token` },
        scopes: [],
        env: {
          token: 'T_ACCESS',
          clientId: 'T_ID',
          clientSecret: 'T_SECRET',
          scopes: 'T_SCOPES',
          refreshToken: 'T_REFRESH',
        },
      } as const;
      const { client } = await serve(
        model([tool({ name: 'get', method: 'get', path: '/p', security: [['oauth']] })], {
          schemes: [oauth],
        }),
        {
          T_ID: 'svc',
          T_SECRET: 'svc-secret-value',
        },
      );
      expect((await client.call('get', {})).isError ?? false).toBe(false);
      expect((await client.call('get', {})).isError ?? false).toBe(false);
      const tokens = seen.map((s) => s.headers['authorization']);
      expect(tokens[0]).toMatch(/^Bearer ey/);
      expect(tokens[1]).toBe(tokens[0]);
      await client.close();
    } finally {
      await auth.close();
    }
  });

  it('runs the OAuth2 authorization-code flow with PKCE against a real authorization server, once, and refreshes after a 401', async () => {
    // The development authorization server (packages/dev-auth) approves at once; the "browser" follows its
    // redirect to the runtime's loopback listener, as a user agent would.
    const auth = await startDevAuthServer({
      autoApprove: true,
      clients: [
        // The API's client: a public one (no secret), PKCE required, any loopback port (RFC 8252 §7.3).
        { client_id: 'cli', redirect_uris: ['http://127.0.0.1/callback'] },
        // The resource server's own client, to introspect the tokens it is shown.
        {
          client_id: 'resource',
          client_secret: 'resource-secret-value',
          redirect_uris: ['http://127.0.0.1/unused'],
        },
      ],
    } as never);
    const opened: URL[] = [];
    try {
      let refuseNext = false;
      handler = (req, res) => {
        if (refuseNext) {
          refuseNext = false;
          // An API that quotes the credential it refused: the result must not show it.
          json(res, 401, { error: 'invalid_token', token: req.headers['authorization'] });
        } else json(res, 200, { ok: true });
      };
      seen.length = 0;
      const oauth = {
        name: 'oauth',
        type: 'oauth2',
        authorizationCode: { authorizationUrl: `${auth.issuer}/authorize`, tokenUrl: `${auth.issuer}/token` },
        scopes: ['read'],
        env: {
          token: 'T_ACCESS',
          clientId: 'T_ID',
          clientSecret: 'T_SECRET',
          scopes: 'T_SCOPES',
          refreshToken: 'T_REFRESH',
        },
      } as const;
      const { client } = await serve(
        model([tool({ name: 'get', method: 'get', path: '/p', security: [['oauth']] })], {
          schemes: [oauth],
        }),
        { T_ID: 'cli' },
        {
          openAuthorizationUrl: async (url: URL) => {
            opened.push(url);
            const landing = await fetch(url); // follows the 302 to the loopback redirect listener
            await landing.arrayBuffer();
          },
        },
      );
      expect((await client.call('get', {})).isError ?? false).toBe(false);
      expect((await client.call('get', {})).isError ?? false).toBe(false);
      expect(opened).toHaveLength(1);
      const request = opened[0]!.searchParams;
      expect(request.get('response_type')).toBe('code');
      expect(request.get('client_id')).toBe('cli');
      expect(request.get('code_challenge_method')).toBe('S256');
      expect(request.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(request.get('scope')).toBe('read');
      expect(request.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const [first, second] = seen.map((s) => s.headers['authorization']);
      expect(first).toMatch(/^Bearer ey/);
      expect(second).toBe(first);

      // The API refuses the token: an isError result without the token in it; the next call refreshes it
      // with the refresh token (no second authorization in the browser) and succeeds.
      refuseNext = true;
      const refused = await client.call('get', {});
      expect(refused.isError).toBe(true);
      const text = JSON.stringify(refused);
      expect(text).toContain('HTTP 401');
      expect(text).not.toContain(first!.slice('Bearer '.length));
      expect((await client.call('get', {})).isError ?? false).toBe(false);
      expect(opened).toHaveLength(1);
      const renewed = seen.at(-1)!.headers['authorization']!;
      expect(renewed).toMatch(/^Bearer ey/);
      expect(renewed).not.toBe(first);

      // Both tokens are the authorization server's own, for the user who approved, the client and the scope.
      for (const token of [first!, renewed]) {
        const introspection = await fetch(`${auth.issuer}/introspect`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from('resource:resource-secret-value').toString('base64')}`,
          },
          body: new URLSearchParams({ token: token.slice('Bearer '.length) }).toString(),
        });
        expect(await introspection.json()).toMatchObject({
          active: true,
          client_id: 'cli',
          scope: 'read',
          sub: 'dev-user',
        });
      }
      await client.close();
      client.tap.assertClean();
    } finally {
      await auth.close();
    }
  });
});
