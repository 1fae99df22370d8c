// The Search Console performance dashboard, built on @mcpengine/apps-view. It shows what compare_periods,
// top_movers or quick_wins returned, then asks the server (the app-only load_performance_dashboard tool, through
// the host) for the daily series and the movers; the controls load another period, comparison or dimension.
// Data is only ever set with textContent and SVG attributes computed here: nothing received becomes markup.
import { AppView } from '@mcpengine/apps-view';

type Metric = 'clicks' | 'impressions' | 'ctr' | 'position';
interface Metrics {
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}
interface Change {
  current: number;
  previous: number;
  change: number;
  changePercent: number | null;
}
interface Period {
  startDate: string;
  endDate: string;
  days: number;
}
interface Mover {
  key: string;
  current: Metrics;
  previous: Metrics;
  clicksChange: number;
  positionChange: number;
}
interface Win {
  key: string;
  reason: string;
  position: number;
  potentialExtraClicks: number;
}
/** Any of the linked tools' results, or the dashboard's: every field optional. */
interface Data {
  siteUrl?: string;
  dimension?: string;
  current?: Period;
  previous?: Period;
  period?: Period;
  comparison?: Record<Metric, Change>;
  currentTotals?: Metrics;
  daily?: (Metrics & { date: string })[];
  previousDaily?: (Metrics & { date: string })[];
  gainers?: Mover[];
  losers?: Mover[];
  wins?: Win[];
}

const DASHBOARD_TOOL = 'load_performance_dashboard';
const METRICS: readonly Metric[] = ['clicks', 'impressions', 'ctr', 'position'];
const SVG = 'http://www.w3.org/2000/svg';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const select = (id: string) => $<HTMLSelectElement>(id);
const view = new AppView(
  { name: 'search-console-dashboard', version: '0.1.0' },
  { capabilities: { availableDisplayModes: ['inline', 'fullscreen'] } },
);

let siteUrl: string | undefined;
let endDate: string | undefined;
let searchType: string | undefined;
let metric: Metric = 'clicks';
let shown: Data = {};

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function status(text: string): void {
  $('status').textContent = text;
}

const format = (m: Metric, value: number): string =>
  m === 'ctr'
    ? `${(value * 100).toFixed(1)}%`
    : m === 'position'
      ? value.toFixed(1)
      : Math.round(value).toLocaleString('en');

function describeChange(m: Metric, change: Change): { text: string; good: boolean | null } {
  if (m === 'position') {
    const delta = change.change;
    return { text: ` ${delta > 0 ? '+' : ''}${delta.toFixed(1)}`, good: delta === 0 ? null : delta < 0 };
  }
  if (m === 'ctr') {
    const points = change.change * 100;
    return {
      text: ` ${points > 0 ? '+' : ''}${points.toFixed(1)} pt`,
      good: points === 0 ? null : points > 0,
    };
  }
  if (change.changePercent === null) return { text: ' (new)', good: null };
  const p = change.changePercent;
  return { text: ` ${p > 0 ? '+' : ''}${p}%`, good: p === 0 ? null : p > 0 };
}

function renderKpis(data: Data): void {
  for (const m of METRICS) {
    const value = data.comparison?.[m]?.current ?? data.currentTotals?.[m];
    $(`kpi-${m}`).textContent = value === undefined ? '–' : format(m, value);
    const change = data.comparison?.[m];
    const target = $(`change-${m}`);
    if (change === undefined) {
      target.textContent = '';
      target.className = 'change';
      continue;
    }
    const { text, good } = describeChange(m, change);
    target.textContent = text;
    target.className = `change ${good === null ? '' : good ? 'up' : 'down'}`;
  }
}

function renderChart(data: Data): void {
  const chart = $('chart') as unknown as SVGSVGElement;
  chart.replaceChildren();
  const daily = data.daily ?? [];
  const previous = data.previousDaily ?? [];
  if (daily.length === 0) {
    $('legend').textContent = shown.daily === undefined ? '' : 'No data for the period';
    return;
  }
  const values = [...daily, ...previous].map((d) => d[metric]);
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const span = top - bottom || 1;
  const width = 600;
  const height = 140;
  const x = (i: number, n: number) => (n <= 1 ? width / 2 : (i / (n - 1)) * (width - 10) + 5);
  // Position: 1 is the top of Google, so smaller values are drawn higher.
  const y = (v: number) => {
    const share = (v - bottom) / span;
    return 5 + (metric === 'position' ? share : 1 - share) * (height - 10);
  };
  const line = (points: (Metrics & { date: string })[], className: string) => {
    const polyline = document.createElementNS(SVG, 'polyline');
    polyline.setAttribute('class', className);
    polyline.setAttribute(
      'points',
      points.map((p, i) => `${x(i, points.length).toFixed(1)},${y(p[metric]).toFixed(1)}`).join(' '),
    );
    chart.appendChild(polyline);
  };
  if (previous.length > 0) line(previous, 'previous');
  line(daily, 'current');
  daily.forEach((point, i) => {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', x(i, daily.length).toFixed(1));
    dot.setAttribute('cy', y(point[metric]).toFixed(1));
    dot.setAttribute('r', '2.5');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${point.date}: ${format(metric, point[metric])}`;
    dot.appendChild(title);
    chart.appendChild(dot);
  });
  $('legend').textContent =
    `${metric} per day, ${plural(daily.length, 'day')} (solid)` +
    (previous.length > 0 ? '; previous period dashed' : '');
}

function cell(text: string, number = false): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (number) td.className = 'number';
  return td;
}

function renderMovers(data: Data): void {
  if (data.gainers === undefined && data.losers === undefined) return;
  const dimension = data.dimension === 'page' ? 'page' : 'query';
  $('movers-title').textContent = `Top movers by ${dimension}`;
  $('movers-key').textContent = dimension === 'page' ? 'Page' : 'Query';
  const body = $('movers').querySelector('tbody')!;
  body.replaceChildren();
  const rows = [...(data.gainers ?? []), ...(data.losers ?? [])];
  for (const mover of rows) {
    const tr = document.createElement('tr');
    const delta = cell(`${mover.clicksChange > 0 ? '+' : ''}${mover.clicksChange}`, true);
    delta.classList.add(mover.clicksChange > 0 ? 'up' : 'down');
    tr.append(
      cell(mover.key),
      cell(format('clicks', mover.current.clicks), true),
      delta,
      cell(format('position', mover.current.position), true),
    );
    body.appendChild(tr);
  }
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    const td = cell('No query or page gained or lost clicks');
    td.colSpan = 4;
    td.className = 'muted';
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function renderWins(data: Data): void {
  if (data.wins === undefined) return;
  $('wins-section').hidden = false;
  const body = $('wins').querySelector('tbody')!;
  body.replaceChildren();
  for (const win of data.wins) {
    const tr = document.createElement('tr');
    tr.append(
      cell(win.key),
      cell(win.reason === 'low_ctr_on_page_one' ? 'low CTR on page one' : 'near the first page'),
      cell(format('position', win.position), true),
      cell(`+${win.potentialExtraClicks}`, true),
    );
    body.appendChild(tr);
  }
}

function render(data: Data): void {
  shown = { ...shown, ...data };
  if (data.siteUrl !== undefined) $('title').textContent = `Search performance: ${data.siteUrl}`;
  const current = data.current ?? data.period;
  if (current !== undefined)
    $('period').textContent =
      `${current.startDate} to ${current.endDate}` +
      (data.previous === undefined
        ? ''
        : ` compared with ${data.previous.startDate} to ${data.previous.endDate}`);
  if (data.comparison !== undefined || data.currentTotals !== undefined) renderKpis(data);
  if (data.daily !== undefined) renderChart(data);
  renderMovers(data);
  renderWins(data);
}

async function load(): Promise<void> {
  if (siteUrl === undefined) return status('No property to load');
  const args: Record<string, unknown> = {
    siteUrl,
    days: Number(select('days').value),
    compareTo: select('compare').value,
    dimension: select('dimension').value,
  };
  if (endDate !== undefined) args['endDate'] = endDate;
  if (searchType !== undefined) args['searchType'] = searchType;
  status('Loading the dashboard…');
  $<HTMLButtonElement>('update').disabled = true;
  try {
    const result = await view.callServerTool(DASHBOARD_TOOL, args);
    if (result.isError) {
      const text = result.content.find((c) => c.type === 'text');
      return status(`The server refused: ${text?.type === 'text' ? text.text : 'error'}`);
    }
    const data = result.structuredContent as Data;
    render(data);
    status(`Dashboard loaded: ${plural(data.daily?.length ?? 0, 'day')}, movers by ${data.dimension}`);
  } catch (error) {
    status(`Refused: ${(error as Error).message}`);
  } finally {
    $<HTMLButtonElement>('update').disabled = false;
  }
}

function setSelect(id: string, value: unknown): void {
  const element = select(id);
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const text = String(value);
  if (![...element.options].some((o) => o.value === text)) {
    const option = document.createElement('option');
    option.value = text;
    option.textContent = id === 'days' ? `${text} days` : text;
    element.appendChild(option);
  }
  element.value = text;
}

view.on('toolinput', ({ arguments: args }) => {
  siteUrl = typeof args?.['siteUrl'] === 'string' ? args['siteUrl'] : undefined;
  endDate = typeof args?.['endDate'] === 'string' ? args['endDate'] : undefined;
  searchType = typeof args?.['searchType'] === 'string' ? args['searchType'] : undefined;
  setSelect('days', args?.['days']);
  setSelect('compare', args?.['compareTo']);
  setSelect('dimension', args?.['dimension']);
  if (siteUrl !== undefined) $('title').textContent = `Search performance: ${siteUrl}`;
  $<HTMLButtonElement>('update').disabled = siteUrl === undefined;
  status('Input received; waiting for the result…');
});
view.on('toolinputpartial', () => status('Receiving the input…'));
view.on('toolresult', (result) => {
  if (result.isError || typeof result.structuredContent !== 'object') {
    const text = result.content.find((c) => c.type === 'text');
    return status(`The tool failed: ${text?.type === 'text' ? text.text : 'no result'}`);
  }
  render(result.structuredContent as Data);
  status('Result received; loading the daily chart…');
  void load();
});
view.on('toolcancelled', ({ reason }) => status(`Cancelled${reason ? `: ${reason}` : ''}`));

for (const button of document.querySelectorAll<HTMLButtonElement>('.kpi')) {
  // Click handlers, not forms: hosts' sandboxes may not allow form submission.
  button.addEventListener('click', () => {
    metric = button.dataset['metric'] as Metric;
    for (const other of document.querySelectorAll('.kpi'))
      other.setAttribute('aria-pressed', String(other === button));
    renderChart(shown);
  });
}
$('update').addEventListener('click', () => void load());

view.connect().catch((error: Error) => status(`Could not connect to the host: ${error.message}`));
