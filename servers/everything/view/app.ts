// The everything server's chart view, built on @mcpengine/apps-view. Data is only ever set with textContent and
// style values computed here, so nothing the model or the server sends becomes markup.
import { AppView } from '@mcpengine/apps-view';

interface Chart {
  title: string;
  values: number[];
  total: number;
  min: number | null;
  max: number | null;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const view = new AppView(
  { name: 'everything-chart', version: '0.1.0' },
  { capabilities: { availableDisplayModes: ['inline', 'fullscreen'] } },
);
let chart: Chart = { title: 'Chart', values: [], total: 0, min: null, max: null };

function status(text: string): void {
  $('status').textContent = text;
}

function render(next: Chart): void {
  chart = next;
  $('title').textContent = chart.title;
  const bars = $('bars');
  bars.replaceChildren();
  const top = Math.max(1, ...chart.values.map((v) => Math.abs(v)));
  for (const value of chart.values) {
    const bar = document.createElement('div');
    bar.className = 'bar';
    bar.title = String(value);
    bar.style.height = `${Math.round((Math.abs(value) / top) * 100)}%`;
    bars.appendChild(bar);
  }
  $('summary').textContent = `${chart.values.length} values, total ${chart.total}`;
}

function isChart(value: unknown): value is Chart {
  const c = value as Chart | undefined;
  return !!c && typeof c.title === 'string' && Array.isArray(c.values);
}

view.on('toolinput', ({ arguments: args }) => {
  const values = Array.isArray(args?.values) ? args.values.filter((v) => typeof v === 'number') : [];
  const title = typeof args?.title === 'string' ? args.title : 'Chart';
  render({ title, values, total: 0, min: null, max: null });
  status('Input received; waiting for the result…');
});
view.on('toolinputpartial', () => status('Receiving the input…'));
view.on('toolresult', (result) => {
  if (result.isError || !isChart(result.structuredContent)) return status('The tool failed');
  render(result.structuredContent);
  status(`Result received: ${chart.values.length} values`);
});
view.on('toolcancelled', ({ reason }) => status(`Cancelled${reason ? `: ${reason}` : ''}`));

// A click handler, not a form: hosts' sandboxes may not allow form submission.
$('add').addEventListener('click', () => {
  const value = Number(($('value') as HTMLInputElement).value);
  status('Adding…');
  view
    .callServerTool('chart_append', { title: chart.title, values: chart.values, value })
    .then((result) => {
      if (result.isError || !isChart(result.structuredContent)) return status('The server refused the value');
      render(result.structuredContent);
      status(`Added ${value}: ${chart.values.length} values`);
    })
    .catch((error: Error) => status(`Refused: ${error.message}`));
});

$('tell').addEventListener('click', () => {
  view
    .updateModelContext({
      content: [
        { type: 'text', text: `The user sees a chart "${chart.title}" of ${chart.values.join(', ')}.` },
      ],
    })
    .then(() => status('The model will know'))
    .catch((error: Error) => status(`Refused: ${error.message}`));
});

view.connect().catch((error: Error) => status(`Could not connect to the host: ${error.message}`));
