/**
 * Asking the client for input (elicitation, sampling, roots) in the modern era: multi-round-trip requests.
 *
 * A handler calls `ctx.elicit(...)`. If the answer is already known (from this retry's `inputResponses` or from
 * earlier rounds sealed in `requestState`), the call resolves at once. Otherwise the ask is recorded and the
 * call never settles: the handler is suspended at that point, and once every ask made in the same turn is
 * collected, the engine answers `input_required` with all of them. The client retries with the answers and the
 * handler runs again from the top, this time getting past the ask. Side effects before an ask therefore run
 * once per round; `ctx.state` carries anything a handler wants to keep between rounds.
 */
import { ProtocolError } from '../protocol/errors.js';
import { missingCapabilityError } from '../protocol/meta.js';
import type { ClientCapabilities, InputRequest, InputResponse, JsonObject } from '../protocol/types.js';

const SHORT_NAMES: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** One round of a modern request: the answers available and the asks still open. */
export class InputRound {
  readonly pending: Record<string, InputRequest> = {};
  /** Answers the handler actually used: the only ones carried forward in requestState. */
  readonly consumed: JsonObject = {};
  private pendingCount = 0;
  private readonly counters: Record<string, number> = {};
  private readonly onPending: () => void;

  constructor(
    readonly answers: JsonObject,
    onPending: () => void,
  ) {
    this.onPending = onPending;
  }

  get hasPending(): boolean {
    return this.pendingCount > 0;
  }

  /** A key that is stable across rounds as long as the handler asks in the same order. */
  autoKey(method: InputRequest['method']): string {
    const short = SHORT_NAMES[method];
    const n = (this.counters[short] ?? 0) + 1;
    this.counters[short] = n;
    return `${short}-${n}`;
  }

  /** Returns the answer for `key`, or records the ask and returns a promise that never settles. */
  ask(key: string, request: InputRequest, capabilities: ClientCapabilities): Promise<InputResponse> {
    requireCapability(request, capabilities);
    if (Object.prototype.hasOwnProperty.call(this.answers, key)) {
      const answer = checkInputResponse(key, request.method, this.answers[key]);
      this.consumed[key] = answer;
      return Promise.resolve(answer);
    }
    if (!Object.prototype.hasOwnProperty.call(this.pending, key)) {
      this.pending[key] = request;
      this.pendingCount++;
      if (this.pendingCount === 1) this.onPending();
    }
    return new Promise<InputResponse>(() => {});
  }
}

/**
 * The part of `required` the client did not declare, or undefined when it declared everything. Nested keys count
 * (e.g. `{ elicitation: { url: {} } }` needs `elicitation.url`).
 */
export function missingClientCapabilities(
  required: ClientCapabilities,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  const missing: Record<string, unknown> = {};
  for (const [key, need] of Object.entries(required)) {
    const have = (declared as Record<string, unknown>)[key];
    if (have === undefined || have === null) {
      missing[key] = need;
      continue;
    }
    if (typeof need === 'object' && need !== null && typeof have === 'object') {
      const sub = missingClientCapabilities(need as ClientCapabilities, have as ClientCapabilities);
      if (sub) missing[key] = sub;
    }
  }
  return Object.keys(missing).length > 0 ? (missing as ClientCapabilities) : undefined;
}

/** A server MUST NOT send an input request the client has not declared support for (-32021 in the modern era). */
export function requireCapability(request: InputRequest, capabilities: ClientCapabilities): void {
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = capabilities.elicitation;
      const mode = request.params.mode ?? 'form';
      // An empty elicitation object means form mode only (backwards compatibility with 2025-06-18).
      const supported =
        elicitation !== undefined &&
        (mode === 'form'
          ? elicitation.form !== undefined || elicitation.url === undefined
          : elicitation.url !== undefined);
      if (!supported) {
        throw missingCapabilityError({ elicitation: { [mode]: {} } }, `elicitation (${mode} mode)`);
      }
      return;
    }
    case 'sampling/createMessage': {
      if (capabilities.sampling === undefined) throw missingCapabilityError({ sampling: {} }, 'sampling');
      if (
        (request.params.tools !== undefined || request.params.toolChoice !== undefined) &&
        !capabilities.sampling.tools
      ) {
        throw missingCapabilityError({ sampling: { tools: {} } }, 'sampling with tools');
      }
      return;
    }
    case 'roots/list':
      if (capabilities.roots === undefined) throw missingCapabilityError({ roots: {} }, 'roots');
      return;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks that a client's answer has the shape of the result its request asked for. */
export function checkInputResponse(
  key: string,
  method: InputRequest['method'],
  value: unknown,
): InputResponse {
  const bad = () =>
    ProtocolError.invalidParams(`Invalid params: inputResponses["${key}"] is not a valid ${method} result`);
  if (!isObject(value)) throw bad();
  switch (method) {
    case 'elicitation/create':
      if (value.action !== 'accept' && value.action !== 'decline' && value.action !== 'cancel') throw bad();
      if (value.content !== undefined && !isObject(value.content)) throw bad();
      break;
    case 'sampling/createMessage':
      if ((value.role !== 'user' && value.role !== 'assistant') || typeof value.model !== 'string')
        throw bad();
      if (!isObject(value.content) && !Array.isArray(value.content)) throw bad();
      break;
    case 'roots/list':
      if (!Array.isArray(value.roots)) throw bad();
      break;
  }
  return value as InputResponse;
}

/** Reads `inputResponses` from a retry: absent is fine; anything but an object of objects is -32602. */
export function readInputResponses(params: JsonObject): JsonObject {
  if (!Object.prototype.hasOwnProperty.call(params, 'inputResponses')) return {};
  const responses = params.inputResponses;
  if (!isObject(responses))
    throw ProtocolError.invalidParams('Invalid params: inputResponses must be an object');
  return responses;
}
