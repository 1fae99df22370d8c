/**
 * Sealed `requestState` for multi-round-trip requests (2026-07-28).
 *
 * The spec treats requestState as attacker-controlled input and asks servers to protect its integrity and to
 * bind it to the principal, a short expiry and the originating request. We seal it with AES-256-GCM (integrity
 * and confidentiality) and check all three on the way back in.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ProtocolError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/types.js';
import type { ServerSecret } from './secret.js';

const VERSION = 1;
const AAD = Buffer.from('mcpengine/request-state/v1');

export interface RequestStatePayload {
  /** Input responses gathered in earlier rounds, by input key. */
  answers: JsonObject;
  /** State the handler chose to carry across rounds (`ctx.state`). */
  state: JsonObject;
}

interface SealedPayload extends RequestStatePayload {
  v: number;
  /** Binding: digest of method + salient params. */
  b: string;
  /** Principal the state was issued to ('' when anonymous). */
  p: string;
  /** Expiry, epoch ms. */
  e: number;
}

/** A stable digest of the parts of a request that identify "the same request" across retries. */
export function bindingDigest(method: string, salient: unknown): string {
  return createHash('sha256')
    .update(`${method}\0${canonicalJson(salient)}`)
    .digest('base64url');
}

/**
 * The salient params as JSON text, taken when the request arrives (a handler may mutate its arguments later).
 * The digest is computed from it only when a requestState is opened or sealed, which most requests never do.
 * Params are JSON values, so `digestOfSnapshot(method, bindingSnapshot(x))` equals `bindingDigest(method, x)`.
 */
export function bindingSnapshot(salient: unknown): string {
  return tooDeepIsInvalid(() => JSON.stringify(salient) ?? 'null');
}

export function digestOfSnapshot(method: string, snapshot: string): string {
  return tooDeepIsInvalid(() => bindingDigest(method, JSON.parse(snapshot)));
}

/** JSON nested deeper than the stack allows (a RangeError) is unusable client params, not a server fault. */
function tooDeepIsInvalid<T>(serialize: () => T): T {
  try {
    return serialize();
  } catch (error) {
    if (error instanceof RangeError) throw ProtocolError.invalidParams('Invalid params: nested too deeply');
    throw error;
  }
}

/** JSON with sorted object keys, so that equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const key of keys) {
    const child = object[key];
    if (child === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(child)}`;
  }
  return out + '}';
}

export function sealRequestState(
  secret: ServerSecret,
  payload: RequestStatePayload,
  binding: { digest: string; principal: string; ttlMs: number },
): string {
  const sealed: SealedPayload = {
    v: VERSION,
    b: binding.digest,
    p: binding.principal,
    e: Date.now() + binding.ttlMs,
    answers: payload.answers,
    state: payload.state,
  };
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret.sealKey, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** Opens a requestState; any tampering, expiry, or mismatch is a -32602 error. */
export function openRequestState(
  secret: ServerSecret,
  token: unknown,
  binding: { digest: string; principal: string },
): RequestStatePayload {
  if (typeof token !== 'string' || token.length > 1_000_000) throw invalidState('malformed');
  const raw = Buffer.from(token, 'base64url');
  if (raw.length < 12 + 16 + 2) throw invalidState('malformed');
  let sealed: SealedPayload;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret.sealKey, raw.subarray(0, 12));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
    sealed = JSON.parse(plain.toString('utf8')) as SealedPayload;
  } catch {
    throw invalidState('failed integrity verification');
  }
  if (sealed.v !== VERSION) throw invalidState('unsupported version');
  if (Date.now() > sealed.e) throw invalidState('expired');
  if (sealed.b !== binding.digest) throw invalidState('was issued for a different request');
  if (sealed.p !== binding.principal) throw invalidState('was issued to a different principal');
  return { answers: sealed.answers ?? {}, state: sealed.state ?? {} };
}

function invalidState(why: string): ProtocolError {
  return ProtocolError.invalidParams(`Invalid params: requestState ${why}`);
}
