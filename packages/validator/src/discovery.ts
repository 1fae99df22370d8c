/**
 * Which revisions does the server speak? Each legacy revision is offered in its own `initialize` (a fresh
 * connection each); the modern era is probed with `server/discover`, as the 2026-07-28 backward-compatibility
 * rules tell a dual-era client to do. The exchanges are kept: the lifecycle checks judge them.
 */
import { LEGACY_REVISIONS, type Revision } from './catalog/model.js';
import { initializeRequest, modernRequest } from './session.js';
import type { Target } from './target.js';
import { isObject, resultOf, type CallResult, type Channel, type JsonObject } from '@mcpengine/wire';

export const MODERN_REVISION: Revision = '2026-07-28';
/** A date no revision will ever have. */
export const UNSUPPORTED_VERSION = '1999-01-01';

export interface Discovery {
  /** `initialize` exchanges by requested revision. */
  readonly initialize: ReadonlyMap<Revision, CallResult>;
  /** Legacy revisions the server answered with the same version. */
  readonly legacy: readonly Revision[];
  /** The `server/discover` exchange, if it got an answer. */
  readonly discover: CallResult | undefined;
  /** The DiscoverResult, when the server answered with one. */
  readonly discoverResult: JsonObject | undefined;
  /** Whether the server speaks 2026-07-28. */
  readonly modern: boolean;
  /** `initialize` with an unsupported version. */
  readonly unsupported: CallResult | undefined;
  /**
   * A real 2026-07-28 request (`tools/list` with the modern `_meta`), sent when `server/discover` was answered
   * with an error: a server that answers it as modern (with `resultType`) speaks 2026-07-28 without
   * implementing `server/discover`.
   */
  readonly modernProbe: CallResult | undefined;
  /** Whether the server answers 2026-07-28 requests although `server/discover` gave no result. */
  readonly modernWithoutDiscover: boolean;
  /** Connections the server refused (what the validator tried, and what it got), for `transport.connections`. */
  readonly refused: readonly RefusedConnection[];
  /** Notes on what went wrong while connecting, for the report. */
  readonly problems: readonly string[];
  /**
   * Connections left open for reuse: each legacy revision's initialized connection, and the one `server/discover`
   * went over. A revision run takes its own (`take`); whatever is not taken is closed by `release`.
   */
  readonly spare: Map<Revision | 'modern', Channel>;
}

export interface RefusedConnection {
  /** What the connection was for. */
  readonly purpose: string;
  /** Why opening it failed (status and body of a refused HTTP+SSE stream, a process that did not start…). */
  readonly error: string;
}

/** Whether a result is one of 2026-07-28: those carry `resultType` (earlier revisions have no such field). */
export function isModernResult(call: CallResult | undefined): boolean {
  return typeof resultOf(call)?.['resultType'] === 'string';
}

/** Hands a spare connection over (once). */
export function takeSpare(discovery: Discovery, key: Revision | 'modern'): Channel | undefined {
  const channel = discovery.spare.get(key);
  discovery.spare.delete(key);
  return channel !== undefined && channel.alive() ? channel : undefined;
}

export async function releaseSpares(discovery: Discovery): Promise<void> {
  const channels = [...discovery.spare.values()];
  discovery.spare.clear();
  await Promise.all(channels.map((channel) => channel.close().catch(() => undefined)));
}

/**
 * Offers every revision, whatever the run will validate: the lifecycle checks judge each answer against the
 * whole set the server supports.
 */
export async function discover(target: Target, timeoutMs: number): Promise<Discovery> {
  const problems: string[] = [];
  const legacyRevisions = LEGACY_REVISIONS;
  const initialize = new Map<Revision, CallResult>();
  const spare = new Map<Revision | 'modern', Channel>();
  const refused: RefusedConnection[] = [];
  /** Opens a channel; keeps it when `keep` says so, closes it otherwise. */
  const probe = async <T>(
    purpose: string,
    use: (channel: Channel) => Promise<{ value: T; keep?: Revision | 'modern' }>,
  ): Promise<T> => {
    let channel: Channel;
    try {
      channel = await target.open();
    } catch (error) {
      refused.push({ purpose, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    let keep: Revision | 'modern' | undefined;
    try {
      const outcome = await use(channel);
      keep = outcome.keep;
      return outcome.value;
    } finally {
      if (keep !== undefined) spare.set(keep, channel);
      else await channel.close();
    }
  };

  let modernCall: CallResult | undefined;
  const modernProbe = (): Promise<CallResult | undefined> =>
    target.kind === 'sse'
      ? Promise.resolve(undefined)
      : probe('server/discover', async (channel) => {
          const call = await channel.call(modernRequest(channel, MODERN_REVISION, 'server/discover'), {
            timeoutMs,
          });
          // Answered, but not with a result: does the server speak 2026-07-28 all the same? Only asked when
          // server/discover got an answer (a server silent before initialize would keep the run waiting).
          if (resultOf(call) === undefined && call.response !== undefined && channel.alive()) {
            modernCall = await channel.call(modernRequest(channel, MODERN_REVISION, 'tools/list'), {
              timeoutMs,
            });
          }
          return { value: call, ...(resultOf(call) === undefined ? {} : { keep: 'modern' as const }) };
        }).catch((error: unknown) => {
          problems.push(`server/discover: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        });
  const legacyProbe = (revision: Revision): Promise<void> =>
    probe(`initialize ${revision}`, async (channel) => {
      const call = await channel.call(initializeRequest(channel, revision), { timeoutMs });
      initialize.set(revision, call);
      return {
        value: undefined,
        ...(resultOf(call)?.['protocolVersion'] === revision ? { keep: revision } : {}),
      };
    }).catch((error: unknown) => {
      problems.push(`initialize ${revision}: ${error instanceof Error ? error.message : String(error)}`);
    });
  const unsupportedProbe = (): Promise<CallResult | undefined> =>
    legacyRevisions.length === 0
      ? Promise.resolve(undefined)
      : probe(`initialize ${UNSUPPORTED_VERSION}`, async (channel) => ({
          value: await channel.call(initializeRequest(channel, UNSUPPORTED_VERSION), { timeoutMs }),
        })).catch(() => undefined);

  let discoverCall: CallResult | undefined;
  let unsupported: CallResult | undefined;
  if (target.kind === 'sse') {
    // One stream at a time, oldest revision first: which connection a server that serves a single stream
    // accepts must not depend on which GET arrives first.
    for (const revision of legacyRevisions) await legacyProbe(revision);
    unsupported = await unsupportedProbe();
  } else {
    [discoverCall, , unsupported] = await Promise.all([
      modernProbe(),
      Promise.all(legacyRevisions.map(legacyProbe)),
      unsupportedProbe(),
    ]);
  }
  const legacy = legacyRevisions.filter(
    (revision) => resultOf(initialize.get(revision))?.['protocolVersion'] === revision,
  );
  const discoverResult = resultOf(discoverCall);
  const versions = discoverResult?.['supportedVersions'];
  const modern =
    discoverResult !== undefined &&
    (discoverResult['resultType'] === 'complete' || discoverResult['resultType'] === undefined) &&
    Array.isArray(versions) &&
    versions.includes(MODERN_REVISION);
  return {
    initialize,
    legacy,
    discover: discoverCall,
    discoverResult: isObject(discoverResult) ? discoverResult : undefined,
    modern,
    modernProbe: modernCall,
    modernWithoutDiscover: !modern && isModernResult(modernCall),
    refused,
    unsupported,
    problems,
    spare,
  };
}

/** The revisions to validate: what the server negotiates, newest first. */
export function negotiatedRevisions(discovery: Discovery): Revision[] {
  const revisions: Revision[] = [...discovery.legacy];
  // A server that answers 2026-07-28 requests is validated in that revision even without server/discover (whose
  // absence is then its first finding).
  if (discovery.modern || discovery.modernWithoutDiscover) revisions.push(MODERN_REVISION);
  return revisions.sort().reverse();
}
