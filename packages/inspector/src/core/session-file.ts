/**
 * Timeline files: JSON Lines, a header first, then one timeline entry per line — readable with `jq`, appendable,
 * and diffable. The header says what was inspected (commands and URLs, never environment or header values).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { TimelineEntry } from './timeline.js';

export const SESSION_FORMAT = 'mcpengine-inspect-session';
export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  readonly format: typeof SESSION_FORMAT;
  readonly version: number;
  readonly startedAt: string;
  readonly target?: Readonly<Record<string, unknown>>;
  readonly revision?: string;
  readonly server?: Readonly<Record<string, unknown>>;
  /** Entries dropped at the front because the session was larger than the timeline keeps. */
  readonly dropped?: number;
}

export interface SessionFile {
  readonly header: SessionHeader;
  readonly entries: readonly TimelineEntry[];
}

export function serializeSession(session: SessionFile): string {
  return [session.header, ...session.entries].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

export class SessionFileError extends Error {
  override readonly name = 'SessionFileError';
}

export function parseSession(text: string, source = 'session file'): SessionFile {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const parse = (line: string, index: number): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new SessionFileError(`${source}: line ${index + 1} is not JSON (${(error as Error).message})`);
    }
  };
  const header = lines.length === 0 ? undefined : parse(lines[0]!, 0);
  if (
    typeof header !== 'object' ||
    header === null ||
    (header as { format?: unknown }).format !== SESSION_FORMAT
  )
    throw new SessionFileError(
      `${source}: not an mcpengine inspect session (its first line has no "format": "${SESSION_FORMAT}")`,
    );
  const version = (header as { version?: unknown }).version;
  if (typeof version !== 'number' || version > SESSION_FORMAT_VERSION)
    throw new SessionFileError(
      `${source}: session format version ${String(version)} is newer than this inspector reads`,
    );
  const entries = lines.slice(1).map((line, index) => {
    const entry = parse(line, index + 1) as TimelineEntry;
    if (typeof entry !== 'object' || entry === null || typeof (entry as { kind?: unknown }).kind !== 'string')
      throw new SessionFileError(`${source}: line ${index + 2} is not a timeline entry`);
    return entry;
  });
  return { header: header as SessionHeader, entries };
}

export async function saveSession(path: string, session: SessionFile): Promise<void> {
  await writeFile(path, serializeSession(session), 'utf8');
}

export async function loadSession(path: string): Promise<SessionFile> {
  return parseSession(await readFile(path, 'utf8'), path);
}

/** A timeline as a session file, with what is known of the connection. */
export function sessionOf(
  timeline: {
    readonly startedAt: Date;
    readonly entries: readonly TimelineEntry[];
    readonly dropped: number;
    readonly revision?: string | undefined;
  },
  about: { target?: Record<string, unknown>; server?: Record<string, unknown> } = {},
): SessionFile {
  return {
    header: {
      format: SESSION_FORMAT,
      version: SESSION_FORMAT_VERSION,
      startedAt: timeline.startedAt.toISOString(),
      ...(about.target === undefined ? {} : { target: about.target }),
      ...(timeline.revision === undefined ? {} : { revision: timeline.revision }),
      ...(about.server === undefined ? {} : { server: about.server }),
      ...(timeline.dropped === 0 ? {} : { dropped: timeline.dropped }),
    },
    entries: [...timeline.entries],
  };
}
