/**
 * Renders a results file into the docs: the chart (SVG) and the generated section of docs/benchmarks.md.
 *
 *   npm run bench -- --json .bench/results.json
 *   node packages/bench/dist/render.js .bench/results.json [--svg docs/benchmarks.svg] [--md docs/benchmarks.md]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { renderChart } from './report/chart.js';
import { renderResultsMarkdown, spliceGenerated } from './report/markdown.js';
import type { BenchResults } from './results.js';
import { REPO_ROOT } from './scenarios/footprint.js';
import { print } from './report/print.js';

const args = process.argv.slice(2);
const input = args.find((a, i) => !a.startsWith('--') && !['--svg', '--md'].includes(args[i - 1] ?? ''));
if (input === undefined) {
  console.error('Usage: node packages/bench/dist/render.js <results.json> [--svg <file>] [--md <file>]');
  process.exit(2);
}
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return resolve(REPO_ROOT, at === -1 ? fallback : args[at + 1]!);
};
const svgPath = option('--svg', 'docs/benchmarks.svg');
const mdPath = option('--md', 'docs/benchmarks.md');
const results = JSON.parse(
  readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), input), 'utf8'),
) as BenchResults;

writeFileSync(svgPath, renderChart(results));
const chartLink = relative(dirname(mdPath), svgPath).split('\\').join('/');
writeFileSync(
  mdPath,
  spliceGenerated(readFileSync(mdPath, 'utf8'), renderResultsMarkdown(results, chartLink)),
);
print(`Wrote ${svgPath} and the results section of ${mdPath}`);
