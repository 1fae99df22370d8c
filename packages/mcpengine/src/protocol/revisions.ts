/**
 * The revision registry: everything that differs between MCP revisions, as data.
 *
 * Code asks the registry ("may a client send this method in this revision?", "which content types exist?",
 * "which error code means resource not found?") instead of comparing version strings. Adding a revision is a
 * new entry here plus whatever behaviour is genuinely new.
 */
import type { ContentBlock } from './types.js';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];
export type Era = 'legacy' | 'modern';

export const LATEST_REVISION: Revision = '2026-07-28';
export const LATEST_LEGACY_REVISION: Revision = '2025-11-25';

/** A server capability gate: the top-level capability key, optionally with a boolean sub-flag that must be true. */
export type CapabilityGate =
  | 'tools'
  | 'resources'
  | 'prompts'
  | 'logging'
  | 'completions'
  | 'tasks'
  | 'resources.subscribe'
  /** The server advertises `capabilities.extensions["io.modelcontextprotocol/tasks"]`. */
  | 'extensions.io.modelcontextprotocol/tasks';

export interface ClientMethodRule {
  /** The server capability that must be advertised; without it the method is -32601. */
  readonly capability?: CapabilityGate;
  /** Modern era: a complete result carries `ttlMs` and `cacheScope`. */
  readonly cacheable?: true;
  /** Modern era: the server may answer `input_required` (multi round-trip requests). */
  readonly inputRequired?: true;
  /** The method takes a `cursor` and returns `nextCursor`. */
  readonly paginated?: true;
  /** Allowed before the legacy handshake completes (only `initialize` and `ping`). */
  readonly beforeInitialize?: true;
}

export interface ServerRequestRule {
  /** The client capability the request needs. */
  readonly clientCapability?: 'sampling' | 'elicitation' | 'roots';
}

/** Which fields of a definition a revision knows about; anything else is dropped on the wire for that revision. */
export interface FieldSets {
  readonly tool: readonly string[];
  readonly resource: readonly string[];
  readonly resourceTemplate: readonly string[];
  readonly prompt: readonly string[];
  readonly promptArgument: readonly string[];
  readonly implementation: readonly string[];
}

export interface HttpRules {
  /** Streamable HTTP exists (2025-03-26 on); before that only HTTP+SSE. */
  readonly streamable: boolean;
  /** `Mcp-Session-Id` sessions (legacy Streamable HTTP). */
  readonly sessions: boolean;
  /** Clients send `MCP-Protocol-Version` on requests after initialization. */
  readonly protocolVersionHeader: boolean;
  /** `Mcp-Method` / `Mcp-Name` / `Mcp-Param-*` request headers are required and checked. */
  readonly standardHeaders: boolean;
  /** SSE event ids and `Last-Event-ID` replay. */
  readonly resumability: boolean;
}

export interface RevisionSpec {
  readonly id: Revision;
  readonly era: Era;
  readonly clientRequests: Readonly<Record<string, ClientMethodRule>>;
  /** Server→client requests (legacy era). The modern era has none: it uses `input_required` results instead. */
  readonly serverRequests: Readonly<Record<string, ServerRequestRule>>;
  readonly clientNotifications: ReadonlySet<string>;
  readonly serverNotifications: ReadonlySet<string>;
  /** JSON-RPC batches (arrays) are part of this revision. */
  readonly batches: boolean;
  readonly contentTypes: ReadonlySet<ContentBlock['type']>;
  readonly fields: FieldSets;
  readonly serverCapabilityKeys: readonly string[];
  /** Code for "resource not found". */
  readonly resourceNotFoundCode: number;
  /** How invalid tool arguments are reported: a JSON-RPC error, or a tool result with `isError: true` (SEP-1303). */
  readonly toolInputErrors: 'protocol-error' | 'tool-result';
  /** `notifications/progress` may carry `message`. */
  readonly progressMessage: boolean;
  /** Tool results may carry `structuredContent` (and tools an `outputSchema`). */
  readonly structuredToolOutput: boolean;
  /** Elicitation modes the revision defines. */
  readonly elicitationModes: readonly ('form' | 'url')[];
  /** Sampling may carry `tools` / `toolChoice` and tool_use/tool_result content. */
  readonly samplingTools: boolean;
  /** Default JSON Schema dialect for schemas without `$schema`. */
  readonly defaultSchemaDialect: '2020-12' | 'draft-07';
  readonly http: HttpRules;
  /**
   * Long-running requests: the 2025-11-25 tasks utility (`experimental`: client-requested `params.task`,
   * `tasks/result`, `tasks/list`) or the `io.modelcontextprotocol/tasks` extension (`extension`:
   * server-directed `resultType: "task"`, `tasks/update`). Absent: no tasks.
   */
  readonly tasks?: 'experimental' | 'extension';
}

const FIELDS_2024: FieldSets = {
  tool: ['name', 'description', 'inputSchema'],
  resource: ['uri', 'name', 'description', 'mimeType', 'annotations', 'size'],
  resourceTemplate: ['uriTemplate', 'name', 'description', 'mimeType', 'annotations'],
  prompt: ['name', 'description', 'arguments'],
  promptArgument: ['name', 'description', 'required'],
  implementation: ['name', 'version'],
};

const FIELDS_2025_03: FieldSets = {
  ...FIELDS_2024,
  tool: ['name', 'description', 'inputSchema', 'annotations'],
};

const FIELDS_2025_06: FieldSets = {
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
  resource: ['uri', 'name', 'title', 'description', 'mimeType', 'annotations', 'size', '_meta'],
  resourceTemplate: ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', '_meta'],
  prompt: ['name', 'title', 'description', 'arguments', '_meta'],
  promptArgument: ['name', 'title', 'description', 'required'],
  implementation: ['name', 'title', 'version'],
};

const FIELDS_2025_11: FieldSets = {
  tool: [
    'name',
    'title',
    'description',
    'inputSchema',
    'outputSchema',
    'annotations',
    'execution',
    'icons',
    '_meta',
  ],
  resource: ['uri', 'name', 'title', 'description', 'mimeType', 'annotations', 'size', 'icons', '_meta'],
  resourceTemplate: [
    'uriTemplate',
    'name',
    'title',
    'description',
    'mimeType',
    'annotations',
    'icons',
    '_meta',
  ],
  prompt: ['name', 'title', 'description', 'arguments', 'icons', '_meta'],
  promptArgument: ['name', 'title', 'description', 'required'],
  implementation: ['name', 'title', 'version', 'description', 'websiteUrl', 'icons'],
};

const FIELDS_2026: FieldSets = {
  ...FIELDS_2025_11,
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'],
};

const LEGACY_REQUESTS: Readonly<Record<string, ClientMethodRule>> = {
  initialize: { beforeInitialize: true },
  ping: { beforeInitialize: true },
  'resources/list': { capability: 'resources', paginated: true },
  'resources/templates/list': { capability: 'resources', paginated: true },
  'resources/read': { capability: 'resources' },
  'resources/subscribe': { capability: 'resources.subscribe' },
  'resources/unsubscribe': { capability: 'resources.subscribe' },
  'prompts/list': { capability: 'prompts', paginated: true },
  'prompts/get': { capability: 'prompts' },
  'tools/list': { capability: 'tools', paginated: true },
  'tools/call': { capability: 'tools' },
  'logging/setLevel': { capability: 'logging' },
  'completion/complete': { capability: 'completions' },
};

const LEGACY_CLIENT_NOTIFICATIONS = [
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
];

const LEGACY_SERVER_NOTIFICATIONS = [
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
];

const SERVER_REQUESTS_2024: Readonly<Record<string, ServerRequestRule>> = {
  ping: {},
  'sampling/createMessage': { clientCapability: 'sampling' },
  'roots/list': { clientCapability: 'roots' },
};

const SERVER_REQUESTS_2025_06: Readonly<Record<string, ServerRequestRule>> = {
  ...SERVER_REQUESTS_2024,
  'elicitation/create': { clientCapability: 'elicitation' },
};

const LEGACY_HTTP: HttpRules = {
  streamable: true,
  sessions: true,
  protocolVersionHeader: true,
  standardHeaders: false,
  resumability: true,
};

const CAPS_2024 = ['experimental', 'logging', 'prompts', 'resources', 'tools'];
const CAPS_2025 = ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools'];

function spec(entry: RevisionSpec): RevisionSpec {
  return Object.freeze(entry);
}

export const REVISION_SPECS: Readonly<Record<Revision, RevisionSpec>> = {
  '2024-11-05': spec({
    id: '2024-11-05',
    era: 'legacy',
    // 2024-11-05 had no `completions` capability: completion/complete was always callable.
    clientRequests: { ...LEGACY_REQUESTS, 'completion/complete': {} },
    serverRequests: SERVER_REQUESTS_2024,
    clientNotifications: new Set(LEGACY_CLIENT_NOTIFICATIONS),
    serverNotifications: new Set(LEGACY_SERVER_NOTIFICATIONS),
    batches: false,
    contentTypes: new Set(['text', 'image', 'resource']),
    fields: FIELDS_2024,
    serverCapabilityKeys: CAPS_2024,
    resourceNotFoundCode: -32002,
    toolInputErrors: 'protocol-error',
    progressMessage: false,
    structuredToolOutput: false,
    elicitationModes: [],
    samplingTools: false,
    defaultSchemaDialect: 'draft-07',
    http: {
      streamable: false,
      sessions: false,
      protocolVersionHeader: false,
      standardHeaders: false,
      resumability: false,
    },
  }),
  '2025-03-26': spec({
    id: '2025-03-26',
    era: 'legacy',
    clientRequests: LEGACY_REQUESTS,
    serverRequests: SERVER_REQUESTS_2024,
    clientNotifications: new Set(LEGACY_CLIENT_NOTIFICATIONS),
    serverNotifications: new Set(LEGACY_SERVER_NOTIFICATIONS),
    batches: true,
    contentTypes: new Set(['text', 'image', 'audio', 'resource']),
    fields: FIELDS_2025_03,
    serverCapabilityKeys: CAPS_2025,
    resourceNotFoundCode: -32002,
    toolInputErrors: 'protocol-error',
    progressMessage: true,
    structuredToolOutput: false,
    elicitationModes: [],
    samplingTools: false,
    defaultSchemaDialect: 'draft-07',
    // 2025-03-26 introduced Streamable HTTP but not the MCP-Protocol-Version header.
    http: { ...LEGACY_HTTP, protocolVersionHeader: false },
  }),
  '2025-06-18': spec({
    id: '2025-06-18',
    era: 'legacy',
    clientRequests: LEGACY_REQUESTS,
    serverRequests: SERVER_REQUESTS_2025_06,
    clientNotifications: new Set(LEGACY_CLIENT_NOTIFICATIONS),
    serverNotifications: new Set(LEGACY_SERVER_NOTIFICATIONS),
    batches: false,
    contentTypes: new Set(['text', 'image', 'audio', 'resource_link', 'resource']),
    fields: FIELDS_2025_06,
    serverCapabilityKeys: CAPS_2025,
    resourceNotFoundCode: -32002,
    toolInputErrors: 'protocol-error',
    progressMessage: true,
    structuredToolOutput: true,
    elicitationModes: ['form'],
    samplingTools: false,
    defaultSchemaDialect: 'draft-07',
    http: LEGACY_HTTP,
  }),
  '2025-11-25': spec({
    id: '2025-11-25',
    era: 'legacy',
    clientRequests: {
      ...LEGACY_REQUESTS,
      'tasks/get': { capability: 'tasks' },
      'tasks/result': { capability: 'tasks' },
      'tasks/list': { capability: 'tasks', paginated: true },
      'tasks/cancel': { capability: 'tasks' },
    },
    serverRequests: {
      ...SERVER_REQUESTS_2025_06,
      'tasks/get': {},
      'tasks/result': {},
      'tasks/list': {},
      'tasks/cancel': {},
    },
    clientNotifications: new Set([...LEGACY_CLIENT_NOTIFICATIONS, 'notifications/tasks/status']),
    serverNotifications: new Set([
      ...LEGACY_SERVER_NOTIFICATIONS,
      'notifications/tasks/status',
      'notifications/elicitation/complete',
    ]),
    batches: false,
    contentTypes: new Set(['text', 'image', 'audio', 'resource_link', 'resource']),
    fields: FIELDS_2025_11,
    serverCapabilityKeys: [...CAPS_2025, 'tasks'],
    resourceNotFoundCode: -32002,
    toolInputErrors: 'tool-result',
    progressMessage: true,
    structuredToolOutput: true,
    elicitationModes: ['form', 'url'],
    samplingTools: true,
    defaultSchemaDialect: '2020-12',
    http: LEGACY_HTTP,
    tasks: 'experimental',
  }),
  '2026-07-28': spec({
    id: '2026-07-28',
    era: 'modern',
    clientRequests: {
      'server/discover': { cacheable: true },
      'subscriptions/listen': {},
      'resources/list': { capability: 'resources', paginated: true, cacheable: true },
      'resources/templates/list': { capability: 'resources', paginated: true, cacheable: true },
      'resources/read': { capability: 'resources', cacheable: true, inputRequired: true },
      'prompts/list': { capability: 'prompts', paginated: true, cacheable: true },
      'prompts/get': { capability: 'prompts', inputRequired: true },
      'tools/list': { capability: 'tools', paginated: true, cacheable: true },
      'tools/call': { capability: 'tools', inputRequired: true },
      'completion/complete': { capability: 'completions' },
      // The tasks extension: no tasks/result, no tasks/list (-32601).
      'tasks/get': { capability: 'extensions.io.modelcontextprotocol/tasks' },
      'tasks/update': { capability: 'extensions.io.modelcontextprotocol/tasks' },
      'tasks/cancel': { capability: 'extensions.io.modelcontextprotocol/tasks' },
    },
    serverRequests: {},
    clientNotifications: new Set(['notifications/cancelled']),
    serverNotifications: new Set([
      'notifications/cancelled',
      'notifications/progress',
      'notifications/message',
      'notifications/resources/updated',
      'notifications/resources/list_changed',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/subscriptions/acknowledged',
      'notifications/tasks',
    ]),
    batches: false,
    contentTypes: new Set(['text', 'image', 'audio', 'resource_link', 'resource']),
    fields: FIELDS_2026,
    serverCapabilityKeys: [...CAPS_2025, 'extensions'],
    resourceNotFoundCode: -32602,
    toolInputErrors: 'tool-result',
    progressMessage: true,
    structuredToolOutput: true,
    elicitationModes: ['form', 'url'],
    samplingTools: true,
    defaultSchemaDialect: '2020-12',
    http: {
      streamable: true,
      sessions: false,
      protocolVersionHeader: true,
      standardHeaders: true,
      resumability: false,
    },
    tasks: 'extension',
  }),
};

export function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(REVISION_SPECS, value);
}

export function revisionSpec(revision: Revision): RevisionSpec {
  return REVISION_SPECS[revision];
}

export const LEGACY_REVISIONS: readonly Revision[] = REVISIONS.filter(
  (r) => REVISION_SPECS[r].era === 'legacy',
);
export const MODERN_REVISIONS: readonly Revision[] = REVISIONS.filter(
  (r) => REVISION_SPECS[r].era === 'modern',
);

/** Newest first, the order in which versions are offered and advertised. */
export function newestFirst(revisions: readonly Revision[]): Revision[] {
  return [...revisions].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}
