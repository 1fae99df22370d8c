/**
 * MCP data types, as the union of every supported revision. Fields that exist only in some revisions are
 * optional here; the revision registry decides what goes on the wire for a given revision.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

export type RequestId = string | number;
export type ProgressToken = string | number;
export type Cursor = string;
export type MetaObject = { [key: string]: unknown };

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface ClientCapabilities {
  experimental?: { [key: string]: JsonObject };
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  tasks?: JsonObject;
  extensions?: { [key: string]: JsonObject };
}

export interface ServerCapabilities {
  experimental?: { [key: string]: JsonObject };
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: JsonObject;
  extensions?: { [key: string]: JsonObject };
}

export type Role = 'user' | 'assistant';

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: MetaObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: MetaObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface ResourceLink extends Resource {
  type: 'resource_link';
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolExecution {
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: ToolAnnotations;
  execution?: ToolExecution;
  icons?: Icon[];
  _meta?: MetaObject;
}

/**
 * What every result is in the official schema (`Result`): an object with optional `_meta` that may carry more
 * fields (`[key: string]: unknown`). The result types below extend it, as the schema's do, so a typed result is
 * a `JsonObject` without a cast.
 */
export interface Result {
  _meta?: MetaObject;
  [key: string]: unknown;
}

export interface CallToolResult extends Result {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: MetaObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
  _meta?: MetaObject;
}

export interface ReadResourceResult extends Result {
  contents: ResourceContents[];
  _meta?: MetaObject;
}

export interface PromptReference {
  type: 'ref/prompt';
  name: string;
  title?: string;
}

export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

export interface CompleteResult extends Result {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: MetaObject;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: MetaObject;
}

export interface ListRootsResult extends Result {
  roots: Root[];
  _meta?: MetaObject;
}

export interface ModelHint {
  name?: string;
}

export interface ModelPreferences {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export interface ToolUseContent {
  type: 'tool_use';
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: MetaObject;
}

export interface ToolResultContent {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: MetaObject;
}

export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
  _meta?: MetaObject;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
  _meta?: MetaObject;
}

export interface CreateMessageResult extends Result {
  role: Role;
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: MetaObject;
}

/** The restricted JSON Schema subset allowed in elicitation forms. */
export interface ElicitationSchema {
  $schema?: string;
  type: 'object';
  properties: { [key: string]: { [key: string]: unknown } };
  required?: string[];
}

export interface ElicitFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: ElicitationSchema;
  _meta?: MetaObject;
}

export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  /** 2025-11-25 only; removed in 2026-07-28. */
  elicitationId?: string;
  _meta?: MetaObject;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export interface ElicitResult extends Result {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: MetaObject;
}

/** A server→client request carried inside an `input_required` result (modern era). */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitParams }
  | { method: 'sampling/createMessage'; params: CreateMessageParams }
  | { method: 'roots/list'; params?: { _meta?: MetaObject } };

export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: { [key: string]: InputRequest };
  requestState?: string;
  _meta?: MetaObject;
}

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks extension: `notifications/tasks` for these task ids. */
  taskIds?: string[];
}

export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  _meta?: MetaObject;
}

export interface DiscoverResult extends Result {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  _meta?: MetaObject;
}

export interface ProgressParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}

export interface LoggingMessageParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

export type CacheScope = 'public' | 'private';

// ── tasks: the 2025-11-25 utility and the io.modelcontextprotocol/tasks extension ────────────────────────────

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as 2025-11-25 puts it on the wire (`tasks/get`, `tasks/list`, `notifications/tasks/status`). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Retention from creation in ms, null for unlimited. */
  ttl: number | null;
  pollInterval?: number;
}

/** A task as the tasks extension puts it on the wire (`tasks/get`, `notifications/tasks`): status payload inlined. */
export interface DetailedTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** `input_required`: what the server waits for, answered with `tasks/update`. */
  inputRequests?: { [key: string]: InputRequest };
  /** `completed`: the request's result. */
  result?: JsonObject;
  /** `failed`: the JSON-RPC error the request ended with. */
  error?: { code: number; message: string; data?: unknown };
}
