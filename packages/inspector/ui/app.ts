/**
 * The inspector's page. Everything the server sends is shown as text, `data:` media or JSON — never as HTML —
 * so server content cannot run in this origin; the backend's CSP forbids inline scripts besides.
 */
import { h, render, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, useEvents, type Ask, type Entry, type Json } from './api.js';
import { Asks } from './asks.js';
import { LogsPanel, RootsPanel } from './client-screens.js';
import { OAuthPanel } from './oauth-screen.js';
import { PromptsPanel } from './prompts-screen.js';
import { ResourcesPanel } from './resources-screen.js';
import { ServerPanel } from './server-screen.js';
import { TimelinePanel } from './timeline-screen.js';
import { ToolsPanel } from './tools-screen.js';

const LABELS: Record<string, string> = { oauth: 'OAuth', logs: 'Logs' };
/** Entries the page keeps (the backend keeps more, and exports them all). */
const MAX_ENTRIES = 20_000;
/** Entries arrived and not yet shown. */
const pending: Entry[] = [];

function App(): ComponentChild {
  const [state, setState] = useState<Json>({});
  const [entries, setEntries] = useState<Entry[]>([]);
  const [asks, setAsks] = useState<Ask[]>([]);
  const [progress, setProgress] = useState<Record<string, Json>>({});
  const [tab, setTab] = useState('server');
  const [oauth, setOAuth] = useState<Json | undefined>();
  const flush = () => {
    const batch = pending.splice(0);
    setEntries((old) => {
      const next = old.concat(batch);
      return next.length > MAX_ENTRIES ? next.slice(next.length - MAX_ENTRIES) : next;
    });
  };
  useEvents((event) => {
    switch (event['type']) {
      case 'state': {
        const next = event['state'] as Json;
        setState(next);
        setAsks((next['asks'] as Ask[]) ?? []);
        if (next['connecting'] === true) {
          pending.length = 0;
          setEntries([]);
        }
        break;
      }
      case 'entry':
        pending.push(event['entry'] as Entry);
        // A flooding server sends thousands a second: the page takes them in batches.
        if (pending.length === 1) setTimeout(flush, 50);
        break;
      case 'ask':
        setAsks((old) => [...old, event as unknown as Ask]);
        break;
      case 'answered':
        setAsks((old) => old.filter((ask) => ask.id !== event['id']));
        break;
      case 'oauth':
        setOAuth(event['state'] as Json);
        break;
      case 'progress':
        setProgress((old) => ({ ...old, [String(event['callId'])]: event['progress'] as Json }));
        break;
    }
  });
  const connected = state['connected'] === true;
  const info = state['info'] as Json | undefined;
  const http = (state['target'] as Json | null | undefined)?.['kind'] === 'http';
  const tabs = [
    'server',
    'tools',
    'resources',
    'prompts',
    'logs',
    'roots',
    'timeline',
    ...(http ? ['oauth'] : []),
  ];
  return h('div', { class: 'app' }, [
    h('header', null, [
      h('h1', null, 'MCPEngine Inspector'),
      h(ServerPicker, { state }),
      h('span', { class: 'status', 'data-testid': 'status' }, [
        connected
          ? `Connected to ${String(info?.['name'] ?? 'server')} at ${String(state['revision'])} (${String(state['era'])} era)`
          : state['connecting'] === true
            ? 'Connecting…'
            : 'Not connected',
        state['authorized'] === true ? ' (with the OAuth debugger’s token)' : '',
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
          LABELS[name] ?? name[0]!.toUpperCase() + name.slice(1),
        ),
      ),
    ),
    h('main', { role: 'tabpanel', 'aria-labelledby': `tab-${tab}` }, [
      tab === 'server' ? h(ServerPanel, { state }) : null,
      tab === 'tools' && connected ? h(ToolsPanel, { progress }) : null,
      tab === 'resources' && connected ? h(ResourcesPanel, { state }) : null,
      tab === 'prompts' && connected ? h(PromptsPanel, null) : null,
      tab === 'logs' && connected ? h(LogsPanel, { state, entries }) : null,
      tab === 'roots' ? h(RootsPanel, { state }) : null,
      tab === 'timeline' ? h(TimelinePanel, { entries }) : null,
      tab === 'oauth' && http ? h(OAuthPanel, { oauth, onState: setOAuth }) : null,
    ]),
  ]);
}

/** The servers given at launch (command line, `--config`): the page chooses among them by name only. */
function ServerPicker({ state }: { state: Json }): ComponentChild {
  const targets = (state['targets'] as Json[] | undefined) ?? [];
  if (targets.length < 2) return null;
  return h('label', { class: 'field inline' }, [
    h('span', null, 'Server'),
    h(
      'select',
      {
        'aria-label': 'Server',
        value: String(state['targetName'] ?? ''),
        onChange: (event: Event) =>
          void api('target', { name: (event.target as HTMLSelectElement).value }).catch(() => undefined),
      },
      targets.map((named) => h('option', { value: String(named['name']) }, String(named['name']))),
    ),
  ]);
}

render(h(App, null), document.getElementById('app')!);
