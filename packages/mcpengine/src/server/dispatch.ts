/**
 * Dispatch types: what a method handler receives (`Call`) and produces (`Outcome`), how a resolved method and
 * the extensions' gates look. A leaf module, so that the method table, the extensions and the sessions can all
 * refer to these types without importing each other.
 */
import type { ClientMethodRule, RevisionSpec } from '../protocol/revisions.js';
import type {
  CacheScope,
  JsonObject,
  LoggingLevel,
  RequestId,
  SubscriptionFilter,
} from '../protocol/types.js';
import type { Outbox } from '../rpc/outbox.js';
import type { RequestContext } from './context.js';
import type { ServerDefinition } from './definition.js';
import type { CompiledTool } from './features/tools.js';
import type { LegacySession } from './legacy-session.js';
import type { RawResult } from './lists.js';
import type { ServerSecret } from './secret.js';

/** A request being served, with everything its handler may need. */
export interface Call {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject;
  readonly ctx: RequestContext;
  readonly revision: RevisionSpec;
  readonly definition: ServerDefinition;
  readonly settings: MethodSettings;
  /** Legacy session hooks (logging level, resource subscriptions). */
  readonly session?: SessionHooks;
  /** Modern `subscriptions/listen` plumbing. */
  readonly listen?: ListenHooks;
  /** Legacy era: the session and this request's stream (2025-11-25 tasks route server→client requests). */
  readonly legacy?: { readonly session: LegacySession; readonly outbox: Outbox };
}

export interface MethodSettings {
  readonly pageSize: number;
  readonly secret: ServerSecret;
  /** The JSON appended to list results (modern envelope), given the natural cache scope. */
  envelope(scope: CacheScope): string;
  /** The server's extensions: their gates on `tools/call`, `tools/list` and `subscriptions/listen`. */
  readonly extensions: ExtensionGates;
}

export interface SessionHooks {
  setLogLevel(level: LoggingLevel): void;
  subscribe(uri: string): void;
  unsubscribe(uri: string): void;
}

export interface ListenHooks {
  readonly outbox: Outbox;
  /** Opens a subscription; resolves when it ends (with a result to send, or null when cancelled). */
  open(filter: SubscriptionFilter, agreed: SubscriptionFilter): Promise<JsonObject | null>;
}

/** What a handler produces: a result object, a final JSON result, or an explicit input request (modern). */
export type Outcome = JsonObject | RawResult | null;

export type MethodHandler = (call: Call) => Outcome | Promise<Outcome>;

/**
 * A method resolved once for a legacy session or a (definition, revision) pair: its rule, its handler, and the
 * params that bind a modern `requestState` to the request.
 */
export interface ResolvedMethod {
  readonly name: string;
  readonly rule: ClientMethodRule;
  readonly handler: MethodHandler;
  readonly salientParams: readonly string[];
}

/**
 * A gate on `tools/call`: runs after the tool is found and before it is invoked. Return `undefined` to let the
 * call proceed, or an outcome (or a promise of one) to take the call over (e.g. run it as a task); throw a
 * `ProtocolError` to refuse it.
 */
export type ToolCallGate = (tool: CompiledTool, call: Call) => Outcome | Promise<Outcome> | undefined;

/**
 * A gate on `subscriptions/listen`: adds to the filter the server agrees to (`agreed`) what the extension
 * honours of the requested one.
 */
export type ListenGate = (
  call: Call,
  requested: SubscriptionFilter,
  agreed: SubscriptionFilter,
) => void | Promise<void>;

/** Per-request `_meta` for one `tools/list` entry (e.g. MCP Apps UI metadata for the client that asked). */
export type ToolListMeta = (tool: CompiledTool, call: Call) => JsonObject | undefined;

/** The installed extensions' gates, in installation order, as the method handlers read them on every call. */
export interface ExtensionGates {
  readonly toolCallGates: readonly ToolCallGate[];
  readonly listenGates: readonly ListenGate[];
  readonly toolListMeta: readonly ToolListMeta[];
}
