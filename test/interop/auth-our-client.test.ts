/**
 * End to end: the protected example server (resource server middleware, JWT access tokens checked against the
 * JWKS of our development authorization server) driven by our Client with an `OAuthClient`, in both eras.
 * The 401 starts discovery, Dynamic Client Registration and the authorization code grant (auto-approved, the
 * test plays the browser); a scoped tool triggers step-up; an invalid token is refreshed. Every message both
 * ways is validated by the WireTap.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireTap, tapTransport } from '@mcpengine/oracle';
import { FileAuthStore, OAuthClient, type AuthStore } from 'mcpengine/auth';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import { Client, type ClientSession } from 'mcpengine/client';
import { createHttpTransport, type FetchLike } from 'mcpengine/http';
import {
  NOTES_READ,
  NOTES_WRITE,
  serveProtected,
  type ProtectedServing,
} from '@mcpengine/examples/protected-notes';

let authorization: RunningDevAuthServer;
let serving: ProtectedServing;
let dir: string;

beforeAll(async () => {
  authorization = await startDevAuthServer({
    autoApprove: true,
    scopes: [NOTES_READ, NOTES_WRITE, 'offline_access'],
  });
  serving = await serveProtected({ issuer: authorization.issuer });
  dir = await mkdtemp(join(tmpdir(), 'mcpengine-auth-interop-'));
});

afterAll(async () => {
  await serving?.close();
  await authorization?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The user agent: the authorization server approves at once and redirects. */
async function browse(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  return new URL(response.headers.get('location')!);
}

interface Session {
  client: ClientSession;
  tap: WireTap;
  oauth: OAuthClient;
  grants: string[];
  logs: string[];
}

async function connect(revision: '2025-11-25' | '2026-07-28', store: AuthStore): Promise<Session> {
  const grants: string[] = [];
  const logs: string[] = [];
  const spy: FetchLike = async (url, init) => {
    if (url.pathname === '/token')
      grants.push(new URLSearchParams(String(init.body)).get('grant_type') ?? '');
    return fetch(url, init);
  };
  const oauth = new OAuthClient({
    clientName: 'interop',
    redirectUri: 'http://127.0.0.1:1/callback',
    authorize: browse,
    store,
    fetch: spy,
    logger: { debug: (m) => logs.push(m), warn: (m) => logs.push(m) },
  });
  const tap = new WireTap();
  const mcpClient = new Client({ name: 'mcpengine-auth-interop', version: '0.1.0' });
  const transport = createHttpTransport(serving.url, {
    auth: oauth,
    standaloneStream: false,
    sseFallback: false,
  });
  const client = await mcpClient.connect(tapTransport(transport, tap, 'client'), { revision });
  return { client, tap, oauth, grants, logs };
}

const text = (result: { content: unknown[] }) =>
  (result.content as { type: string; text?: string }[])
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join('');

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`our client → protected example (${revision})`, () => {
    it('authorizes on the first 401, sees what the token covers, steps up for a write, and keeps tokens in an owner-only file', async () => {
      const path = join(dir, `store-${revision}.json`);
      const session = await connect(revision, new FileAuthStore(path));
      const { client } = session;
      try {
        expect((await client.listAllTools()).map((t) => t.name)).toEqual(['whoami', 'list-notes']);
        const me = await client.callTool({ name: 'whoami', arguments: {} });
        expect(me.structuredContent).toEqual({
          scopes: [NOTES_READ, 'offline_access'],
          subject: 'dev-user',
          clientId: expect.any(String),
        });
        expect(text(await client.callTool({ name: 'list-notes', arguments: {} }))).toContain('First note');

        // Not listed, but callable after step-up: the 403 names notes:write, the client re-authorizes with the union.
        const added = await client.callTool({ name: 'add-note', arguments: { text: `from ${revision}` } });
        expect(added.isError).not.toBe(true);
        expect(text(added)).toMatch(/^Added note \d+$/);
        // A new token may see more: the cached (private, ttlMs) list of the old one is bypassed.
        expect((await client.listAllTools({ cache: false })).map((t) => t.name)).toEqual([
          'whoami',
          'list-notes',
          'add-note',
        ]);
        const after = await client.callTool({ name: 'whoami', arguments: {} });
        expect((after.structuredContent as { scopes: string[] }).scopes.sort()).toEqual(
          [NOTES_READ, NOTES_WRITE, 'offline_access'].sort(),
        );

        expect((await client.readResource({ uri: 'notes://all' })).contents[0]).toMatchObject({
          text: expect.stringContaining(`from ${revision}`),
        });
        expect((await client.getPrompt({ name: 'summarize-notes' })).messages).toHaveLength(1);
        expect(session.grants).toEqual(['authorization_code', 'authorization_code']);
      } finally {
        await client.close();
      }
      session.tap.assertClean();
      expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
      const stored = await new FileAuthStore(path).get(`tokens ${serving.url}`);
      expect(stored).toMatchObject({ issuer: authorization.issuer, resource: serving.url });
      // Nothing the client logged contains a credential.
      const secrets = [stored!.access_token, stored!.refresh_token].map(String);
      for (const line of session.logs) for (const secret of secrets) expect(line).not.toContain(secret);
    });

    it('refreshes a token the server no longer accepts, with the stored refresh token', async () => {
      const path = join(dir, `refresh-${revision}.json`);
      const store = new FileAuthStore(path);
      const first = await connect(revision, store);
      await first.client.listAllTools();
      await first.client.close();
      first.tap.assertClean();
      // The access token stops being valid (here: replaced by garbage); the refresh token still works.
      const record = (await store.get(`tokens ${serving.url}`))!;
      await store.set(`tokens ${serving.url}`, { ...record, access_token: 'not-a-valid-token' });
      const second = await connect(revision, store);
      try {
        expect((await second.client.listAllTools()).map((t) => t.name)).toContain('list-notes');
      } finally {
        await second.client.close();
      }
      second.tap.assertClean();
      expect(second.grants).toEqual(['refresh_token']);
      const rotated = (await store.get(`tokens ${serving.url}`))!;
      expect(rotated.refresh_token).not.toBe(record.refresh_token);
    });
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('the resource server refuses', () => {
  it('tokens meant for another resource, and tokens of another issuer', async () => {
    const post = (token: string) =>
      fetch(serving.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(INITIALIZE),
      });
    const otherResource = authorization.server.issueAccessToken({
      clientId: 'x',
      scopes: [NOTES_READ],
      resource: 'http://127.0.0.1:1/other',
    });
    const refused = await post(otherResource);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('not issued for this resource');
    const stranger = await startDevAuthServer();
    try {
      const foreign = stranger.server.issueAccessToken({
        clientId: 'x',
        scopes: [NOTES_READ],
        resource: serving.url,
      });
      expect((await post(foreign)).status).toBe(401);
    } finally {
      await stranger.close();
    }
    const good = authorization.server.issueAccessToken({
      clientId: 'x',
      scopes: [NOTES_READ],
      resource: serving.url,
    });
    const accepted = await post(good);
    expect(accepted.status).toBe(200);
    const tap = new WireTap();
    tap.record(INITIALIZE, 'client');
    tap.record(await accepted.text(), 'server');
    tap.assertClean();
  });
});

const PROTECTED_MAIN = resolve(import.meta.dirname, '../../examples/dist/protected-notes-main.js');

describe('the protected example from the command line', () => {
  it('starts with its authorization server, and our client gets in', async () => {
    const child = spawn(process.execPath, [PROTECTED_MAIN, '--port', '0', '--auth-port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let err = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /Protected MCP server:\s+(\S+)/.exec(err);
          if (match && err.includes('Authorization server:')) done(match[1]!);
        });
        child.once('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
      });
      const oauth = new OAuthClient({ redirectUri: 'http://127.0.0.1:1/callback', authorize: browse });
      const tap = new WireTap();
      const mcpClient = new Client({ name: 'cli-check', version: '0.1.0' });
      const client = await mcpClient.connect(
        tapTransport(createHttpTransport(url, { auth: oauth, standaloneStream: false }), tap, 'client'),
        {
          revision: '2026-07-28',
        },
      );
      try {
        expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({
          subject: 'dev-user',
        });
      } finally {
        await client.close();
      }
      tap.assertClean();
    } finally {
      child.kill('SIGTERM');
    }
  });
});
