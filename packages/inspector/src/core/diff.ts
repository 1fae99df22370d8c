/**
 * Two sessions compared: which tools appeared, disappeared or changed between them — the way to spot a server
 * that changes a tool's description or schema after it was approved (a "rug pull"). The tools come from the
 * recorded `tools/list` answers, so any saved session can be compared, whoever recorded it.
 */
import type { MessageEntry, TimelineEntry } from './timeline.js';

type Json = unknown;

export interface ToolChange {
  readonly name: string;
  /** Top-level fields of the tool that differ (`description`, `inputSchema`, `annotations`…). */
  readonly fields: readonly string[];
}

export interface ToolsDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ToolChange[];
}

/**
 * The tools of the last complete listing in a timeline (its pages joined), by name; `undefined` when the
 * session never listed tools.
 */
export function toolsOf(entries: readonly TimelineEntry[]): Map<string, Record<string, Json>> | undefined {
  const listRequests = new Set<string>();
  let listing: Map<string, Record<string, Json>> | undefined;
  let current = new Map<string, Record<string, Json>>();
  for (const entry of entries) {
    if (entry.kind !== 'message') continue;
    const key = idKey(entry);
    if (entry.from === 'client' && entry.method === 'tools/list' && key !== undefined) {
      const cursor = paramsOf(entry)?.['cursor'];
      if (cursor === undefined) current = new Map();
      listRequests.add(key);
      continue;
    }
    if (entry.from !== 'server' || key === undefined || !listRequests.has(key)) continue;
    listRequests.delete(key);
    const result = (entry.message as { result?: { tools?: unknown; nextCursor?: unknown } }).result;
    if (!Array.isArray(result?.tools)) continue;
    for (const tool of result.tools as Record<string, Json>[])
      if (typeof tool?.['name'] === 'string') current.set(tool['name'], tool);
    if (result.nextCursor === undefined) listing = current;
  }
  return listing;
}

function idKey(entry: MessageEntry): string | undefined {
  return entry.id === undefined ? undefined : `${typeof entry.id}:${String(entry.id)}`;
}

function paramsOf(entry: MessageEntry): Record<string, Json> | undefined {
  const params = (entry.message as { params?: unknown }).params;
  return typeof params === 'object' && params !== null ? (params as Record<string, Json>) : undefined;
}

export function diffTools(
  before: ReadonlyMap<string, Record<string, Json>>,
  after: ReadonlyMap<string, Record<string, Json>>,
): ToolsDiff {
  const added = [...after.keys()].filter((name) => !before.has(name)).sort();
  const removed = [...before.keys()].filter((name) => !after.has(name)).sort();
  const changed: ToolChange[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    if (now === undefined) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(now)])]
      .filter((field) => canonical(old[field]) !== canonical(now[field]))
      .sort();
    if (fields.length > 0) changed.push({ name, fields });
  }
  changed.sort((a, b) => a.name.localeCompare(b.name));
  return { added, removed, changed };
}

/** Compares the tool listings of two sessions; a session without a listing counts as having no tools. */
export function diffSessions(
  before: readonly TimelineEntry[],
  after: readonly TimelineEntry[],
): ToolsDiff & { readonly listed: { before: boolean; after: boolean } } {
  const old = toolsOf(before);
  const now = toolsOf(after);
  return {
    ...diffTools(old ?? new Map(), now ?? new Map()),
    listed: { before: old !== undefined, after: now !== undefined },
  };
}

/** JSON with object keys sorted, so that key order never counts as a change. */
function canonical(value: Json): string {
  return (
    JSON.stringify(value, (_key, inner: Json) =>
      typeof inner === 'object' && inner !== null && !Array.isArray(inner)
        ? Object.fromEntries(
            Object.entries(inner as Record<string, Json>).sort(([a], [b]) => (a < b ? -1 : 1)),
          )
        : inner,
    ) ?? 'undefined'
  );
}
