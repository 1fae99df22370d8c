/**
 * The shape of `--json` output, which the report renderer (docs table and chart) reads back.
 */
import { ratio, summarize } from './stats.js';

export type Better = 'higher' | 'lower';

/** One implementation's measurements in one scenario. */
export interface Row {
  /** An implementation id (mcpengine, sdk1, sdk2, raw) or a variant of one (raw/agent). */
  impl: string;
  label: string;
  /** One value per run, in run order. */
  samples: number[];
  median: number;
  min: number;
  max: number;
  /** Medians of secondary figures (latency percentiles, CPU per call…), by name. */
  details: Record<string, number>;
  /** Set when this implementation could not run the scenario. */
  error?: string;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** What one sample is, e.g. "calls/s". */
  unit: string;
  better: Better;
  rows: Row[];
  /** The engine's ratio to each other row (how many times better), by row impl. */
  ratios: Record<string, number>;
  notes: string[];
}

export interface TargetResult {
  scenario: string;
  description: string;
  /** The measured figure the target is about (a ratio or an absolute value). */
  value: number | undefined;
  threshold: number;
  comparator: '>=' | '<=';
  met: boolean | undefined;
}

export interface BenchResults {
  meta: {
    command: string;
    node: string;
    platform: string;
    arch: string;
    cpus: number;
    cpuModel: string;
    date: string;
    quick: boolean;
    runs: number;
    warmupMs: number;
    durationMs: number;
    versions: Record<string, string>;
    httpClient: string;
    /** The cores the driver and the servers were pinned to; absent when the run was not pinned. */
    pinned?: { driver: number; server: number };
  };
  scenarios: ScenarioResult[];
  targets: TargetResult[];
}

/** Builds a row from per-run samples and per-run details (details are reduced to their medians). */
export function makeRow(
  impl: string,
  label: string,
  samples: number[],
  details: Record<string, number>[] = [],
): Row {
  if (samples.length === 0)
    return { impl, label, samples, median: Number.NaN, min: Number.NaN, max: Number.NaN, details: {} };
  const summary = summarize(samples);
  const merged: Record<string, number> = {};
  const names = new Set(details.flatMap((d) => Object.keys(d)));
  for (const name of names) {
    const values = details
      .map((d) => d[name])
      .filter((v): v is number => v !== undefined && Number.isFinite(v));
    if (values.length > 0) merged[name] = summarize(values).median;
  }
  return {
    impl,
    label,
    samples,
    median: summary.median,
    min: summary.min,
    max: summary.max,
    details: merged,
  };
}

export function errorRow(impl: string, label: string, error: string): Row {
  return {
    impl,
    label,
    samples: [],
    median: Number.NaN,
    min: Number.NaN,
    max: Number.NaN,
    details: {},
    error,
  };
}

/** The engine's ratio to every other row that has a value. */
export function engineRatios(
  rows: readonly Row[],
  better: Better,
  engine = 'mcpengine',
): Record<string, number> {
  const mine = rows.find((r) => r.impl === engine && !r.error)?.median;
  const out: Record<string, number> = {};
  for (const row of rows) {
    if (row.impl === engine || row.error) continue;
    const r = ratio(mine, row.median, better);
    if (r !== undefined) out[row.impl] = r;
  }
  return out;
}
