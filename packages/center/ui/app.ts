/**
 * The command center's dashboard: plain DOM (no framework; see docs/design.md), three pages routed by the URL
 * hash — the fleet, a server, a run — and live progress from the API's event stream. Every value shown comes from
 * the API; text is set with textContent, never parsed as HTML.
 */

import { mountAppView, type MountedView } from '@mcpengine/inspector/apps-page';

// The API's JSON, read as the server writes it (the types live server-side).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const token = new URLSearchParams(location.search).get('token') ?? '';
const main = document.getElementById('main')!;
const live = document.getElementById('live')!;

function api(path: string, init: RequestInit = {}): Promise<Json> {
  const separator = path.includes('?') ? '&' : '?';
  return fetch(`/api/${path}${separator}token=${encodeURIComponent(token)}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  }).then(async (response) => {
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
    return body;
  });
}

type Child = Node | string | number | null | undefined | false;

/** The page's content; absent parts (`null`, `false`) are left out, never shown as text. */
function show(...children: Child[]): void {
  main.replaceChildren(
    ...children
      .filter((child) => child !== null && child !== undefined && child !== false)
      .map((child) => (child instanceof Node ? child : String(child))),
  );
}

function el(
  tag: string,
  attrs: Record<string, string | (() => void)> = {},
  ...children: Child[]
): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(key.replace(/^on/, ''), value);
    else node.setAttribute(key, value);
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false)
      node.append(child instanceof Node ? child : String(child));
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** A trend line (one point per run); the label says what it plots, for screen readers too. */
function sparkline(values: number[], max: number, label: string): SVGElement {
  const width = 90;
  const height = 22;
  const points = values.map((value, index) => {
    const x = values.length === 1 ? width / 2 : (index / (values.length - 1)) * (width - 4) + 2;
    const y = height - 2 - (max === 0 ? 0 : (value / max) * (height - 4));
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const title = svg('title', {});
  title.textContent = label;
  return svg(
    'svg',
    { width, height, role: 'img', 'aria-label': label, viewBox: `0 0 ${width} ${height}` },
    title,
    svg('polyline', { class: 'spark', points: points.join(' ') }),
    ...(points.length > 0
      ? [
          svg('circle', {
            r: 2,
            cx: points.at(-1)!.split(',')[0]!,
            cy: points.at(-1)!.split(',')[1]!,
            class: 'bar',
          }),
        ]
      : []),
  );
}

/** Horizontal bars, one per label (token costs, stage durations). */
function barChart(rows: { label: string; value: number }[], unit: string, caption: string): SVGElement {
  const max = Math.max(1, ...rows.map((row) => row.value));
  const rowHeight = 18;
  const width = 640;
  const labelWidth = 200;
  const title = svg('title', {});
  title.textContent = caption;
  const chart = svg(
    'svg',
    { width, height: rows.length * rowHeight + 4, role: 'img', 'aria-label': caption },
    title,
  );
  rows.forEach((row, index) => {
    const y = index * rowHeight + 2;
    const label = svg('text', { x: 0, y: y + 12 });
    label.textContent = row.label.slice(0, 30);
    const length = ((width - labelWidth - 80) * row.value) / max;
    const value = svg('text', { x: labelWidth + length + 4, y: y + 12 });
    value.textContent = `${row.value} ${unit}`;
    chart.append(
      label,
      svg('rect', {
        class: 'bar',
        x: labelWidth,
        y: y + 2,
        width: Math.max(1, length),
        height: rowHeight - 6,
      }),
      value,
    );
  });
  return chart;
}

const verdictClass = (verdict: string | undefined): string =>
  verdict === 'pass' ? 'pass' : verdict === 'fail' ? 'fail' : verdict === 'skip' ? 'skip-verdict' : 'muted';
const when = (ms: number | null | undefined): string => (ms ? new Date(ms).toLocaleString() : '—');
const percent = (share: number | null | undefined): string =>
  share === null || share === undefined ? '—' : `${Math.round(share * 100)}%`;

function chips(stages: string[], latest: Json, running: Set<string> = new Set()): HTMLElement {
  return el(
    'span',
    {},
    ...stages.map((stage, index) => {
      const result = latest[stage];
      const state = running.has(stage) ? 'running' : (result?.verdict ?? 'not run');
      return el(
        'span',
        {
          class: `chip ${verdictClass(result?.verdict)} ${running.has(stage) ? 'running' : ''}`,
          title: `${stage}: ${state}${result ? ` — ${result.summary}` : ''}`,
        },
        el('span', { 'aria-hidden': 'true' }, String(index + 1)),
        el('span', { class: 'skip' }, `${stage} ${state}`),
      );
    }),
  );
}

async function fleetPage(): Promise<void> {
  const overview = await api('overview');
  const stages: string[] = overview.stages;
  const rows = overview.servers.map((server: Json) => {
    const summary = server.summary;
    const review = summary.latest.reviewed;
    const regressions = summary.regressions.length + server.drift.length;
    return el(
      'tr',
      {},
      el(
        'td',
        {},
        el('a', { href: `#/server/${encodeURIComponent(server.name)}` }, server.name),
        el('div', { class: 'muted' }, `${server.kind}${server.origin ? ` · ${server.origin}` : ''}`),
      ),
      el('td', {}, summary.stage ?? 'none passed'),
      el('td', {}, chips(stages, summary.latest)),
      el('td', { class: 'num' }, review ? percent(review.score) : '—'),
      el(
        'td',
        {},
        sparkline(
          summary.trend.map((point: Json) => point.passed),
          stages.length,
          `stages passed per run: ${summary.trend.map((p: Json) => p.passed).join(', ')}`,
        ),
      ),
      el(
        'td',
        {},
        summary.lastRun ? el('a', { href: `#/run/${summary.lastRun.runId}` }, when(summary.lastRun.at)) : '—',
      ),
      el(
        'td',
        {},
        regressions > 0
          ? el('span', { class: 'regression' }, `${regressions} flagged`)
          : el('span', { class: 'muted' }, 'none'),
      ),
    );
  });
  const stdio = el('input', {
    id: 'add-stdio',
    placeholder: 'npx -y some-mcp-server  or  https://host/mcp',
    'aria-label': 'Command line or URL of an external server',
  }) as HTMLInputElement;
  show(
    el('h1', {}, 'Fleet'),
    el(
      'div',
      { class: 'toolbar' },
      el('button', { id: 'run-all', onclick: () => void startRun() }, 'Run pipeline'),
      el('label', { for: 'add-stdio' }, 'Add external server:'),
      stdio,
      el(
        'button',
        {
          onclick: () => {
            const value = stdio.value.trim();
            if (value === '') return;
            void api('servers', {
              method: 'POST',
              body: JSON.stringify(/^https?:\/\//.test(value) ? { url: value } : { stdio: value }),
            })
              .then(() => route())
              .catch((error) => (live.textContent = error.message));
          },
        },
        'Add',
      ),
    ),
    el(
      'table',
      { id: 'fleet' },
      el('caption', { class: 'muted' }, `Stages: ${stages.map((s, i) => `${i + 1} ${s}`).join(' · ')}`),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Server', 'Furthest stage', 'Stages', 'Review', 'Trend', 'Last run', 'Regressions'].map((h) =>
            el('th', { scope: 'col' }, h),
          ),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
    el('h2', {}, 'Recent runs'),
    runsTable(overview.runs),
  );
}

function runsTable(runs: Json[]): HTMLElement {
  return el(
    'table',
    { id: 'runs' },
    el(
      'thead',
      {},
      el('tr', {}, ...['Run', 'Status', 'Started', 'Servers'].map((h) => el('th', { scope: 'col' }, h))),
    ),
    el(
      'tbody',
      {},
      ...runs.map((run) =>
        el(
          'tr',
          {},
          el('td', {}, el('a', { href: `#/run/${run.id}` }, run.id)),
          el('td', {}, run.status),
          el('td', {}, when(run.startedAt)),
          el('td', {}, run.servers.join(', ')),
        ),
      ),
    ),
  );
}

async function startRun(servers?: string[]): Promise<void> {
  try {
    const run = await api('runs', { method: 'POST', body: JSON.stringify(servers ? { servers } : {}) });
    location.hash = `#/run/${run.id}`;
  } catch (error) {
    live.textContent = (error as Error).message;
  }
}

function evidenceBlock(evidence: unknown): HTMLElement {
  return el('details', {}, el('summary', {}, 'Evidence'), el('pre', {}, JSON.stringify(evidence, null, 2)));
}

async function serverPage(name: string): Promise<void> {
  const detail = await api(`servers/${encodeURIComponent(name)}`);
  const latest: Json = detail.summary.latest;
  // A stage that failed to run keeps only { error } as evidence: show the parts only when they were measured.
  const review = latest.reviewed?.evidence?.checks ? latest.reviewed.evidence : undefined;
  const tests = latest.tests?.evidence?.passed !== undefined ? latest.tests.evidence : undefined;
  const link = (format: string) =>
    `/api/servers/${encodeURIComponent(name)}/review?format=${format}&token=${encodeURIComponent(token)}`;
  show(
    el('h1', {}, detail.entry.manifest.title ?? name),
    el('p', { class: 'muted' }, detail.entry.manifest.description ?? '', ' ', `(${detail.entry.kind})`),
    el(
      'div',
      { class: 'toolbar' },
      el('button', { onclick: () => void startRun([name]) }, 'Run this server'),
      el('a', { href: link('html') }, 'Review (HTML)'),
      el('a', { href: link('md') }, 'Review (Markdown)'),
    ),
    detail.summary.regressions.length + detail.drift.length > 0
      ? el(
          'section',
          {},
          el('h2', {}, 'Flagged'),
          el(
            'ul',
            {},
            ...detail.summary.regressions.map((r: Json) => el('li', { class: 'regression' }, r.message)),
            ...detail.drift.map((d: Json) =>
              el('li', { class: 'regression' }, `${when(d.at)}: ${d.message}`),
            ),
          ),
        )
      : null,
    el('h2', {}, 'Verdicts'),
    el(
      'table',
      { id: 'verdicts' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Stage', 'Verdict', 'Summary', 'Time', 'Evidence'].map((h) => el('th', { scope: 'col' }, h)),
        ),
      ),
      el(
        'tbody',
        {},
        // In pipeline order: stages finished in the same millisecond come back from the store in any order.
        ...Object.values(latest)
          .sort((a: Json, b: Json) => detail.stages.indexOf(a.stage) - detail.stages.indexOf(b.stage))
          .map((result: Json) =>
            el(
              'tr',
              {},
              el('td', {}, result.stage),
              el('td', { class: verdictClass(result.verdict) }, result.verdict),
              el('td', {}, result.summary),
              el('td', { class: 'num' }, `${(result.durationMs / 1000).toFixed(1)} s`),
              el('td', {}, evidenceBlock(result.evidence)),
            ),
          ),
      ),
    ),
    tests
      ? el(
          'section',
          {},
          el('h2', {}, 'Tests'),
          el('p', {}, `${tests.passed} passed, ${tests.failed} failed`),
          tests.failures?.length
            ? el('ul', {}, ...tests.failures.map((f: string) => el('li', { class: 'fail' }, f)))
            : null,
        )
      : null,
    review
      ? el(
          'section',
          {},
          el('h2', {}, `Review: ${review.score.earned} / ${review.score.possible} points`),
          el(
            'table',
            { id: 'checks' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                ...['Check', 'Points', 'Rule', 'Evidence'].map((h) => el('th', { scope: 'col' }, h)),
              ),
            ),
            el(
              'tbody',
              {},
              ...review.checks.map((check: Json) =>
                el(
                  'tr',
                  {},
                  el('td', {}, check.title),
                  el('td', { class: 'num' }, `${check.earned} / ${check.possible}`),
                  el('td', {}, check.rule),
                  el(
                    'td',
                    {},
                    check.evidence.length
                      ? el('ul', {}, ...check.evidence.slice(0, 12).map((e: string) => el('li', {}, e)))
                      : 'nothing to report',
                  ),
                ),
              ),
            ),
          ),
          el('h2', {}, `Tools (${review.tools.length}; tools/list = ${review.listTokens} tokens)`),
          barChart(
            review.tools.map((tool: Json) => ({ label: tool.name, value: tool.tokens })),
            'tokens',
            'Token cost per tool',
          ),
        )
      : el('p', { class: 'muted' }, 'Not reviewed yet.'),
    appsSection(
      name,
      detail.entry.manifest.apps === true || review?.checks.some((c: Json) => c.id === 'mcp-apps'),
    ),
    detail.monitor.length > 0
      ? el(
          'section',
          {},
          el('h2', {}, 'Monitor'),
          el(
            'ul',
            {},
            ...detail.monitor
              .slice(-10)
              .map((check: Json) =>
                el('li', { class: check.ok ? 'pass' : 'fail' }, `${when(check.at)}: ${check.message}`),
              ),
          ),
        )
      : null,
  );
}

/** This page's id: on its event stream and its previews, which the center closes once the stream is gone. */
const pageId = crypto.randomUUID();

/** The open App preview (one at a time on the page): torn down when another opens or the page changes. */
let preview: { mounted: MountedView; viewId: string } | undefined;

async function closePreview(reason: string): Promise<void> {
  const current = preview;
  preview = undefined;
  if (current === undefined) return;
  await current.mounted.bridge.teardown(reason).catch(() => undefined);
  current.mounted.detach();
  await api('apps/close', { method: 'POST', body: JSON.stringify({ viewId: current.viewId }) }).catch(
    () => undefined,
  );
}

/** The page's half of the inspector's host: its API calls go to the center's `/api/apps/*` (POST, token). */
const appsApi = (path: string, body?: unknown): Promise<Json> =>
  api(path, { method: 'POST', body: JSON.stringify(body ?? {}) });

const prefersDark = (): boolean => matchMedia('(prefers-color-scheme: dark)').matches;

/**
 * MCP Apps: each `ui://` view of the server (the tools that link it, its declared CSP and permissions, what the
 * host grants, the review's Apps check), and a live preview rendered by the inspector's host in its sandbox.
 */
function appsSection(name: string, expected: boolean): HTMLElement {
  const body = el('div', { id: 'apps-body' });
  const section = el(
    'section',
    { id: 'apps', 'aria-labelledby': 'apps-title' },
    el('h2', { id: 'apps-title' }, 'MCP Apps'),
    body,
  );
  const load = (): void => {
    body.replaceChildren(
      el('p', { class: 'muted' }, 'Listing the views (the server is started with its mock environment)…'),
    );
    void api(`servers/${encodeURIComponent(name)}/apps`)
      .then((answer) => renderApps(name, body, answer))
      .catch((error) =>
        body.replaceChildren(el('p', { class: 'fail', role: 'alert' }, (error as Error).message)),
      );
  };
  if (expected) load();
  else
    body.replaceChildren(
      el('p', { class: 'muted' }, 'This server does not declare MCP Apps views (fleet.json "apps").'),
      el('button', { id: 'apps-load', onclick: load }, 'Look for views'),
    );
  return section;
}

function renderApps(name: string, body: HTMLElement, answer: Json): void {
  const review: Json[] = answer.review;
  const views: Json[] = answer.views;
  const stage = el('div', { id: 'app-preview' });
  body.replaceChildren(
    review.length > 0
      ? el(
          'ul',
          { class: 'plain', id: 'app-checks' },
          ...review.map((check) =>
            el(
              'li',
              {},
              el('strong', {}, `${check.title}: ${check.earned} / ${check.possible} points`),
              ` — ${check.rule}. `,
              el('span', { class: 'muted' }, check.evidence.join('; ')),
            ),
          ),
        )
      : el(
          'p',
          { class: 'muted' },
          'No Apps review check yet (run the pipeline with "apps": true in fleet.json).',
        ),
    views.length === 0
      ? el('p', { class: 'muted' }, `No tool links a ui:// view (revision ${answer.revision}).`)
      : el(
          'table',
          { id: 'app-views' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ...['View', 'Linked by', 'Declared', 'Granted by the host', 'Sample', ''].map((h) =>
                el('th', { scope: 'col' }, h),
              ),
            ),
          ),
          el(
            'tbody',
            {},
            ...views.map((view) =>
              el(
                'tr',
                {},
                el(
                  'td',
                  {},
                  el('code', {}, view.uri),
                  el('div', { class: 'muted' }, [view.name, view.mimeType].filter(Boolean).join(' · ')),
                ),
                el(
                  'td',
                  {},
                  el(
                    'ul',
                    { class: 'plain' },
                    ...view.tools.map((tool: Json) =>
                      el('li', {}, el('code', {}, tool.name), ` (${tool.visibility.join(', ')})`),
                    ),
                  ),
                ),
                el(
                  'td',
                  {},
                  el(
                    'div',
                    {},
                    'CSP: ',
                    view.declared.csp
                      ? el('code', {}, JSON.stringify(view.declared.csp))
                      : 'none (the restrictive default)',
                  ),
                  el(
                    'div',
                    {},
                    'Permissions: ',
                    view.declared.permissions
                      ? el('code', {}, JSON.stringify(view.declared.permissions))
                      : 'none',
                  ),
                ),
                el(
                  'td',
                  {},
                  el('code', { class: 'csp' }, view.header),
                  view.allow ? el('div', {}, `allow: ${view.allow}`) : null,
                  ...view.refused.map((reason: string) => el('div', { class: 'fail' }, `refused: ${reason}`)),
                ),
                el(
                  'td',
                  {},
                  view.sample
                    ? el(
                        'div',
                        {},
                        el('code', {}, `${view.sample.tool}(${JSON.stringify(view.sample.arguments)})`),
                        el('div', { class: 'muted' }, `from ${view.sample.source}`),
                      )
                    : el('span', { class: 'muted' }, view.problem ?? '—'),
                ),
                el(
                  'td',
                  {},
                  view.sample
                    ? el('button', { onclick: () => void openPreview(name, view.uri, stage) }, 'Preview')
                    : null,
                ),
              ),
            ),
          ),
        ),
    stage,
  );
}

async function openPreview(name: string, uri: string, stage: HTMLElement): Promise<void> {
  await closePreview('another view opens');
  const status = el('span', { 'data-testid': 'app-status' }, 'View: opening…');
  const box = el('div', { class: 'app-frame-box' });
  const notes = el('ul', { class: 'app-notes', 'aria-label': 'From the view' });
  const info = el('p', { class: 'muted' });
  const theme = el(
    'select',
    { 'aria-label': 'Theme of the view' },
    el('option', { value: 'light' }, 'light'),
    el('option', { value: 'dark' }, 'dark'),
  ) as HTMLSelectElement;
  theme.value = prefersDark() ? 'dark' : 'light';
  const close = el(
    'button',
    { onclick: () => void closePreview('the user closed the view').then(() => stage.replaceChildren()) },
    'Close preview',
  );
  stage.replaceChildren(
    el('h3', {}, `Preview of `, el('code', {}, uri)),
    el('div', { class: 'toolbar' }, status, el('label', {}, 'Theme ', theme), close),
    info,
    box,
    notes,
  );
  let opened: Json;
  try {
    opened = await api(`servers/${encodeURIComponent(name)}/apps`, {
      method: 'POST',
      body: JSON.stringify({ uri, page: pageId }),
    });
  } catch (error) {
    status.textContent = 'View: not opened';
    info.replaceChildren(el('span', { class: 'fail', role: 'alert' }, (error as Error).message));
    return;
  }
  info.replaceChildren(
    `${opened.tool.name}(${JSON.stringify(opened.arguments)}) from ${opened.argumentsSource}; sandbox origin ${opened.sandboxOrigin}. `,
    el(
      'details',
      {},
      el('summary', {}, 'Content Security Policy of the view'),
      el('pre', { 'data-testid': 'app-csp' }, opened.header),
    ),
  );
  const mounted = mountAppView({
    opened: opened as never,
    container: box,
    uri,
    tool: opened.tool,
    args: opened.arguments,
    answer: opened.answer,
    api: appsApi,
    theme: theme.value === 'dark' ? 'dark' : 'light',
    hostName: 'mcpengine-center',
    events: {
      status: (text) => (status.textContent = `View: ${text}`),
      size: (height) => (box.style.height = height === undefined ? '' : `${height}px`),
      mode: () => undefined,
      note: (kind, value) =>
        notes.append(el('li', {}, el('strong', {}, `${kind}: `), el('code', {}, JSON.stringify(value)))),
      teardown: () => void closePreview('the view asked').then(() => stage.replaceChildren()),
    },
  });
  preview = { mounted, viewId: String(opened.viewId) };
  theme.addEventListener('change', () => mounted.bridge.setTheme(theme.value === 'dark' ? 'dark' : 'light'));
  status.textContent = 'View: waiting for the view';
}

let runView: { id: string; results: Map<string, Json>; running: Set<string> } | undefined;

async function runPage(id: string): Promise<void> {
  const detail = await api(`runs/${encodeURIComponent(id)}`);
  runView = {
    id,
    results: new Map(detail.results.map((r: Json) => [`${r.server}/${r.stage}`, r])),
    running: new Set(detail.running ?? []),
  };
  renderRun(detail.run, detail.active);
}

function renderRun(run: Json, active: boolean): void {
  if (runView === undefined) return;
  const view = runView;
  const total = run.servers.length * run.stages.length;
  const done = view.results.size;
  show(
    el('h1', {}, `Run ${run.id}`),
    el(
      'p',
      {},
      `Status: `,
      el('strong', { id: 'run-status' }, run.status),
      ` · started ${when(run.startedAt)}`,
      run.finishedAt ? ` · finished ${when(run.finishedAt)}` : '',
    ),
    el(
      'div',
      { class: 'toolbar' },
      el('progress', {
        id: 'run-progress',
        max: String(total),
        value: String(done),
        'aria-label': 'stages done',
      }),
      `${done} / ${total} stages`,
      active
        ? el(
            'button',
            {
              id: 'cancel',
              onclick: () =>
                void api(`runs/${run.id}/cancel`, { method: 'POST' }).catch(
                  (e) => (live.textContent = e.message),
                ),
            },
            'Cancel',
          )
        : null,
      !active && run.status !== 'done'
        ? el(
            'button',
            {
              id: 'resume',
              onclick: () =>
                void api(`runs/${run.id}/resume`, { method: 'POST' })
                  .then(() => runPage(run.id))
                  .catch((e) => (live.textContent = e.message)),
            },
            'Resume',
          )
        : null,
    ),
    el(
      'table',
      { id: 'run-grid' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'Server'),
          ...run.stages.map((stage: string) => el('th', { scope: 'col' }, stage)),
        ),
      ),
      el(
        'tbody',
        {},
        ...run.servers.map((server: string) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row' }, el('a', { href: `#/server/${encodeURIComponent(server)}` }, server)),
            ...run.stages.map((stage: string) => {
              const result = view.results.get(`${server}/${stage}`);
              const running = view.running.has(`${server}/${stage}`);
              return el(
                'td',
                { class: result ? verdictClass(result.verdict) : 'muted', title: result?.summary ?? '' },
                result
                  ? `${result.verdict} ${(result.durationMs / 1000).toFixed(1)} s`
                  : running
                    ? 'running…'
                    : '—',
              );
            }),
          ),
        ),
      ),
    ),
    el('h2', {}, 'Time per stage'),
    barChart(
      run.stages.map((stage: string) => ({
        label: stage,
        value:
          Math.round(
            [...view.results.values()]
              .filter((r) => r.stage === stage)
              .reduce((sum, r) => sum + r.durationMs, 0) / 100,
          ) / 10,
      })),
      's',
      'Seconds per stage, summed over servers',
    ),
  );
}

/** The fleet table follows a run live, at most every two seconds, unless someone is typing a server to add. */
let fleetRefresh: ReturnType<typeof setTimeout> | undefined;
function refreshFleet(): void {
  if (fleetRefresh !== undefined) return;
  fleetRefresh = setTimeout(() => {
    fleetRefresh = undefined;
    const input = document.getElementById('add-stdio') as HTMLInputElement | null;
    const onFleet = location.hash === '' || location.hash === '#/';
    if (onFleet && input !== null && input.value === '' && document.activeElement !== input)
      void fleetPage().catch(() => undefined);
  }, 2000);
}

function connectEvents(): void {
  // The stream names this page: when the tab goes away the center sees the stream close and ends its previews.
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}&page=${pageId}`);
  source.addEventListener('stage-start', (message) => {
    const event = JSON.parse((message as MessageEvent).data);
    live.textContent = `${event.server}: ${event.stage}…`;
    if (runView?.id === event.runId) {
      runView.running.add(`${event.server}/${event.stage}`);
      void api(`runs/${event.runId}`).then((d) => renderRun(d.run, d.active));
    }
  });
  source.addEventListener('stage-end', (message) => {
    const { result } = JSON.parse((message as MessageEvent).data);
    live.textContent = `${result.server}: ${result.stage} ${result.verdict}`;
    refreshFleet();
    if (runView?.id === result.runId) {
      runView.running.delete(`${result.server}/${result.stage}`);
      runView.results.set(`${result.server}/${result.stage}`, result);
      void api(`runs/${result.runId}`).then((d) => renderRun(d.run, d.active));
    }
  });
  source.addEventListener('run-end', (message) => {
    const { run } = JSON.parse((message as MessageEvent).data);
    live.textContent = `run ${run.id} ${run.status}`;
    if (runView?.id === run.id) void runPage(run.id);
    else if (location.hash === '' || location.hash === '#/') void fleetPage();
  });
}

async function runsPage(): Promise<void> {
  show(el('h1', {}, 'Runs'), runsTable(await api('runs')));
}

async function route(): Promise<void> {
  const [, page, arg] = location.hash.replace(/^#/, '').split('/');
  runView = undefined;
  await closePreview('the page changed');
  try {
    if (page === 'server' && arg) await serverPage(decodeURIComponent(arg));
    else if (page === 'run' && arg) await runPage(decodeURIComponent(arg));
    else if (page === 'runs') await runsPage();
    else await fleetPage();
  } catch (error) {
    show(el('h1', {}, 'Error'), el('p', { class: 'fail' }, (error as Error).message));
  }
}

window.addEventListener('hashchange', () => {
  void route().then(() => main.focus());
});
connectEvents();
void route();
