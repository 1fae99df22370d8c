/**
 * Runs the stages for many servers: at most `parallelism` servers at a time, stages in order within a server,
 * each stage's result written to the store the moment it completes. Cancelling aborts the stages running now
 * (their results are not written) and marks the run cancelled; resuming a run skips every stage it already has a
 * result for. Progress goes out as events (the terminal and the dashboard's live stream listen).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RunRecord, StageResult, Store } from '@mcpengine/store';
import type { Revision } from '@mcpengine/validator';
import type { ServerEntry } from './fleet.js';
import { runStage, STAGES, type StageName, type StageOutcome } from './stages.js';

export type RunEvent =
  | { readonly type: 'run-start'; readonly run: RunRecord }
  | { readonly type: 'stage-start'; readonly runId: string; readonly server: string; readonly stage: string }
  | { readonly type: 'stage-end'; readonly result: StageResult }
  | { readonly type: 'run-end'; readonly run: RunRecord };

export interface RunOptions {
  readonly servers: readonly ServerEntry[];
  readonly stages?: readonly StageName[];
  /** Servers processed at once (default 2: this machine has 2 cores). */
  readonly parallelism?: number;
  readonly timeoutMs?: number;
  /** Validate only these revisions (default: every revision each server negotiates). */
  readonly revisions?: readonly Revision[];
}

interface ActiveRun {
  readonly controller: AbortController;
  readonly done: Promise<RunRecord>;
}

export class Runner extends EventEmitter<{ event: [RunEvent] }> {
  readonly #active = new Map<string, ActiveRun>();
  /** Per active run, the stages under way now (`server/stage`). */
  readonly #running = new Map<string, Set<string>>();

  constructor(private readonly store: Store) {
    super();
  }

  /** The stages of `runId` under way now, as `server/stage` (a page opened mid-run shows them). */
  runningStages(runId: string): string[] {
    return [...(this.#running.get(runId) ?? [])];
  }

  /** Ids of the runs going on in this process. */
  get active(): string[] {
    return [...this.#active.keys()];
  }

  /** Starts a run and returns its record at once; `done` settles when it ends. */
  async start(options: RunOptions): Promise<{ run: RunRecord; done: Promise<RunRecord> }> {
    const run: RunRecord = {
      id: `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`,
      startedAt: Date.now(),
      finishedAt: null,
      status: 'running',
      servers: options.servers.map((server) => server.name),
      stages: [...(options.stages ?? STAGES)],
    };
    await this.store.createRun(run);
    return { run, done: this.#execute(run, options, new Map()) };
  }

  /** Continues an interrupted or cancelled run: the stages it has results for are not run again. */
  async resume(
    runId: string,
    options: Omit<RunOptions, 'stages'>,
  ): Promise<{ run: RunRecord; done: Promise<RunRecord> }> {
    const existing = await this.store.getRun(runId);
    if (existing === undefined) throw new Error(`no run ${runId}`);
    if (this.#active.has(runId)) throw new Error(`run ${runId} is running`);
    const finished = new Map<string, StageResult>();
    for (const result of await this.store.runResults(runId))
      finished.set(`${result.server}\u0000${result.stage}`, result);
    await this.store.reopenRun(runId);
    const run: RunRecord = { ...existing, status: 'running', finishedAt: null };
    const servers = options.servers.filter((server) => existing.servers.includes(server.name));
    return {
      run,
      done: this.#execute(run, { ...options, servers, stages: existing.stages as StageName[] }, finished),
    };
  }

  /** Cancels a run of this process; false when it is not running here. */
  cancel(runId: string): boolean {
    const active = this.#active.get(runId);
    if (active === undefined) return false;
    active.controller.abort();
    return true;
  }

  /** Cancels every run and waits for them to end (shutdown). */
  async cancelAll(): Promise<void> {
    const runs = [...this.#active.values()];
    for (const run of runs) run.controller.abort();
    await Promise.allSettled(runs.map((run) => run.done));
  }

  /**
   * The servers, slowest first by their last recorded run (never run: first, their time is unknown): with a few
   * workers, starting the long ones early keeps one slow server from running alone at the end.
   */
  async #longestFirst(servers: readonly ServerEntry[]): Promise<ServerEntry[]> {
    const last = new Map<string, number>();
    for (const server of servers) {
      const history = await this.store.serverHistory(server.name, STAGES.length * 2);
      const runId = history.at(-1)?.runId;
      last.set(
        server.name,
        runId === undefined
          ? Number.POSITIVE_INFINITY
          : history.filter((result) => result.runId === runId).reduce((sum, r) => sum + r.durationMs, 0),
      );
    }
    // A stable sort: equal times (a fresh store) keep the given order.
    const time = (server: ServerEntry): number => last.get(server.name)!;
    return [...servers].sort((a, b) => (time(a) === time(b) ? 0 : time(a) > time(b) ? -1 : 1));
  }

  #execute(run: RunRecord, options: RunOptions, finished: Map<string, StageResult>): Promise<RunRecord> {
    const controller = new AbortController();
    const stages = options.stages ?? STAGES;
    const parallelism = Math.max(1, options.parallelism ?? 2);
    const timeoutMs = options.timeoutMs ?? 30_000;
    const running = new Set<string>();
    this.#running.set(run.id, running);
    const emit = (event: RunEvent): void => void this.emit('event', event);
    emit({ type: 'run-start', run });

    const otherTools = async (): Promise<{ server: string; name: string; description: string }[]> => {
      const tools: { server: string; name: string; description: string }[] = [];
      for (const server of await this.store.listServers()) {
        const history = await this.store.serverHistory(server.name, 40);
        const review = history
          .filter((result) => result.stage === 'reviewed' && result.evidence !== null)
          .at(-1);
        const listed =
          (review?.evidence as { tools?: { name: string; description: string }[] } | null)?.tools ?? [];
        for (const tool of listed)
          tools.push({ server: server.name, name: tool.name, description: tool.description });
      }
      return tools;
    };

    const runServer = async (server: ServerEntry): Promise<void> => {
      const earlier = new Map<string, StageOutcome>();
      for (const stage of stages) {
        if (controller.signal.aborted) return;
        const previous = finished.get(`${server.name}\u0000${stage}`);
        if (previous !== undefined) {
          earlier.set(stage, previous);
          continue;
        }
        running.add(`${server.name}/${stage}`);
        emit({ type: 'stage-start', runId: run.id, server: server.name, stage });
        const started = performance.now();
        const outcome = await runStage(stage, {
          server,
          signal: controller.signal,
          earlier,
          otherTools,
          timeoutMs,
          ...(options.revisions === undefined ? {} : { revisions: options.revisions }),
        }).finally(() => running.delete(`${server.name}/${stage}`));
        // A stage cut short by a cancel proves nothing: it is run again on resume.
        if (controller.signal.aborted) return;
        const result: StageResult = {
          runId: run.id,
          server: server.name,
          stage,
          ...outcome,
          durationMs: performance.now() - started,
          finishedAt: Date.now(),
        };
        await this.store.putStageResult(result);
        earlier.set(stage, outcome);
        emit({ type: 'stage-end', result });
      }
    };

    const done = (async (): Promise<RunRecord> => {
      const queue = await this.#longestFirst(options.servers);
      const workers = Array.from({ length: Math.min(parallelism, queue.length) }, async () => {
        for (let server = queue.shift(); server !== undefined; server = queue.shift())
          await runServer(server);
      });
      await Promise.all(workers);
      const status = controller.signal.aborted ? 'cancelled' : 'done';
      const finishedAt = Date.now();
      await this.store.finishRun(run.id, status, finishedAt);
      const ended: RunRecord = { ...run, status, finishedAt };
      emit({ type: 'run-end', run: ended });
      return ended;
    })().finally(() => {
      this.#active.delete(run.id);
      this.#running.delete(run.id);
    });
    this.#active.set(run.id, { controller, done });
    return done;
  }
}

/** Runs left `running` by a process that died (no process runs them now) become `interrupted`. */
export async function markInterrupted(store: Store, activeHere: readonly string[]): Promise<string[]> {
  const marked: string[] = [];
  for (const run of await store.listRuns(200)) {
    if (run.status !== 'running' || activeHere.includes(run.id)) continue;
    await store.finishRun(run.id, 'interrupted', Date.now());
    marked.push(run.id);
  }
  return marked;
}
