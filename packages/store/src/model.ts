/**
 * What the command center keeps: the servers it manages, its runs, each stage's verdict with its evidence, and the
 * monitor's checks of external servers. Times are epoch milliseconds; evidence is JSON.
 */

/** A server the center manages: from the fleet (servers/<name>/fleet.json) or added by command line or URL. */
export interface ServerRecord {
  readonly name: string;
  readonly kind: 'fleet' | 'external';
  /** The fleet manifest, or for an external server `{ stdio }` / `{ url }`. */
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly addedAt: number;
}

export type RunStatus = 'running' | 'done' | 'cancelled' | 'interrupted';

export interface RunRecord {
  readonly id: string;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly status: RunStatus;
  /** The servers the run covers, in order. */
  readonly servers: readonly string[];
  /** The stages the run covers, in order. */
  readonly stages: readonly string[];
}

export type StageVerdict = 'pass' | 'fail' | 'skip';

/** One stage's verdict for one server in one run, written as soon as the stage completes. */
export interface StageResult {
  readonly runId: string;
  readonly server: string;
  readonly stage: string;
  readonly verdict: StageVerdict;
  /** One line a person reads first. */
  readonly summary: string;
  /** 0..1 where the stage scores (validation, review), else null. */
  readonly score: number | null;
  readonly durationMs: number;
  readonly finishedAt: number;
  /** What the verdict was built from: the tool's report, trimmed to what a person needs. */
  readonly evidence: unknown;
}

/** One periodic check of an external server. */
export interface MonitorCheck {
  readonly server: string;
  readonly at: number;
  readonly ok: boolean;
  /** The revision negotiated, when the handshake succeeded. */
  readonly revision: string | null;
  /** sha256 of the canonical tools/list, when listed. */
  readonly toolsHash: string | null;
  readonly message: string;
}

/** One store for both backends; every method is atomic. */
export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  /** The migration versions applied so far (the newest last). */
  migrationsApplied(): Promise<number[]>;
  putServer(server: ServerRecord): Promise<void>;
  removeServer(name: string): Promise<boolean>;
  listServers(): Promise<ServerRecord[]>;
  /** Fails when the id exists (run ids are unique). */
  createRun(run: RunRecord): Promise<void>;
  finishRun(id: string, status: Exclude<RunStatus, 'running'>, finishedAt: number): Promise<void>;
  /** Marks a run running again (resume). */
  reopenRun(id: string): Promise<void>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(limit: number): Promise<RunRecord[]>;
  /** Writes (or, on a resumed stage, replaces) one stage result. */
  putStageResult(result: StageResult): Promise<void>;
  runResults(runId: string): Promise<StageResult[]>;
  /** Every stage result of a server, oldest first (history, trends, regressions). */
  serverHistory(server: string, limit: number): Promise<StageResult[]>;
  addMonitorCheck(check: MonitorCheck): Promise<void>;
  /** Oldest first. */
  monitorChecks(server: string, limit: number): Promise<MonitorCheck[]>;
  close(): Promise<void>;
}
