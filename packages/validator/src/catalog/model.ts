/**
 * The requirement catalog's data model: what the extractor writes to `catalog/<revision>.json`, and what the
 * validator reads back to trace each verdict to the spec.
 */
import type { Keyword, Level } from './statements.js';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (REVISIONS as readonly string[]).includes(value);
}

export const LEGACY_REVISIONS: readonly Revision[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
export const MODERN_REVISIONS: readonly Revision[] = ['2026-07-28'];

/**
 * Whose obligation a statement is. Only `server` and `both` bind the implementation a validator talks to;
 * the others are kept so the catalog lists every statement of the pages, with the reason it is not checked.
 */
export type Subject =
  'server' | 'both' | 'client' | 'host' | 'authorization-server' | 'intermediary' | 'specification';

/** Which transports a statement concerns. */
export type TransportScope = 'any' | 'stdio' | 'http' | 'streamable-http' | 'sse';

/** The hand-made part of a catalog entry, kept in `catalog/classification.json` by statement id. */
export interface Classification {
  readonly subject: Subject;
  readonly transport?: TransportScope;
  /** The server capability the statement depends on (`tools`, `resources.subscribe`, `logging`…). */
  readonly capability?: string;
  /** The ids of the checks that test the statement (the statement fails when any of them fails). */
  readonly checks?: readonly string[];
  /** Why the statement cannot be tested from outside the server (mutually exclusive with `check`). */
  readonly untestable?: string;
  /** When a sentence holds several keywords and the check tests a weaker one than the strongest. */
  readonly level?: Level;
}

export interface Requirement {
  readonly id: string;
  /** Every revision whose spec states this exact sentence (after normalisation). */
  readonly revisions: readonly Revision[];
  readonly level: Level;
  readonly keywords: readonly Keyword[];
  /** The page, relative to the revision's docs folder (`basic/lifecycle.mdx`). */
  readonly page: string;
  readonly section: string;
  readonly url: string;
  readonly sentence: string;
  readonly context?: string;
  /**
   * A statement the spec makes without an RFC 2119 keyword (`catalog/descriptive.json`), catalogued at SHOULD
   * (the spec states the behaviour but not its strength) unless the entry gives a level and its reason.
   */
  readonly descriptive?: true;
  /** `classified`: has a check or a reason; `gap`: testable but no check yet; `unclassified`: new statement. */
  readonly status: 'classified' | 'gap' | 'unclassified';
  readonly subject?: Subject;
  readonly transport?: TransportScope;
  readonly capability?: string;
  readonly checks?: readonly string[];
  readonly untestable?: string;
}

export interface CatalogFile {
  readonly revision: Revision;
  readonly source: string;
  readonly statements: readonly Requirement[];
}

/** A statement binds the server under test when its subject is the server (or both sides). */
export function bindsServer(subject: Subject | undefined): boolean {
  return subject === 'server' || subject === 'both';
}

/** Whether a check implements the statement. */
export function isCovered(requirement: Requirement): boolean {
  return requirement.checks !== undefined && requirement.checks.length > 0;
}

/** Testable: binds the server and has no reason it cannot be tested. */
export function isTestable(requirement: Requirement): boolean {
  return bindsServer(requirement.subject) && requirement.untestable === undefined;
}
