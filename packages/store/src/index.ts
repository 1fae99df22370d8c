/**
 * @mcpengine/store: the command center's store. `openStore` picks the backend: PostgreSQL when a database URL
 * is given (DATABASE_URL), else an embedded SQLite file; both apply the same migrations before answering.
 */
import { openPostgres } from './postgres.js';
import { migrate, SqlStore, type SqlDriver } from './sql.js';
import { openSqlite } from './sqlite.js';
import type { Store } from './model.js';

export type * from './model.js';
export { MIGRATIONS, type Migration } from './migrations.js';

export interface StoreOptions {
  /** postgres://… — when set, PostgreSQL is used. */
  readonly databaseUrl?: string | undefined;
  /** The SQLite file (or `:memory:`) used when no database URL is set. */
  readonly sqlitePath: string;
  /** PostgreSQL only: a schema of its own (tests). */
  readonly schema?: string;
}

/** Opens the store and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  const driver: SqlDriver =
    url !== undefined && url !== ''
      ? await openPostgres({ url, ...(options.schema === undefined ? {} : { schema: options.schema }) })
      : await openSqlite(options.sqlitePath);
  try {
    await migrate(driver);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return new SqlStore(driver);
}

/** Where a store is, for a person: the SQLite path, or the PostgreSQL URL without its password. */
export function describeStore(options: StoreOptions): string {
  if (options.databaseUrl === undefined || options.databaseUrl === '') return `SQLite ${options.sqlitePath}`;
  try {
    const url = new URL(options.databaseUrl);
    if (url.password !== '') url.password = '***';
    return `PostgreSQL ${url.toString()}`;
  } catch {
    return 'PostgreSQL (unparsable DATABASE_URL)';
  }
}
