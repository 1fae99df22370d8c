/**
 * Telling JSON-RPC messages apart by their members, before any schema is consulted.
 */

export type MessageShape = 'request' | 'notification' | 'result' | 'error';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A message with `method` is a request when it has an `id` member (even `null`, which the schemas then reject)
 * and a notification otherwise; a response has exactly one of `result` and `error`. Anything else has no shape.
 */
export function shapeOf(message: unknown): MessageShape | undefined {
  if (!isJsonObject(message)) return undefined;
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) return undefined;
  return hasResult ? 'result' : 'error';
}

/** A map key for a JSON-RPC id that keeps `1` and `"1"` apart; `undefined` for anything that is not an id. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return `s:${id}`;
  if (typeof id === 'number') return `n:${id}`;
  return undefined;
}

/** `message.params._meta`, if it is an object. */
export function metaOf(message: JsonObject): JsonObject | undefined {
  const params = message['params'];
  const meta = isJsonObject(params) ? params['_meta'] : undefined;
  return isJsonObject(meta) ? meta : undefined;
}
