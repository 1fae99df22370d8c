/**
 * A JSON-RPC channel to the server under test, whatever the transport. The channel never interprets the
 * protocol beyond matching a response to its request by id: what the server sent is handed to the checks
 * exactly as it arrived, so that they can judge it.
 */

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One message as received. */
export interface Received {
  /** Milliseconds since the channel opened. */
  readonly at: number;
  readonly text: string;
  /** The parsed message, when the text is JSON. */
  readonly message?: unknown;
  readonly parseError?: string;
  /** Where it came from on HTTP: the response to a POST, or the standalone GET stream. */
  readonly via?: 'post' | 'get';
}

/** What an HTTP exchange looked like, for evidence and for the HTTP checks. */
export interface HttpInfo {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as read (for SSE: the raw stream text up to where reading stopped). */
  readonly body: string;
  readonly contentType: string;
  /** SSE events, when the body was an event stream. */
  readonly events?: readonly SseEvent[];
}

export interface SseEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
  readonly retry?: number;
}

export interface CallOptions {
  readonly timeoutMs?: number;
  /**
   * Progress shows work is happening: each progress notification restarts the time limit, up to this overall
   * limit (stdio and HTTP+SSE).
   */
  readonly progressExtendsToMs?: number;
  /** Streamable HTTP: do not resume a stream the server closed early (the request was cancelled on purpose). */
  readonly noResume?: boolean;
  /** Extra HTTP headers (ignored on stdio). */
  readonly headers?: Readonly<Record<string, string>>;
  /** HTTP headers to leave out of the defaults (for tests of missing headers). */
  readonly omitHeaders?: readonly string[];
  /** Called for each message that arrives while waiting (e.g. to cancel after the first progress). */
  readonly onMessage?: (received: Received) => void;
  /** Stop waiting once this is aborted (the answer no longer matters); the call then ends without a response. */
  readonly signal?: AbortSignal;
}

export interface CallResult {
  readonly sent: JsonObject;
  readonly sentText: string;
  /** The response whose id matches the request, if one arrived. */
  readonly response?: JsonObject;
  readonly responseText?: string;
  /** When the response arrived (ms since the epoch). */
  readonly respondedAt?: number;
  /** Everything else that arrived on the channel while waiting. */
  readonly during: readonly Received[];
  /** Why no response: the time limit, the channel closed, or (HTTP) a status without a JSON-RPC body. */
  readonly failure?: 'timeout' | 'closed' | 'no-response';
  /** When the connection closed: why (exit status and the end of stderr, for stdio). */
  readonly closedBecause?: string;
  readonly http?: HttpInfo;
  /** When the request was sent (ms since the epoch), and how long the answer took. */
  readonly startedAt: number;
  readonly elapsedMs: number;
}

export interface RawOptions extends CallOptions {
  /** Stop waiting once a message satisfies this (stdio / SSE); on Streamable HTTP the response ends it. */
  readonly until?: (received: Received) => boolean;
  /** On Streamable HTTP: the content type to send (default `application/json`). */
  readonly contentType?: string;
  /** The HTTP method (default POST). */
  readonly method?: string;
  /**
   * Called once the text was handed over and the wait for its answers begins: on stdio right after it is
   * written; on HTTP+SSE once the POST that carried it was answered (2xx); on Streamable HTTP when the response's
   * status and headers arrive (its body or event stream may still be on the way), with that status and type.
   */
  readonly onSent?: (response?: { readonly status: number; readonly contentType: string }) => void;
}

export interface RawResult {
  readonly sentText: string;
  /** Messages that arrived after the send, up to `until` or the time limit. */
  readonly received: readonly Received[];
  readonly timedOut: boolean;
  readonly http?: HttpInfo;
}

export interface Channel {
  readonly kind: TransportKind;
  /** Every message received since the channel opened. */
  readonly received: readonly Received[];
  /** The ids of every request sent on this channel (a response may only answer one of them). */
  readonly sentIds: ReadonlySet<unknown>;
  /** The next request id this channel would use. */
  nextId(): number;
  /** Sends a request (a complete JSON-RPC object, id included) and waits for its response. */
  call(message: JsonObject, options?: CallOptions): Promise<CallResult>;
  /** Sends a notification (or a response) and returns what the transport said (HTTP) or nothing (stdio). */
  send(message: JsonObject | readonly unknown[], options?: CallOptions): Promise<RawResult>;
  /** Sends arbitrary text, valid JSON-RPC or not. */
  raw(text: string, options?: RawOptions): Promise<RawResult>;
  /** Collects what arrives during `ms` without sending anything. */
  collect(ms: number): Promise<Received[]>;
  /** Whether the server side is still there (stdio: the process runs; HTTP: always true). */
  alive(): boolean;
  /** Why the channel died, if it did (process exit status, stream end). */
  deathNote(): string | undefined;
  close(): Promise<void>;
}

/** A request object with the channel's next id. */
export function request(channel: Channel, method: string, params?: JsonObject): JsonObject {
  return params === undefined
    ? { jsonrpc: '2.0', id: channel.nextId(), method }
    : { jsonrpc: '2.0', id: channel.nextId(), method, params };
}

export function notification(method: string, params?: JsonObject): JsonObject {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** The response's `result`, when it is a result object. */
export function resultOf(call: CallResult | undefined): JsonObject | undefined {
  const result = call?.response?.['result'];
  return isObject(result) ? result : undefined;
}

export function errorOf(
  call: CallResult | undefined,
): { code: unknown; message: unknown; data?: unknown } | undefined {
  const error = call?.response?.['error'];
  return isObject(error)
    ? { code: error['code'], message: error['message'], data: error['data'] }
    : undefined;
}

/** Request ids in a sent text (a message or a batch), for `sentIds`. */
export function requestIdsIn(text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  // Anything with an id that is not a response counts, valid request or not: the server may answer it.
  return messages
    .filter((m) => isObject(m) && 'id' in m && !('result' in m) && !('error' in m))
    .map((m) => (m as JsonObject)['id']);
}

export function sameId(a: unknown, b: unknown): boolean {
  return (typeof a === 'string' || typeof a === 'number') && a === b;
}
