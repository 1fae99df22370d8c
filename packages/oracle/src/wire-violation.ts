import type { Revision, Side } from './revisions.js';

/** One message that does not match the official schema of its revision. */
export interface WireViolation {
  /** The revision the message was validated against. */
  revision: Revision;
  sender: Side;
  /** The message as seen on the wire (parsed; the raw text if it was not JSON). */
  message: unknown;
  /**
   * The definition the message failed: a name in the revision's `schema.json` (`ListToolsResult`,
   * `JSONRPCRequest`, `ClientRequest` for a method the client may not send…), or `tasks:<Name>` in the tasks
   * extension's schema.
   */
  definition: string;
  /** Ajv's errors, with paths into the whole message, and the oracle's own findings. */
  errors: string[];
}

const MAX_MESSAGE_CHARS = 2_000;

/** A multi-line, human-readable account of one violation. */
export function formatViolation(violation: WireViolation): string {
  const text = typeof violation.message === 'string' ? violation.message : JSON.stringify(violation.message);
  const shown =
    text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length} chars)` : text;
  return [
    `${violation.definition} (${violation.revision}, sent by the ${violation.sender})`,
    ...violation.errors.map((error) => `  - ${error}`),
    `  message: ${shown}`,
  ].join('\n');
}
