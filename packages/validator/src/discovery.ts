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
  /** Notes on what went wrong while connecting, for the report. */
  readonly problems: readonly string[];
  /**
   * Connections left open for reuse: each legacy revision's initialized connection, and the one `server/discover`
   * went over. A revision run takes its own (`take`); whatever is not taken is closed by `release`.
   */
  readonly spare: Map<Revision | 'modern', Channel>;
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
  /** Opens a channel; keeps it when `keep` says so, closes it otherwise. */
  const probe = async <T>(
    use: (channel: Channel) => Promise<{ value: T; keep?: Revision | 'modern' }>,
  ): Promise<T> => {
    const channel = await target.open();
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

  const modernProbe =
    target.kind === 'sse'
      ? Promise.resolve(undefined)
      : probe(async (channel) => {
          const call = await channel.call(modernRequest(channel, MODERN_REVISION, 'server/discover'), {
            timeoutMs,
          });
          return { value: call, ...(resultOf(call) === undefined ? {} : { keep: 'modern' as const }) };
        }).catch((error: unknown) => {
          problems.push(`server/discover: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        });
  const legacyProbes = legacyRevisions.map((revision) =>
    probe(async (channel) => {
      const call = await channel.call(initializeRequest(channel, revision), { timeoutMs });
      initialize.set(revision, call);
      return {
        value: undefined,
        ...(resultOf(call)?.['protocolVersion'] === revision ? { keep: revision } : {}),
      };
    }).catch((error: unknown) => {
      problems.push(`initialize ${revision}: ${error instanceof Error ? error.message : String(error)}`);
    }),
  );
  const unsupportedProbe =
    legacyRevisions.length === 0
      ? Promise.resolve(undefined)
      : probe(async (channel) => ({
          value: await channel.call(initializeRequest(channel, UNSUPPORTED_VERSION), { timeoutMs }),
        })).catch(() => undefined);

  const [discoverCall, , unsupported] = await Promise.all([
    modernProbe,
    Promise.all(legacyProbes),
    unsupportedProbe,
  ]);
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
    unsupported,
    problems,
    spare,
  };
}

/** The revisions to validate: what the server negotiates, newest first. */
export function negotiatedRevisions(discovery: Discovery): Revision[] {
  const revisions: Revision[] = [...discovery.legacy];
  if (discovery.modern) revisions.push(MODERN_REVISION);
  return revisions.sort().reverse();
}
