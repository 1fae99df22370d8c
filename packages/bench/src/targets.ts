/**
 * The targets of the benchmark issue, checked against a run's results.
 */
import type { ScenarioResult, TargetResult } from './results.js';

interface Target {
  scenario: string;
  description: string;
  /** The figure: the engine's ratio to a row, or the value of a row (the worst of several). */
  figure: { ratioTo: string } | { valueOf: readonly string[] };
  comparator: '>=' | '<=';
  threshold: number;
}

export const TARGETS: readonly Target[] = [
  {
    scenario: 'stdio-64',
    description: 'stdio 64 in flight: ≥ 3× SDK 1.x',
    figure: { ratioTo: 'sdk1' },
    comparator: '>=',
    threshold: 3,
  },
  {
    scenario: 'stdio-64',
    description: 'stdio 64 in flight: ≥ 0.8× the raw stdio ceiling',
    figure: { ratioTo: 'raw' },
    comparator: '>=',
    threshold: 0.8,
  },
  {
    scenario: 'http-modern',
    description: 'HTTP modern: ≥ 5× SDK 2.x',
    figure: { ratioTo: 'sdk2' },
    comparator: '>=',
    threshold: 5,
  },
  {
    scenario: 'http-modern',
    description: 'HTTP modern: ≥ 0.5× raw node:http',
    figure: { ratioTo: 'raw' },
    comparator: '>=',
    threshold: 0.5,
  },
  {
    scenario: 'http-legacy',
    description: 'HTTP legacy (one session): ≥ 3× SDK 1.x',
    figure: { ratioTo: 'sdk1' },
    comparator: '>=',
    threshold: 3,
  },
  {
    scenario: 'http-legacy',
    description: 'HTTP legacy (one session): ≥ 0.5× raw node:http',
    figure: { ratioTo: 'raw' },
    comparator: '>=',
    threshold: 0.5,
  },
  {
    scenario: 'http-list',
    description: 'tools/list 53×25 over HTTP: ≥ 50× SDK 2.x',
    figure: { ratioTo: 'sdk2' },
    comparator: '>=',
    threshold: 50,
  },
  {
    scenario: 'idle-sessions',
    description: 'idle legacy session: ≤ 4 KB heap each',
    figure: { valueOf: ['mcpengine'] },
    comparator: '<=',
    threshold: 4096,
  },
  {
    scenario: 'leak',
    description: 'leak check: ≤ 2 MB heap growth',
    figure: { valueOf: ['mcpengine', 'mcpengine/http'] },
    comparator: '<=',
    threshold: 2 * 1024 * 1024,
  },
  {
    scenario: 'footprint-deps',
    description: 'runtime dependencies: ≤ 3',
    figure: { valueOf: ['mcpengine'] },
    comparator: '<=',
    threshold: 3,
  },
  {
    scenario: 'footprint-bundle',
    description: 'hello-world bundle: ≤ 60 KB gzipped',
    figure: { valueOf: ['mcpengine'] },
    comparator: '<=',
    threshold: 60 * 1024,
  },
];

export function checkTargets(scenarios: readonly ScenarioResult[]): TargetResult[] {
  const results: TargetResult[] = [];
  for (const target of TARGETS) {
    const scenario = scenarios.find((s) => s.id === target.scenario);
    if (!scenario) continue;
    let value: number | undefined;
    if ('ratioTo' in target.figure) {
      value = scenario.ratios[target.figure.ratioTo];
    } else {
      const values = target.figure.valueOf
        .map((impl) => scenario.rows.find((r) => r.impl === impl && !r.error)?.median)
        .filter((v): v is number => v !== undefined && Number.isFinite(v));
      // The worst of the rows the target covers.
      if (values.length > 0) value = target.comparator === '<=' ? Math.max(...values) : Math.min(...values);
    }
    const met =
      value === undefined
        ? undefined
        : target.comparator === '>='
          ? value >= target.threshold
          : value <= target.threshold;
    results.push({
      scenario: target.scenario,
      description: target.description,
      value,
      threshold: target.threshold,
      comparator: target.comparator,
      met,
    });
  }
  return results;
}
