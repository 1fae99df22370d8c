/** The session timeline: live or reopened from a saved file, violations flagged, exportable. */
import { h, type ComponentChild } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { token, type Entry, type Json } from './api.js';
import { VirtualList } from './virtual-list.js';

/** A saved session file (JSON Lines: a header, then entries), read in the page; nothing is uploaded. */
async function readSessionFile(file: File): Promise<{ name: string; entries: Entry[] }> {
  const lines = (await file.text()).split('\n').filter((line) => line.trim() !== '');
  const header = JSON.parse(lines[0] ?? '{}') as Json;
  if (header['format'] !== 'mcpengine-inspect-session')
    throw new Error(`${file.name} is not an inspector session`);
  return { name: file.name, entries: lines.slice(1).map((line) => JSON.parse(line) as Entry) };
}

export function TimelinePanel({ entries: live }: { entries: Entry[] }): ComponentChild {
  const [saved, setSaved] = useState<{ name: string; entries: Entry[] } | undefined>();
  const [loadError, setLoadError] = useState('');
  const entries = saved?.entries ?? live;
  const [open, setOpen] = useState<number | undefined>();
  const [onlyViolations, setOnlyViolations] = useState(false);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const needle = query.toLowerCase();
    return entries.filter(
      (entry) =>
        (!onlyViolations || entry.violations !== undefined) &&
        (needle === '' || describeEntry(entry).toLowerCase().includes(needle)),
    );
  }, [entries, onlyViolations, query]);
  const violations = useMemo(
    () => entries.filter((entry) => entry.violations !== undefined).length,
    [entries],
  );
  const selected = open === undefined ? undefined : entries.find((entry) => entry.seq === open);
  const exportTimeline = async () => {
    const response = await fetch('/api/timeline', { headers: { authorization: `Bearer ${token}` } });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = 'mcp-session.jsonl';
    link.click();
  };
  return h('section', null, [
    h(
      'h2',
      null,
      `${saved === undefined ? 'Timeline' : `Saved timeline ${saved.name}`}: ${entries.length} entries, ${violations} schema violation(s)`,
    ),
    saved === undefined
      ? h('button', { onClick: () => void exportTimeline() }, 'Export timeline')
      : h('button', { onClick: () => setSaved(undefined) }, 'Back to the live timeline'),
    h('label', { class: 'field inline' }, [
      h('span', null, 'Open a saved timeline'),
      h('input', {
        type: 'file',
        accept: '.jsonl,application/x-ndjson',
        onChange: (event: Event) => {
          const file = (event.target as HTMLInputElement).files?.[0];
          if (file === undefined) return;
          readSessionFile(file).then(
            (session) => (setSaved(session), setLoadError('')),
            (error: Error) => setLoadError(error.message),
          );
        },
      }),
    ]),
    loadError === '' ? null : h('p', { class: 'error', role: 'alert' }, loadError),
    h('label', { class: 'field inline' }, [
      h('input', {
        type: 'checkbox',
        checked: onlyViolations,
        onChange: () => setOnlyViolations(!onlyViolations),
      }),
      h('span', null, 'Only violations'),
    ]),
    h('label', { class: 'field inline' }, [
      h('span', null, 'Filter'),
      h('input', {
        type: 'search',
        'aria-label': 'Filter the timeline',
        value: query,
        onInput: (event: Event) => setQuery((event.target as HTMLInputElement).value),
      }),
    ]),
    h(VirtualList<Entry>, {
      items: shown,
      rowHeight: 28,
      height: 420,
      label: 'Timeline entries',
      class: 'timeline',
      follow: true,
      keyOf: (entry) => entry.seq,
      row: (entry) =>
        h(
          'button',
          {
            class: entry.violations ? 'violation' : '',
            'aria-pressed': open === entry.seq,
            onClick: () => setOpen(open === entry.seq ? undefined : entry.seq),
          },
          `${(entry.atMs / 1000).toFixed(3)}s ${describeEntry(entry)}${entry.violations ? ' ⚠ schema violation' : ''}`,
        ),
    }),
    selected === undefined
      ? null
      : h('div', { class: 'entry-detail', 'aria-label': 'Selected entry', role: 'region' }, [
          h('h3', null, `#${selected.seq} ${describeEntry(selected)}`),
          ...(selected.violations ?? []).map((violation) => h('pre', { class: 'error' }, violation)),
          h('pre', null, JSON.stringify(selected.kind === 'message' ? selected.message : selected, null, 2)),
        ]),
  ]);
}

export function describeEntry(entry: Entry): string {
  if (entry.kind === 'message') return `${entry.from === 'client' ? '→' : '←'} ${describeMessage(entry)}`;
  if (entry.kind === 'http')
    return `HTTP ${entry.method ?? ''} ${String(entry.status ?? 'failed')} ${entry.url ?? ''}${entry.eventId === undefined ? '' : ` (SSE id ${entry.eventId})`}`;
  return `${entry.kind}: ${entry.text ?? ''}`;
}

/** A message's one-line summary; multi-round-trip requests (2026-07-28) show as rounds. */
function describeMessage(entry: Entry): string {
  const message = (typeof entry.message === 'object' && entry.message !== null ? entry.message : {}) as Json;
  const sse = entry.eventId === undefined ? '' : ` [SSE id ${entry.eventId}]`;
  if (entry.method !== undefined) {
    const params = (message['params'] ?? {}) as Json;
    const inputs = params['inputResponses'] as Json | undefined;
    if (inputs !== undefined || params['requestState'] !== undefined)
      return `${entry.method} — next round${inputs === undefined ? '' : `, answering ${Object.keys(inputs).join(', ')}`}${sse}`;
    return `${entry.method}${sse}`;
  }
  if (typeof entry.message === 'string') return `not JSON: ${entry.message.slice(0, 80)}`;
  const result = message['result'] as Json | undefined;
  const of = entry.inReplyTo ?? 'a request';
  if (result?.['resultType'] === 'input_required') {
    const asks = Object.entries((result['inputRequests'] ?? {}) as Record<string, Json>).map(
      ([key, ask]) => `${key} (${String(ask?.['method'] ?? '?')})`,
    );
    return `${of}: input required${asks.length === 0 ? '' : ` — ${asks.join(', ')}`}${sse}`;
  }
  if (message['error'] !== undefined) return `error answering ${of}${sse}`;
  return `result of ${of}${sse}`;
}
