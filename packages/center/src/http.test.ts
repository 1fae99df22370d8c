/**
 * The API's guards: the token on every API call, Host and Origin limited to this loopback port, bounded bodies,
 * no file outside the dashboard's folder; and what the API answers once allowed.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCenter, type RunningCenter } from './start.js';
import { createFixtureFleet, type FixtureFleet } from './test/fixture-fleet.js';

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

describe('center HTTP API', () => {
  let fleet: FixtureFleet;
  let center: RunningCenter;
  const printed: string[] = [];

  beforeAll(async () => {
    fleet = createFixtureFleet(['broken']);
    center = await startCenter({
      root: fleet.root,
      port: 0,
      run: false,
      timeoutMs: 10_000,
      stdout: (text) => printed.push(text),
      stderr: () => undefined,
    });
  });

  afterAll(async () => {
    await center?.stop();
    fleet?.cleanup();
  });

  it('prints the loopback URL with a random token on stdout', () => {
    expect(printed[0]).toBe(`http://127.0.0.1:${center.port}/?token=${center.token}\n`);
    expect(center.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('refuses API calls without the token, or with another one', async () => {
    expect((await send(center.port, '/api/overview')).status).toBe(401);
    expect((await send(center.port, '/api/overview?token=wrong')).status).toBe(401);
    expect((await send(center.port, `/api/overview?token=${center.token}x`)).status).toBe(401);
    expect((await send(center.port, '/api/events')).status).toBe(401);
    const ok = await send(center.port, `/api/overview?token=${center.token}`);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).servers.map((s: { name: string }) => s.name)).toEqual(['broken']);
    const bearer = await send(center.port, '/api/runs', {
      headers: { authorization: `Bearer ${center.token}` },
    });
    expect(bearer.status).toBe(200);
  });

  it('refuses a Host or Origin that is not this loopback port (DNS rebinding, cross-site requests)', async () => {
    const path = `/api/overview?token=${center.token}`;
    expect((await send(center.port, path, { headers: { host: 'evil.example' } })).status).toBe(403);
    expect(
      (await send(center.port, path, { headers: { host: `127.0.0.1:${center.port + 1}` } })).status,
    ).toBe(403);
    expect((await send(center.port, '/', { headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await send(center.port, path, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect(
      (await send(center.port, path, { headers: { origin: `http://localhost:${center.port}` } })).status,
    ).toBe(200);
    expect((await send(center.port, path, { headers: { host: `localhost:${center.port}` } })).status).toBe(
      200,
    );
  });

  it('serves the dashboard without data, and nothing outside its folder', async () => {
    const page = await send(center.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<main id="main"');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await send(center.port, '/app.js')).status).toBe(200);
    expect((await send(center.port, '/../package.json')).status).toBe(404);
    expect((await send(center.port, '/%2e%2e/package.json')).status).toBe(404);
  });

  it('bounds request bodies and says what is wrong with bad input', async () => {
    const auth = { authorization: `Bearer ${center.token}`, 'content-type': 'application/json' };
    const large = await send(center.port, '/api/servers', {
      method: 'POST',
      headers: auth,
      body: 'x'.repeat(70_000),
    });
    expect(large.status).toBe(413);
    const notJson = await send(center.port, '/api/servers', { method: 'POST', headers: auth, body: '{nope' });
    expect(notJson.status).toBe(400);
    const neither = await send(center.port, '/api/servers', { method: 'POST', headers: auth, body: '{}' });
    expect(JSON.parse(neither.body).error).toMatch(/command line or a URL/);
    const badUrl = await send(center.port, '/api/servers', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: 'file:///etc/passwd' }),
    });
    expect(badUrl.status).toBe(400);
    expect((await send(center.port, '/api/runs/nope', { headers: auth })).status).toBe(404);
    expect((await send(center.port, '/api/runs/nope/cancel', { method: 'POST', headers: auth })).status).toBe(
      409,
    );
    // A page id names a page's previews: only the dashboard's kind (a UUID) is taken.
    expect((await send(center.port, '/api/events?page=%3Cscript%3E', { headers: auth })).status).toBe(400);
    const badPage = await send(center.port, '/api/servers/broken/apps', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ uri: 'ui://broken/view.html', page: 42 }),
    });
    expect(badPage.status).toBe(400);
    expect(JSON.parse(badPage.body).error).toMatch(/page must be the id/);
    // Still serving after all that.
    expect((await send(center.port, '/api/overview', { headers: auth })).status).toBe(200);
  });

  it('adds an external server by URL and lists it', async () => {
    const auth = { authorization: `Bearer ${center.token}` };
    const added = await send(center.port, '/api/servers', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/mcp' }),
    });
    expect(added.status).toBe(201);
    expect(JSON.parse(added.body).name).toBe('external-127-0-0-1-9-mcp');
    const overview = JSON.parse((await send(center.port, '/api/overview', { headers: auth })).body);
    expect(overview.servers.map((s: { name: string; kind: string }) => `${s.kind}:${s.name}`)).toEqual([
      'fleet:broken',
      'external:external-127-0-0-1-9-mcp',
    ]);
  });
});
