/**
 * End to end with the official SDK 1.32.2 client and its OAuth client provider: the protected example (our
 * resource server, tokens from our development authorization server) is discovered, registered with and
 * authorized against the way the SDK does it (`UnauthorizedError`, then `finishAuth(code)`), including the
 * step-up on 403 `insufficient_scope`. Every message our server sends is validated by the WireTap.
 */
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireTap } from '@mcpengine/oracle';
import { startDevAuthServer, type RunningDevAuthServer } from '@mcpengine/dev-auth';
import {
  NOTES_READ,
  NOTES_WRITE,
  serveProtected,
  type ProtectedServing,
} from '@mcpengine/examples/protected-notes';
import { TappedSdkTransport } from './tapped-sdk-transport.js';

const REDIRECT = 'http://127.0.0.1:1/sdk-callback';

/** An OAuthClientProvider that plays the browser against the auto-approving authorization server. */
class HeadlessProvider implements OAuthClientProvider {
  code: string | undefined;
  authorizationUrls: URL[] = [];
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';

  get redirectUrl(): string {
    return REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'sdk-interop',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location')!);
    this.code = location.searchParams.get('code') ?? undefined;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }
}

let authorization: RunningDevAuthServer;
let serving: ProtectedServing;

beforeAll(async () => {
  authorization = await startDevAuthServer({ autoApprove: true, scopes: [NOTES_READ, NOTES_WRITE] });
  serving = await serveProtected({ issuer: authorization.issuer });
});

afterAll(async () => {
  await serving?.close();
  await authorization?.close();
});

/** Retries `action` once after completing the SDK's redirect-based authorization. */
async function withAuthorization<T>(
  provider: HeadlessProvider,
  transport: StreamableHTTPClientTransport,
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || provider.code === undefined) throw error;
    await transport.finishAuth(provider.code);
    provider.code = undefined;
    return action();
  }
}

describe('official SDK 1.32.2 client (OAuth provider) → protected example', () => {
  it('authorizes, lists what the token covers, steps up for a write', async () => {
    const provider = new HeadlessProvider();
    const tap = new WireTap({ validate: ['server'] });
    const url = new URL(serving.url);

    // First connection: a 401 starts the SDK's flow, which ends in UnauthorizedError after the redirect.
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const refused = await new Client({ name: 'sdk', version: '1' })
      .connect(new TappedSdkTransport<JSONRPCMessage>(first, tap))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(provider.code).toBeDefined();
    const request = provider.authorizationUrls[0]!.searchParams;
    expect(request.get('resource')).toBe(serving.url);
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('scope')).toBe(NOTES_READ);
    await first.finishAuth(provider.code!);
    provider.code = undefined;

    const inner = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const transport = new TappedSdkTransport<JSONRPCMessage>(inner, tap);
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'list-notes']);
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.structuredContent).toMatchObject({ subject: 'dev-user', scopes: [NOTES_READ] });
      expect(await client.readResource({ uri: 'notes://all' })).toMatchObject({
        contents: [{ uri: 'notes://all' }],
      });

      // 403 insufficient_scope → the SDK re-authorizes with the challenged scopes (ours include the granted one).
      const added = await withAuthorization(provider, inner, () =>
        client.callTool({ name: 'add-note', arguments: { text: 'from the SDK' } }),
      );
      expect(added.isError).not.toBe(true);
      expect(provider.authorizationUrls).toHaveLength(2);
      expect(provider.authorizationUrls[1]!.searchParams.get('scope')).toBe(`${NOTES_READ} ${NOTES_WRITE}`);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'whoami',
        'list-notes',
        'add-note',
      ]);
      const prompt = await client.getPrompt({ name: 'summarize-notes' });
      expect(JSON.stringify(prompt.messages)).toContain('from the SDK');
    } finally {
      await client.close();
    }
    // The SDK reports the step-up's redirect through onerror too; nothing else went wrong.
    expect(transport.transportErrors.filter((e) => !(e instanceof UnauthorizedError))).toEqual([]);
    tap.assertClean();
  });
});
