/**
 * Small judgements shared by the probes. Each returns what it found, so that a probe can record a verdict that
 * names the exact reason.
 */
import { brief } from '../evidence.js';
import { isObject, type CallResult } from '@mcpengine/wire';

export type Judgement = { ok: true; detail: string } | { ok: false; detail: string };

/** Why there is no response, in words. */
export function missing(call: CallResult): string {
  if (call.failure === 'timeout') return `no response within ${call.elapsedMs} ms`;
  if (call.failure === 'closed') {
    return `the connection closed before a response arrived${call.closedBecause === undefined ? '' : ` (${call.closedBecause})`}`;
  }
  if (call.http !== undefined) return `HTTP ${call.http.status} without a JSON-RPC response`;
  return 'no response';
}

/** A JSON-RPC error with exactly this code, echoing the request id. */
export function isError(call: CallResult, code: number): Judgement {
  const response = call.response;
  if (response === undefined) return { ok: false, detail: `expected error ${code}, got ${missing(call)}` };
  const error = response['error'];
  if (!isObject(error))
    return { ok: false, detail: `expected error ${code}, got a result: ${brief(response['result'])}` };
  if (error['code'] !== code) {
    return {
      ok: false,
      detail: `expected error code ${code}, got ${brief(error['code'])} (${brief(error['message'], 120)})`,
    };
  }
  return { ok: true, detail: `error ${code} (${brief(error['message'], 120)})` };
}

/**
 * The facets a failed `isError` judgement breaks, for checks with `rejected` and `code` facets: an input that
 * was rejected with another error code breaks only `code` — the code comes from a SHOULD or an example, while
 * accepting the input breaks the MUST that the input be rejected (docs/validator/interpretations.md).
 */
export function rejectionFacets(call: CallResult): readonly string[] {
  return isObject(call.response?.['error']) ? ['code'] : ['rejected', 'code'];
}

/** Any JSON-RPC error. */
export function isAnyError(call: CallResult): Judgement {
  const response = call.response;
  if (response === undefined) return { ok: false, detail: `expected an error, got ${missing(call)}` };
  const error = response['error'];
  if (!isObject(error))
    return { ok: false, detail: `expected an error, got a result: ${brief(response['result'])}` };
  return { ok: true, detail: `error ${brief(error['code'])} (${brief(error['message'], 120)})` };
}

/** A result (not an error). */
export function isResult(call: CallResult): Judgement {
  const response = call.response;
  if (response === undefined) return { ok: false, detail: missing(call) };
  if (isObject(response['error'])) {
    const error = response['error'];
    return { ok: false, detail: `error ${brief(error['code'])}: ${brief(error['message'], 160)}` };
  }
  if (!isObject(response['result'])) return { ok: false, detail: `no result object: ${brief(response)}` };
  return { ok: true, detail: 'a result' };
}

/** The error code of a response, if it is an error. */
export function errorCode(call: CallResult | undefined): number | undefined {
  const error = call?.response?.['error'];
  return isObject(error) && typeof error['code'] === 'number' ? error['code'] : undefined;
}
