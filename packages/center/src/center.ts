/**
 * The command center: the fleet of this project plus the external servers in the store, a runner, and the views
 * the API and the dashboard show (overview, server page, run page, review reports).
 */
import type { MonitorCheck, RunRecord, StageResult, Store } from '@mcpengine/store';
import { discoverFleet, externalName, type ServerEntry } from './fleet.js';
import { summarizeServer, type ServerSummary } from './history.js';
import { driftOf, type Drift } from './monitor.js';
import { renderHtml, renderMarkdown, type ReviewReport } from './review/render.js';
import type { ReviewCheck } from './review/checks.js';
import { Runner, type RunOptions } from './runner.js';

/** How the center runs the pipeline: servers at once, time limits, revisions validated. */
export type RunSettings = Required<Pick<RunOptions, 'parallelism' | 'timeoutMs'>> &
  Pick<RunOptions, 'revisions'>;
import { STAGES } from './stages.js';

export interface ServerOverview {
  readonly name: string;
  readonly kind: 'fleet' | 'external';
  readonly title: string;
  readonly origin: string | null;
  readonly summary: Omit<ServerSummary, 'latest'> & {
    readonly latest: Record<string, Omit<StageResult, 'evidence'>>;
  };
  readonly drift: Drift[];
}

const HISTORY = 400;

function withoutEvidence(result: StageResult): Omit<StageResult, 'evidence'> {
  const { evidence: _evidence, ...rest } = result;
  return rest;
}

export class Center {
  readonly runner: Runner;

  constructor(
    readonly store: Store,
    /** The project: `servers/*\/fleet.json` under it. */
    readonly root: string,
    readonly settings: RunSettings,
  ) {
    this.runner = new Runner(store);
  }

  /** Fleet servers (from the files, recorded in the store) and external servers (from the store). */
  async servers(): Promise<ServerEntry[]> {
    const fleet = discoverFleet(this.root);
    const stored = await this.store.listServers();
    for (const entry of fleet) {
      const known = stored.find((server) => server.name === entry.name);
      if (known === undefined || JSON.stringify(known.manifest) !== JSON.stringify(entry.manifest))
        await this.store.putServer({
          name: entry.name,
          kind: 'fleet',
          manifest: { ...entry.manifest },
          addedAt: known?.addedAt ?? Date.now(),
        });
    }
    const external = stored
      .filter((server) => server.kind === 'external')
      .map((server) => ({
        name: server.name,
        kind: 'external' as const,
        dir: this.root,
        manifest: server.manifest as unknown as ServerEntry['manifest'],
      }));
    return [...fleet, ...external];
  }

  async addExternal(source: { stdio?: string; url?: string; name?: string }): Promise<ServerEntry> {
    if ((source.stdio === undefined) === (source.url === undefined))
      throw new Error('give either a command line or a URL');
    if (source.url !== undefined) {
      const url = new URL(source.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error('the URL must be http or https');
    }
    const name = source.name ?? externalName(source);
    if (!/^[a-zA-Z0-9._-]{1,80}$/.test(name)) throw new Error(`invalid name ${JSON.stringify(name)}`);
    const manifest = {
      name,
      title: name,
      ...(source.stdio === undefined ? {} : { stdio: source.stdio }),
      ...(source.url === undefined ? {} : { url: source.url }),
    };
    await this.store.putServer({ name, kind: 'external', manifest, addedAt: Date.now() });
    return { name, kind: 'external', dir: this.root, manifest };
  }

  async startRun(names?: readonly string[]): Promise<RunRecord> {
    const all = await this.servers();
    const chosen =
      names === undefined || names.length === 0 ? all : all.filter((server) => names.includes(server.name));
    if (chosen.length === 0) throw new Error('no such server');
    const { run } = await this.runner.start({ servers: chosen, ...this.settings });
    return run;
  }

  async resumeRun(runId: string): Promise<RunRecord> {
    const { run } = await this.runner.resume(runId, { servers: await this.servers(), ...this.settings });
    return run;
  }

  async overview(): Promise<{
    servers: ServerOverview[];
    runs: RunRecord[];
    active: string[];
    stages: readonly string[];
  }> {
    const servers: ServerOverview[] = [];
    for (const entry of await this.servers()) {
      const summary = summarizeServer(await this.store.serverHistory(entry.name, HISTORY));
      const checks = entry.kind === 'external' ? await this.store.monitorChecks(entry.name, 100) : [];
      servers.push({
        name: entry.name,
        kind: entry.kind,
        title: entry.manifest.title ?? entry.name,
        origin: entry.manifest.origin ?? null,
        summary: {
          ...summary,
          latest: Object.fromEntries(
            Object.entries(summary.latest).map(([stage, result]) => [stage, withoutEvidence(result)]),
          ),
        },
        drift: driftOf(checks),
      });
    }
    return { servers, runs: await this.store.listRuns(30), active: this.runner.active, stages: STAGES };
  }

  async serverDetail(name: string): Promise<
    | {
        entry: ServerEntry;
        summary: ServerSummary;
        monitor: MonitorCheck[];
        drift: Drift[];
        stages: readonly string[];
      }
    | undefined
  > {
    const entry = (await this.servers()).find((server) => server.name === name);
    if (entry === undefined) return undefined;
    const summary = summarizeServer(await this.store.serverHistory(name, HISTORY));
    const monitor = await this.store.monitorChecks(name, 100);
    return { entry, summary, monitor, drift: driftOf(monitor), stages: STAGES };
  }

  async runDetail(
    id: string,
  ): Promise<{ run: RunRecord; results: StageResult[]; active: boolean; running: string[] } | undefined> {
    const run = await this.store.getRun(id);
    if (run === undefined) return undefined;
    return {
      run,
      results: await this.store.runResults(id),
      active: this.runner.active.includes(id),
      running: this.runner.runningStages(id),
    };
  }

  /** The latest review of a server as a report, or undefined when it was never reviewed. */
  async review(name: string): Promise<ReviewReport | undefined> {
    const history = await this.store.serverHistory(name, HISTORY);
    const review = history
      .filter((result) => result.stage === 'reviewed' && result.verdict !== 'skip')
      .at(-1);
    if (review === undefined) return undefined;
    const evidence = (review.evidence ?? {}) as {
      checks?: ReviewCheck[];
      score?: { earned: number; possible: number };
      tools?: { name: string; tokens: number; description: string }[];
      listTokens?: number;
    };
    return {
      server: name,
      runId: review.runId,
      stages: history.filter((result) => result.runId === review.runId),
      checks: evidence.checks ?? [],
      score: evidence.score ?? { earned: 0, possible: 0 },
      tools: evidence.tools ?? [],
      listTokens: evidence.listTokens ?? 0,
    };
  }

  async reviewText(name: string, format: 'md' | 'html'): Promise<string | undefined> {
    const report = await this.review(name);
    if (report === undefined) return undefined;
    return format === 'md' ? renderMarkdown(report) : renderHtml(report);
  }
}
