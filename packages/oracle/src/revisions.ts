/**
 * The revisions the oracle knows, and the two sides of a conversation.
 *
 * Deliberately independent of the engine's own revision registry: an oracle that shared the engine's tables
 * would agree with the engine's mistakes.
 */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

/** Who sent a message. */
export type Side = 'client' | 'server';

/** The last revision with the `initialize` handshake; the default when a conversation has not said otherwise. */
export const LATEST_LEGACY_REVISION: Revision = '2025-11-25';

export function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (REVISIONS as readonly string[]).includes(value);
}

export function otherSide(side: Side): Side {
  return side === 'client' ? 'server' : 'client';
}
