/**
 * Authorization, as far as it shows from outside without an authorization server: a server that requires
 * authorization answers an unauthenticated request with 401 and a Bearer challenge, publishes Protected
 * Resource Metadata naming its authorization servers, and refuses an invalid token with 401. A server that does
 * not require authorization makes these checks not applicable.
 */
import { factsOf } from '../revisions.js';
import { brief, httpRequestText, httpResponseText } from '../evidence.js';
import { initializeRequest, modernRequest } from '../session.js';
import { isObject, type HttpChannel } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const AUTH_CHALLENGE = defineCheck(
  'auth.unauthorized-challenge',
  'http',
  'A request without credentials to a server that requires them gets 401 with a WWW-Authenticate Bearer challenge',
  { facets: ['status', 'challenge'] },
);
export const AUTH_METADATA = defineCheck(
  'auth.protected-resource-metadata',
  'http',
  'The Protected Resource Metadata (RFC 9728) is published and names at least one authorization server',
);
export const AUTH_INVALID_TOKEN = defineCheck(
  'auth.invalid-token',
  'http',
  'A request with an invalid bearer token gets 401',
);

export const AUTH_CHALLENGE_SCOPE = defineCheck(
  'auth.challenge-scope',
  'http',
  'The 401 challenge names the scopes required (scope parameter of WWW-Authenticate)',
);
export const AUTH_NO_OFFLINE_ACCESS = defineCheck(
  'auth.no-offline-access',
  'http',
  'offline_access appears neither in the challenge scope nor in the metadata scopes_supported',
);

const SENSITIVE = new Set(['authorization', 'cookie']);

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SENSITIVE.has(name.toLowerCase())));
}

/** `resource_metadata="…"` from a WWW-Authenticate header. */
function resourceMetadataUrl(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /resource_metadata="([^"]+)"/i.exec(header)?.[1];
}

/** RFC 9728 §3: the well-known URI inserted between host and path. */
function wellKnownUrls(endpoint: string): string[] {
  const url = new URL(endpoint);
  const path = url.pathname === '/' ? '' : url.pathname;
  return [
    `${url.origin}/.well-known/oauth-protected-resource${path}`,
    `${url.origin}/.well-known/oauth-protected-resource`,
  ];
}

async function fetchJson(
  url: string,
  timeoutMs: number,
): Promise<{ status: number; body: string; json?: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
      redirect: 'manual',
    });
    const body = await response.text();
    try {
      return { status: response.status, body, json: JSON.parse(body) as unknown };
    } catch {
      return { status: response.status, body };
    }
  } catch (error) {
    return { status: 0, body: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export const authProbe: Probe = {
  lane: 'isolated',
  name: 'authorization',
  eras: ['legacy', 'modern'],
  transports: ['streamable-http'],
  checks: [AUTH_CHALLENGE, AUTH_CHALLENGE_SCOPE, AUTH_METADATA, AUTH_NO_OFFLINE_ACCESS, AUTH_INVALID_TOKEN],
  async run(ctx: ProbeContext) {
    const channel = (await ctx.open()) as HttpChannel;
    const message =
      ctx.era === 'modern'
        ? modernRequest(channel, ctx.revision, 'server/discover')
        : initializeRequest(channel, ctx.revision);
    const bare = await channel.exchange({
      body: JSON.stringify(message),
      headers: withoutCredentials(channel.headersFor(message)),
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    const http = bare.http;
    const evidence = [
      {
        label: 'a request without credentials',
        sent: httpRequestText(http),
        received: httpResponseText(http),
      },
    ];
    if (http.status !== 401) {
      const reason = `the server answers without credentials (HTTP ${http.status}): it does not require authorization`;
      for (const check of this.checks) ctx.notApplicable(check, reason);
      return;
    }
    const challenge = http.headers['www-authenticate'];
    const bearer = challenge !== undefined && /^\s*bearer\b/i.test(challenge);
    // Only 2025-06-18 requires the challenge on every 401; later revisions also accept discovery through the
    // well-known URI alone (auth.protected-resource-metadata judges that).
    if (bearer || factsOf(ctx.revision).auth.challengeOnEvery401) {
      ctx.expect(
        AUTH_CHALLENGE,
        bearer,
        `401 with WWW-Authenticate: ${brief(challenge)}`,
        challenge === undefined
          ? '401 without a WWW-Authenticate header'
          : `WWW-Authenticate is not a Bearer challenge: ${brief(challenge)}`,
        evidence,
        ['challenge'],
      );
    } else {
      ctx.pass(
        AUTH_CHALLENGE,
        `401 (no Bearer challenge, which ${ctx.revision} does not require when the metadata is at the well-known URI)`,
        evidence,
      );
    }
    const scope = challenge === undefined ? undefined : /scope="([^"]*)"/i.exec(challenge)?.[1];
    if (!factsOf(ctx.revision).auth.challengeScope)
      ctx.notApplicable(AUTH_CHALLENGE_SCOPE, `${ctx.revision} says nothing of a scope in the challenge`);
    else if (!bearer) ctx.notRun(AUTH_CHALLENGE_SCOPE, 'no Bearer challenge to carry a scope');
    else {
      ctx.expect(
        AUTH_CHALLENGE_SCOPE,
        scope !== undefined && scope.trim() !== '',
        `scope="${scope ?? ''}"`,
        'the WWW-Authenticate challenge has no scope parameter',
        evidence,
      );
    }
    const fromHeader = resourceMetadataUrl(challenge);
    const candidates =
      fromHeader !== undefined
        ? [new URL(fromHeader, ctx.target.label.split(' ')[0]).toString()]
        : wellKnownUrls(ctx.target.label.split(' ')[0]!);
    let found: { url: string; status: number; body: string; json?: unknown } | undefined;
    for (const url of candidates) {
      const response = await fetchJson(url, ctx.settings.requestTimeoutMs);
      found = { url, ...response };
      if (response.status === 200) break;
    }
    const servers = isObject(found?.json) ? found.json['authorization_servers'] : undefined;
    if (!factsOf(ctx.revision).auth.protectedResourceMetadata)
      ctx.notApplicable(AUTH_METADATA, `${ctx.revision} predates Protected Resource Metadata`);
    else
      ctx.expect(
        AUTH_METADATA,
        found?.status === 200 &&
          Array.isArray(servers) &&
          servers.length > 0 &&
          servers.every((s) => typeof s === 'string'),
        `${found?.url ?? ''} names ${brief(servers)}`,
        found === undefined || found.status !== 200
          ? `no Protected Resource Metadata at ${candidates.join(' or ')} (HTTP ${found?.status ?? 'none'})`
          : `the metadata has no non-empty authorization_servers array: ${brief(found.body)}`,
        found === undefined
          ? evidence
          : [
              {
                label: 'Protected Resource Metadata',
                sent: `GET ${found.url}`,
                received: `HTTP ${found.status}\n\n${found.body.slice(0, 1500)}`,
              },
            ],
      );
    const supported = isObject(found?.json) ? found.json['scopes_supported'] : undefined;
    const offline = [
      ...(scope ?? '').split(/\s+/),
      ...(Array.isArray(supported) ? supported.map(String) : []),
    ].includes('offline_access');
    if (!factsOf(ctx.revision).auth.noOfflineAccess)
      ctx.notApplicable(AUTH_NO_OFFLINE_ACCESS, `${ctx.revision} says nothing of offline_access`);
    else
      ctx.expect(
        AUTH_NO_OFFLINE_ACCESS,
        !offline,
        'no offline_access in the challenge or the metadata',
        'offline_access is advertised by the protected resource',
        evidence,
      );
    const invalid = await channel.exchange({
      body: JSON.stringify(message),
      headers: {
        ...withoutCredentials(channel.headersFor(message)),
        authorization: 'Bearer validator-invalid-token',
      },
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    ctx.expect(
      AUTH_INVALID_TOKEN,
      invalid.http.status === 401,
      '401 for an invalid token',
      `HTTP ${invalid.http.status} for an invalid bearer token`,
      [
        {
          label: 'a request with an invalid bearer token',
          sent: httpRequestText(invalid.http),
          received: httpResponseText(invalid.http),
        },
      ],
    );
  },
};
