/**
 * The chart of docs/benchmarks.md: one small panel per scenario, a horizontal bar per implementation, drawn as
 * a self-contained SVG from the JSON results (no dependencies, deterministic output).
 */
import type { BenchResults, ScenarioResult } from '../results.js';
import { formatNumber } from './format.js';

const COLORS: Record<string, string> = {
  mcpengine: '#2563eb',
  sdk1: '#d97706',
  sdk2: '#059669',
  raw: '#9ca3af',
};

const WIDTH = 860;
const LABEL_WIDTH = 190;
const VALUE_WIDTH = 110;
const BAR_HEIGHT = 16;
const BAR_GAP = 6;
const PANEL_GAP = 22;
const TITLE_HEIGHT = 22;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function colorOf(impl: string): string {
  return COLORS[impl.split('/')[0]!] ?? '#6b7280';
}

function valueText(scenario: ScenarioResult, value: number): string {
  if (scenario.unit === 'bytes' || scenario.unit === 'ms') return formatNumber(value, scenario.unit);
  return `${formatNumber(value)} ${scenario.unit}`;
}

/** Scenarios worth a panel: those with at least one measured row. */
function charted(results: BenchResults): ScenarioResult[] {
  return results.scenarios.filter(
    (s) => s.id !== 'http-driver' && s.rows.some((r) => !r.error && Number.isFinite(r.median)),
  );
}

export function renderChart(results: BenchResults): string {
  const scenarios = charted(results);
  const parts: string[] = [];
  let y = 48;
  for (const scenario of scenarios) {
    const rows = scenario.rows.filter((r) => !r.error && Number.isFinite(r.median));
    // Bars start at zero; a negative value (a heap that shrank) gets no bar, only its label.
    const max = Math.max(...rows.map((r) => r.median), 1e-9);
    const better = scenario.better === 'higher' ? 'higher is better' : 'lower is better';
    parts.push(`<text x="16" y="${y + 14}" class="title">${escapeXml(scenario.title)}</text>`);
    parts.push(
      `<text x="${WIDTH - 16}" y="${y + 14}" class="note" text-anchor="end">${escapeXml(`${scenario.unit}, ${better}`)}</text>`,
    );
    y += TITLE_HEIGHT;
    const barSpace = WIDTH - LABEL_WIDTH - VALUE_WIDTH - 32;
    for (const row of rows) {
      const width = Math.max(1, (Math.max(0, row.median) / max) * barSpace);
      parts.push(
        `<text x="${LABEL_WIDTH}" y="${y + 12}" class="label" text-anchor="end">${escapeXml(row.label)}</text>`,
      );
      parts.push(
        `<rect x="${LABEL_WIDTH + 8}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" rx="2" fill="${colorOf(row.impl)}"/>`,
      );
      parts.push(
        `<text x="${(LABEL_WIDTH + 14 + width).toFixed(1)}" y="${y + 12}" class="value">${escapeXml(valueText(scenario, row.median))}</text>`,
      );
      y += BAR_HEIGHT + BAR_GAP;
    }
    y += PANEL_GAP;
  }
  const { meta } = results;
  const subtitle = `Node ${meta.node}, ${meta.cpus} CPUs (${meta.cpuModel}); ${meta.runs} run(s) per implementation, medians; ${meta.date.slice(0, 10)}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">`,
    '<style>.title{font-size:13px;font-weight:600;fill:#111827}.label{font-size:12px;fill:#374151}.value{font-size:11px;fill:#111827}.note{font-size:11px;fill:#6b7280}.head{font-size:16px;font-weight:700;fill:#111827}</style>',
    `<rect width="${WIDTH}" height="${y}" fill="#ffffff"/>`,
    `<text x="16" y="22" class="head">MCPEngine vs the official TypeScript SDKs</text>`,
    `<text x="16" y="38" class="note">${escapeXml(subtitle)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
