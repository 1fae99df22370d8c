/** The server screen: target, negotiated revision, info, capabilities, instructions. */
import { h, type ComponentChild } from 'preact';
import type { Json } from './api.js';

export function ServerPanel({ state }: { state: Json }): ComponentChild {
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
