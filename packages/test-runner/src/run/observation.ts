/**
 * What running one test's action produced: the answer (result or JSON-RPC error, or why none came), everything
 * the server sent meanwhile, what it asked the client, and the schema violations on the wire.
 */
import type { WireViolation } from '@mcpengine/oracle';
import type { JsonObject, Revision } from '../model.js';
import type { Inbound } from '../session/connection.js';
import type { AskedRecord } from '../session/scripted-handlers.js';

export interface Observation {
  readonly revision: Revision;
  readonly request: { readonly method: string; readonly params: JsonObject };
  readonly result?: JsonObject;
  readonly error?: { readonly code: unknown; readonly message: unknown; readonly data?: unknown };
  /** No answer: why (time limit, the server died, a local failure). */
  readonly failure?: { readonly kind: 'timeout' | 'closed' | 'local'; readonly message: string };
  readonly notifications: readonly Inbound[];
  readonly progress: readonly JsonObject[];
  readonly logs: readonly JsonObject[];
  readonly asked: readonly AskedRecord[];
  readonly unanswered: readonly string[];
  /** Subscribe tests: the update notifications for the resource. */
  readonly updates: readonly JsonObject[];
  readonly violations: readonly WireViolation[];
  /** The tool's definition as listed (tool tests), for its outputSchema. */
  readonly tool?: JsonObject;
  readonly elapsedMs: number;
}

const ENVELOPE = ['resultType', 'ttlMs', 'cacheScope'];

/** A result without the modern era's envelope (resultType, cache hints, the server's identity in _meta). */
export function plainResult(result: JsonObject | undefined): JsonObject | undefined {
  if (result === undefined) return undefined;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(result)) {
    if (ENVELOPE.includes(key)) continue;
    if (key === '_meta' && typeof value === 'object' && value !== null) {
      const meta = Object.fromEntries(
        Object.entries(value).filter(([name]) => !name.startsWith('io.modelcontextprotocol/')),
      );
      if (Object.keys(meta).length > 0) out[key] = meta;
      continue;
    }
    out[key] = value;
  }
  return out;
}

function textsOf(content: unknown): string[] {
  const blocks = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return blocks
    .filter(
      (b): b is JsonObject => typeof b === 'object' && b !== null && (b as JsonObject)['type'] === 'text',
    )
    .map((b) => String(b['text']));
}

/** The text a result carries: tool text blocks, resource text contents, prompt text messages. */
export function textOf(result: JsonObject | undefined): string | undefined {
  if (result === undefined) return undefined;
  if (Array.isArray(result['content'])) return textsOf(result['content']).join('\n');
  if (Array.isArray(result['contents']))
    return (result['contents'] as JsonObject[])
      .filter((c) => typeof c['text'] === 'string')
      .map((c) => String(c['text']))
      .join('\n');
  if (Array.isArray(result['messages']))
    return (result['messages'] as JsonObject[]).flatMap((m) => textsOf(m['content'])).join('\n');
  return undefined;
}
