/**
 * SQLite through better-sqlite3 (12.x: 13.x crashes on Node 20 here). WAL journal so readers (the dashboard)
 * never wait for the runner's writes; a busy timeout so two processes on one file queue instead of failing;
 * migrations under BEGIN IMMEDIATE, which takes the write lock before reading what is applied.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Row, SqlConnection, SqlDriver } from './sql.js';

/** The tail of each database file's queue of statements in this process. */
const QUEUES = new Map<string | symbol, Promise<unknown>>();

function bindable(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
}

const BUSY_TIMEOUT_MS = 10_000;

/**
 * Switches the file to WAL. Two processes opening a fresh file at once both try the switch, which needs the
 * exclusive lock; SQLite answers one of them SQLITE_BUSY at once, without its busy handler (waiting could deadlock
 * two readers that both want to upgrade), and leaves the retry to the caller. Retry until the busy timeout.
 */
async function enterWal(db: Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
      if (!busy || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

export async function openSqlite(path: string): Promise<SqlDriver> {
  // CommonJS: the constructor is the module's default export.
  const loaded = (await import('better-sqlite3')) as unknown as { default: new (path: string) => Database };
  const BetterSqlite3 = loaded.default;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db: Database = new BetterSqlite3(path);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  await enterWal(db);
  db.pragma('foreign_keys = ON');

  const direct: SqlConnection = {
    // Synchronous underneath: a statement is atomic, and no other statement of this process runs meanwhile.
    query(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      const statement = db.prepare(sql);
      if (statement.reader) return Promise.resolve(statement.all(...bindable(params)) as Row[]);
      statement.run(...bindable(params));
      return Promise.resolve([]);
    },
  };
  // Every statement of every store of this process on this file takes its turn: a transaction spans awaits, and
  // a second connection of the same thread waiting for its lock would block the thread that holds it.
  const key = path === ':memory:' ? Symbol('memory') : resolve(path);
  const turn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = (QUEUES.get(key) ?? Promise.resolve()).then(work);
    QUEUES.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  };
  return {
    backend: 'sqlite',
    query: (sql, params) => turn(() => direct.query(sql, params)),
    transaction<T>(work: (tx: SqlConnection) => Promise<T>, exclusive = false): Promise<T> {
      return turn(async () => {
        db.exec(exclusive ? 'BEGIN IMMEDIATE' : 'BEGIN');
        try {
          const value = await work(direct);
          db.exec('COMMIT');
          return value;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    close(): Promise<void> {
      db.close();
      return Promise.resolve();
    },
  };
}
