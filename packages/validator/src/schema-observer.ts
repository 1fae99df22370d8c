/**
 * Validates every message the server sends against the official `schema.json` of the revision under test, with
 * the wire oracle of `@mcpengine/oracle` (Ajv on the unmodified schema, plus the rules the schema cannot
 * express: `resultType` dispatch, cacheable results, forbidden and reserved error codes, `id: null` only for
 * -32700/-32600).
 */
import { factsOf } from './revisions.js';
import { formatViolation, WireOracle } from '@mcpengine/oracle';
import { REVISIONS, type Revision } from './catalog/model.js';
import { SCHEMA_DIR } from './paths.js';
import { defineCheck } from './checks/registry.js';
import type { Evidence } from './outcomes.js';
import { isObject, type CallResult, type Received } from '@mcpengine/wire';

export const SCHEMA_RESPONSE = defineCheck(
  'schema.response',
  'schema',
  'Every response validates against the official schema of the revision (result or error definition of its method)',
  {
    facets: [
      'structure',
      'id',
      'revision',
      'result-type',
      'result-type-value',
      'error-code',
      'input-required-where',
      'input-required-shape',
    ],
  },
);
export const SCHEMA_ENVELOPE = defineCheck(
  'schema.envelope',
  'jsonrpc',
  'Every response is a JSON-RPC 2.0 response: jsonrpc "2.0", the request id, exactly one of result and error, an integer error code and a message',
  {
    facets: ['jsonrpc', 'id', 'id-null', 'result-or-error', 'not-both', 'error-fields', 'error-code-integer'],
  },
);
export const SCHEMA_NOTIFICATION = defineCheck(
  'schema.notification',
  'schema',
  'Every notification the server sends validates against the official schema of the revision, and carries no id',
  { facets: ['structure', 'id', 'revision'] },
);
export const SCHEMA_SERVER_REQUEST = defineCheck(
  'schema.server-request',
  'schema',
  'Every request the server sends is one the revision allows it to send, and validates against the schema',
  { facets: ['structure', 'id', 'revision'] },
);

export const SCHEMA_META_KEYS = defineCheck(
  'schema.meta-keys',
  'schema',
  'Every _meta key the server sends follows the key naming rules (optional dotted prefix ending in "/", alphanumeric name)',
  { facets: ['prefix', 'labels', 'name'] },
);

/** `_meta` key names (2025-06-18 on): an optional prefix of dot-separated labels ending in `/`, then a name. */
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const NAME = '(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?';
export const META_KEY = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*/)?${NAME}$`);
const LABEL_ONLY = new RegExp(`^${LABEL}$`);
const NAME_ONLY = new RegExp(`^${NAME}$`);

/** Which naming rule a bad `_meta` key breaks: the prefix's form, a label of the prefix, or the name. */
export function metaKeyFacets(key: string): string[] {
  const slash = key.lastIndexOf('/');
  const facets: string[] = [];
  if (slash !== -1) {
    const labels = key.slice(0, slash).split('.');
    if (labels.some((label) => label === '' || label.includes('/'))) facets.push('prefix');
    else if (labels.some((label) => !LABEL_ONLY.test(label))) facets.push('labels');
  }
  if (!NAME_ONLY.test(key.slice(slash + 1))) facets.push('name');
  return facets.length === 0 ? ['prefix'] : facets;
}

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

export interface EnvelopeProblem {
  readonly text: string;
  /** The facet of schema.envelope it breaks. */
  readonly facet: string;
}

/** What breaks the JSON-RPC 2.0 response envelope (the result's own shape is the schema check's business). */
export function envelopeProblems(message: unknown): EnvelopeProblem[] {
  if (!isObject(message)) return [{ text: 'not a JSON object', facet: 'jsonrpc' }];
  const problems: EnvelopeProblem[] = [];
  const add = (text: string, facet: string): void => void problems.push({ text, facet });
  if (message['jsonrpc'] !== '2.0')
    add(`jsonrpc is ${JSON.stringify(message['jsonrpc'])}, not "2.0"`, 'jsonrpc');
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult && hasError) add('both result and error are set', 'not-both');
  if (!hasResult && !hasError) add('neither result nor error is set', 'result-or-error');
  if (hasResult && !isObject(message['result'])) add('result is not an object', 'jsonrpc');
  if (hasError) {
    const error = message['error'];
    if (!isObject(error)) add('error is not an object', 'error-fields');
    else {
      if (!('code' in error)) add('error has no code', 'error-fields');
      else if (typeof error['code'] !== 'number' || !Number.isInteger(error['code'])) {
        add(`error code ${JSON.stringify(error['code'])} is not an integer`, 'error-code-integer');
      }
      if (typeof error['message'] !== 'string') add('error has no message', 'error-fields');
    }
  }
  const id = message['id'];
  if (!('id' in message)) add('no id', 'id');
  else if (id === null) {
    const code = isObject(message['error']) ? message['error']['code'] : undefined;
    if (code !== -32700 && code !== -32600)
      // An error response, so not "Result responses MUST include the same ID": its own statement (error
      // responses, except where the id could not be read) is the one it breaks.
      add('id is null, which only -32700 and -32600 errors may carry', 'id-null');
  } else if (typeof id !== 'string' && typeof id !== 'number')
    add(`id ${JSON.stringify(id)} is not a string or number`, 'id');
  return problems;
}

/** Input whose id a server cannot read: not JSON, not a single object, or not a valid request object. */
export function isGarbage(sent: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(sent);
  } catch {
    return true;
  }
  if (!isObject(value)) return true;
  const id = value['id'];
  return (
    value['jsonrpc'] !== '2.0' ||
    typeof value['method'] !== 'string' ||
    (typeof id !== 'string' && typeof id !== 'number')
  );
}

/** The facets of a schema check that an oracle finding breaks, read off its errors. */
export function violationFacets(definition: string, errors: readonly string[]): string[] {
  const facets = new Set<string>();
  for (const error of errors) {
    if (/required property 'resultType'/.test(error)) facets.add('result-type');
    else if (/^\/result\/resultType .* is none of/.test(error)) facets.add('result-type-value');
    else if (/^\/error\/code .*(must not be emitted|is reserved for the specification)/.test(error))
      facets.add('error-code');
    else if (/"input_required" must not answer/.test(error)) facets.add('input-required-where');
    else if (definition === 'InputRequiredResult' || /inputRequests|requestState/.test(error))
      facets.add('input-required-shape');
    else if (/^\/id\b/.test(error) || /required property 'id'/.test(error)) facets.add('id');
    else facets.add('structure');
  }
  return facets.size === 0 ? ['structure'] : [...facets];
}

let oracle: WireOracle | undefined;

export function wireOracle(): WireOracle {
  return (oracle ??= new WireOracle({ specDir: SCHEMA_DIR }));
}

interface Recorder {
  pass(check: string, message: string, evidence?: readonly Evidence[]): void;
  fail(check: string, message: string, evidence?: readonly Evidence[], facets?: readonly string[]): void;
}

const MAX_FAILURES_PER_CHECK = 5;

export class SchemaObserver {
  readonly revision: Revision;
  readonly #recorder: Recorder;
  readonly #seen = new Set<Received | string>();
  readonly #counts: Record<string, number> = {};
  readonly #failures = new Map<string, number>();
  /** Facets of the failures beyond MAX_FAILURES_PER_CHECK, reported together at the end. */
  readonly #unreported = new Map<string, Set<string>>();

  constructor(revision: Revision, recorder: Recorder) {
    this.revision = revision;
    this.#recorder = recorder;
  }

  /** Validates a call's response (knowing the method it answers) and whatever arrived while waiting. */
  response(call: CallResult, method: string | undefined): void {
    this.messages(call.during);
    if (call.response === undefined) return;
    this.#envelope(call.response, [
      {
        label: `response to ${method ?? 'a request'}`,
        sent: call.sentText,
        received: call.responseText ?? '',
      },
    ]);
    const known =
      method !== undefined &&
      wireOracle().schemas.revision(this.revision).methods.resultDefinitionFor(method);
    this.#check(
      SCHEMA_RESPONSE,
      call.response,
      known ? method : undefined,
      [
        {
          label: `response to ${method ?? 'a request'}`,
          sent: call.sentText,
          received: call.responseText ?? '',
        },
      ],
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
      const evidence = [{ label: `${String(message['method'])} from the server`, received: item.text }];
      if ('id' in message && message['method'].startsWith('notifications/')) {
        // A notification that carries an id: what the server meant is clear, and the id is what is wrong.
        this.#counts[SCHEMA_NOTIFICATION] = (this.#counts[SCHEMA_NOTIFICATION] ?? 0) + 1;
        this.#record(
          SCHEMA_NOTIFICATION,
          `${String(message['method'])} carries an id (${JSON.stringify(message['id'])})`,
          evidence,
          ['id'],
        );
        continue;
      }
      const check = 'id' in message ? SCHEMA_SERVER_REQUEST : SCHEMA_NOTIFICATION;
      this.#check(check, message, undefined, evidence);
    }
  }

  /** Validates a response to a raw (possibly malformed) request, whose method may be unknown. */
  raw(received: Received, inReplyTo: string | undefined, sent: string): void {
    if (this.#seen.has(received)) return;
    this.#seen.add(received);
    if (!isObject(received.message)) return;
    const check =
      typeof received.message['method'] === 'string'
        ? 'id' in received.message
          ? SCHEMA_SERVER_REQUEST
          : SCHEMA_NOTIFICATION
        : SCHEMA_RESPONSE;
    // An error with `"id": null` answering garbage (invalid JSON, an invalid request object) is what JSON-RPC
    // asks for when the id cannot be read; only its code can be wrong, and that is the robustness checks'
    // finding (jsonrpc.parse-error, jsonrpc.invalid-request), never a MUST of its own.
    const message =
      check === SCHEMA_RESPONSE &&
      received.message['id'] === null &&
      'error' in received.message &&
      isGarbage(sent)
        ? { ...received.message, id: 0 }
        : received.message;
    if (check === SCHEMA_RESPONSE)
      this.#envelope(message, [{ label: 'response to a raw message', sent, received: received.text }]);
    this.#check(check, message, inReplyTo, [
      { label: 'response to a raw message', sent, received: received.text },
    ]);
  }

  /** JSON-RPC 2.0 §5 response rules, apart from what the result or error carries. */
  #envelope(message: unknown, evidence: Evidence[]): void {
    this.#counts[SCHEMA_ENVELOPE] = (this.#counts[SCHEMA_ENVELOPE] ?? 0) + 1;
    const problems = envelopeProblems(message);
    if (problems.length === 0) return;
    this.#record(
      SCHEMA_ENVELOPE,
      problems.map((p) => p.text).join('; '),
      evidence,
      problems.map((p) => p.facet),
    );
  }

  /** Records a failure, or counts it (with its facets) once a check has shown enough evidence. */
  #record(check: string, message: string, evidence: readonly Evidence[], facets: readonly string[]): void {
    const failures = (this.#failures.get(check) ?? 0) + 1;
    this.#failures.set(check, failures);
    if (failures <= MAX_FAILURES_PER_CHECK) {
      this.#recorder.fail(check, message, evidence, facets);
      return;
    }
    const unreported = this.#unreported.get(check) ?? new Set<string>();
    for (const facet of facets) unreported.add(facet);
    this.#unreported.set(check, unreported);
  }

  #metaKeys(message: unknown, evidence: Evidence[]): void {
    if (!factsOf(this.revision).metaKeyRules) return;
    this.#counts[SCHEMA_META_KEYS] = (this.#counts[SCHEMA_META_KEYS] ?? 0) + 1;
    const bad = badMetaKeys(message);
    if (bad.length === 0) return;
    this.#record(
      SCHEMA_META_KEYS,
      `_meta keys that break the naming rules: ${bad.map((k) => JSON.stringify(k)).join(', ')}`,
      evidence,
      bad.flatMap(metaKeyFacets),
    );
  }

  #check(
    check: string,
    message: unknown,
    inReplyTo: string | undefined,
    evidence: Evidence[],
    _status?: number,
  ): void {
    this.#metaKeys(message, evidence);
    const violation = wireOracle().check(message, {
      revision: this.revision,
      sender: 'server',
      ...(inReplyTo === undefined ? {} : { inReplyTo }),
    });
    this.#counts[check] = (this.#counts[check] ?? 0) + 1;
    if (violation === null) return;
    // "Respect the negotiated protocol version" is broken only by a message that another revision allows; a
    // message invalid in every revision breaks the schema, not the negotiation.
    const validElsewhere = REVISIONS.filter(
      (other) =>
        other !== this.revision &&
        wireOracle().check(message, {
          revision: other,
          sender: 'server',
          ...(inReplyTo === undefined ? {} : { inReplyTo }),
        }) === null,
    );
    const facets = violationFacets(violation.definition, violation.errors);
    this.#record(
      check,
      `${violation.definition}: ${violation.errors.slice(0, 3).join('; ')}` +
        (validElsewhere.length > 0 ? ` (valid in ${validElsewhere.join(', ')})` : ''),
      [...evidence, { label: 'schema violation', note: formatViolation(violation) }],
      validElsewhere.length > 0 ? [...facets, 'revision'] : facets,
    );
  }

  /** Records the passes: how many messages validated. Call once, when the revision's probes are done. */
  finish(notApplicable: (check: string, reason: string) => void): void {
    if (!this.#counts[SCHEMA_NOTIFICATION])
      notApplicable(SCHEMA_NOTIFICATION, 'the server sent no notification');
    if (!this.#counts[SCHEMA_SERVER_REQUEST])
      notApplicable(SCHEMA_SERVER_REQUEST, 'the server sent no request');
    for (const [check, count] of Object.entries(this.#counts)) {
      const failures = this.#failures.get(check) ?? 0;
      if (count > 0 && failures === 0) {
        this.#recorder.pass(check, `${count} message(s) validated against the ${this.revision} schema`);
      }
      if (failures > MAX_FAILURES_PER_CHECK) {
        const facets = [...(this.#unreported.get(check) ?? [])];
        this.#recorder.fail(
          check,
          `${failures - MAX_FAILURES_PER_CHECK} more message(s) failed validation`,
          [],
          facets,
        );
      }
    }
  }
}
