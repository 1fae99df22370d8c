/**
 * A configuration file open for editing. Every implementation changes only the bytes of the entry it is asked
 * to set or delete: other servers, unrelated settings, comments and ordering stay as they were. `planEdit`
 * then re-parses the result and compares it with the intended data, so a faulty edit is refused, never written.
 */
export type KeyPath = readonly string[];

export type ConfigFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

export interface ConfigDocument {
  readonly file: string;
  readonly format: ConfigFormat;
  /** The content as plain data (what the client reads). */
  data(): unknown;
  get(path: KeyPath): unknown;
  /** Sets the value at `path`, creating the objects above it. */
  set(path: KeyPath, value: unknown): void;
  /** Deletes the value at `path`, if there is one. */
  delete(path: KeyPath): void;
  /** The text with every change applied. */
  text(): string;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getIn(data: unknown, path: KeyPath): unknown {
  let current = data;
  for (const key of path) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** Plain-data versions of set and delete: what an edit is meant to do, for comparison with what it did. */
export function setIn(data: unknown, path: KeyPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const base = isObject(data) ? { ...data } : {};
  base[head] = setIn(base[head], rest, value);
  return base;
}

export function deleteIn(data: unknown, path: KeyPath): unknown {
  if (path.length === 0 || !isObject(data)) return data;
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(data, head)) return data;
  const base = { ...data };
  if (rest.length === 0) delete base[head];
  else base[head] = deleteIn(base[head], rest);
  return base;
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The file's line ending: CRLF when it already uses CRLF, else LF. */
export function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
