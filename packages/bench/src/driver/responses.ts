/**
 * Reading JSON-RPC responses cheaply. The driver must cost the machine far less than the server it measures,
 * so it does not parse every response: it finds the top-level `"id"` by position and checks that the response
 * is a success. A sample of responses is parsed in full to prove that the fast path reads them correctly.
 */

const JSONRPC_FIRST = '{"jsonrpc":"2.0","id":';

/**
 * The id of a serialized JSON-RPC response, when it is a non-negative integer, read without parsing.
 *
 * Servers put the top-level `id` first (`{"jsonrpc":"2.0","id":7,...}`) or last (`{"result":{...},"jsonrpc":
 * "2.0","id":7}`, the official SDKs); an `"id":` inside the result would only ever precede the top-level one in
 * the second layout, so the last occurrence is the right one there. Returns -1 when no id can be read this way;
 * callers then parse the message.
 */
export function fastResponseId(line: string): number {
  let at: number;
  if (line.startsWith(JSONRPC_FIRST)) at = JSONRPC_FIRST.length;
  else {
    const key = line.lastIndexOf('"id":');
    if (key === -1) return -1;
    at = key + 5;
  }
  let id = 0;
  let digits = 0;
  for (let i = at; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 48 || c > 57) break;
    id = id * 10 + (c - 48);
    digits++;
  }
  return digits === 0 || digits > 15 ? -1 : id;
}

/** How far into a response its top-level `result` key can be: after `{"jsonrpc":"2.0","id":<15 digits>,`. */
const RESULT_KEY_WITHIN = 64;
/** Longer responses are lists; only tool results (short) are scanned for `isError`. */
const TOOL_RESULT_SCAN = 8192;

/**
 * True when the response is a success: its top-level `result` key comes first or right after `jsonrpc` and
 * `id` (an error response has none there), and a short one is not a tool error (`"isError":true`). JSON string
 * contents cannot contain an unescaped quote, so these patterns only match real keys. Cheap on large lists:
 * nothing beyond the first bytes is scanned. The sampled full parse checks the rest.
 */
export function looksSuccessful(line: string): boolean {
  const result = line.indexOf('"result":');
  if (result === -1 || result > RESULT_KEY_WITHIN) return false;
  return line.length > TOOL_RESULT_SCAN || !line.includes('"isError":true');
}

export interface ParsedResponse {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A full parse, for the sampled check and for diagnostics. Throws on anything that is not a response. */
export function parseResponse(line: string): ParsedResponse {
  const value: unknown = JSON.parse(line);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`not a JSON-RPC response: ${line.slice(0, 200)}`);
  return value as ParsedResponse;
}

/**
 * The JSON-RPC message inside an HTTP response body: the body itself (application/json), or the data of
 * the event that carries a response (text/event-stream).
 */
export function messageFromBody(body: string, contentType: string | undefined): string {
  if (contentType === undefined || !contentType.includes('text/event-stream')) return body;
  let message = '';
  for (const event of body.split(/\r?\n\r?\n/)) {
    let data = '';
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith('data:'))
        data += (data === '' ? '' : '\n') + line.slice(line.startsWith('data: ') ? 6 : 5);
    }
    // The response is the event with an id or error at top level; notifications have a method instead.
    if (data !== '' && !data.includes('"method":')) message = data;
    else if (data !== '' && message === '') message = data;
  }
  return message;
}

/** Splits a stream of newline-delimited messages; keeps the partial tail between chunks. */
export class LineSplitter {
  #tail = '';

  /** Calls `onLine` for every complete, non-empty line in `chunk`. */
  push(chunk: string, onLine: (line: string) => void): void {
    const text = this.#tail === '' ? chunk : this.#tail + chunk;
    let start = 0;
    for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
      const line =
        end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      if (line.length > 0) onLine(line);
      start = end + 1;
    }
    this.#tail = start < text.length ? text.slice(start) : '';
  }

  get pending(): string {
    return this.#tail;
  }
}
