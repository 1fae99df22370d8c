/**
 * The center's HTTP server: the dashboard's built assets and a JSON API, loopback only. Every API call needs the
 * random token printed with the URL (query `token` or `Authorization: Bearer`); every request needs a Host that
 * names this loopback port, and an Origin, when sent, of the same place (DNS rebinding, cross-site requests).
 * Live progress is a Server-Sent Events stream.
 */
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { PAGE_ID, PreviewError, type AppsPreviews } from './apps.js';
import type { Center } from './center.js';
import type { RunEvent } from './runner.js';

const MAX_BODY = 64 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  // The token travels in the page URL: never let it leak to another site.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

/**
 * The dashboard page's policy: its own scripts only, and frames only from the Apps sandbox origin (another
 * loopback port), where MCP App Views run — never in this origin.
 */
const pageCsp = (sandboxOrigin: string | undefined): string =>
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
  `frame-src ${sandboxOrigin ?? "'none'"}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface CenterHttpOptions {
  readonly token: string;
  /** Folder of the built dashboard (index.html, app.js, app.css). */
  readonly assetsDir: string;
  /** MCP Apps previews through the inspector's host (absent: the server page shows none). */
  readonly previews?: AppsPreviews;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  type = 'application/json; charset=utf-8',
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  response.end(body);
}

const json = (response: ServerResponse, status: number, value: unknown): void =>
  send(response, status, `${JSON.stringify(value)}\n`);

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        // Answer first, then drop the connection (the 413 says `connection: close`); the rest is not read.
        request.removeAllListeners('data');
        request.pause();
        reject(new HttpError(413, `body larger than ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'the body is not JSON'));
      }
    });
    request.on('error', reject);
  });
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Host and Origin this server accepts: its loopback port only. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function createCenterServer(center: Center, options: CenterHttpOptions): Server {
  const streams = new Set<ServerResponse>();
  const broadcast = (event: RunEvent): void => {
    const data = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const stream of streams) stream.write(data);
  };
  center.runner.on('event', broadcast);

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 413) response.setHeader('connection', 'close');
      if (!response.headersSent) json(response, status, { error: (error as Error).message });
      else response.end();
    });
  });

  function needPreviews(): AppsPreviews {
    if (options.previews === undefined) throw new HttpError(404, 'MCP Apps previews are not enabled here');
    return options.previews;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const hosts = allowedHosts(port);
    if (!hosts.has(request.headers.host ?? '')) throw new HttpError(403, 'Host not allowed');
    const origin = request.headers.origin;
    if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, '')))
      throw new HttpError(403, 'Origin not allowed');
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const method = request.method ?? 'GET';

    if (!url.pathname.startsWith('/api/')) {
      if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, 'method not allowed');
      const file = url.pathname === '/' ? 'index.html' : normalize(url.pathname).replace(/^[/\\]+/, '');
      const path = join(options.assetsDir, file);
      if (file.includes('..') || !path.startsWith(options.assetsDir) || !existsSync(path))
        throw new HttpError(404, 'not found');
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-security-policy': pageCsp(options.previews?.sandbox.origin),
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      });
      response.end(readFileSync(path, 'utf8'));
      return;
    }

    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!sameToken(url.searchParams.get('token') ?? bearer, options.token))
      throw new HttpError(401, 'a valid token is required (the one printed with the URL)');

    const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    const route = `${method} ${parts.map((part, index) => (index % 2 === 1 ? ':' : part)).join('/')}`;
    switch (route) {
      case 'GET overview':
        return json(response, 200, await center.overview());
      case 'GET events': {
        // The page names itself so that its App previews are closed when it goes away (its stream closes).
        const page = url.searchParams.get('page') ?? undefined;
        if (page !== undefined && !PAGE_ID.test(page)) throw new HttpError(400, 'invalid page id');
        response.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': 'text/event-stream',
          connection: 'keep-alive',
        });
        response.write(`event: hello\ndata: ${JSON.stringify({ active: center.runner.active })}\n\n`);
        streams.add(response);
        if (page !== undefined) options.previews?.pageConnected(page);
        request.on('close', () => {
          streams.delete(response);
          if (page !== undefined) options.previews?.pageDisconnected(page);
        });
        return;
      }
      case 'GET servers/:': {
        const detail = await center.serverDetail(parts[1]!);
        if (detail === undefined) throw new HttpError(404, `no server ${parts[1]}`);
        return json(response, 200, detail);
      }
      case 'GET servers/:/review': {
        const format = url.searchParams.get('format') === 'html' ? 'html' : 'md';
        const text = await center.reviewText(parts[1]!, format);
        if (text === undefined) throw new HttpError(404, `${parts[1]} has no review yet`);
        return send(
          response,
          200,
          text,
          format === 'html' ? TYPES['.html']! : 'text/markdown; charset=utf-8',
        );
      }
      case 'POST servers': {
        const body = (await readBody(request)) as { stdio?: unknown; url?: unknown; name?: unknown };
        const source = {
          ...(typeof body.stdio === 'string' ? { stdio: body.stdio } : {}),
          ...(typeof body.url === 'string' ? { url: body.url } : {}),
          ...(typeof body.name === 'string' ? { name: body.name } : {}),
        };
        try {
          return json(response, 201, await center.addExternal(source));
        } catch (error) {
          throw new HttpError(400, (error as Error).message);
        }
      }
      case 'GET servers/:/apps': {
        const previews = needPreviews();
        const entry = (await center.servers()).find((server) => server.name === parts[1]);
        if (entry === undefined) throw new HttpError(404, `no server ${parts[1]}`);
        const review = (await center.review(entry.name))?.checks.filter((check) =>
          check.id.startsWith('mcp-apps'),
        );
        try {
          return json(response, 200, await previews.views(entry, review));
        } catch (error) {
          throw new HttpError(502, `could not list the views of ${entry.name}: ${(error as Error).message}`);
        }
      }
      case 'POST servers/:/apps': {
        const previews = needPreviews();
        const body = (await readBody(request)) as { uri?: unknown; page?: unknown };
        if (typeof body.uri !== 'string' || !body.uri.startsWith('ui://'))
          throw new HttpError(400, 'give the ui:// URI of the view to preview');
        if (body.page !== undefined && (typeof body.page !== 'string' || !PAGE_ID.test(body.page)))
          throw new HttpError(400, 'page must be the id the page gives its event stream');
        const entry = (await center.servers()).find((server) => server.name === parts[1]);
        if (entry === undefined) throw new HttpError(404, `no server ${parts[1]}`);
        try {
          const page = typeof body.page === 'string' ? body.page : undefined;
          return json(response, 200, await previews.open(entry, body.uri, page));
        } catch (error) {
          if (error instanceof PreviewError) throw new HttpError(error.status, error.message);
          throw new HttpError(502, `could not open ${body.uri}: ${(error as Error).message}`);
        }
      }
      case 'POST apps/:': {
        // The page's host bridge: a View's MCP requests (visibility enforced), its message log, its closing.
        const previews = needPreviews();
        const body = (await readBody(request)) as Record<string, unknown>;
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw new HttpError(400, 'the body must be a JSON object');
        if (parts[1] === 'close') {
          await previews.close(String(body['viewId']));
          return json(response, 200, {});
        }
        if (parts[1] !== 'request' && parts[1] !== 'record')
          throw new HttpError(404, `no route ${url.pathname}`);
        const answer = await previews.forward(parts[1], body as never);
        return json(response, answer.status, answer.body);
      }
      case 'GET apps/:': {
        const entries = needPreviews().timeline(parts[1]!);
        if (entries === undefined) throw new HttpError(404, `no open view ${parts[1]}`);
        return json(response, 200, { timeline: entries });
      }
      case 'GET runs':
        return json(response, 200, await center.store.listRuns(50));
      case 'POST runs': {
        const body = (await readBody(request)) as { servers?: unknown };
        const names = Array.isArray(body.servers)
          ? body.servers.filter((s): s is string => typeof s === 'string')
          : undefined;
        try {
          return json(response, 202, await center.startRun(names));
        } catch (error) {
          throw new HttpError(400, (error as Error).message);
        }
      }
      case 'GET runs/:': {
        const detail = await center.runDetail(parts[1]!);
        if (detail === undefined) throw new HttpError(404, `no run ${parts[1]}`);
        return json(response, 200, detail);
      }
      case 'POST runs/:/cancel':
        return center.runner.cancel(parts[1]!)
          ? json(response, 202, { cancelled: parts[1] })
          : json(response, 409, { error: `run ${parts[1]} is not running here` });
      case 'POST runs/:/resume':
        try {
          return json(response, 202, await center.resumeRun(parts[1]!));
        } catch (error) {
          throw new HttpError(409, (error as Error).message);
        }
      default:
        throw new HttpError(404, `no route ${method} ${url.pathname}`);
    }
  }

  server.on('close', () => {
    center.runner.off('event', broadcast);
    for (const stream of streams) stream.end();
  });
  // SSE streams stay open: closing the server must end them.
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const stream of streams) stream.end();
    streams.clear();
    server.closeAllConnections();
    return close(callback);
  };
  return server;
}
