/**
 * What the oracle enforces beyond the JSON Schemas, per revision, as data.
 *
 * Everything that can be read off a `schema.json` is derived from it (see `method-catalog.ts`); this table holds
 * only what the schemas cannot express and the prose states: which methods answer with an empty result, which
 * results are cacheable, which error codes are forbidden.
 */
import type { Revision } from './revisions.js';

export interface WireRules {
  /**
   * Results that must carry `ttlMs` and `cacheScope` when complete. The schema's result definitions already
   * require both; the oracle also checks `CacheableResult` so that the rule survives a schema regeneration.
   */
  readonly cacheableMethods: ReadonlySet<string>;
  /** Codes an implementation of this revision must never emit. */
  readonly forbiddenErrorCodes: ReadonlySet<number>;
  /** Codes reserved for the specification: only those the schema defines may be emitted. */
  readonly reservedErrorCodes?: { readonly from: number; readonly to: number };
  /** The tasks extension (`io.modelcontextprotocol/tasks`) is a modern-era extension. */
  readonly tasksExtension: boolean;
}

const LEGACY: WireRules = {
  cacheableMethods: new Set(),
  forbiddenErrorCodes: new Set(),
  tasksExtension: false,
};

export const WIRE_RULES: Readonly<Record<Revision, WireRules>> = {
  '2024-11-05': LEGACY,
  '2025-03-26': LEGACY,
  '2025-06-18': LEGACY,
  '2025-11-25': LEGACY,
  '2026-07-28': {
    // changelog "Minor changes" 5, plus `server/discover` (`DiscoverResult extends CacheableResult`).
    cacheableMethods: new Set([
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'server/discover',
    ]),
    // basic/index.mdx "Error Codes": resource-not-found moved to -32602; URL elicitation is gone.
    forbiddenErrorCodes: new Set([-32002, -32042]),
    reservedErrorCodes: { from: -32099, to: -32020 },
    tasksExtension: true,
  },
};

/**
 * Requests whose answer is an empty result although the schema defines no `<Name>Result` for them. Every other
 * method's result definition is derived from its request definition's name.
 */
export const EMPTY_RESULT_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** tasks.md "Supported Methods": the only requests a server may answer with `resultType: "task"`. */
export const TASK_AUGMENTABLE_METHODS: ReadonlySet<string> = new Set(['tools/call']);

/**
 * JSON-RPC 2.0 §5: when the id of a request could not be read, the error response carries `"id": null`. That can
 * only happen for a parse error or an invalid request.
 */
export const NULL_ID_ERROR_CODES: ReadonlySet<number> = new Set([-32700, -32600]);

/** `_meta` keys that tie a modern message to a revision. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
