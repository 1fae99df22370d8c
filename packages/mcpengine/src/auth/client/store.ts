/**
 * Where a client keeps what authorization produced: client registrations (keyed by the authorization server's
 * issuer, never shared between authorization servers) and tokens (keyed by the MCP server). Pluggable: an
 * in-memory store (the default) and a file store that writes with owner-only permissions through an atomic
 * rename. Nothing here logs values.
 */
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../../protocol/types.js';

export interface AuthStore {
  get(key: string): Promise<JsonObject | undefined>;
  set(key: string, value: JsonObject): Promise<void>;
  delete(key: string): Promise<void>;
}

export class MemoryAuthStore implements AuthStore {
  readonly #entries = new Map<string, string>();

  async get(key: string): Promise<JsonObject | undefined> {
    const text = this.#entries.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as JsonObject);
  }

  async set(key: string, value: JsonObject): Promise<void> {
    this.#entries.set(key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

interface StoreFile {
  version: 1;
  entries: Record<string, JsonObject>;
}

/**
 * One JSON file holding every entry. Writes go to a temporary file created with mode 0600 in the same
 * directory, then replace the store by `rename` (atomic on POSIX): a crash never leaves a torn file, and the
 * secrets are never readable by other users, even for an instant. The directory is created 0700.
 */
export class FileAuthStore implements AuthStore {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  async #read(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw error;
    }
    try {
      const value = JSON.parse(text) as StoreFile;
      if (value?.version === 1 && typeof value.entries === 'object' && value.entries !== null) return value;
    } catch {
      // fall through
    }
    throw new Error(`The authorization store ${this.path} is not a store file; refusing to overwrite it`);
  }

  async #write(file: StoreFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = join(
      dirname(this.path),
      `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`,
    );
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(file), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** Runs `task` after every earlier operation of this store (read-modify-write without lost updates). */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  get(key: string): Promise<JsonObject | undefined> {
    return this.#serial(async () => (await this.#read()).entries[key]);
  }

  set(key: string, value: JsonObject): Promise<void> {
    return this.#serial(async () => {
      const file = await this.#read();
      file.entries[key] = value;
      await this.#write(file);
    });
  }

  delete(key: string): Promise<void> {
    return this.#serial(async () => {
      const file = await this.#read();
      if (!(key in file.entries)) return;
      delete file.entries[key];
      await this.#write(file);
    });
  }
}
