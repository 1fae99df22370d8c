/** The server screen: target, negotiated revision, info, capabilities, instructions; the config file's state. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';

export function ServerPanel({ state }: { state: Json }): ComponentChild {
  return h('section', null, [
    h('h2', null, 'Server'),
    h(ConfigFile, { state }),
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

/** `--config`: the file is read again when it changes, or on Reload; bad content keeps the previous list. */
function ConfigFile({ state }: { state: Json }): ComponentChild {
  const [failure, setFailure] = useState('');
  const config = state['config'] as Json | null | undefined;
  if (config === null || config === undefined) return null;
  const servers = (config['servers'] as string[] | undefined) ?? [];
  return h('div', { class: 'row', 'data-testid': 'config-file' }, [
    h('span', null, [
      'Config file ',
      h('code', null, String(config['path'])),
      `: ${servers.length} server${servers.length === 1 ? '' : 's'} (${servers.join(', ')})`,
    ]),
    h(
      'button',
      {
        onClick: () =>
          void api('config/reload', {}).then(
            () => setFailure(''),
            (error: Error) => setFailure(error.message),
          ),
      },
      'Reload config',
    ),
    config['error'] !== null && config['error'] !== undefined
      ? h('p', { class: 'error', role: 'alert' }, String(config['error']))
      : null,
    failure === '' ? null : h('p', { class: 'error', role: 'alert' }, failure),
  ]);
}
