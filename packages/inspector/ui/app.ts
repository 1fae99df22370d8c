/**
 * The inspector's page. Everything the server sends is shown as text, `data:` media or JSON — never as HTML —
 * so server content cannot run in this origin; the backend's CSP forbids inline scripts besides.
 */
import { h, render, type ComponentChild } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppPanel } from './apps/host.js';
import { Field, RawJsonField, initialValue, type Schema } from './schema-form.js';

type Json = Record<string, unknown>;

const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

async function api(path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as Json;
  if (!response.ok) throw new Error(String(parsed['error'] ?? response.statusText));
  return parsed;
}

interface Ask {
  id: number;
  kind: 'sampling' | 'elicitation';
  params: Json;
}

interface Entry {
  seq: number;
  atMs: number;
  kind: string;
  from?: string;
  method?: string;
  inReplyTo?: string;
  message?: unknown;
  violations?: string[];
  text?: string;
  status?: number;
  url?: string;
}

/** Follows the backend's NDJSON event stream (fetch, so that the token travels in a header). */
function useEvents(onEvent: (event: Json) => void): void {
  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      const response = await fetch('/api/events', {
        headers: { authorization: `Bearer ${token}` },
        signal: abort.signal,
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim() !== '') onEvent(JSON.parse(line) as Json);
        }
      }
    })().catch(() => {});
    return () => abort.abort();
  }, []);
}

function App(): ComponentChild {
  const [state, setState] = useState<Json>({});
  const [entries, setEntries] = useState<Entry[]>([]);
  const [asks, setAsks] = useState<Ask[]>([]);
  const [progress, setProgress] = useState<Record<string, Json>>({});
  const [tab, setTab] = useState('server');
  useEvents((event) => {
    switch (event['type']) {
      case 'state': {
        const next = event['state'] as Json;
        setState(next);
        setAsks((next['asks'] as Ask[]) ?? []);
        if (next['connecting'] === true) setEntries([]);
        break;
      }
      case 'entry':
        setEntries((old) => [...old, event['entry'] as Entry]);
        break;
      case 'ask':
        setAsks((old) => [...old, event as unknown as Ask]);
        break;
      case 'answered':
        setAsks((old) => old.filter((ask) => ask.id !== event['id']));
        break;
      case 'progress':
        setProgress((old) => ({ ...old, [String(event['callId'])]: event['progress'] as Json }));
        break;
    }
  });
  const connected = state['connected'] === true;
  const info = state['info'] as Json | undefined;
  const tabs = ['server', 'tools', 'resources', 'prompts', 'timeline'];
  return h('div', { class: 'app' }, [
    h('header', null, [
      h('h1', null, 'MCPEngine Inspector'),
      h('span', { class: 'status', 'data-testid': 'status' }, [
        connected
          ? `Connected to ${String(info?.['name'] ?? 'server')} at ${String(state['revision'])} (${String(state['era'])} era)`
          : state['connecting'] === true
            ? 'Connecting…'
            : 'Not connected',
      ]),
      connected
        ? h('button', { onClick: () => void api('disconnect', {}) }, 'Disconnect')
        : h(
            'button',
            { disabled: state['target'] === null, onClick: () => void api('connect', {}) },
            'Connect',
          ),
      state['error'] ? h('p', { class: 'error', role: 'alert' }, String(state['error'])) : null,
    ]),
    asks.length > 0 ? h(Asks, { asks }) : null,
    h(
      'nav',
      { role: 'tablist', 'aria-label': 'Sections' },
      tabs.map((name) =>
        h(
          'button',
          { role: 'tab', 'aria-selected': tab === name, id: `tab-${name}`, onClick: () => setTab(name) },
          name[0]!.toUpperCase() + name.slice(1),
        ),
      ),
    ),
    h('main', { role: 'tabpanel', 'aria-labelledby': `tab-${tab}` }, [
      tab === 'server' ? h(ServerPanel, { state }) : null,
      tab === 'tools' && connected ? h(ToolsPanel, { progress }) : null,
      tab === 'resources' && connected ? h(ResourcesPanel, null) : null,
      tab === 'prompts' && connected ? h(PromptsPanel, null) : null,
      tab === 'timeline' ? h(TimelinePanel, { entries }) : null,
    ]),
  ]);
}

function ServerPanel({ state }: { state: Json }): ComponentChild {
  return h('section', null, [
    h('h2', null, 'Server'),
    h('dl', null, [
      h('dt', null, 'Target'),
      h('dd', null, h('code', null, JSON.stringify(state['target']))),
      h('dt', null, 'Revision'),
      h('dd', { 'data-testid': 'revision' }, String(state['revision'] ?? '—')),
      h('dt', null, 'Server info'),
      h('dd', null, h('pre', null, JSON.stringify(state['info'] ?? null, null, 2))),
      h('dt', null, 'Capabilities'),
      h('dd', null, h('pre', null, JSON.stringify(state['capabilities'] ?? null, null, 2))),
      h('dt', null, 'Instructions'),
      h('dd', { class: 'instructions' }, String(state['instructions'] ?? '—')),
    ]),
  ]);
}

/** The server's requests, answered by the user. */
function Asks({ asks }: { asks: Ask[] }): ComponentChild {
  return h(
    'section',
    { class: 'asks', 'aria-live': 'polite' },
    asks.map((ask) =>
      ask.kind === 'sampling'
        ? h(SamplingAsk, { ask, key: ask.id })
        : h(ElicitationAsk, { ask, key: ask.id }),
    ),
  );
}

function SamplingAsk({ ask }: { ask: Ask }): ComponentChild {
  const [reply, setReply] = useState('');
  const messages = (ask.params['messages'] as Json[] | undefined) ?? [];
  return h('div', { class: 'ask', role: 'group', 'aria-label': 'Sampling request' }, [
    h('h2', null, 'The server asks for a model reply (sampling)'),
    ...messages.map((message) =>
      h('p', null, [h('strong', null, `${String(message['role'])}: `), contentText(message['content'])]),
    ),
    h('label', { class: 'field' }, [
      h('span', null, 'Your reply as the model'),
      h('textarea', {
        id: `sampling-reply-${ask.id}`,
        rows: 3,
        value: reply,
        onInput: (event: Event) => setReply((event.target as HTMLTextAreaElement).value),
      }),
    ]),
    h(
      'button',
      {
        onClick: () =>
          void api('answer', {
            id: ask.id,
            result: {
              role: 'assistant',
              content: { type: 'text', text: reply },
              model: 'inspector-user',
              stopReason: 'endTurn',
            },
          }),
      },
      'Send reply',
    ),
    h('button', { onClick: () => void api('answer', { id: ask.id, decline: true }) }, 'Decline'),
  ]);
}

function ElicitationAsk({ ask }: { ask: Ask }): ComponentChild {
  const schema = (ask.params['requestedSchema'] as Schema | undefined) ?? { type: 'object', properties: {} };
  const [content, setContent] = useState<unknown>(() => initialValue(schema));
  const url = ask.params['url'];
  return h('div', { class: 'ask', role: 'group', 'aria-label': 'Elicitation request' }, [
    h('h2', null, 'The server asks you (elicitation)'),
    h('p', null, String(ask.params['message'] ?? '')),
    typeof url === 'string' ? h('p', null, ['Open this address yourself: ', h('code', null, url)]) : null,
    typeof url === 'string'
      ? null
      : h(Field, { schema, value: content, onChange: setContent, path: `elicit-${ask.id}`, label: 'Answer' }),
    h(
      'button',
      {
        onClick: () =>
          void api('answer', {
            id: ask.id,
            result: typeof url === 'string' ? { action: 'accept' } : { action: 'accept', content },
          }),
      },
      'Accept',
    ),
    h(
      'button',
      { onClick: () => void api('answer', { id: ask.id, result: { action: 'decline' } }) },
      'Decline',
    ),
    h(
      'button',
      { onClick: () => void api('answer', { id: ask.id, result: { action: 'cancel' } }) },
      'Cancel',
    ),
  ]);
}

function contentText(content: unknown): string {
  const block = content as Json | undefined;
  return block?.['type'] === 'text' ? String(block['text']) : JSON.stringify(content);
}

/** Shows at most this many list rows; search narrows the rest (1,000+ tools stay fast). */
const WINDOW = 100;

function useList(method: string, key: string): Json[] {
  const [items, setItems] = useState<Json[]>([]);
  useEffect(() => {
    void api('request', { method, params: {} }).then((answer) => {
      const result = answer['result'] as Json | undefined;
      setItems((result?.[key] as Json[] | undefined) ?? []);
    });
  }, [method]);
  return items;
}

function SearchList(props: {
  items: Json[];
  label: string;
  nameOf: (item: Json) => string;
  onPick: (item: Json) => void;
}): ComponentChild {
  const [query, setQuery] = useState('');
  const matches = useMemo(
    () => props.items.filter((item) => JSON.stringify(item).toLowerCase().includes(query.toLowerCase())),
    [props.items, query],
  );
  return h('div', { class: 'list' }, [
    h('input', {
      type: 'search',
      'aria-label': `Search ${props.label}`,
      placeholder: `Search ${props.items.length} ${props.label}`,
      value: query,
      onInput: (event: Event) => setQuery((event.target as HTMLInputElement).value),
    }),
    h(
      'ul',
      null,
      matches
        .slice(0, WINDOW)
        .map((item) =>
          h(
            'li',
            { key: props.nameOf(item) },
            h('button', { onClick: () => props.onPick(item) }, props.nameOf(item)),
          ),
        ),
    ),
    matches.length > WINDOW ? h('p', null, `${WINDOW} of ${matches.length} shown; search to narrow`) : null,
  ]);
}

function ToolsPanel({ progress }: { progress: Record<string, Json> }): ComponentChild {
  const tools = useList('tools/list', 'tools');
  const [tool, setTool] = useState<Json | undefined>();
  return h('section', { class: 'split' }, [
    h(SearchList, { items: tools, label: 'tools', nameOf: (item) => String(item['name']), onPick: setTool }),
    tool === undefined
      ? h('p', null, 'Pick a tool.')
      : h(ToolCall, { tool, progress, key: String(tool['name']) }),
  ]);
}

let calls = 0;

function ToolCall({ tool, progress }: { tool: Json; progress: Record<string, Json> }): ComponentChild {
  const schema = (tool['inputSchema'] as Schema | undefined) ?? { type: 'object' };
  const [args, setArgs] = useState<unknown>(() => initialValue(schema));
  const [raw, setRaw] = useState(false);
  const [callId, setCallId] = useState('');
  const [answer, setAnswer] = useState<Json | undefined>();
  const call = async () => {
    const id = `call-${++calls}`;
    setCallId(id);
    setAnswer(undefined);
    setAnswer(await api('call-tool', { name: tool['name'], arguments: args ?? {}, callId: id }));
  };
  const current = progress[callId];
  return h('div', { class: 'tool' }, [
    h('h2', null, String(tool['title'] ?? tool['name'])),
    h('p', null, String(tool['description'] ?? '')),
    tool['annotations']
      ? h('p', { class: 'annotations' }, `Annotations: ${JSON.stringify(tool['annotations'])}`)
      : null,
    h('label', { class: 'field inline' }, [
      h('input', { type: 'checkbox', checked: raw, onChange: () => setRaw(!raw) }),
      h('span', null, 'Edit arguments as raw JSON'),
    ]),
    raw
      ? h(RawJsonField, { schema, value: args, onChange: setArgs, path: 'args', label: 'Arguments' })
      : h(Field, { schema, value: args, onChange: setArgs, path: 'args', label: 'Arguments' }),
    h('button', { class: 'primary', onClick: () => void call() }, 'Call tool'),
    current
      ? h('div', { class: 'progress' }, [
          h('progress', {
            'aria-label': 'Progress',
            value: Number(current['progress']),
            ...(current['total'] === undefined ? {} : { max: Number(current['total']) }),
          }),
          h(
            'span',
            { 'data-testid': 'progress-text' },
            `${String(current['progress'])}${current['total'] === undefined ? '' : ` / ${String(current['total'])}`} ${String(current['message'] ?? '')}`,
          ),
        ])
      : null,
    answer === undefined ? null : h(ToolResult, { answer }),
    h(AppPanel, { tool, args, answer, callId, api }),
  ]);
}

function ToolResult({ answer }: { answer: Json }): ComponentChild {
  if (answer['error'] !== undefined)
    return h(
      'div',
      { class: 'result error', role: 'alert', 'data-testid': 'result' },
      `Error: ${JSON.stringify(answer['error'])}`,
    );
  const result = answer['result'] as Json;
  const content = (result['content'] as Json[] | undefined) ?? [];
  return h('div', { class: `result${result['isError'] === true ? ' error' : ''}`, 'data-testid': 'result' }, [
    result['isError'] === true ? h('p', null, 'The tool reported an error (isError)') : null,
    ...((answer['outputFindings'] as string[] | undefined) ?? []).map((finding) =>
      h('p', { class: 'error', role: 'alert' }, `Output check: ${finding}`),
    ),
    ...content.map((block, index) => h(ContentBlock, { block, key: index })),
    result['structuredContent'] === undefined
      ? null
      : h('div', null, [
          h('h3', null, 'Structured content'),
          h('pre', null, JSON.stringify(result['structuredContent'], null, 2)),
        ]),
  ]);
}

/** One content block, by type; text is text (never HTML), media are `data:` URLs. */
function ContentBlock({ block }: { block: Json }): ComponentChild {
  const type = block['type'];
  const mime = String(block['mimeType'] ?? '');
  if (type === 'text') return h('pre', { class: 'text' }, String(block['text']));
  if (type === 'image')
    return h('img', { alt: 'image from the server', src: `data:${mime};base64,${String(block['data'])}` });
  if (type === 'audio')
    return h('audio', { controls: true, src: `data:${mime};base64,${String(block['data'])}` });
  if (type === 'resource_link')
    return h('p', null, ['Link: ', h('code', null, String(block['uri'])), ` ${String(block['name'] ?? '')}`]);
  if (type === 'resource') return h(ResourceContents, { contents: [block['resource'] as Json] });
  return h('pre', null, JSON.stringify(block, null, 2));
}

function ResourceContents({ contents }: { contents: Json[] }): ComponentChild {
  return h(
    'div',
    null,
    contents.map((item) => {
      const mime = String(item['mimeType'] ?? '');
      const body =
        typeof item['text'] === 'string'
          ? h('pre', null, item['text'])
          : mime.startsWith('image/')
            ? h('img', { alt: String(item['uri']), src: `data:${mime};base64,${String(item['blob'])}` })
            : mime.startsWith('audio/')
              ? h('audio', { controls: true, src: `data:${mime};base64,${String(item['blob'])}` })
              : h(
                  'p',
                  null,
                  `${mime || 'binary'} content, ${String(item['blob'] ?? '').length} base64 characters`,
                );
      return h('div', { class: 'resource' }, [h('code', null, String(item['uri'])), body]);
    }),
  );
}

function ResourcesPanel(): ComponentChild {
  const resources = useList('resources/list', 'resources');
  const templates = useList('resources/templates/list', 'resourceTemplates');
  const [read, setRead] = useState<Json | undefined>();
  const open = async (uri: string) =>
    setRead(await api('request', { method: 'resources/read', params: { uri } }));
  return h('section', { class: 'split' }, [
    h('div', null, [
      h(SearchList, {
        items: resources,
        label: 'resources',
        nameOf: (item) => String(item['uri']),
        onPick: (item) => void open(String(item['uri'])),
      }),
      h('h3', null, 'Templates'),
      h(
        'ul',
        null,
        templates.map((item) => h('li', null, h('code', null, String(item['uriTemplate'])))),
      ),
    ]),
    read === undefined
      ? h('p', null, 'Pick a resource.')
      : read['error'] !== undefined
        ? h('p', { class: 'error' }, JSON.stringify(read['error']))
        : h(ResourceContents, { contents: ((read['result'] as Json)['contents'] as Json[]) ?? [] }),
  ]);
}

function PromptsPanel(): ComponentChild {
  const prompts = useList('prompts/list', 'prompts');
  const [prompt, setPrompt] = useState<Json | undefined>();
  const [args, setArgs] = useState<Record<string, string>>({});
  const [got, setGot] = useState<Json | undefined>();
  const declared = (prompt?.['arguments'] as Json[] | undefined) ?? [];
  return h('section', { class: 'split' }, [
    h(SearchList, {
      items: prompts,
      label: 'prompts',
      nameOf: (item) => String(item['name']),
      onPick: (item) => (setPrompt(item), setArgs({}), setGot(undefined)),
    }),
    prompt === undefined
      ? h('p', null, 'Pick a prompt.')
      : h('div', null, [
          h('h2', null, String(prompt['name'])),
          ...declared.map((arg) =>
            h('label', { class: 'field' }, [
              h('span', null, `${String(arg['name'])}${arg['required'] ? ' *' : ''}`),
              h('input', {
                value: args[String(arg['name'])] ?? '',
                onInput: (event: Event) =>
                  setArgs({ ...args, [String(arg['name'])]: (event.target as HTMLInputElement).value }),
              }),
            ]),
          ),
          h(
            'button',
            {
              onClick: () =>
                void api('request', {
                  method: 'prompts/get',
                  params: { name: prompt['name'], arguments: args },
                }).then(setGot),
            },
            'Get prompt',
          ),
          got === undefined ? null : h('pre', null, JSON.stringify(got, null, 2)),
        ]),
  ]);
}

/** A saved session file (JSON Lines: a header, then entries), read in the page; nothing is uploaded. */
async function readSessionFile(file: File): Promise<{ name: string; entries: Entry[] }> {
  const lines = (await file.text()).split('\n').filter((line) => line.trim() !== '');
  const header = JSON.parse(lines[0] ?? '{}') as Json;
  if (header['format'] !== 'mcpengine-inspect-session')
    throw new Error(`${file.name} is not an inspector session`);
  return { name: file.name, entries: lines.slice(1).map((line) => JSON.parse(line) as Entry) };
}

function TimelinePanel({ entries: live }: { entries: Entry[] }): ComponentChild {
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

render(h(App, null), document.getElementById('app')!);
