/**
 * An API answer → a tool result. HTTP ≥ 400 is `isError: true` with the status and a bounded excerpt; JSON
 * becomes text (and `structuredContent` when the tool declares an output schema); anything over the size limit
 * is cut with an explicit marker — structured results by shortening their longest arrays, so they stay valid.
 */
import type { CallToolResult } from 'mcpengine/protocol';
import type { ApiResponse } from './http.js';
import type { Secrets } from './secrets.js';

export const TRUNCATED_KEY = '_truncated';

export function isJsonType(contentType: string): boolean {
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json') || base === 'text/json';
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts text to at most `limit` UTF-8 bytes and says so. */
export function truncateText(
  text: string,
  limit: number,
  hint: string,
): { text: string; truncated: boolean } {
  const size = byteLength(text);
  if (size <= limit) return { text, truncated: false };
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return {
    text: `${cut}\n…[truncated: ${byteLength(cut)} of ${size} bytes shown; ${hint}]`,
    truncated: true,
  };
}

/** Halves the longest array of a JSON value until its text fits; returns how many items were dropped. */
export function shrinkToFit(
  value: unknown,
  limit: number,
): { value: unknown; dropped: number; fits: boolean } {
  const current = value;
  let dropped = 0;
  for (let round = 0; round < 64; round++) {
    if (byteLength(JSON.stringify(current)) <= limit) return { value: current, dropped, fits: true };
    const longest = longestArray(current);
    if (longest === undefined || longest.array.length === 0) return { value: current, dropped, fits: false };
    const keep = Math.floor(longest.array.length / 2);
    dropped += longest.array.length - keep;
    longest.array.length = keep;
  }
  return { value: current, dropped, fits: byteLength(JSON.stringify(current)) <= limit };
}

function longestArray(value: unknown): { array: unknown[] } | undefined {
  let best: unknown[] | undefined;
  let bestSize = -1;
  const visit = (node: unknown, depth: number) => {
    if (depth > 32 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      const size = node.length === 0 ? 0 : byteLength(JSON.stringify(node));
      if (size > bestSize && node.length > 0) {
        best = node;
        bestSize = size;
      }
      for (const item of node) visit(item, depth + 1);
    } else for (const child of Object.values(node)) visit(child, depth + 1);
  };
  visit(value, 0);
  return best === undefined ? undefined : { array: best };
}

export interface ResultContext {
  readonly label: string;
  readonly maxResponseBytes: number;
  readonly errorExcerptChars: number;
  readonly secrets: Secrets;
  /** Checks structured content against the tool's output schema; a message when it does not match. */
  readonly checkOutput?: (value: unknown) => string | undefined;
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The result for an HTTP ≥ 400 answer. */
export function httpErrorResult(response: ApiResponse, ctx: ResultContext): CallToolResult {
  const body = ctx.secrets.redact(utf8(response.bytes)).trim();
  const excerpt =
    body.length > ctx.errorExcerptChars
      ? `${body.slice(0, ctx.errorExcerptChars)}…[${body.length - ctx.errorExcerptChars} more characters]`
      : body;
  const retryAfter = response.headers.get('retry-after');
  return errorResult(
    `HTTP ${response.status}${statusText(response.status)} from ${ctx.label}${retryAfter ? ` (Retry-After: ${retryAfter})` : ''}${excerpt === '' ? '' : `\n${excerpt}`}`,
  );
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    408: 'Request Timeout',
    409: 'Conflict',
    410: 'Gone',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    501: 'Not Implemented',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return known[status] === undefined ? '' : ` ${known[status]}`;
}

/** The result for a successful answer whose body is already decoded (one page, or pages merged). */
export function successResult(
  decoded: { json: unknown } | { text: string } | { binary: Uint8Array; contentType: string },
  ctx: ResultContext,
  notes: readonly string[],
): CallToolResult {
  const hint = 'narrow the request (filters, fields, a smaller page size)';
  const suffix = notes.length > 0 ? `\n${notes.join('\n')}` : '';
  if ('json' in decoded) {
    if (ctx.checkOutput !== undefined) {
      const structured = decoded.json ?? {};
      const mismatch = ctx.checkOutput(structured);
      if (mismatch !== undefined) {
        const shown = truncateText(
          ctx.secrets.redact(JSON.stringify(structured)),
          ctx.errorExcerptChars,
          hint,
        ).text;
        return errorResult(
          `The API's answer from ${ctx.label} does not match the response schema of its description (${mismatch}); the answer was:\n${shown}`,
        );
      }
      const shrunk = shrinkToFit(structuredClone(structured), ctx.maxResponseBytes);
      if (!shrunk.fits)
        return errorResult(
          `The answer from ${ctx.label} is larger than ${ctx.maxResponseBytes} bytes and cannot be shortened; ${hint}.`,
        );
      let value = shrunk.value as Record<string, unknown>;
      if (shrunk.dropped > 0 && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        value = {
          ...value,
          [TRUNCATED_KEY]: `${shrunk.dropped} list items were left out to stay under ${ctx.maxResponseBytes} bytes; ${hint}`,
        };
      }
      const text = ctx.secrets.redact(JSON.stringify(value));
      const structuredContent = JSON.parse(text) as Record<string, unknown>;
      return {
        content: [
          {
            type: 'text',
            text: `${text}${shrunk.dropped > 0 ? `\n…[truncated: ${shrunk.dropped} list items left out; ${hint}]` : ''}${suffix}`,
          },
        ],
        structuredContent,
      };
    }
    const text = truncateText(
      ctx.secrets.redact(JSON.stringify(decoded.json)),
      ctx.maxResponseBytes,
      hint,
    ).text;
    return { content: [{ type: 'text', text: `${text}${suffix}` }] };
  }
  if (ctx.checkOutput !== undefined) {
    return errorResult(
      `The API answered ${ctx.label} with ${'text' in decoded ? 'text' : (decoded as { contentType: string }).contentType} where its description promises JSON`,
    );
  }
  if ('text' in decoded) {
    const body = decoded.text === '' ? '(empty response)' : decoded.text;
    return {
      content: [
        {
          type: 'text',
          text: `${truncateText(ctx.secrets.redact(body), ctx.maxResponseBytes, hint).text}${suffix}`,
        },
      ],
    };
  }
  const type = decoded.contentType.split(';')[0]!.trim().toLowerCase();
  const base64 = Buffer.from(decoded.binary).toString('base64');
  if (type.startsWith('image/') && base64.length <= ctx.maxResponseBytes) {
    return { content: [{ type: 'image', data: base64, mimeType: type }] };
  }
  return {
    content: [
      {
        type: 'text',
        text: `Binary answer (${type || 'unknown type'}, ${decoded.binary.byteLength} bytes)${base64.length <= ctx.maxResponseBytes ? `, base64:\n${base64}` : `; larger than ${ctx.maxResponseBytes} bytes, not shown`}${suffix}`,
      },
    ],
  };
}

/** Decodes a successful answer's body by its content type. */
export function decodeBody(
  response: ApiResponse,
): { json: unknown } | { text: string } | { binary: Uint8Array; contentType: string } {
  const text = () => utf8(response.bytes);
  if (response.bytes.byteLength === 0) return { text: '' };
  if (isJsonType(response.contentType) && !response.cut) {
    try {
      return { json: JSON.parse(text()) as unknown };
    } catch {
      return { text: text() };
    }
  }
  const type = response.contentType.toLowerCase();
  if (
    type === '' ||
    type.startsWith('text/') ||
    type.includes('xml') ||
    type.includes('json') ||
    type.includes('x-www-form-urlencoded')
  )
    return { text: text() };
  return { binary: response.bytes, contentType: response.contentType };
}
