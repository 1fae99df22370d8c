/**
 * The inspector's MCP Apps reference host, in the page (apps.mdx, SEP-1865, 2026-01-26).
 *
 * A tool whose `_meta.ui.resourceUri` (or the deprecated `_meta["ui/resourceUri"]`) names a `ui://` resource gets
 * an "Open app view" button. The View runs in a sandbox proxy on another origin (the backend's second listener),
 * in a frame with `sandbox="allow-scripts allow-same-origin"`; the proxy runs the View's HTML in an inner frame
 * under the CSP built from its declared domains. This module is the Host: it answers `ui/initialize` with host
 * context and capabilities, sends nothing before `ui/notifications/initialized`, then the tool input and the
 * result (or `tool-cancelled`), forwards the View's MCP requests to the backend (which enforces visibility),
 * follows size changes and display-mode requests, tears the View down with `ui/resource-teardown`, and records
 * every postMessage in the session timeline.
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appResourceUri, mountAppView, type Api, type Json, type Opened, type ViewBridge } from './bridge.js';

export { appResourceUri, type Api } from './bridge.js';

/** The "App view" of a tool with a UI resource: a button, then the rendered View for the latest call. */
export function AppPanel(props: {
  tool: Json;
  args: unknown;
  answer: Json | undefined;
  callId: string;
  api: Api;
}): ComponentChild {
  const uri = appResourceUri(props.tool);
  const [open, setOpen] = useState(false);
  if (uri === undefined) return null;
  return h('section', { class: 'app-panel', 'aria-label': 'MCP App' }, [
    h('p', null, ['This tool has an MCP App view: ', h('code', null, uri)]),
    open
      ? h(AppFrame, {
          // A new call is a new View ("tool-input … is sent at most once").
          key: props.callId,
          uri,
          tool: props.tool,
          args: props.args,
          answer: props.answer,
          api: props.api,
          onClosed: () => setOpen(false),
        })
      : h('button', { onClick: () => setOpen(true), disabled: props.callId === '' }, 'Open app view'),
  ]);
}

function AppFrame(props: {
  uri: string;
  tool: Json;
  args: unknown;
  answer: Json | undefined;
  api: Api;
  onClosed: () => void;
}): ComponentChild {
  const box = useRef<HTMLDivElement>(null);
  const bridge = useRef<ViewBridge | undefined>(undefined);
  const [status, setStatus] = useState('loading');
  const [opened, setOpened] = useState<Opened | undefined>();
  const [height, setHeight] = useState<number | undefined>();
  const [mode, setMode] = useState('inline');
  const [theme, setTheme] = useState<'light' | 'dark'>(
    matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  const [notes, setNotes] = useState<{ kind: string; value: unknown }[]>([]);
  const [error, setError] = useState('');
  const close = async () => {
    const current = bridge.current;
    setStatus('tearing down');
    await current?.teardown('the user closed the view');
    if (current !== undefined)
      await props.api('apps/close', { viewId: current.opened.viewId }).catch(() => {});
    props.onClosed();
  };

  useEffect(() => {
    let detach: (() => void) | undefined;
    let cancelled = false;
    void props.api('apps/open', { uri: props.uri, toolName: props.tool['name'] }).then(
      (answer) => {
        if (cancelled || box.current === null) return;
        const view = answer as unknown as Opened;
        setOpened(view);
        const mounted = mountAppView({
          opened: view,
          container: box.current,
          uri: props.uri,
          tool: props.tool,
          args: props.args,
          answer: props.answer,
          api: props.api,
          events: {
            status: setStatus,
            size: setHeight,
            mode: setMode,
            note: (kind, value) => setNotes((old) => [...old, { kind, value }]),
            teardown: () => void close(),
          },
          theme,
        });
        bridge.current = mounted.bridge;
        detach = mounted.detach;
        setStatus('waiting for the view');
      },
      (failure: Error) => setError(failure.message),
    );
    return () => {
      cancelled = true;
      const current = bridge.current;
      if (current !== undefined)
        void props.api('apps/close', { viewId: current.opened.viewId }).catch(() => {});
      detach?.();
    };
  }, []);

  useEffect(() => bridge.current?.setResult(props.answer), [props.answer]);

  return h(
    'div',
    {
      class: `app-view mode-${mode}${opened?.prefersBorder === false ? ' borderless' : ''}`,
      'data-testid': 'app-view',
      'data-display-mode': mode,
    },
    [
      h('div', { class: 'app-toolbar' }, [
        h('span', { 'data-testid': 'app-status' }, `View: ${status}`),
        h('label', { class: 'field inline' }, [
          h('span', null, 'Theme'),
          h(
            'select',
            {
              value: theme,
              onChange: (event: Event) => {
                const next = (event.target as HTMLSelectElement).value === 'dark' ? 'dark' : 'light';
                setTheme(next);
                bridge.current?.setTheme(next);
              },
            },
            [h('option', { value: 'light' }, 'light'), h('option', { value: 'dark' }, 'dark')],
          ),
        ]),
        h('button', { onClick: () => void close() }, 'Close app view'),
      ]),
      error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
      opened === undefined
        ? null
        : h('details', { class: 'app-policy' }, [
            h('summary', null, 'Sandbox and Content Security Policy'),
            h('pre', { 'data-testid': 'app-csp' }, opened.header),
            opened.allow === '' ? null : h('p', null, `allow: ${opened.allow}`),
            ...opened.warnings.map((warning) => h('p', { class: 'error' }, warning)),
          ]),
      h('div', {
        ref: box,
        class: 'app-frame-box',
        style: height === undefined ? undefined : { height: `${height}px` },
      }),
      notes.length === 0
        ? null
        : h(
            'ul',
            { class: 'app-notes', 'data-testid': 'app-notes', 'aria-label': 'From the view' },
            notes.map((note, index) =>
              h('li', { key: index }, [
                h('strong', null, `${note.kind}: `),
                note.kind === 'link'
                  ? h(
                      'a',
                      { href: String(note.value), target: '_blank', rel: 'noopener noreferrer' },
                      String(note.value),
                    )
                  : h('code', null, JSON.stringify(note.value)),
              ]),
            ),
          ),
    ],
  );
}
