/**
 * What the client side offers the server, set by the user: the log level and the log messages and other
 * notifications that arrive (from the timeline), and the roots (`roots/list`).
 */
import { h, type ComponentChild } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api, type Entry, type Json } from './api.js';
import { VirtualList } from './virtual-list.js';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function LogsPanel({ state, entries }: { state: Json; entries: Entry[] }): ComponentChild {
  const [onlyLogs, setOnlyLogs] = useState(true);
  const [error, setError] = useState('');
  const notifications = useMemo(
    () =>
      entries.filter(
        (entry) =>
          entry.kind === 'message' &&
          entry.from === 'server' &&
          entry.method?.startsWith('notifications/') === true &&
          entry.method !== 'notifications/progress' &&
          (!onlyLogs || entry.method === 'notifications/message'),
      ),
    [entries, onlyLogs],
  );
  const modern = state['era'] === 'modern';
  return h('section', null, [
    h('h2', null, 'Logs and notifications'),
    h('label', { class: 'field inline' }, [
      h('span', null, 'Log level'),
      h(
        'select',
        {
          'aria-label': 'Log level',
          value: String(state['logLevel'] ?? ''),
          onChange: (event: Event) =>
            void api('log-level', { level: (event.target as HTMLSelectElement).value }).then(
              (answer) => setError(answer['error'] === undefined ? '' : JSON.stringify(answer['error'])),
              (failure: Error) => setError(failure.message),
            ),
        },
        [
          h('option', { value: '', disabled: true }, '(server default)'),
          ...LEVELS.map((level) => h('option', { value: level }, level)),
        ],
      ),
    ]),
    h(
      'p',
      { class: 'help' },
      modern
        ? 'Modern era: the level travels with every request; changing it reconnects.'
        : 'Legacy era: logging/setLevel is sent at once.',
    ),
    error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
    modern ? h(Listen, { state }) : null,
    h('label', { class: 'field inline' }, [
      h('input', { type: 'checkbox', checked: onlyLogs, onChange: () => setOnlyLogs(!onlyLogs) }),
      h('span', null, 'Log messages only (else every notification but progress)'),
    ]),
    h('p', { 'data-testid': 'notification-count' }, `${notifications.length} shown`),
    h(VirtualList<Entry>, {
      items: notifications,
      rowHeight: 28,
      height: 420,
      label: 'Notifications',
      class: 'timeline',
      follow: true,
      keyOf: (entry) => entry.seq,
      row: (entry) => h('span', { class: 'log-line' }, describeNotification(entry)),
    }),
  ]);
}

function describeNotification(entry: Entry): string {
  const params = ((entry.message as Json | undefined)?.['params'] ?? {}) as Json;
  const time = `${(entry.atMs / 1000).toFixed(3)}s`;
  if (entry.method === 'notifications/message') {
    const data = typeof params['data'] === 'string' ? params['data'] : JSON.stringify(params['data']);
    return `${time} [${String(params['level'])}]${params['logger'] === undefined ? '' : ` ${String(params['logger'])}:`} ${data}`;
  }
  const { _meta: _ignored, ...rest } = params;
  return `${time} ${entry.method ?? ''} ${Object.keys(rest).length === 0 ? '' : JSON.stringify(rest)}`;
}

export function RootsPanel({ state }: { state: Json }): ComponentChild {
  const roots = (state['roots'] as Json[] | undefined) ?? [];
  const [uri, setUri] = useState('file:///');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const save = (next: Json[]) =>
    api('roots', { roots: next }).then(
      () => setError(''),
      (failure: Error) => setError(failure.message),
    );
  return h('section', null, [
    h('h2', null, 'Roots'),
    h(
      'p',
      { class: 'help' },
      'The directories the server may work in, answered to its roots/list requests (legacy: the server is told when they change).',
    ),
    h(
      'ul',
      { 'aria-label': 'Roots' },
      roots.map((root, index) =>
        h('li', { key: String(root['uri']) }, [
          h('code', null, String(root['uri'])),
          root['name'] === undefined ? '' : ` ${String(root['name'])}`,
          h(
            'button',
            { onClick: () => void save(roots.filter((_, at) => at !== index)) },
            `Remove ${String(root['uri'])}`,
          ),
        ]),
      ),
    ),
    h('div', { class: 'row' }, [
      h('label', { class: 'field' }, [
        h('span', null, 'Root URI'),
        h('input', {
          value: uri,
          onInput: (event: Event) => setUri((event.target as HTMLInputElement).value),
        }),
      ]),
      h('label', { class: 'field' }, [
        h('span', null, 'Root name'),
        h('input', {
          value: name,
          onInput: (event: Event) => setName((event.target as HTMLInputElement).value),
        }),
      ]),
      h(
        'button',
        { onClick: () => void save([...roots, { uri, ...(name === '' ? {} : { name }) }]) },
        'Add root',
      ),
    ]),
    error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
  ]);
}

const FLAGS = [
  ['toolsListChanged', 'Tool list changes'],
  ['promptsListChanged', 'Prompt list changes'],
  ['resourcesListChanged', 'Resource list changes'],
] as const;

/** Modern era: one `subscriptions/listen` stream, its filter chosen here; what the server acknowledged shown. */
function Listen({ state }: { state: Json }): ComponentChild {
  const listening = state['listening'] as Json | null | undefined;
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [uris, setUris] = useState('');
  const [error, setError] = useState('');
  const listen = (filter: Json | null) =>
    api('listen', { filter }).then(
      (answer) => setError(answer['error'] === undefined ? '' : JSON.stringify(answer['error'])),
      (failure: Error) => setError(failure.message),
    );
  return h('fieldset', { class: 'field' }, [
    h('legend', null, 'Subscriptions (subscriptions/listen)'),
    ...FLAGS.map(([flag, label]) =>
      h('label', { class: 'field inline' }, [
        h('input', {
          type: 'checkbox',
          checked: flags[flag] === true,
          onChange: () => setFlags({ ...flags, [flag]: !flags[flag] }),
        }),
        h('span', null, label),
      ]),
    ),
    h('label', { class: 'field' }, [
      h('span', null, 'Resource URIs to watch (one a line)'),
      h('textarea', {
        rows: 2,
        value: uris,
        onInput: (event: Event) => setUris((event.target as HTMLTextAreaElement).value),
      }),
    ]),
    h(
      'button',
      {
        onClick: () =>
          void listen({
            ...flags,
            resourceSubscriptions: uris
              .split('\n')
              .map((uri) => uri.trim())
              .filter((uri) => uri !== ''),
          }),
      },
      'Listen',
    ),
    listening ? h('button', { onClick: () => void listen(null) }, 'Stop listening') : null,
    h(
      'p',
      { 'data-testid': 'listening' },
      listening ? `Listening; the server acknowledged ${JSON.stringify(listening)}` : 'Not listening',
    ),
    error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
  ]);
}
