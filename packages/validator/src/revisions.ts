/**
 * What differs between protocol revisions, as data. Every check that behaves differently per revision asks
 * this table by fact name; no other file of the validator compares revision strings (an ESLint rule keeps it
 * so). A new revision is a new row here plus the checks that are genuinely new.
 */
import type { Revision } from './catalog/model.js';

export type Era = 'legacy' | 'modern';

export interface RevisionFacts {
  /** Legacy: initialize handshake and sessions; modern (2026-07-28): stateless, `server/discover`. */
  readonly era: Era;
  /**
   * JSON-RPC batches: `required` — servers MUST accept them (2025-03-26); `unspecified` — MCP says nothing
   * (2024-11-05); `removed` — the revision's schema has no batch type (2025-06-18 on).
   */
  readonly batching: 'unspecified' | 'required' | 'removed';
  /** The revision's own HTTP transport. */
  readonly httpTransport: 'sse' | 'streamable-http';
  /** Tool annotations (`readOnlyHint`…) exist. */
  readonly toolAnnotations: boolean;
  /** `completion/complete` is gated by the `completions` capability (2024-11-05 has none). */
  readonly completionsCapability: boolean;
  /** Elicitation exists; `form` is a declared elicitation mode. */
  readonly elicitation: 'none' | 'plain' | 'modes';
  /** `outputSchema`, `structuredContent`, embedded-resource capability rule (2025-06-18 on). */
  readonly structuredContent: boolean;
  /** The `_meta` key naming rules and the resource URI syntax rule (2025-06-18 on). */
  readonly metaKeyRules: boolean;
  readonly resourceUriRule: boolean;
  /** Invalid tool arguments are a tool execution error (`isError`), not -32602 (2025-11-25 on). */
  readonly invalidArgumentsAsToolError: boolean;
  /** Tool names are 1–128 characters of A–Z a–z 0–9 _ - . (2025-11-25 on). */
  readonly toolNameRule: boolean;
  /** The JSON Schema dialect of a schema without `$schema`. */
  readonly defaultSchemaDialect: '2020-12' | 'either';
  /** `x-mcp-header` tool parameters mirrored into HTTP headers. */
  readonly xMcpHeader: boolean;
  /** Error code for reading a resource that does not exist; whether an empty `contents` is forbidden. */
  readonly resourceNotFoundCode: number;
  readonly resourceNotFoundEmptyContentsRule: boolean;
  /** Tasks in the core protocol (2025-11-25; later an extension). */
  readonly coreTasks: boolean;
  /** Streamable HTTP details. */
  readonly http: {
    /** `MCP-Protocol-Version` on every request after initialization (2025-06-18 on). */
    readonly protocolVersionHeader: boolean;
    /** A response stream may end before its response, the client resumes (2025-11-25 on). */
    readonly streamMayCloseEarly: boolean;
    /** A POST's event stream starts with an event holding an id and empty data (2025-11-25). */
    readonly primingEvent: boolean;
    /** A foreign Origin gets exactly 403 (2025-11-25 on); before, any 4xx refusal. */
    readonly foreignOrigin403: boolean;
  };
  /** Authorization details. */
  readonly auth: {
    /** Every 401 carries a WWW-Authenticate challenge (2025-06-18 only). */
    readonly challengeOnEvery401: boolean;
    readonly challengeScope: boolean;
    readonly protectedResourceMetadata: boolean;
    readonly noOfflineAccess: boolean;
  };
}

const R2024_11_05: RevisionFacts = {
  era: 'legacy',
  batching: 'unspecified',
  httpTransport: 'sse',
  toolAnnotations: false,
  completionsCapability: false,
  elicitation: 'none',
  structuredContent: false,
  metaKeyRules: false,
  resourceUriRule: false,
  invalidArgumentsAsToolError: false,
  toolNameRule: false,
  defaultSchemaDialect: 'either',
  xMcpHeader: false,
  resourceNotFoundCode: -32002,
  resourceNotFoundEmptyContentsRule: false,
  coreTasks: false,
  http: {
    protocolVersionHeader: false,
    streamMayCloseEarly: false,
    primingEvent: false,
    foreignOrigin403: false,
  },
  auth: {
    challengeOnEvery401: false,
    challengeScope: false,
    protectedResourceMetadata: false,
    noOfflineAccess: false,
  },
};

const R2025_03_26: RevisionFacts = {
  ...R2024_11_05,
  batching: 'required',
  httpTransport: 'streamable-http',
  toolAnnotations: true,
  completionsCapability: true,
};

const R2025_06_18: RevisionFacts = {
  ...R2025_03_26,
  batching: 'removed',
  elicitation: 'plain',
  structuredContent: true,
  metaKeyRules: true,
  resourceUriRule: true,
  http: { ...R2025_03_26.http, protocolVersionHeader: true },
  auth: { ...R2025_03_26.auth, challengeOnEvery401: true, protectedResourceMetadata: true },
};

const R2025_11_25: RevisionFacts = {
  ...R2025_06_18,
  elicitation: 'modes',
  invalidArgumentsAsToolError: true,
  toolNameRule: true,
  defaultSchemaDialect: '2020-12',
  coreTasks: true,
  http: { ...R2025_06_18.http, streamMayCloseEarly: true, primingEvent: true, foreignOrigin403: true },
  auth: { ...R2025_06_18.auth, challengeOnEvery401: false, challengeScope: true },
};

const R2026_07_28: RevisionFacts = {
  ...R2025_11_25,
  era: 'modern',
  xMcpHeader: true,
  resourceNotFoundCode: -32602,
  resourceNotFoundEmptyContentsRule: true,
  coreTasks: false,
  // The modern transport judges its streams with its own rules (no priming event, no sessions).
  http: { ...R2025_11_25.http, primingEvent: false },
  auth: { ...R2025_11_25.auth, noOfflineAccess: true },
};

export const REVISION_FACTS: Readonly<Record<Revision, RevisionFacts>> = {
  '2024-11-05': R2024_11_05,
  '2025-03-26': R2025_03_26,
  '2025-06-18': R2025_06_18,
  '2025-11-25': R2025_11_25,
  '2026-07-28': R2026_07_28,
};

export function factsOf(revision: Revision): RevisionFacts {
  return REVISION_FACTS[revision];
}

export function eraOf(revision: Revision): Era {
  return REVISION_FACTS[revision].era;
}

/** The newest legacy revision: where a failed handshake is reported, and what auto-detection offers first. */
export const LATEST_LEGACY: Revision = '2025-11-25';
export const LATEST_MODERN: Revision = '2026-07-28';
