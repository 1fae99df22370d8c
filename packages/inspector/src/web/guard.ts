/**
 * The local backend's front door. The official Inspector's proxy had a critical RCE (CVE-2025-49596) because any
 * web page could reach it; so here: loopback only, a random per-launch token on every API call and stream,
 * Host checks against DNS rebinding and Origin checks against cross-site requests.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Literal loopback names the backend may bind; anything else (0.0.0.0, ::, a LAN address) is refused. */
const LOOPBACK_BIND = new Map([
  ['127.0.0.1', '127.0.0.1'],
  ['localhost', '127.0.0.1'],
  ['::1', '::1'],
]);

export function loopbackBindAddress(host: string): string {
  const address = LOOPBACK_BIND.get(host.toLowerCase());
  if (address === undefined)
    throw new Error(
      `refusing to serve the inspector on ${host}: it can start servers and must stay on this machine (use 127.0.0.1)`,
    );
  return address;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export type Verdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export class RequestGuard {
  readonly token: string;
  readonly #hosts = new Set<string>();
  readonly #origins = new Set<string>();

  constructor(token: string) {
    this.token = token;
  }

  /** Once the port is known: the names this backend answers to. Until then every request is refused. */
  listenOn(port: number): void {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      this.#hosts.add(host);
      this.#origins.add(`http://${host}`);
    }
  }

  /** Every request: the Host must name this backend, and an Origin, when sent, must be the backend's own. */
  checkOrigin(request: IncomingMessage): Verdict {
    const host = (request.headers.host ?? '').toLowerCase();
    if (!this.#hosts.has(host))
      return { ok: false, status: 403, reason: `Host ${JSON.stringify(host)} is not allowed` };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#origins.has(origin.toLowerCase()))
      return { ok: false, status: 403, reason: `Origin ${JSON.stringify(origin)} is not allowed` };
    return { ok: true };
  }

  /** API calls and streams: `Authorization: Bearer <token>`, compared in constant time. */
  checkToken(request: IncomingMessage): Verdict {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    const expected = Buffer.from(this.token);
    const actual = Buffer.from(given);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
      return { ok: false, status: 401, reason: 'missing or wrong inspector token' };
    return { ok: true };
  }
}
