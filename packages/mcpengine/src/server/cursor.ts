/**
 * Pagination cursors: opaque to clients, tamper-evident, and stateless (the server keeps nothing per cursor).
 * A cursor names the list it belongs to and the offset of the next page, signed with the server secret.
 */
import { ProtocolError } from '../protocol/errors.js';
import type { ServerSecret } from './secret.js';

export type ListKind = 'tools' | 'prompts' | 'resources' | 'templates' | 'tasks';

export function encodeCursor(secret: ServerSecret, kind: ListKind, offset: number): string {
  const payload = `${kind}:${offset}`;
  return `${Buffer.from(payload).toString('base64url')}.${secret.sign(payload)}`;
}

/** Returns the offset a cursor points to; -32602 for anything forged, foreign or malformed. */
export function decodeCursor(secret: ServerSecret, kind: ListKind, cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string' || cursor.length > 256) throw invalidCursor();
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw invalidCursor();
  const payload = Buffer.from(cursor.slice(0, dot), 'base64url').toString();
  if (!secret.verify(payload, cursor.slice(dot + 1))) throw invalidCursor();
  const [cursorKind, offsetText] = payload.split(':');
  const offset = Number(offsetText);
  if (cursorKind !== kind || !Number.isSafeInteger(offset) || offset < 0) throw invalidCursor();
  return offset;
}

function invalidCursor(): ProtocolError {
  return ProtocolError.invalidParams('Invalid params: invalid or expired cursor');
}
