/**
 * Snapshot files. Our YAML suites keep one `__snapshots__/<file>.snap.yaml` per test file (a mapping from
 * snapshot name to the redacted value); mcp-jest configs keep mcp-jest's own `__snapshots__/<name>.snap.json`
 * files (`{name, timestamp, data, metadata}`), so existing snapshots go on working. Missing snapshots are written
 * (and reported) on first run; mismatches fail with a diff unless updating (`-u`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { lineDiff } from './diff.js';
import { deepEqual } from './match.js';
import { redact } from './redact.js';

export interface SnapshotVerdict {
  /** `missing`: not stored, and not written because this is CI (CI=true), where a new snapshot proves nothing. */
  readonly status: 'matched' | 'written' | 'updated' | 'mismatch' | 'missing';
  readonly diff?: string;
}

export interface SnapshotStore {
  check(name: string, value: unknown): SnapshotVerdict;
  /** Writes what changed. */
  save(): void;
}

/** CI=true (GitHub Actions, GitLab, CircleCI… set it): missing snapshots fail instead of being written. */
export function isCi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

const yamlOf = (value: unknown) => stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });

export class YamlSnapshotStore implements SnapshotStore {
  readonly #file: string;
  readonly #update: boolean;
  readonly #ci: boolean;
  readonly #entries: Record<string, unknown>;
  #dirty = false;

  constructor(file: string, update: boolean, ci = isCi()) {
    this.#file = file;
    this.#update = update;
    this.#ci = ci && !update;
    this.#entries = existsSync(file)
      ? ((parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null) ?? {})
      : {};
  }

  check(name: string, value: unknown): SnapshotVerdict {
    const received = redact(value);
    if (!(name in this.#entries)) {
      if (this.#ci) return { status: 'missing' };
      this.#entries[name] = received;
      this.#dirty = true;
      return { status: 'written' };
    }
    const stored = this.#entries[name];
    if (deepEqual(redact(stored), received)) return { status: 'matched' };
    if (this.#update) {
      this.#entries[name] = received;
      this.#dirty = true;
      return { status: 'updated' };
    }
    return { status: 'mismatch', diff: lineDiff(yamlOf(stored).trimEnd(), yamlOf(received).trimEnd()) };
  }

  save(): void {
    if (!this.#dirty) return;
    mkdirSync(dirname(this.#file), { recursive: true });
    const sorted = Object.fromEntries(Object.entries(this.#entries).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(
      this.#file,
      `# mcpengine test snapshots: values are redacted ([uuid], [timestamp], [id]); update with -u\n${yamlOf(sorted)}`,
    );
    this.#dirty = false;
  }
}

/** mcp-jest's layout: one JSON file per snapshot name, next to the config. */
export class McpJestSnapshotStore implements SnapshotStore {
  readonly #dir: string;
  readonly #update: boolean;
  readonly #ci: boolean;
  readonly #pending = new Map<string, unknown>();
  readonly #metadata: Record<string, unknown>;

  constructor(dir: string, update: boolean, metadata: Record<string, unknown>, ci = isCi()) {
    this.#dir = dir;
    this.#update = update;
    this.#ci = ci && !update;
    this.#metadata = metadata;
  }

  #path(name: string): string {
    return join(this.#dir, `${name.replace(/[^\w.-]+/g, '_')}.snap.json`);
  }

  check(name: string, value: unknown): SnapshotVerdict {
    const path = this.#path(name);
    const received = redact(value);
    if (!existsSync(path)) {
      if (this.#ci) return { status: 'missing' };
      this.#pending.set(name, received);
      return { status: 'written' };
    }
    const stored = (JSON.parse(readFileSync(path, 'utf8')) as { data?: unknown }).data;
    if (deepEqual(redact(stored), received)) return { status: 'matched' };
    if (this.#update) {
      this.#pending.set(name, received);
      return { status: 'updated' };
    }
    return {
      status: 'mismatch',
      diff: lineDiff(JSON.stringify(redact(stored), null, 2), JSON.stringify(received, null, 2)),
    };
  }

  save(): void {
    for (const [name, data] of this.#pending) {
      mkdirSync(this.#dir, { recursive: true });
      writeFileSync(
        this.#path(name),
        `${JSON.stringify({ name, timestamp: new Date().toISOString(), data, metadata: this.#metadata }, null, 2)}\n`,
      );
    }
    this.#pending.clear();
  }
}
