/**
 * The OAuth debugger's judgements without a browser: against the real protected example and development
 * authorization server, with the authorization server's metadata tampered in transit (no PKCE S256, a wrong
 * issuer), the walk fails at that step and goes no further.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import { serveProtected, type ProtectedServing } from '@mcpengine/examples/protected-notes';
import { OAuthDebugger } from './oauth-debugger.js';

let authorization: RunningDevAuthServer;
let serving: ProtectedServing;

beforeAll(async () => {
  authorization = await startDevAuthServer({ autoApprove: true });
  serving = await serveProtected({ issuer: authorization.issuer });
});

afterAll(async () => {
  await serving?.close();
  await authorization?.close();
});

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
      redirectUri: 'http://127.0.0.1:9/oauth/callback',
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
      redirectUri: 'http://127.0.0.1:9/oauth/callback',
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
      redirectUri: 'http://127.0.0.1:9/oauth/callback',
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
      redirectUri: 'http://127.0.0.1:9/oauth/callback',
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
});
