/**
 * The generated part of docs/benchmarks.md: what was run, every scenario's table, and the targets.
 */
import type { BenchResults } from '../results.js';
import { formatBytes, formatRatio, markdownTable, scenarioTable } from './format.js';

export const START_MARKER = '<!-- bench:results:start -->';
export const END_MARKER = '<!-- bench:results:end -->';

export function renderResultsMarkdown(results: BenchResults, chartPath: string | undefined): string {
  const { meta } = results;
  const lines: string[] = [];
  lines.push(`Command: \`${meta.command}\``);
  lines.push('');
  lines.push(
    `Measured ${meta.date.slice(0, 16).replace('T', ' ')} UTC on Node ${meta.node} (${meta.platform}/${meta.arch}), ${meta.cpus} CPUs (${meta.cpuModel}); ` +
      `${meta.runs} run(s) per implementation, ${meta.warmupMs} ms warm-up + ${meta.durationMs} ms measured per run; medians; ` +
      (meta.pinned
        ? `driver pinned to CPU ${meta.pinned.driver}, servers to CPU ${meta.pinned.server}. `
        : 'driver and servers not pinned to cores. ') +
      `Versions: ${Object.entries(meta.versions)
        .map(([name, version]) => `${name} ${version}`)
        .join(', ')}.`,
  );
  if (chartPath !== undefined) {
    lines.push('');
    lines.push(`![Benchmark results](${chartPath})`);
  }
  for (const scenario of results.scenarios) {
    const { headers, rows, right } = scenarioTable(scenario);
    lines.push('');
    lines.push(`### ${scenario.title}`);
    lines.push('');
    lines.push(`\`${scenario.id}\` — ${scenario.unit}, ${scenario.better} is better.`);
    lines.push('');
    lines.push(markdownTable(headers, rows, right));
    for (const note of scenario.notes) {
      lines.push('');
      lines.push(`- ${note}`);
    }
  }
  if (results.targets.length > 0) {
    lines.push('');
    lines.push('### Targets');
    lines.push('');
    const rows = results.targets.map((t) => {
      const scenario = results.scenarios.find((s) => s.id === t.scenario);
      const value =
        t.value === undefined
          ? 'not measured'
          : t.description.includes('×')
            ? formatRatio(t.value)
            : scenario?.unit === 'bytes'
              ? formatBytes(t.value)
              : String(Math.round(t.value * 100) / 100);
      return [t.description, value, t.met === undefined ? 'n/a' : t.met ? 'met' : '**missed**'];
    });
    lines.push(markdownTable(['target', 'measured', ''], rows, [false, true, false]));
  }
  return lines.join('\n');
}

/** Replaces the generated region of a Markdown document (between the markers) with `generated`. */
export function spliceGenerated(document: string, generated: string): string {
  const start = document.indexOf(START_MARKER);
  const end = document.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the document needs the markers ${START_MARKER} and ${END_MARKER}`);
  }
  return `${document.slice(0, start + START_MARKER.length)}\n${generated}\n${document.slice(end)}`;
}
