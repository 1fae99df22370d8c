/** The session timeline: live or reopened from a saved file, violations flagged, exportable. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { token, type Entry, type Json } from './api.js';

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
  const shown = onlyViolations ? entries.filter((entry) => entry.violations !== undefined) : entries;
  const violations = entries.filter((entry) => entry.violations !== undefined).length;
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
    h(
      'ol',
      { class: 'timeline' },
      shown.slice(-500).map((entry) =>
        h('li', { key: entry.seq, class: entry.violations ? 'violation' : '' }, [
          h(
            'button',
            {
              'aria-expanded': open === entry.seq,
              onClick: () => setOpen(open === entry.seq ? undefined : entry.seq),
            },
            `${(entry.atMs / 1000).toFixed(3)}s ${describeEntry(entry)}${entry.violations ? ' ⚠ schema violation' : ''}`,
          ),
          open === entry.seq
            ? h('div', null, [
                ...(entry.violations ?? []).map((violation) => h('pre', { class: 'error' }, violation)),
                h('pre', null, JSON.stringify(entry.message ?? entry, null, 2)),
              ])
            : null,
        ]),
      ),
    ),
  ]);
}

function describeEntry(entry: Entry): string {
  if (entry.kind === 'message')
    return `${entry.from === 'client' ? '→' : '←'} ${entry.method ?? (entry.inReplyTo ? `result of ${entry.inReplyTo}` : 'response')}`;
  if (entry.kind === 'http') return `HTTP ${String(entry.status ?? 'failed')} ${entry.url ?? ''}`;
  return `${entry.kind}: ${entry.text ?? ''}`;
}
