/**
 * CORS for browser-based MCP clients (web inspectors, browser hosts). Off unless `cors.origins` lists origins.
 *
 * CORS only relaxes what a browser lets a page read; it protects nothing on the server. The Host/Origin check
 * against DNS rebinding still runs first on every request, preflights included: an Origin must be accepted by
 * that check and listed here.
 */
import { jsonReplyOf, LightJsonResponse } from './json-reply.js';

export interface CorsOptions {
  /** Exact origins (`https://inspector.example.com`) whose pages may call the server. */
  origins: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** Request headers a page may send: the MCP ones (every `Mcp-*`, `Mcp-Param-*` included) and these. */
const ALLOWED_REQUEST_HEADERS = new Set([
  'authorization',
  'content-type',
  'mcp-protocol-version',
  'last-event-id',
]);
/** Response headers a page may read. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';
const METHODS = 'GET, POST, DELETE';

export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly maxAge: string;

  constructor(options: CorsOptions) {
    this.origins = new Set(options.origins.map((origin) => origin.trim().toLowerCase()));
    this.maxAge = String(options.maxAgeSeconds ?? 600);
  }

  /** Whether pages of `origin` may read the answers. */
  allows(origin: string | null): origin is string {
    return origin !== null && this.origins.has(origin.trim().toLowerCase());
  }

  /**
   * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin: the
   * method must be one the endpoint serves, and only allowed request headers are granted.
   */
  preflight(request: Request, origin: string): Response {
    const method = request.headers.get('access-control-request-method')?.trim().toUpperCase() ?? '';
    if (!METHODS.split(', ').includes(method)) return new Response(null, { status: 403 });
    const requested = (request.headers.get('access-control-request-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '');
    const granted = requested.filter((name) => ALLOWED_REQUEST_HEADERS.has(name) || name.startsWith('mcp-'));
    return new Response(null, {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': METHODS,
        ...(granted.length > 0 ? { 'access-control-allow-headers': granted.join(', ') } : {}),
        'access-control-max-age': this.maxAge,
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      },
    });
  }

  /** An actual answer to a page of an allowed origin, with the headers that let it read the answer. */
  decorate(response: Response, origin: string): Response {
    const extra = {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': EXPOSED_HEADERS,
      vary: 'Origin',
    };
    const reply = jsonReplyOf(response);
    if (reply !== undefined) {
      return new LightJsonResponse(
        reply.json,
        reply.status,
        { ...reply.headers, ...extra },
        reply.parts,
      ) as unknown as Response;
    }
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
