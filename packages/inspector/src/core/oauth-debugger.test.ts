/**
 * The OAuth debugger's judgements without a browser: against the real protected example and development
 * authorization server, with the authorization server's metadata tampered in transit (no PKCE S256, a wrong
 * issuer), the walk fails at that step and goes no further. Registration through a Client ID Metadata Document
 * (the development server in its loopback-document mode) is judged and used; a bad document stops the walk. A
 * call the token does not cover is stepped up: 403 insufficient_scope, re-authorization, token, call again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import {
  NOTES_READ,
  NOTES_WRITE,
  serveProtected,
  type ProtectedServing,
} from '@mcpengine/examples/protected-notes';
import { inspectorClientMetadata, OAuthDebugger } from './oauth-debugger.js';

const REDIRECT = 'http://127.0.0.1:9/oauth/callback';
let authorization: RunningDevAuthServer;
let serving: ProtectedServing;
/** Serves client metadata documents: `/good.json` (right) and `/bad.json` (names another client id). */
let documents: Server;
let documentsOrigin: string;

beforeAll(async () => {
  authorization = await startDevAuthServer({
    autoApprove: true,
    clientMetadataDocuments: { loopbackDocuments: true },
  });
  serving = await serveProtected({ issuer: authorization.issuer });
  documents = createServer((request, response) => {
    const url = `${documentsOrigin}${request.url ?? '/'}`;
    const body =
      request.url === '/good.json'
        ? inspectorClientMetadata(REDIRECT, url)
        : request.url === '/bad.json'
          ? inspectorClientMetadata(REDIRECT, `${documentsOrigin}/other.json`)
          : undefined;
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((ready) => documents.listen(0, '127.0.0.1', () => ready()));
  documentsOrigin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await serving?.close();
  await authorization?.close();
  await new Promise<void>((done) => (documents ? documents.close(() => done()) : done()));
});

/** The user's browser at the authorization page: the development server approves and redirects back. */
async function approve(walk: OAuthDebugger, step: number): Promise<void> {
  const answer = await fetch(walk.steps[step]!.authorizationUrl!, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  expect(walk.callback(new URL(answer.headers.get('location')!).searchParams)).toBe(true);
}

const failures = (walk: OAuthDebugger) =>
  walk.steps.flatMap((step) => step.checks).filter((check) => check.verdict === 'fail');

/** Real fetches; the authorization server metadata edited on its way back. */
function tampering(edit: (metadata: Record<string, unknown>) => void) {
  return async (url: URL, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (!url.pathname.startsWith('/.well-known/oauth-authorization-server')) return response;
    const metadata = (await response.json()) as Record<string, unknown>;
    edit(metadata);
    return new Response(JSON.stringify(metadata), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('OAuthDebugger', () => {
  it('walks to the authorization request with every check passing', async () => {
    const walk = new OAuthDebugger({
      serverUrl: serving.url,
      redirectUri: REDIRECT,
    });
    for (let i = 0; i < 5; i++) expect(await walk.next()).toBe(true);
    expect(walk.steps.map((step) => step.status).slice(0, 5)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'waiting',
    ]);
    expect(walk.steps.flatMap((step) => step.checks).filter((c) => c.verdict === 'fail')).toEqual([]);
    expect(await walk.next()).toBe(false); // waiting for the redirect
    expect(walk.callback(new URLSearchParams({ state: 'forged', code: 'x' }))).toBe(false);
  });

  it('fails at the metadata step when PKCE S256 is not advertised, and stops', async () => {
    const walk = new OAuthDebugger({
      serverUrl: serving.url,
      redirectUri: REDIRECT,
      fetch: tampering((metadata) => delete metadata['code_challenge_methods_supported']),
    });
    expect(await walk.next()).toBe(true);
    expect(await walk.next()).toBe(true);
    expect(await walk.next()).toBe(false);
    const step = walk.steps[2]!;
    expect(step.status).toBe('failed');
    expect(step.checks).toContainEqual(
      expect.objectContaining({ verdict: 'fail', text: expect.stringMatching(/clients MUST refuse/) }),
    );
    expect(await walk.next()).toBe(false);
    expect(walk.steps[3]!.status).toBe('pending');
  });

  it('fails when the metadata names another issuer (RFC 8414 §3.3)', async () => {
    const walk = new OAuthDebugger({
      serverUrl: serving.url,
      redirectUri: REDIRECT,
      fetch: tampering((metadata) => (metadata['issuer'] = 'https://evil.example')),
    });
    await walk.next();
    await walk.next();
    expect(await walk.next()).toBe(false);
    expect(walk.steps[2]!.checks).toContainEqual(
      expect.objectContaining({
        verdict: 'fail',
        text: expect.stringMatching(/evil\.example.*is the authorization server/),
      }),
    );
  });

  it('refuses to follow a public server to a loopback address (no request is sent)', async () => {
    const sent: string[] = [];
    // A server at a public name (here served by the real protected example) whose challenge names a loopback URL.
    const walk = new OAuthDebugger({
      serverUrl: 'https://mcp.example/mcp',
      redirectUri: REDIRECT,
      fetch: async (url, init) => {
        sent.push(url.href);
        return fetch(url.hostname === 'mcp.example' ? serving.url : url, init);
      },
    });
    expect(await walk.next()).toBe(true);
    expect(await walk.next()).toBe(false);
    const step = walk.steps[1]!;
    expect(step.status).toBe('failed');
    expect(step.checks).toContainEqual(
      expect.objectContaining({
        verdict: 'fail',
        text: expect.stringMatching(/loopback or private address/),
      }),
    );
    expect(step.exchanges[0]!.error).toMatch(/^not sent/);
    expect(sent).toEqual(['https://mcp.example/mcp']);
  });

  it('registers through a Client ID Metadata Document: judged, then used as the client id end to end', async () => {
    const url = `${documentsOrigin}/good.json`;
    const walk = new OAuthDebugger({ serverUrl: serving.url, redirectUri: REDIRECT });
    walk.reset({ registration: 'cimd', clientMetadataUrl: url });
    for (let i = 0; i < 5; i++) expect(await walk.next()).toBe(true);
    const registration = walk.steps[3]!;
    expect(registration.status).toBe('done');
    const texts = registration.checks.map((check) => `${check.verdict} ${check.text}`);
    expect(texts).toEqual([
      'pass the authorization server metadata has client_id_metadata_document_supported: true',
      expect.stringMatching(/^warn the client id http:\/\/127\.0\.0\.1:\d+\/good\.json is not https/),
      'pass the URL has a path component (and no fragment)',
      'pass the document is served (HTTP 200)',
      'pass the document is a JSON object',
      expect.stringMatching(/^pass client_id ".*\/good\.json" equals the document URL exactly$/),
      'pass client_name is given',
      'pass redirect_uris is a non-empty list',
      `pass redirect_uris lists this inspector's callback (${REDIRECT})`,
      'pass token_endpoint_auth_method is none (a public client)',
      'pass grant_types ["authorization_code","refresh_token"] allows authorization_code',
    ]);
    expect(registration.exchanges.map((exchange) => exchange.request.url)).toEqual([url]);
    expect(new URL(walk.steps[4]!.authorizationUrl!).searchParams.get('client_id')).toBe(url);
    // The authorization server fetches the document itself and issues a code to that client id.
    await approve(walk, 4);
    expect(await walk.next()).toBe(true); // token
    expect(walk.steps[5]!.found['claims']).toMatchObject({ client_id: url });
    expect(failures(walk)).toEqual([]);
  });

  it('stops at registration when the document names another client id, or the server offers no CIMD', async () => {
    const walk = new OAuthDebugger({ serverUrl: serving.url, redirectUri: REDIRECT });
    walk.reset({ registration: 'cimd', clientMetadataUrl: `${documentsOrigin}/bad.json` });
    for (let i = 0; i < 3; i++) expect(await walk.next()).toBe(true);
    expect(await walk.next()).toBe(false);
    expect(walk.steps[3]!.status).toBe('failed');
    expect(failures(walk).map((check) => check.text)).toEqual([
      expect.stringMatching(/^client_id ".*\/other\.json" is not the document URL exactly$/),
    ]);

    const none = new OAuthDebugger({
      serverUrl: serving.url,
      redirectUri: REDIRECT,
      fetch: tampering((metadata) => delete metadata['client_id_metadata_document_supported']),
    });
    none.reset({ registration: 'cimd', clientMetadataUrl: `${documentsOrigin}/good.json` });
    for (let i = 0; i < 3; i++) await none.next();
    expect(await none.next()).toBe(false);
    expect(failures(none).map((check) => check.text)).toEqual([
      expect.stringMatching(/does not advertise client_id_metadata_document_supported/),
    ]);
    expect(none.steps[3]!.exchanges).toEqual([]);
  });

  it('steps up: 403 insufficient_scope, re-authorization with the scope named, the call accepted', async () => {
    const walk = new OAuthDebugger({ serverUrl: serving.url, redirectUri: REDIRECT });
    walk.reset({ registration: 'dcr', stepUpTool: 'add-note', stepUpArguments: { text: 'stepped up' } });
    for (let i = 0; i < 5; i++) expect(await walk.next()).toBe(true);
    await approve(walk, 4);
    expect(await walk.next()).toBe(true); // token (notes:read, from the resource metadata)
    expect(walk.steps[5]!.found['scope']).toBe(NOTES_READ);
    expect(await walk.next()).toBe(true); // refresh
    expect(await walk.next()).toBe(true); // the authorized request
    expect(await walk.next()).toBe(true); // step-up: the call, 403, a new authorization request
    const stepUp = walk.steps[8]!;
    expect(stepUp.name).toBe('step-up');
    expect(stepUp.status).toBe('waiting');
    const methods = stepUp.exchanges.map((exchange) => exchange.response?.status);
    expect(methods.at(-1)).toBe(403);
    expect(stepUp.checks.map((check) => check.text)).toEqual(
      expect.arrayContaining([
        '403 Forbidden for a token without the scope (got 403)',
        'WWW-Authenticate: Bearer error="insufficient_scope" (got error="insufficient_scope")',
        expect.stringMatching(/^the challenge names the scopes needed: .*notes:write/),
        'the challenge names resource_metadata',
      ]),
    );
    const scope = new URL(stepUp.authorizationUrl!).searchParams.get('scope')!;
    expect(scope.split(' ')).toContain(NOTES_WRITE);
    const firstToken = walk.accessToken;
    await approve(walk, 8);
    expect(stepUp.status).toBe('pending');
    expect(await walk.next()).toBe(true); // the token for the larger scope, then the call again
    expect(stepUp.status).toBe('done');
    expect(stepUp.checks.map((check) => check.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the new token's scope covers .*notes:write/),
        'the call is accepted with the stepped-up token (HTTP 200)',
      ]),
    );
    expect(walk.accessToken).not.toBe(firstToken);
    expect(failures(walk)).toEqual([]);
    expect(await walk.next()).toBe(false); // nothing left
  });

  it('skips step-up when no tool is named, and says so when the token already covers the call', async () => {
    const walk = new OAuthDebugger({ serverUrl: serving.url, redirectUri: REDIRECT });
    walk.reset({ stepUpTool: 'whoami' });
    for (let i = 0; i < 5; i++) await walk.next();
    await approve(walk, 4);
    for (let i = 0; i < 4; i++) await walk.next();
    expect(walk.steps[8]!.status).toBe('skipped');
    expect(walk.steps[8]!.checks[0]!.text).toMatch(/the token already covers whoami, no step-up is needed/);
  });
});
