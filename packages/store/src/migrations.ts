/**
 * The store's schema as an ordered list of migrations, the same for SQLite and PostgreSQL: only types and
 * statements both accept (TEXT, BIGINT, DOUBLE PRECISION, INTEGER; JSON kept as TEXT). A migration is applied
 * once, inside a transaction, and recorded in `schema_migrations`; a newer store never edits an old migration.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'servers, runs, stage results',
    statements: [
      `CREATE TABLE servers (
        name TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        manifest TEXT NOT NULL,
        added_at BIGINT NOT NULL
      )`,
      `CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        started_at BIGINT NOT NULL,
        finished_at BIGINT,
        status TEXT NOT NULL,
        servers TEXT NOT NULL,
        stages TEXT NOT NULL
      )`,
      `CREATE TABLE stage_results (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        server TEXT NOT NULL,
        stage TEXT NOT NULL,
        verdict TEXT NOT NULL,
        summary TEXT NOT NULL,
        score DOUBLE PRECISION,
        duration_ms BIGINT NOT NULL,
        finished_at BIGINT NOT NULL,
        evidence TEXT NOT NULL,
        PRIMARY KEY (run_id, server, stage)
      )`,
      `CREATE INDEX stage_results_by_server ON stage_results (server, finished_at)`,
    ],
  },
  {
    version: 2,
    name: 'monitor checks of external servers',
    statements: [
      `CREATE TABLE monitor_checks (
        server TEXT NOT NULL,
        at BIGINT NOT NULL,
        ok INTEGER NOT NULL,
        revision TEXT,
        tools_hash TEXT,
        message TEXT NOT NULL
      )`,
      `CREATE INDEX monitor_checks_by_server ON monitor_checks (server, at)`,
    ],
  },
];

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)`;
