/**
 * The server secret keys everything the server hands to clients and must get back unaltered: pagination
 * cursors (HMAC) and multi-round-trip `requestState` (AES-256-GCM). A random secret per process is the safe
 * default; servers behind a load balancer pass the same secret to every instance.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class ServerSecret {
  readonly hmacKey: Buffer;
  readonly sealKey: Buffer;

  constructor(secret?: string | Uint8Array) {
    const root = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    if (root.length < 16) throw new TypeError('The server secret must be at least 16 bytes long');
    // Separate keys per purpose, derived from the one root secret.
    this.hmacKey = createHash('sha256').update('mcpengine/hmac\0').update(root).digest();
    this.sealKey = createHash('sha256').update('mcpengine/seal\0').update(root).digest();
  }

  sign(payload: string): string {
    return createHmac('sha256', this.hmacKey).update(payload).digest('base64url').slice(0, 22);
  }

  verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
