/**
 * The inspector's local backend: serves the built UI and a small JSON API over one connection to the server
 * named on the command line. The page can connect, disconnect, send requests, answer the server's sampling and
 * elicitation requests and export the timeline; it can never name a command to run — the backend only ever
 * starts the target it was given at launch.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Revision } from '@mcpengine/oracle';
import {
  ConnectFailure,
  openInspection,
  serverErrorOf,
  type Inspection,
  type InspectionHandlers,
  type JsonObject,
} from '../core/connection.js';
import { serializeSession, sessionOf } from '../core/session-file.js';
import { describeTarget, type Target } from '../core/target.js';
import { Timeline, type TimelineEntry } from '../core/timeline.js';
import { AppsRoutes } from './apps-host/routes.js';
import { startSandbox } from './apps-host/sandbox.js';
import { loopbackBindAddress, newToken, RequestGuard } from './guard.js';

export interface BackendOptions {
  /** The one server the UI may connect to; absent: the UI can only open saved timelines. */
  readonly target?: Target;
  readonly revision?: Revision | 'auto';
  readonly host?: string;
  /** 0 or absent: a free port. */
  readonly port?: number;
  /** Where the built UI is (index.html, app.js, app.css). */
  readonly assetsDir: string;
}

export interface RunningBackend {
  /** The UI's address, the token in its fragment (never sent to the server in a URL, never in logs). */
  readonly url: string;
  readonly origin: string;
  /** Where MCP App Views run: the sandbox proxy's origin (another port of the same loopback address). */
  readonly sandboxOrigin: string;
  readonly token: string;
  close(): Promise<void>;
}

/** What the page is told, as a stream of NDJSON lines. */
type UiEvent =
  | { type: 'entry'; entry: TimelineEntry }
  | { type: 'state'; state: JsonObject }
  | { type: 'ask'; id: number; kind: 'sampling' | 'elicitation'; params: JsonObject }
  | { type: 'answered'; id: number }
  | { type: 'progress'; callId: string; progress: JsonObject };

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/**
 * Server content is shown as text, `data:` images and audio, or in sandboxed frames: nothing of it runs here.
 * MCP App Views run only in frames of the sandbox origin (another port), never in this one.
 */
const cspFor = (sandboxOrigin: string) =>
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; " +
  `connect-src 'self'; frame-src 'self' data: ${sandboxOrigin}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

class Session {
  inspection: Inspection | undefined;
  timeline = new Timeline();
  connecting = false;
  error: string | undefined;
  readonly #listeners = new Set<(event: UiEvent) => void>();
  readonly #asks = new Map<
    number,
    { kind: string; params: JsonObject; settle: (answer: JsonObject | undefined) => void }
  >();
  #nextAsk = 1;
  #unsubscribe: () => void = () => {};

  constructor(
    readonly target: Target | undefined,
    readonly revision: Revision | 'auto',
  ) {}

  listen(listener: (event: UiEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: UiEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  state(): JsonObject {
    const inspection = this.inspection;
    return {
      target: this.target === undefined ? null : describeTarget(this.target),
      connected: inspection !== undefined,
      connecting: this.connecting,
      error: this.error ?? null,
      ...(inspection === undefined
        ? {}
        : { revision: inspection.revision, era: inspection.era, ...inspection.server }),
      asks: [...this.#asks].map(([id, ask]) => ({ id, kind: ask.kind, params: ask.params })),
    };
  }

  /** The user answers the server's requests: each waits here until the page posts an answer. */
  handlers(): InspectionHandlers {
    const ask = (kind: 'sampling' | 'elicitation') => (params: JsonObject, signal: AbortSignal) =>
      new Promise<JsonObject>((resolve, reject) => {
        const id = this.#nextAsk++;
        const settle = (answer: JsonObject | undefined) => {
          this.#asks.delete(id);
          this.emit({ type: 'answered', id });
          if (answer === undefined) reject(new Error(`the user declined the ${kind} request`));
          else resolve(answer);
        };
        this.#asks.set(id, { kind, params, settle });
        signal.addEventListener('abort', () => settle(undefined), { once: true });
        this.emit({ type: 'ask', id, kind, params });
      });
    return { sampling: ask('sampling'), elicitation: ask('elicitation'), roots: async () => [] };
  }

  answer(id: number, answer: JsonObject | undefined): boolean {
    const pending = this.#asks.get(id);
    if (pending === undefined) return false;
    pending.settle(answer);
    return true;
  }

  async connect(): Promise<void> {
    if (this.target === undefined)
      throw new HttpFailure(409, 'no server was named when the inspector started');
    if (this.inspection !== undefined || this.connecting) return;
    this.connecting = true;
    this.error = undefined;
    this.#unsubscribe();
    this.timeline = new Timeline(this.revision === 'auto' ? {} : { revision: this.revision });
    this.#unsubscribe = this.timeline.subscribe((entry) => this.emit({ type: 'entry', entry }));
    this.emit({ type: 'state', state: this.state() });
    try {
      this.inspection = await openInspection(this.target, {
        revision: this.revision,
        timeline: this.timeline,
        handlers: this.handlers(),
      });
    } catch (error) {
      this.error = error instanceof ConnectFailure ? error.message : String(error);
    } finally {
      this.connecting = false;
      this.emit({ type: 'state', state: this.state() });
    }
  }

  async disconnect(): Promise<void> {
    const inspection = this.inspection;
    this.inspection = undefined;
    await inspection?.close();
    this.emit({ type: 'state', state: this.state() });
  }
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startBackend(options: BackendOptions): Promise<RunningBackend> {
  const address = loopbackBindAddress(options.host ?? '127.0.0.1');
  const session = new Session(options.target, options.revision ?? 'auto');
  const token = newToken();
  const guard = new RequestGuard(token);
  let origin = '';
  const sandbox = await startSandbox(address, () => {
    const port = new URL(origin).port;
    return [
      origin,
      ...[`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].filter(
        (o) => o !== origin,
      ),
    ];
  });
  const apps = new AppsRoutes(sandbox);
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        send(response, error instanceof HttpFailure ? error.status : 500, {
          error: error instanceof Error ? error.message : String(error),
        });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const origin = guard.checkOrigin(request);
    if (!origin.ok) return send(response, origin.status, { error: origin.reason });
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (!path.startsWith('/api/')) return serveAsset(response, options.assetsDir, path, sandbox.origin);
    const auth = guard.checkToken(request);
    if (!auth.ok) return send(response, auth.status, { error: auth.reason });
    const route = `${request.method} ${path}`;
    if (path.startsWith('/api/apps/')) {
      const answer = await apps.handle(route, await readJson(request), session);
      return send(response, answer.status, answer.body);
    }
    switch (route) {
      case 'GET /api/state':
        return send(response, 200, session.state());
      case 'GET /api/events':
        return stream(request, response, session);
      case 'GET /api/timeline':
        return exportTimeline(response, session);
      case 'POST /api/connect':
        await session.connect();
        return send(response, 200, session.state());
      case 'POST /api/disconnect':
        await session.disconnect();
        return send(response, 200, session.state());
      case 'POST /api/answer': {
        const body = await readJson(request);
        const id = Number(body['id']);
        const answered = session.answer(
          id,
          body['decline'] === true ? undefined : (body['result'] as JsonObject),
        );
        return send(response, answered ? 200 : 404, answered ? {} : { error: `no open request ${id}` });
      }
      case 'POST /api/request':
      case 'POST /api/call-tool': {
        const body = await readJson(request);
        const inspection = session.inspection;
        if (inspection === undefined) throw new HttpFailure(409, 'not connected');
        const callId = typeof body['callId'] === 'string' ? body['callId'] : undefined;
        const onProgress =
          callId === undefined
            ? undefined
            : (progress: object) =>
                session.emit({ type: 'progress', callId, progress: progress as JsonObject });
        try {
          if (route === 'POST /api/request') {
            const result = await inspection.request(
              String(body['method']),
              (body['params'] as JsonObject) ?? {},
            );
            return send(response, 200, { result });
          }
          const name = String(body['name']);
          const result = await inspection.callTool(name, (body['arguments'] as JsonObject) ?? {}, {
            ...(onProgress === undefined ? {} : { onProgress }),
          });
          return send(response, 200, {
            result,
            outputFindings: await inspection.outputFindings(name, result),
          });
        } catch (error) {
          const remote = serverErrorOf(error);
          return send(response, 200, { error: remote ?? { message: (error as Error).message } });
        }
      }
      default:
        return send(response, 404, { error: `no such API: ${route}` });
    }
  }

  await new Promise<void>((ready, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, address, () => ready());
  }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : 0;
  guard.listenOn(port);
  origin = `http://${address === '::1' ? '[::1]' : address}:${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    sandboxOrigin: sandbox.origin,
    token,
    close: async () => {
      await session.disconnect();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await sandbox.close();
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

async function serveAsset(
  response: ServerResponse,
  dir: string,
  path: string,
  sandboxOrigin: string,
): Promise<void> {
  const name = path === '/' ? 'index.html' : path.slice(1);
  // Only the UI's own flat files: no directories, no dot files, no traversal.
  if (!/^[a-z0-9-]+\.(html|js|css)$/.test(name)) return send(response, 404, { error: 'not found' });
  let body: Buffer;
  try {
    body = await readFile(join(dir, name));
  } catch {
    return send(response, 404, { error: 'not found' });
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
    'content-security-policy': cspFor(sandboxOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(body);
}

function stream(request: IncomingMessage, response: ServerResponse, session: Session): void {
  response.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  const write = (event: UiEvent) => response.write(`${JSON.stringify(event)}\n`);
  write({ type: 'state', state: session.state() });
  for (const entry of session.timeline.entries) write({ type: 'entry', entry });
  const stop = session.listen(write);
  request.once('close', stop);
}

function exportTimeline(response: ServerResponse, session: Session): void {
  const text = serializeSession(
    sessionOf(session.timeline, {
      ...(session.target === undefined ? {} : { target: describeTarget(session.target) }),
      ...(session.inspection === undefined ? {} : { server: session.inspection.server as JsonObject }),
    }),
  );
  response.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'content-disposition': 'attachment; filename="mcp-session.jsonl"',
    'cache-control': 'no-store',
  });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<JsonObject> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    throw new HttpFailure(415, 'send application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpFailure(413, 'request body too large');
    chunks.push(chunk);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as JsonObject;
  } catch {
    throw new HttpFailure(400, 'the body must be a JSON object');
  }
}
