/**
 * The OAuth debugger: MCP authorization one step at a time — the 401 challenge, protected resource metadata,
 * authorization server metadata, registration (pre-registered, CIMD or DCR), authorization with PKCE, token,
 * refresh, the request with the token, step-up — each HTTP exchange shown and judged against the specification.
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Json } from './api.js';

interface Check {
  verdict: 'pass' | 'fail' | 'warn';
  text: string;
  ref: string;
}

interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  durationMs: number;
}

interface Step {
  name: string;
  title: string;
  status: 'pending' | 'done' | 'failed' | 'waiting' | 'skipped';
  exchanges: Exchange[];
  checks: Check[];
  found: Json;
  authorizationUrl?: string;
}

const MARK = { pass: '✓', fail: '✗', warn: '⚠' } as const;

/** The registration paths (MCP 2025-11-25 "Client Registration Approaches"). */
const REGISTRATIONS: readonly [string, string][] = [
  ['auto', 'Automatic (the spec’s order)'],
  ['pre-registered', 'Pre-registered (the id below)'],
  ['cimd', 'Client ID Metadata Document'],
  ['dcr', 'Dynamic Client Registration'],
];

export function OAuthPanel(props: {
  oauth: Json | undefined;
  onState: (state: Json) => void;
}): ComponentChild {
  const [clientId, setClientId] = useState('');
  const [scope, setScope] = useState('');
  const [registration, setRegistration] = useState('auto');
  const [clientMetadataUrl, setClientMetadataUrl] = useState('');
  const [stepUpTool, setStepUpTool] = useState('');
  const [stepUpArguments, setStepUpArguments] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    void api('oauth').then(props.onState, (failure: Error) => setError(failure.message));
  }, []);
  const act = (path: string, body: Json = {}) =>
    api(path, body).then(
      (state) => (setError(''), path === 'oauth/use' ? undefined : props.onState(state)),
      (failure: Error) => setError(failure.message),
    );
  const state = props.oauth;
  const steps = (state?.['steps'] as Step[] | undefined) ?? [];
  const failed = steps.some((step) => step.status === 'failed');
  const waiting = steps.some((step) => step.status === 'waiting');
  const finished = steps.every((step) => step.status !== 'pending');
  return h('section', { class: 'oauth' }, [
    h('h2', null, 'OAuth debugger'),
    h(
      'p',
      null,
      `Walks MCP authorization against ${String(state?.['serverUrl'] ?? 'the server')}, one step at a time. ` +
        `The authorization server redirects to ${String(state?.['redirectUri'] ?? 'this inspector')}.`,
    ),
    h('div', { class: 'row' }, [
      h('label', { class: 'field' }, [
        h('span', null, 'Registration'),
        h(
          'select',
          {
            'aria-label': 'Registration',
            value: registration,
            onChange: (event: Event) => setRegistration((event.target as HTMLSelectElement).value),
          },
          REGISTRATIONS.map(([value, label]) => h('option', { value }, label)),
        ),
      ]),
      h('label', { class: 'field' }, [
        h('span', null, 'Pre-registered client id (optional)'),
        h('input', {
          value: clientId,
          onInput: (event: Event) => setClientId((event.target as HTMLInputElement).value),
        }),
      ]),
      h('label', { class: 'field' }, [
        h('span', null, 'Client ID Metadata Document URL (https; empty: the inspector hosts one)'),
        h('input', {
          value: clientMetadataUrl,
          type: 'url',
          onInput: (event: Event) => setClientMetadataUrl((event.target as HTMLInputElement).value),
        }),
      ]),
      h('label', { class: 'field' }, [
        h('span', null, 'Scopes to ask for (optional)'),
        h('input', {
          value: scope,
          onInput: (event: Event) => setScope((event.target as HTMLInputElement).value),
        }),
      ]),
    ]),
    h('div', { class: 'row' }, [
      h('label', { class: 'field' }, [
        h('span', null, 'Step-up: a tool the token may not cover (optional)'),
        h('input', {
          value: stepUpTool,
          onInput: (event: Event) => setStepUpTool((event.target as HTMLInputElement).value),
        }),
      ]),
      h('label', { class: 'field' }, [
        h('span', null, 'Step-up: its arguments (JSON)'),
        h('input', {
          value: stepUpArguments,
          placeholder: '{}',
          onInput: (event: Event) => setStepUpArguments((event.target as HTMLInputElement).value),
        }),
      ]),
      h(
        'button',
        {
          onClick: () => {
            let args: Json;
            try {
              args = stepUpArguments.trim() === '' ? {} : (JSON.parse(stepUpArguments) as Json);
            } catch {
              setError('the step-up arguments are not JSON');
              return;
            }
            void act('oauth/reset', {
              clientId,
              scope,
              registration,
              clientMetadataUrl,
              stepUpTool,
              stepUpArguments: args,
            });
          },
        },
        'Start over',
      ),
    ]),
    h('div', { class: 'row' }, [
      h(
        'button',
        {
          class: 'primary',
          disabled: state?.['running'] === true || failed || waiting || finished,
          onClick: () => void act('oauth/next'),
        },
        'Next step',
      ),
      state?.['hasToken'] === true
        ? h('button', { onClick: () => void act('oauth/use') }, 'Connect with this token')
        : null,
    ]),
    error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
    h(
      'ol',
      { class: 'steps' },
      steps.map((step) => h(StepView, { step, key: step.name })),
    ),
  ]);
}

function StepView({ step }: { step: Step }): ComponentChild {
  return h('li', { class: `step ${step.status}`, 'data-step': step.name }, [
    h('h3', null, [step.title, h('span', { class: 'step-status' }, ` — ${step.status}`)]),
    step.authorizationUrl !== undefined && step.status === 'waiting'
      ? h('p', null, [
          h(
            'a',
            { href: step.authorizationUrl, target: '_blank', rel: 'noopener noreferrer' },
            'Open the authorization page',
          ),
          ' — sign in there; the inspector continues when the server redirects back.',
        ])
      : null,
    step.checks.length === 0
      ? null
      : h(
          'ul',
          { class: 'checks' },
          step.checks.map((check) =>
            h('li', { class: `check ${check.verdict}` }, [
              h('span', { 'aria-label': check.verdict }, `${MARK[check.verdict]} `),
              check.text,
              ' ',
              h('a', { href: check.ref, target: '_blank', rel: 'noopener noreferrer' }, '(spec)'),
            ]),
          ),
        ),
    ...step.exchanges.map((exchange) =>
      h('details', { class: 'exchange' }, [
        h(
          'summary',
          null,
          `${exchange.request.method} ${exchange.request.url} → ${
            exchange.response?.status ?? exchange.error ?? 'no response'
          } (${exchange.durationMs} ms)`,
        ),
        h('pre', null, describeExchange(exchange)),
      ]),
    ),
    Object.keys(step.found).length === 0
      ? null
      : h('details', null, [
          h('summary', null, 'Found'),
          h('pre', null, JSON.stringify(step.found, null, 2)),
        ]),
  ]);
}

function describeExchange(exchange: Exchange): string {
  const lines = [`${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) lines.push(`${name}: ${value}`);
  if (exchange.request.body !== undefined) lines.push('', exchange.request.body);
  lines.push('');
  if (exchange.response !== undefined) {
    lines.push(`HTTP ${exchange.response.status}`);
    for (const [name, value] of Object.entries(exchange.response.headers)) lines.push(`${name}: ${value}`);
    lines.push('', prettyJson(exchange.response.body));
  } else lines.push(`failed: ${exchange.error ?? ''}`);
  return lines.join('\n');
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
