/**
 * JSON-RPC 2.0 envelopes as MCP constrains them: ids are strings or integers (never null), params are objects,
 * a response carries exactly one of `result` and `error`, notifications carry no id.
 *
 * Inbound text is classified once here; everything downstream works on well-formed envelopes only.
 */
import { ErrorCode, type ErrorObject } from './errors.js';
import type { JsonObject, RequestId } from './types.js';

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** `null` only when the id of the offending message could not be read (JSON-RPC 2.0 §5). */
  id: RequestId | null;
  error: ErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** One classified inbound message. `invalid` messages must be answered with `error` (unless they were responses). */
export type InboundMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: RequestId | null; error: ErrorObject; answerable: boolean };

/** One message (classified, not wrapped: this runs for every message), a batch, or text that is not JSON. */
export type ParsedInbound =
  InboundMessage | { kind: 'batch'; items: InboundMessage[] } | { kind: 'unparseable'; error: ErrorObject };

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one transport message (a stdio line or an HTTP body). Never throws. */
export function parseInbound(text: string): ParsedInbound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      kind: 'unparseable',
      error: { code: ErrorCode.ParseError, message: 'Parse error: invalid JSON' },
    };
  }
  if (Array.isArray(value)) return { kind: 'batch', items: value.map(classifyMessage) };
  return classifyMessage(value);
}

type InvalidMessage = Extract<InboundMessage, { kind: 'invalid' }>;

function invalid(
  id: RequestId | null,
  message: string,
  code: number = ErrorCode.InvalidRequest,
): InvalidMessage {
  return { kind: 'invalid', id, error: { code, message }, answerable: true };
}

/**
 * Classifies one decoded JSON value as a request, notification, response, or an invalid envelope.
 *
 * The value comes from `JSON.parse`, which never produces `undefined`: a member is present exactly when it is not
 * `undefined`, so no `hasOwnProperty` call is needed on this path (it runs for every message).
 */
export function classifyMessage(value: unknown): InboundMessage {
  if (!isPlainObject(value)) return invalid(null, 'Invalid Request: a JSON-RPC message must be an object');
  const hasId = value.id !== undefined;
  const id = value.id;
  const readableId = hasId && isRequestId(id) ? id : null;

  if (value.jsonrpc !== '2.0') {
    return invalid(readableId, 'Invalid Request: "jsonrpc" must be exactly "2.0"');
  }

  if (value.method !== undefined) {
    const method = value.method;
    if (typeof method !== 'string' || method.length === 0) {
      return invalid(readableId, 'Invalid Request: "method" must be a non-empty string');
    }
    if (value.result !== undefined || value.error !== undefined) {
      return invalid(readableId, 'Invalid Request: a request must not carry "result" or "error"');
    }
    if (hasId && readableId === null) {
      return invalid(null, 'Invalid Request: "id" must be a string or an integer (MCP forbids null ids)');
    }
    const params = value.params;
    if (params !== undefined && !isPlainObject(params)) {
      if (!hasId)
        return { ...invalid(null, 'params must be an object', ErrorCode.InvalidParams), answerable: false };
      return invalid(readableId, 'Invalid params: "params" must be an object', ErrorCode.InvalidParams);
    }
    if (hasId) {
      return { kind: 'request', message: value as unknown as JsonRpcRequest };
    }
    return { kind: 'notification', message: value as unknown as JsonRpcNotification };
  }

  // No method: this must be a response. A malformed response is never answered (answering could loop).
  const hasResult = value.result !== undefined;
  const hasError = value.error !== undefined;
  if (hasResult === hasError) {
    return {
      ...invalid(
        readableId,
        'Invalid Request: a message needs "method", or exactly one of "result" and "error"',
      ),
      answerable: !hasResult && !hasError,
    };
  }
  if (hasResult && !isPlainObject(value.result)) {
    return { ...invalid(readableId, 'Invalid response: "result" must be an object'), answerable: false };
  }
  if (hasError) {
    const error = value.error;
    if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return { ...invalid(readableId, 'Invalid response: malformed "error"'), answerable: false };
    }
  }
  if (readableId === null && !(hasError && id === null)) {
    return { ...invalid(null, 'Invalid response: "id" must be a string or an integer'), answerable: false };
  }
  return { kind: 'response', message: value as unknown as JsonRpcResponse };
}

/** Serialization. Results may arrive pre-serialized (list pages), so every writer takes JSON text. */
export function serializeResult(id: RequestId, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${resultJson}}`;
}

/** `'0'`…`'99'`, and the same two digits zero-padded: the pieces of `integerJson`. */
const UP_TO_99 = Array.from({ length: 100 }, (_, i) => String(i));
const TWO_DIGITS = UP_TO_99.map((digits) => digits.padStart(2, '0'));

/**
 * A non-negative integer below 10^8 as decimal text, joined from two-digit pieces.
 *
 * Not `${n}`: number-to-string conversion stores each new string in V8's number-string cache, an old-space
 * table, so the id string of every response survived the next scavenge and was promoted (measured at 64 in
 * flight: ~100 KB per scavenge, then mark-compact work). `JSON.stringify(n)` avoids the cache but pays its
 * fixed setup (~250 instructions); two or three joins of short strings cost less.
 */
function integerJson(n: number): string {
  if (n < 100) return UP_TO_99[n]!;
  if (n < 10_000) return UP_TO_99[Math.floor(n / 100)]! + TWO_DIGITS[n % 100]!;
  const high = Math.floor(n / 10_000);
  const low = n % 10_000;
  const lowText = TWO_DIGITS[Math.floor(low / 100)]! + TWO_DIGITS[low % 100]!;
  return (
    (high < 100 ? UP_TO_99[high]! : UP_TO_99[Math.floor(high / 100)]! + TWO_DIGITS[high % 100]!) + lowText
  );
}

/** An id as JSON. */
function idJson(id: RequestId | null): string {
  return typeof id === 'number' && id >= 0 && id < 100_000_000 && Number.isInteger(id)
    ? integerJson(id)
    : JSON.stringify(id);
}

/**
 * The same response as `serializeResult(id, json)`, in pieces, with the result already UTF-8 encoded: what a
 * transport writes without building (and encoding) the whole text when the result is large and cached.
 */
export function serializeResultParts(id: RequestId, resultBytes: Uint8Array): (string | Uint8Array)[] {
  return [`{"jsonrpc":"2.0","id":${idJson(id)},"result":`, resultBytes, '}'];
}

export function serializeError(id: RequestId | null, error: ErrorObject): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"error":${JSON.stringify(error)}}`;
}

export function serializeNotification(method: string, params?: JsonObject): string {
  return params === undefined
    ? `{"jsonrpc":"2.0","method":${JSON.stringify(method)}}`
    : `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
}

export function serializeRequest(id: RequestId, method: string, params?: JsonObject): string {
  return params === undefined
    ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)}}`
    : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
}
