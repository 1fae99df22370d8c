/**
 * The little the store needs from a SQL driver: run a statement with `?` parameters, and run a function in a
 * transaction. Each backend (sqlite.ts, postgres.ts) adapts its driver to this; `SqlStore` holds every query.
 */
import { MIGRATIONS, MIGRATIONS_TABLE, type Migration } from './migrations.js';
import type {
  MonitorCheck,
  RunRecord,
  RunStatus,
  ServerRecord,
  StageResult,
  StageVerdict,
  Store,
} from './model.js';

export type Row = Record<string, unknown>;

export interface SqlConnection {
  query(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlDriver extends SqlConnection {
  readonly backend: 'sqlite' | 'postgres';
  /** Runs `work` in one transaction; `exclusive` also serializes it against every other store on the database. */
  transaction<T>(work: (tx: SqlConnection) => Promise<T>, exclusive?: boolean): Promise<T>;
  close(): Promise<void>;
}

/** Applies the migrations not yet applied, each in its own transaction; concurrent openers wait for each other. */
export async function migrate(
  driver: SqlDriver,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    await driver.transaction(async (tx) => {
      await tx.query(MIGRATIONS_TABLE);
      const done = await tx.query('SELECT version FROM schema_migrations WHERE version = ?', [
        migration.version,
      ]);
      if (done.length > 0) return;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      applied.push(migration.version);
    }, true);
  }
  return applied;
}

const num = (value: unknown): number => Number(value);
const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function runOf(row: Row): RunRecord {
  return {
    id: String(row['id']),
    startedAt: num(row['started_at']),
    finishedAt: numOrNull(row['finished_at']),
    status: String(row['status']) as RunStatus,
    servers: JSON.parse(String(row['servers'])) as string[],
    stages: JSON.parse(String(row['stages'])) as string[],
  };
}

function resultOf(row: Row): StageResult {
  return {
    runId: String(row['run_id']),
    server: String(row['server']),
    stage: String(row['stage']),
    verdict: String(row['verdict']) as StageVerdict,
    summary: String(row['summary']),
    score: numOrNull(row['score']),
    durationMs: num(row['duration_ms']),
    finishedAt: num(row['finished_at']),
    evidence: JSON.parse(String(row['evidence'])) as unknown,
  };
}

function checkOf(row: Row): MonitorCheck {
  return {
    server: String(row['server']),
    at: num(row['at']),
    ok: num(row['ok']) === 1,
    revision: row['revision'] === null ? null : String(row['revision']),
    toolsHash: row['tools_hash'] === null ? null : String(row['tools_hash']),
    message: String(row['message']),
  };
}

export class SqlStore implements Store {
  constructor(private readonly driver: SqlDriver) {}

  get backend(): 'sqlite' | 'postgres' {
    return this.driver.backend;
  }

  async migrationsApplied(): Promise<number[]> {
    const rows = await this.driver.query('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((row) => num(row['version']));
  }

  async putServer(server: ServerRecord): Promise<void> {
    await this.driver.query(
      `INSERT INTO servers (name, kind, manifest, added_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, manifest = excluded.manifest`,
      [server.name, server.kind, JSON.stringify(server.manifest), server.addedAt],
    );
  }

  async removeServer(name: string): Promise<boolean> {
    const rows = await this.driver.query('DELETE FROM servers WHERE name = ? RETURNING name', [name]);
    return rows.length > 0;
  }

  async listServers(): Promise<ServerRecord[]> {
    const rows = await this.driver.query('SELECT * FROM servers ORDER BY name');
    return rows.map((row) => ({
      name: String(row['name']),
      kind: String(row['kind']) as ServerRecord['kind'],
      manifest: JSON.parse(String(row['manifest'])) as Record<string, unknown>,
      addedAt: num(row['added_at']),
    }));
  }

  async createRun(run: RunRecord): Promise<void> {
    await this.driver.query(
      'INSERT INTO runs (id, started_at, finished_at, status, servers, stages) VALUES (?, ?, ?, ?, ?, ?)',
      [
        run.id,
        run.startedAt,
        run.finishedAt,
        run.status,
        JSON.stringify(run.servers),
        JSON.stringify(run.stages),
      ],
    );
  }

  async finishRun(id: string, status: Exclude<RunStatus, 'running'>, finishedAt: number): Promise<void> {
    await this.driver.query('UPDATE runs SET status = ?, finished_at = ? WHERE id = ?', [
      status,
      finishedAt,
      id,
    ]);
  }

  async reopenRun(id: string): Promise<void> {
    await this.driver.query("UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?", [id]);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const rows = await this.driver.query('SELECT * FROM runs WHERE id = ?', [id]);
    return rows[0] === undefined ? undefined : runOf(rows[0]);
  }

  async listRuns(limit: number): Promise<RunRecord[]> {
    const rows = await this.driver.query('SELECT * FROM runs ORDER BY started_at DESC, id DESC LIMIT ?', [
      limit,
    ]);
    return rows.map(runOf);
  }

  async putStageResult(result: StageResult): Promise<void> {
    await this.driver.query(
      `INSERT INTO stage_results (run_id, server, stage, verdict, summary, score, duration_ms, finished_at, evidence)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, server, stage) DO UPDATE SET verdict = excluded.verdict, summary = excluded.summary,
         score = excluded.score, duration_ms = excluded.duration_ms, finished_at = excluded.finished_at,
         evidence = excluded.evidence`,
      [
        result.runId,
        result.server,
        result.stage,
        result.verdict,
        result.summary,
        result.score,
        Math.round(result.durationMs),
        result.finishedAt,
        JSON.stringify(result.evidence ?? null),
      ],
    );
  }

  async runResults(runId: string): Promise<StageResult[]> {
    const rows = await this.driver.query(
      'SELECT * FROM stage_results WHERE run_id = ? ORDER BY finished_at',
      [runId],
    );
    return rows.map(resultOf);
  }

  async serverHistory(server: string, limit: number): Promise<StageResult[]> {
    const rows = await this.driver.query(
      `SELECT * FROM (SELECT * FROM stage_results WHERE server = ? ORDER BY finished_at DESC LIMIT ?) AS recent
       ORDER BY finished_at`,
      [server, limit],
    );
    return rows.map(resultOf);
  }

  async addMonitorCheck(check: MonitorCheck): Promise<void> {
    await this.driver.query(
      'INSERT INTO monitor_checks (server, at, ok, revision, tools_hash, message) VALUES (?, ?, ?, ?, ?, ?)',
      [check.server, check.at, check.ok ? 1 : 0, check.revision, check.toolsHash, check.message],
    );
  }

  async monitorChecks(server: string, limit: number): Promise<MonitorCheck[]> {
    const rows = await this.driver.query(
      `SELECT * FROM (SELECT * FROM monitor_checks WHERE server = ? ORDER BY at DESC LIMIT ?) AS recent ORDER BY at`,
      [server, limit],
    );
    return rows.map(checkOf);
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
