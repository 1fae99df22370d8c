/**
 * What the store's history says: the latest verdict of each stage, trends (one point per run), and regressions —
 * a stage that passed in the previous run that had it and fails now, or a tool whose definition changed.
 */
import type { StageResult } from '@mcpengine/store';
import { STAGES } from './stages.js';

export interface Regression {
  readonly kind: 'stage' | 'tool-changed' | 'tool-removed' | 'tool-added';
  readonly stage?: string;
  readonly tool?: string;
  readonly runId: string;
  readonly previousRunId: string;
  readonly message: string;
}

export interface TrendPoint {
  readonly runId: string;
  readonly at: number;
  /** Stages passed in that run. */
  readonly passed: number;
  /** The review score (0..1), when reviewed. */
  readonly review: number | null;
}

export interface ServerSummary {
  readonly latest: Record<string, StageResult>;
  /** The furthest stage passed in order, or null when the first failed. */
  readonly stage: string | null;
  readonly trend: TrendPoint[];
  readonly regressions: Regression[];
  readonly lastRun: { readonly runId: string; readonly at: number } | null;
}

interface ToolRow {
  readonly name: string;
  readonly hash: string;
}

function byRun(history: readonly StageResult[]): Map<string, StageResult[]> {
  const runs = new Map<string, StageResult[]>();
  for (const result of history) {
    const list = runs.get(result.runId) ?? [];
    list.push(result);
    runs.set(result.runId, list);
  }
  return runs;
}

export function regressionsOf(history: readonly StageResult[]): Regression[] {
  const runs = [...byRun(history).entries()];
  if (runs.length < 2) return [];
  const [latestId, latest] = runs.at(-1)!;
  const regressions: Regression[] = [];
  for (const result of latest) {
    const before = runs
      .slice(0, -1)
      .reverse()
      .map(([, results]) => results.find((r) => r.stage === result.stage))
      .find((r) => r !== undefined && r.verdict !== 'skip');
    if (before === undefined) continue;
    if (before.verdict === 'pass' && result.verdict === 'fail')
      regressions.push({
        kind: 'stage',
        stage: result.stage,
        runId: latestId,
        previousRunId: before.runId,
        message: `${result.stage} passed in run ${before.runId} and fails now: ${result.summary}`,
      });
    if (result.stage === 'reviewed' && result.evidence !== null && before.evidence !== null) {
      const now = new Map(
        ((result.evidence as { tools?: ToolRow[] }).tools ?? []).map((t) => [t.name, t.hash]),
      );
      const then = new Map(
        ((before.evidence as { tools?: ToolRow[] }).tools ?? []).map((t) => [t.name, t.hash]),
      );
      for (const [name, hash] of now) {
        const old = then.get(name);
        if (old === undefined)
          regressions.push({
            kind: 'tool-added',
            tool: name,
            runId: latestId,
            previousRunId: before.runId,
            message: `tool ${name} appeared`,
          });
        else if (old !== hash)
          regressions.push({
            kind: 'tool-changed',
            tool: name,
            runId: latestId,
            previousRunId: before.runId,
            message: `tool ${name} changed its definition (sha256 ${old.slice(0, 12)} → ${hash.slice(0, 12)})`,
          });
      }
      for (const name of then.keys())
        if (!now.has(name))
          regressions.push({
            kind: 'tool-removed',
            tool: name,
            runId: latestId,
            previousRunId: before.runId,
            message: `tool ${name} disappeared`,
          });
    }
  }
  return regressions;
}

export function summarizeServer(history: readonly StageResult[]): ServerSummary {
  const latest: Record<string, StageResult> = {};
  for (const result of history) latest[result.stage] = result;
  let stage: string | null = null;
  for (const name of STAGES) {
    const result = latest[name];
    if (result === undefined || result.verdict === 'fail') break;
    if (result.verdict === 'pass') stage = name;
  }
  const trend = [...byRun(history).entries()].map(([runId, results]) => ({
    runId,
    at: Math.max(...results.map((r) => r.finishedAt)),
    passed: results.filter((r) => r.verdict === 'pass').length,
    review: results.find((r) => r.stage === 'reviewed')?.score ?? null,
  }));
  const last = trend.at(-1);
  return {
    latest,
    stage,
    trend,
    regressions: regressionsOf(history),
    lastRun: last === undefined ? null : { runId: last.runId, at: last.at },
  };
}
