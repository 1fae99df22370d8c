/**
 * Number and table formatting for the console report and the Markdown table.
 */
import type { Row, ScenarioResult } from '../results.js';

export function formatNumber(value: number | undefined, unit = ''): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'ms') {
    if (value < 1) return `${Math.round(value * 1000)} µs`;
    return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
  }
  const abs = Math.abs(value);
  const text = Number.isInteger(value)
    ? value.toLocaleString('en-US')
    : abs >= 1000
      ? Math.round(value).toLocaleString('en-US')
      : abs >= 100
        ? value.toFixed(0)
        : abs >= 10
          ? value.toFixed(1)
          : value.toFixed(2);
  return unit === '' || unit.includes('/') ? text : `${text} ${unit}`;
}

export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value >= 100
    ? `${Math.round(value)}×`
    : value >= 10
      ? `${value.toFixed(1)}×`
      : `${value.toFixed(2)}×`;
}

/** Plain-text table with aligned columns; `right` marks right-aligned columns. */
export function textTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  return [
    `| ${headers.map(escape).join(' | ')} |`,
    `|${right.map((r) => (r ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

/** The secondary columns a scenario shows, by detail name. */
const DETAIL_COLUMNS: readonly { name: string; header: string; format(value: number): string }[] = [
  { name: 'p50Ms', header: 'p50', format: (v) => formatNumber(v, 'ms') },
  { name: 'p99Ms', header: 'p99', format: (v) => formatNumber(v, 'ms') },
  { name: 'serverCpuUsPerCall', header: 'server CPU µs/req', format: (v) => formatNumber(v) },
  { name: 'serverCpuPct', header: 'server CPU %', format: (v) => `${Math.round(v)}%` },
  { name: 'driverCpuPct', header: 'driver CPU %', format: (v) => `${Math.round(v)}%` },
  { name: 'perSessionBytes', header: 'heap/session', format: formatBytes },
  { name: 'growthBytes', header: 'heap growth', format: formatBytes },
  { name: 'rssBytes', header: 'RSS', format: formatBytes },
  { name: 'directDeps', header: 'direct deps', format: (v) => String(v) },
  { name: 'installedBytes', header: 'installed size', format: formatBytes },
  { name: 'tarballBytes', header: 'tarball', format: formatBytes },
  { name: 'minifiedBytes', header: 'minified', format: formatBytes },
  { name: 'bundleStartMs', header: 'bundle start', format: (v) => formatNumber(v, 'ms') },
];

/** Header and cells of a scenario's table (shared by the console and Markdown reports). */
export function scenarioTable(scenario: ScenarioResult): {
  headers: string[];
  rows: string[][];
  right: boolean[];
} {
  const details = DETAIL_COLUMNS.filter((c) => scenario.rows.some((r) => r.details[c.name] !== undefined));
  const multi = scenario.rows.some((r) => r.samples.length > 1);
  const hasRatios = Object.keys(scenario.ratios).length > 0;
  const headers = ['implementation', `median ${scenario.unit}`];
  if (multi) headers.push('min – max');
  headers.push(...details.map((d) => d.header));
  if (hasRatios) headers.push('MCPEngine is');
  const unit = scenario.unit === 'bytes' || scenario.unit === 'ms' ? scenario.unit : '';
  const rows = scenario.rows.map((row: Row) => {
    if (row.error) {
      const cells = [row.label, `failed: ${row.error}`];
      while (cells.length < headers.length) cells.push('');
      return cells;
    }
    const cells = [row.label, formatNumber(row.median, unit)];
    if (multi) cells.push(`${formatNumber(row.min, unit)} – ${formatNumber(row.max, unit)}`);
    for (const d of details)
      cells.push(row.details[d.name] === undefined ? '' : d.format(row.details[d.name]!));
    if (hasRatios) cells.push(row.impl === 'mcpengine' ? '—' : formatRatio(scenario.ratios[row.impl]));
    return cells;
  });
  const right = headers.map((_, i) => i > 0);
  return { headers, rows, right };
}
