/**
 * The server-wide task settings, defaults applied and checked. Apart from types.ts because they name the store,
 * which itself imports the task vocabulary.
 */
import type { TaskStore } from './store.js';

/** Server-wide task settings (`new McpServer({ tasks: … })`). */
export interface TaskOptions {
  /** Where tasks are kept. Default: a `MemoryTaskStore` with the limits below. */
  store?: TaskStore;
  /** Retention when neither the tool nor the client says. Default 15 minutes. */
  defaultTtlMs?: number;
  /** Upper bound on any retention, including what a 2025-11-25 client asks for. Default 1 hour. */
  maxTtlMs?: number;
  /** Suggested polling interval. Default 1 s. */
  pollIntervalMs?: number;
  /** Tasks kept at once by the default store, finished ones included. Default 10,000. */
  maxTasks?: number;
  /** Approximate bytes of task state (results above all) kept by the default store. Default 64 MiB. */
  maxBytes?: number;
  /** Unfinished tasks one owner may have at once. Default 100. */
  maxActivePerOwner?: number;
}

/** The settings in force, defaults applied. */
export interface TaskSettings {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly maxBytes: number;
  readonly maxActivePerOwner: number;
}

export function taskSettings(options: TaskOptions = {}): TaskSettings {
  const settings: TaskSettings = {
    defaultTtlMs: options.defaultTtlMs ?? 15 * 60_000,
    maxTtlMs: options.maxTtlMs ?? 60 * 60_000,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    maxTasks: options.maxTasks ?? 10_000,
    maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    maxActivePerOwner: options.maxActivePerOwner ?? 100,
  };
  for (const [key, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`tasks.${key} must be a positive integer (got ${String(value)})`);
    }
  }
  if (settings.defaultTtlMs > settings.maxTtlMs)
    throw new TypeError('tasks.defaultTtlMs exceeds tasks.maxTtlMs');
  return settings;
}
