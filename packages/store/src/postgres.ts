/**
 * PostgreSQL through `pg`. A pool of connections; `?` placeholders become `$1…`; BIGINT comes back as a string
 * and is turned into a number by the store. Migrations hold a transaction-scoped advisory lock, so two centers
 * starting at once apply each migration once. `schema` (tests) puts every table in a schema of its own.
 */
import type { Row, SqlConnection, SqlDriver } from './sql.js';

/** Same key for every store on the database: the migration lock. */
const MIGRATION_LOCK = 0x4d435045;

function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export interface PostgresOptions {
  readonly url: string;
  /** Create this schema if needed and use it for everything (tests isolate themselves this way). */
  readonly schema?: string;
}

export async function openPostgres(options: PostgresOptions): Promise<SqlDriver> {
  const { default: pg } = await import('pg');
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema))
    throw new Error(`invalid schema name: ${options.schema}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 4,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // A server that is down or refuses us should say so now, not at the first query.
  const first = await pool.connect();
  try {
    if (options.schema !== undefined)
      await first.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`).catch((error: { code?: string }) => {
        // Two stores creating the schema at once: IF NOT EXISTS still races in the catalog (unique violation).
        if (error.code !== '23505' && error.code !== '42P06') throw error;
      });
  } finally {
    first.release();
  }
  const over = (client: {
    query: (sql: string, params: unknown[]) => Promise<{ rows: Row[] }>;
  }): SqlConnection => ({
    async query(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      return (await client.query(numbered(sql), [...params])).rows;
    },
  });
  return {
    backend: 'postgres',
    query: over(pool).query,
    async transaction<T>(work: (tx: SqlConnection) => Promise<T>, exclusive = false): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (exclusive) await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const value = await work(over(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close(): Promise<void> {
      return pool.end();
    },
  };
}
