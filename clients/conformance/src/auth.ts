/**
 * The `auth/*` client scenarios of the conformance suite, keyed by their full name (`auth/metadata-default`).
 *
 * Every scenario connects MCPEngine's `Client` through the HTTP transport with an `OAuthClient` (`auth`
 * option): the first 401 drives discovery, registration and the grant, and the request is sent again. The
 * authorization step is headless: the authorization URL is fetched without following redirects, and the
 * `Location` the mock authorization server answers with is the redirect the client reads.
 *
 * Scenarios in which a correct client must stop ("must decline": resource mismatch, `iss` problems, poisoned
 * metadata, the step-up retry limit) succeed only when the flow was refused for that very reason; connecting
 * anyway, or failing for another reason, is a failure (exit 1).
 */
import {
  AuthorizationError,
  OAuthClient,
  type AuthorizationFailure,
  type OAuthClientOptions,
} from 'mcpengine/auth';
import { Client, type ClientSession } from 'mcpengine/client';
import { createHttpTransport, HttpError } from 'mcpengine/http';
import type { JsonObject } from 'mcpengine/protocol';
import type { ScenarioHandler, ScenarioRun } from './scenario.js';

/** Where the mock authorization servers send the browser back to (nothing needs to listen there). */
const REDIRECT_URI = 'http://127.0.0.1:8976/callback';
/** The client id metadata document URL the suite expects (only ever compared as a string). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

class ScenarioFailure extends Error {
  override name = 'ScenarioFailure';
}

/** Plays the user agent: follows the authorization URL one hop and returns where it redirects to. */
async function headlessAuthorize(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new ScenarioFailure(`the authorization endpoint answered ${response.status} without a redirect`);
  }
  return new URL(location, authorizationUrl);
}

function text(context: JsonObject, key: string): string {
  const value = context[key];
  if (typeof value !== 'string') throw new ScenarioFailure(`MCP_CONFORMANCE_CONTEXT has no string "${key}"`);
  return value;
}

function log(message: string): void {
  console.error(`conformance-client: ${message}`);
}

/** The OAuthClient options of a scenario (its context: pre-registered credentials, grants). */
function authOptions(run: ScenarioRun): OAuthClientOptions {
  const base: OAuthClientOptions = {
    clientName: 'mcpengine-everything-client',
    redirectUri: REDIRECT_URI,
    authorize: headlessAuthorize,
    clientMetadataUrl: CLIENT_METADATA_URL,
    logger: { debug: log, warn: log },
  };
  const context = run.context;
  switch (run.scenario) {
    case 'auth/pre-registration':
      return {
        ...base,
        clients: [
          {
            issuer: text(context, 'issuer'),
            clientId: text(context, 'client_id'),
            clientSecret: text(context, 'client_secret'),
          },
        ],
      };
    case 'auth/client-credentials-basic':
      return {
        ...base,
        grant: {
          type: 'client_credentials',
          credentials: { clientId: text(context, 'client_id'), clientSecret: text(context, 'client_secret') },
        },
      };
    case 'auth/client-credentials-jwt':
      return {
        ...base,
        grant: {
          type: 'client_credentials',
          credentials: {
            clientId: text(context, 'client_id'),
            privateKey: text(context, 'private_key_pem'),
            signingAlgorithm: text(context, 'signing_algorithm') as 'ES256',
            authMethod: 'private_key_jwt',
          },
        },
      };
    case 'auth/wif-jwt-bearer':
      return {
        ...base,
        grant: {
          type: 'jwt_bearer',
          assertion: text(context, 'valid_jwt'),
          credentials: { clientId: text(context, 'client_id') },
        },
      };
    case 'auth/enterprise-managed-authorization':
      return {
        ...base,
        grant: {
          type: 'id_jag',
          idpTokenEndpoint: text(context, 'idp_token_endpoint'),
          idToken: text(context, 'idp_id_token'),
          idpCredentials: { clientId: text(context, 'idp_client_id') },
          credentials: { clientId: text(context, 'client_id'), clientSecret: text(context, 'client_secret') },
        },
      };
    default:
      return base;
  }
}

/** What this file uses of `@mcpengine/oracle` (loaded only when asked, it is a development package). */
interface WireTapLike {
  assertClean(): void;
}
interface TestingModule {
  WireTap: new () => WireTapLike;
  tapTransport<T>(transport: T, tap: WireTapLike, side: 'client'): T;
}

const taps: WireTapLike[] = [];

/**
 * With `MCPENGINE_WIRE_TAP=1` (set by the repository's conformance tests), every message of the conversation
 * is validated against the official schema; `checkWire()` then reports violations.
 */
async function tapped<T>(transport: T): Promise<T> {
  if (process.env.MCPENGINE_WIRE_TAP !== '1') return transport;
  const specifier = '@mcpengine/oracle';
  const testing = (await import(specifier)) as TestingModule;
  const tap = new testing.WireTap();
  taps.push(tap);
  return testing.tapTransport(transport, tap, 'client');
}

function checkWire(): void {
  if (taps.length === 0) return;
  for (const tap of taps.splice(0)) tap.assertClean();
  log('wire tap: every message is schema-valid');
}

async function connect(run: ScenarioRun): Promise<ClientSession> {
  const client = new Client({ name: 'mcpengine-everything-client', version: '0.1.0' });
  const transport = createHttpTransport(run.url, {
    auth: new OAuthClient(authOptions(run)),
    standaloneStream: false,
    logger: { warn: log },
  });
  // A failed handshake closes the session and its transport.
  return client.connect(await tapped(transport), { revision: run.version });
}

function textOf(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .map((block: { type?: string; text?: string }) => (block.type === 'text' ? block.text : ''))
    .join('');
}

/** The full flow, then the mock's one tool. */
async function authorizeAndCall(run: ScenarioRun): Promise<void> {
  const client = await connect(run);
  try {
    const tools = await client.listAllTools();
    if (!tools.some((tool) => tool.name === 'test-tool')) {
      throw new ScenarioFailure(`the server lists no test-tool (got ${tools.map((t) => t.name).join(', ')})`);
    }
    const result = await client.callTool({ name: 'test-tool', arguments: {} });
    if (result.isError === true || textOf(result) !== 'test') {
      throw new ScenarioFailure(`test-tool answered ${JSON.stringify(result)}`);
    }
    // A second request: the stored token is reused (and, after an AS change, replaced).
    await client.listTools();
  } finally {
    await client.close();
  }
  checkWire();
}

/** The first error of a cause chain that satisfies `test`. */
function findCause(error: unknown, test: (candidate: unknown) => boolean): unknown {
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth++) {
    if (test(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** A scenario in which the client must refuse: passes only when the flow stopped for `reason`. */
function mustDecline(reason: AuthorizationFailure | 'retry-limit'): ScenarioHandler {
  return async (run) => {
    let outcome: unknown;
    try {
      await authorizeAndCall(run);
    } catch (error) {
      outcome = error;
    }
    if (outcome === undefined)
      throw new ScenarioFailure(`the client went on although it had to stop (${reason})`);
    const expected =
      reason === 'retry-limit'
        ? findCause(outcome, (e) => e instanceof HttpError && e.status === 403)
        : findCause(outcome, (e) => e instanceof AuthorizationError && e.reason === reason);
    if (!expected) throw outcome;
    checkWire();
    log(`declined as required (${reason}): ${(expected as Error).message}`);
  };
}

export const AUTH_SCENARIOS: Readonly<Record<string, ScenarioHandler>> = {
  'auth/metadata-default': authorizeAndCall,
  'auth/metadata-var1': authorizeAndCall,
  'auth/metadata-var2': authorizeAndCall,
  'auth/metadata-var3': authorizeAndCall,
  'auth/basic-cimd': authorizeAndCall,
  'auth/scope-from-www-authenticate': authorizeAndCall,
  'auth/scope-from-scopes-supported': authorizeAndCall,
  'auth/scope-omitted-when-undefined': authorizeAndCall,
  'auth/scope-step-up': authorizeAndCall,
  'auth/scope-retry-limit': mustDecline('retry-limit'),
  'auth/token-endpoint-auth-basic': authorizeAndCall,
  'auth/token-endpoint-auth-post': authorizeAndCall,
  'auth/token-endpoint-auth-none': authorizeAndCall,
  'auth/pre-registration': authorizeAndCall,
  'auth/2025-03-26-oauth-metadata-backcompat': authorizeAndCall,
  'auth/2025-03-26-oauth-endpoint-fallback': authorizeAndCall,
  'auth/resource-mismatch': mustDecline('resource-mismatch'),
  'auth/offline-access-scope': authorizeAndCall,
  'auth/offline-access-not-supported': authorizeAndCall,
  'auth/authorization-server-migration': authorizeAndCall,
  'auth/iss-supported': authorizeAndCall,
  'auth/iss-not-advertised': authorizeAndCall,
  'auth/iss-supported-missing': mustDecline('iss-mismatch'),
  'auth/iss-wrong-issuer': mustDecline('iss-mismatch'),
  'auth/iss-unexpected': mustDecline('iss-mismatch'),
  'auth/iss-normalized': mustDecline('iss-mismatch'),
  'auth/metadata-issuer-mismatch': mustDecline('issuer-mismatch'),
  'auth/client-credentials-jwt': authorizeAndCall,
  'auth/client-credentials-basic': authorizeAndCall,
  'auth/enterprise-managed-authorization': authorizeAndCall,
  'auth/wif-jwt-bearer': authorizeAndCall,
  'auth/dpop': authorizeAndCall,
  'auth/dpop-nonce': authorizeAndCall,
};
