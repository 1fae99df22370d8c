/**
 * Validates every message the server sends against the official `schema.json` of the revision under test, with
 * the wire oracle of `@mcpengine/testing` (Ajv on the unmodified schema, plus the rules the schema cannot
 * express: `resultType` dispatch, cacheable results, forbidden and reserved error codes, `id: null` only for
 * -32700/-32600).
 */
import { formatViolation, WireOracle } from '@mcpengine/testing';
import type { Revision } from '../catalog/model.js';
import { SCHEMA_DIR } from '../paths.js';
import { defineCheck } from './checks/registry.js';
import type { Evidence } from './outcomes.js';
import { isObject, type CallResult, type Received } from './wire/channel.js';

export const SCHEMA_RESPONSE = defineCheck(
  'schema.response',
  'schema',
  'Every response validates against the official schema of the revision (result or error definition of its method)',
);
export const SCHEMA_ENVELOPE = defineCheck(
  'schema.envelope',
  'jsonrpc',
  'Every response is a JSON-RPC 2.0 response: jsonrpc "2.0", the request id, exactly one of result and error, an integer error code and a message',
);
export const SCHEMA_NOTIFICATION = defineCheck(
  'schema.notification',
  'schema',
  'Every notification the server sends validates against the official schema of the revision',
);
export const SCHEMA_SERVER_REQUEST = defineCheck(
  'schema.server-request',
  'schema',
  'Every request the server sends is one the revision allows it to send, and validates against the schema',
);

export const SCHEMA_META_KEYS = defineCheck(
  'schema.meta-keys',
  'schema',
  'Every _meta key the server sends follows the key naming rules (optional dotted prefix ending in "/", alphanumeric name)',
);

/** `_meta` key names (2025-06-18 on): an optional prefix of dot-separated labels ending in `/`, then a name. */
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const META_KEY = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$`);

/** `_meta` keys in a message that break the naming rules. */
export function badMetaKeys(value: unknown, depth = 0): string[] {
  if (depth > 32 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => badMetaKeys(item, depth + 1));
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '_meta' && isObject(child)) out.push(...Object.keys(child).filter((k) => !META_KEY.test(k)));
    out.push(...badMetaKeys(child, depth + 1));
  }
  return out;
}

/** What breaks the JSON-RPC 2.0 response envelope (the result's own shape is the schema check's business). */
export function envelopeProblems(message: unknown): string[] {
  if (!isObject(message)) return ['not a JSON object'];
  const problems: string[] = [];
  if (message['jsonrpc'] !== '2.0') problems.push(`jsonrpc is ${JSON.stringify(message['jsonrpc'])}, not "2.0"`);
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) problems.push(hasResult ? 'both result and error are set' : 'neither result nor error is set');
  if (hasResult && !isObject(message['result'])) problems.push('result is not an object');
  if (hasError) {
    const error = message['error'];
    if (!isObject(error)) problems.push('error is not an object');
    else {
      if (typeof error['code'] !== 'number' || !Number.isInteger(error['code'])) problems.push(`error code ${JSON.stringify(error['code'])} is not an integer`);
      if (typeof error['message'] !== 'string') problems.push('error has no message');
    }
  }
  const id = message['id'];
  if (!('id' in message)) problems.push('no id');
  else if (id === null) {
    const code = isObject(message['error']) ? message['error']['code'] : undefined;
    if (code !== -32700 && code !== -32600) problems.push('id is null, which only -32700 and -32600 errors may carry');
  } else if (typeof id !== 'string' && typeof id !== 'number') problems.push(`id ${JSON.stringify(id)} is not a string or number`);
  return problems;
}

let oracle: WireOracle | undefined;

export function wireOracle(): WireOracle {
  return (oracle ??= new WireOracle({ specDir: SCHEMA_DIR }));
}

interface Recorder {
  pass(check: string, message: string, evidence?: readonly Evidence[]): void;
  fail(check: string, message: string, evidence?: readonly Evidence[]): void;
}

const MAX_FAILURES_PER_CHECK = 5;

export class SchemaObserver {
  readonly revision: Revision;
  readonly #recorder: Recorder;
  readonly #seen = new Set<Received | string>();
  readonly #counts: Record<string, number> = {};
  readonly #failures = new Map<string, number>();

  constructor(revision: Revision, recorder: Recorder) {
    this.revision = revision;
    this.#recorder = recorder;
  }

  /** Validates a call's response (knowing the method it answers) and whatever arrived while waiting. */
  response(call: CallResult, method: string | undefined): void {
    this.messages(call.during);
    if (call.response === undefined) return;
    this.#envelope(call.response, [{ label: `response to ${method ?? 'a request'}`, sent: call.sentText, received: call.responseText ?? '' }]);
    const known = method !== undefined && wireOracle().schemas.revision(this.revision).methods.resultDefinitionFor(method);
    this.#check(
      SCHEMA_RESPONSE,
      call.response,
      known ? method : undefined,
      [{ label: `response to ${method ?? 'a request'}`, sent: call.sentText, received: call.responseText ?? '' }],
      call.http?.status,
    );
  }

  /** Validates server-sent notifications and requests (responses are validated where their request is known). */
  messages(received: readonly Received[]): void {
    for (const item of received) {
      if (this.#seen.has(item)) continue;
      this.#seen.add(item);
      const message = item.message;
      if (!isObject(message) || typeof message['method'] !== 'string') continue;
      const check = 'id' in message ? SCHEMA_SERVER_REQUEST : SCHEMA_NOTIFICATION;
      this.#check(check, message, undefined, [{ label: `${String(message['method'])} from the server`, received: item.text }]);
    }
  }

  /** Validates a response to a raw (possibly malformed) request, whose method may be unknown. */
  raw(received: Received, inReplyTo: string | undefined, sent: string): void {
    if (this.#seen.has(received)) return;
    this.#seen.add(received);
    if (!isObject(received.message)) return;
    const check = typeof received.message['method'] === 'string'
      ? 'id' in received.message
        ? SCHEMA_SERVER_REQUEST
        : SCHEMA_NOTIFICATION
      : SCHEMA_RESPONSE;
    if (check === SCHEMA_RESPONSE) this.#envelope(received.message, [{ label: 'response to a raw message', sent, received: received.text }]);
    this.#check(check, received.message, inReplyTo, [{ label: 'response to a raw message', sent, received: received.text }]);
  }

  /** JSON-RPC 2.0 §5 response rules, apart from what the result or error carries. */
  #envelope(message: unknown, evidence: Evidence[]): void {
    this.#counts[SCHEMA_ENVELOPE] = (this.#counts[SCHEMA_ENVELOPE] ?? 0) + 1;
    const problems = envelopeProblems(message);
    if (problems.length === 0) return;
    const failures = (this.#failures.get(SCHEMA_ENVELOPE) ?? 0) + 1;
    this.#failures.set(SCHEMA_ENVELOPE, failures);
    if (failures <= MAX_FAILURES_PER_CHECK) this.#recorder.fail(SCHEMA_ENVELOPE, problems.join('; '), evidence);
  }

  #metaKeys(message: unknown, evidence: Evidence[]): void {
    if (this.revision < '2025-06-18') return;
    this.#counts[SCHEMA_META_KEYS] = (this.#counts[SCHEMA_META_KEYS] ?? 0) + 1;
    const bad = badMetaKeys(message);
    if (bad.length === 0) return;
    const failures = (this.#failures.get(SCHEMA_META_KEYS) ?? 0) + 1;
    this.#failures.set(SCHEMA_META_KEYS, failures);
    if (failures <= MAX_FAILURES_PER_CHECK) {
      this.#recorder.fail(SCHEMA_META_KEYS, `_meta keys that break the naming rules: ${bad.map((k) => JSON.stringify(k)).join(', ')}`, evidence);
    }
  }

  #check(check: string, message: unknown, inReplyTo: string | undefined, evidence: Evidence[], _status?: number): void {
    this.#metaKeys(message, evidence);
    const violation = wireOracle().check(message, {
      revision: this.revision,
      sender: 'server',
      ...(inReplyTo === undefined ? {} : { inReplyTo }),
    });
    this.#counts[check] = (this.#counts[check] ?? 0) + 1;
    if (violation === null) return;
    const failures = (this.#failures.get(check) ?? 0) + 1;
    this.#failures.set(check, failures);
    if (failures > MAX_FAILURES_PER_CHECK) return;
    this.#recorder.fail(check, `${violation.definition}: ${violation.errors.slice(0, 3).join('; ')}`, [
      ...evidence,
      { label: 'schema violation', note: formatViolation(violation) },
    ]);
  }

  /** Records the passes: how many messages validated. Call once, when the revision's probes are done. */
  finish(notApplicable: (check: string, reason: string) => void): void {
    if (!this.#counts[SCHEMA_NOTIFICATION]) notApplicable(SCHEMA_NOTIFICATION, 'the server sent no notification');
    if (!this.#counts[SCHEMA_SERVER_REQUEST]) notApplicable(SCHEMA_SERVER_REQUEST, 'the server sent no request');
    for (const [check, count] of Object.entries(this.#counts)) {
      const failures = this.#failures.get(check) ?? 0;
      if (count > 0 && failures === 0) {
        this.#recorder.pass(check, `${count} message(s) validated against the ${this.revision} schema`);
      }
      if (failures > MAX_FAILURES_PER_CHECK) {
        this.#recorder.fail(check, `${failures - MAX_FAILURES_PER_CHECK} more message(s) failed validation`);
      }
    }
  }
}
