/**
 * Content blocks across revisions. Newer content types are rewritten for revisions that do not know them, so
 * that an old client still gets something meaningful instead of a message its schema rejects.
 */
import type { RevisionSpec } from '../../protocol/revisions.js';
import type { ContentBlock, JsonObject, TextContent } from '../../protocol/types.js';

export function text(value: string): TextContent {
  return { type: 'text', text: value };
}

/** Rewrites content blocks the revision does not define; returns the input array when nothing changes. */
export function adaptContent(blocks: ContentBlock[], revision: RevisionSpec): ContentBlock[] {
  let adapted: ContentBlock[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (revision.contentTypes.has(block.type)) continue;
    adapted ??= blocks.slice();
    adapted[i] = fallbackFor(block);
  }
  return adapted ?? blocks;
}

function fallbackFor(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'audio':
      return text(`[audio content (${block.mimeType}) omitted: this protocol revision cannot carry audio]`);
    case 'resource_link':
      return text(
        `Resource: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''}`,
      );
    default:
      return text(`[${block.type as string} content omitted: not supported by this protocol revision]`);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * Checks content produced by user code before it goes on the wire: a malformed block would make the whole
 * message schema-invalid for the client. Returns a description of the first problem, or undefined.
 */
export function contentProblem(blocks: unknown): string | undefined {
  if (!Array.isArray(blocks)) return 'content must be an array';
  for (let i = 0; i < blocks.length; i++) {
    const problem = blockProblem(blocks[i]);
    if (problem) return `content[${i}]: ${problem}`;
  }
  return undefined;
}

export function blockProblem(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null) return 'not an object';
  const b = block as JsonObject;
  switch (b.type) {
    case 'text':
      return isString(b.text) ? undefined : 'text content needs a string "text"';
    case 'image':
    case 'audio':
      return isString(b.data) && isString(b.mimeType)
        ? undefined
        : `${b.type} content needs string "data" and "mimeType"`;
    case 'resource_link':
      return isString(b.uri) && isString(b.name) ? undefined : 'resource_link needs string "uri" and "name"';
    case 'resource': {
      const r = b.resource as JsonObject | undefined;
      if (typeof r !== 'object' || r === null || !isString(r.uri))
        return 'embedded resource needs resource.uri';
      return isString(r.text) || isString(r.blob)
        ? undefined
        : 'embedded resource needs resource.text or resource.blob';
    }
    default:
      return `unknown content type ${JSON.stringify(b.type)}`;
  }
}

/** Keeps only the listed keys (the fields a revision defines), in a fresh object. */
export function pickFields<T extends object>(value: T, keys: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of keys) {
    if (source[key] !== undefined) out[key] = source[key];
  }
  return out as Partial<T>;
}
