/**
 * A loopback redirect listener for command-line clients (RFC 8252 §7.3): a tiny HTTP server on 127.0.0.1 that
 * receives the authorization server's redirect. Hand `redirectUri` and `authorize` to `OAuthClient`:
 *
 * ```ts
 * const loopback = await LoopbackRedirect.start({ open: (url) => console.error(`Open ${url}`) });
 * const auth = new OAuthClient({ redirectUri: loopback.redirectUri, authorize: loopback.authorize });
 * ```
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRedirectOptions {
  /** Interface to listen on. Default 127.0.0.1 (the loopback literal RFC 8252 recommends). */
  host?: string;
  /** Port; 0 picks a free one. A fixed port keeps a registered redirect URI stable across runs. Default 0. */
  port?: number;
  /** Path of the redirect URI. Default `/callback`. */
  path?: string;
  /** How long to wait for the redirect. Default 5 minutes. */
  timeoutMs?: number;
  /** Shows the authorization URL to the user (opens a browser...). Default: a line on stderr. */
  open?: (authorizationUrl: URL) => void | Promise<void>;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>Authorization</title><p>Authorization received. You can close this window.</p>`;

export class LoopbackRedirect {
  readonly redirectUri: string;
  readonly #server: Server;
  readonly #options: LoopbackRedirectOptions;
  #waiting:
    { state: string | undefined; resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;

  private constructor(server: Server, redirectUri: string, options: LoopbackRedirectOptions) {
    this.#server = server;
    this.redirectUri = redirectUri;
    this.#options = options;
  }

  static async start(options: LoopbackRedirectOptions = {}): Promise<LoopbackRedirect> {
    const host = options.host ?? '127.0.0.1';
    const path = options.path ?? '/callback';
    const server = createServer();
    server.listen(options.port ?? 0, host);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const literal = host.includes(':') ? `[${host}]` : host;
    const loopback = new LoopbackRedirect(server, `http://${literal}:${port}${path}`, options);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', loopback.redirectUri);
      if (req.method !== 'GET' || url.pathname !== path) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      const waiting = loopback.#waiting;
      if (!waiting) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('No authorization is in progress');
        return;
      }
      // Only the redirect of the authorization in progress counts: a local process guessing the port cannot
      // end the login with its own callback (it gets a 400 and we keep waiting).
      const states = url.searchParams.getAll('state');
      if (waiting.state !== undefined && (states.length !== 1 || states[0] !== waiting.state)) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Unexpected state');
        return;
      }
      loopback.#waiting = undefined;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(PAGE);
      waiting.resolve(url);
    });
    return loopback;
  }

  /**
   * Shows `authorizationUrl` and resolves with the redirect it leads to: the first one carrying the `state` of
   * `authorizationUrl` (any redirect when it has none). One authorization at a time.
   */
  readonly authorize = async (authorizationUrl: URL): Promise<URL> => {
    if (this.#waiting) throw new Error('An authorization is already in progress');
    const state = new URL(authorizationUrl).searchParams.get('state') ?? undefined;
    const received = new Promise<URL>((resolve, reject) => {
      this.#waiting = { state, resolve, reject };
    });
    const timeoutMs = this.#options.timeoutMs ?? 300_000;
    const timer = setTimeout(() => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(new Error(`No authorization redirect within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    timer.unref?.();
    try {
      const open =
        this.#options.open ?? ((url: URL) => console.error(`Open this URL to authorize: ${url.href}`));
      await open(authorizationUrl);
      return await received;
    } finally {
      clearTimeout(timer);
      this.#waiting = undefined;
    }
  };

  async close(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(new Error('The loopback redirect listener was closed'));
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
