/**
 * The inspector's local backend: serves the built UI and a small JSON API over one connection to the server
 * named on the command line. The page can connect, disconnect, send requests, answer the server's sampling and
 * elicitation requests and export the timeline; it can never name a command to run — the backend only ever
 * starts the target it was given at launch.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Revision } from '@mcpengine/oracle';
import {
  ConnectFailure,
  openInspection,
  serverErrorOf,
  type Inspection,
  type InspectionHandlers,
  type JsonObject,
} from '../core/connection.js';
import { loadConfigTargets, type NamedTarget } from '../core/config-file.js';
import {
  HOSTED_CLIENT_METADATA_PATH,
  inspectorClientMetadata,
  OAuthDebugger,
  REGISTRATION_PATHS,
  type RegistrationPath,
} from '../core/oauth-debugger.js';
import { serializeSession, sessionOf } from '../core/session-file.js';
import { describeTarget, type Target } from '../core/target.js';
import { Timeline, type TimelineEntry } from '../core/timeline.js';
import { AppsRoutes } from './apps-host/routes.js';
import { startSandbox } from './apps-host/sandbox.js';
import { loopbackBindAddress, newToken, RequestGuard } from './guard.js';

export interface BackendOptions {
  /** The server named on the command line; absent (and no `targets`): the UI can only open saved timelines. */
  readonly target?: Target;
  /** Saved servers (a local config file), which the page may pick among by name. */
  readonly targets?: readonly NamedTarget[];
  /**
   * The config file `targets` came from (`--config`): watched, and read again when it changes or the page asks
   * (`POST /api/config/reload`). Only this path, given at launch, is ever read; bad content keeps the previous list.
   */
  readonly configFile?: { readonly path: string; readonly cwd: string };
  /** The name of the server selected at launch (default: the command line's, else the first saved one). */
  readonly initial?: string;
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
  | { type: 'progress'; callId: string; progress: JsonObject }
  | { type: 'oauth'; state: JsonObject };

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
  /** The OAuth debugger of an HTTP target (created once the callback address is known). */
  oauth: OAuthDebugger | undefined;
  /** An access token the user chose to connect with (from the OAuth debugger); kept in memory only. */
  bearer: string | undefined;
  /** The roots the user gives the server (`roots/list`), edited in the page. */
  roots: JsonObject[] = [];
  /** The log level asked for (legacy: `logging/setLevel`; modern: on every request, so set at connection). */
  logLevel: string | undefined;
  /** The open `subscriptions/listen` stream (modern era) and what the server acknowledged. */
  listening: { close(): void; filter: JsonObject } | undefined;
  /** Tool calls in flight, by the page's call id, to cancel them. */
  readonly calls = new Map<string, AbortController>();
  readonly #listeners = new Set<(event: UiEvent) => void>();
  readonly #asks = new Map<
    number,
    { kind: string; params: JsonObject; settle: (answer: JsonObject | undefined, why?: string) => void }
  >();
  #nextAsk = 1;
  #unsubscribe: () => void = () => {};

  /** Where the authorization server sends the user back (the OAuth debugger), once the port is known. */
  redirectUri = '';
  /** The Client ID Metadata Document this backend serves (no secret in it), once the port is known. */
  hostedClientMetadataUrl = '';
  #current: string | undefined;

  /** The command line's server (fixed) and the config file's (read again on change). */
  readonly #cliTargets: readonly NamedTarget[];
  #configTargets: readonly NamedTarget[];
  /** The config file given at launch, and what its last reading said. */
  readonly config:
    { readonly path: string; error: string | undefined; loadedAt: number; reloads: number } | undefined;

  constructor(
    cliTargets: readonly NamedTarget[],
    configTargets: readonly NamedTarget[],
    initial: string | undefined,
    readonly revision: Revision | 'auto',
    configPath: string | undefined,
  ) {
    this.#cliTargets = cliTargets;
    this.#configTargets = configTargets;
    this.#current = initial ?? this.targets[0]?.name;
    this.config =
      configPath === undefined
        ? undefined
        : { path: configPath, error: undefined, loadedAt: Date.now(), reloads: 0 };
  }

  get targets(): readonly NamedTarget[] {
    return [...this.#cliTargets, ...this.#configTargets];
  }

  /**
   * Reads the launch's config file again (its path is fixed at launch: the page never names a file). Bad content
   * is reported and the previous list kept. A server that is gone is disconnected; one whose entry changed is
   * used as changed at the next connection.
   */
  async reloadConfig(cwd: string): Promise<void> {
    const config = this.config;
    if (config === undefined) throw new HttpFailure(409, 'the inspector was not started with --config');
    let next: NamedTarget[];
    try {
      next = loadConfigTargets(config.path, cwd);
    } catch (error) {
      // One line: JSON.parse quotes the offending text, line breaks included.
      config.error = `${(error as Error).message.replace(/\s+/g, ' ')} (the previous list of servers is kept)`;
      this.emit({ type: 'state', state: this.state() });
      return;
    }
    const before = this.target;
    this.#configTargets = next;
    config.error = undefined;
    config.loadedAt = Date.now();
    config.reloads += 1;
    const after = this.target;
    if (after === undefined) {
      // The server in use is gone from the file.
      await this.disconnect();
      this.#current = this.targets[0]?.name;
      this.bearer = undefined;
      this.oauth = undefined;
    } else if (JSON.stringify(after) !== JSON.stringify(before)) this.oauth = undefined;
    this.emit({ type: 'state', state: this.state() });
  }

  get target(): Target | undefined {
    return this.targets.find((named) => named.name === this.#current)?.target;
  }

  get targetName(): string | undefined {
    return this.#current;
  }

  /** The page picks one of the servers given at launch, by name; never a new one. */
  async choose(name: string): Promise<void> {
    if (!this.targets.some((named) => named.name === name))
      throw new HttpFailure(404, `no server named ${JSON.stringify(name)} was given at launch`);
    if (name === this.#current) return;
    await this.disconnect();
    this.#current = name;
    this.bearer = undefined;
    this.oauth = undefined;
    this.error = undefined;
    this.emit({ type: 'state', state: this.state() });
  }

  /** The OAuth debugger of the current server (HTTP only), created on first use. */
  oauthDebugger(): OAuthDebugger {
    const target = this.target;
    if (target?.kind !== 'http')
      throw new HttpFailure(409, 'the OAuth debugger needs an HTTP server (--url)');
    this.oauth ??= new OAuthDebugger({
      serverUrl: target.url,
      redirectUri: this.redirectUri,
      hostedClientMetadataUrl: this.hostedClientMetadataUrl,
      ...(target.headers === undefined ? {} : { headers: target.headers }),
    });
    return this.oauth;
  }

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
      targetName: this.#current ?? null,
      targets: this.targets.map((named) => ({ name: named.name, target: describeTarget(named.target) })),
      config:
        this.config === undefined
          ? null
          : {
              path: this.config.path,
              error: this.config.error ?? null,
              reloads: this.config.reloads,
              servers: this.#configTargets.map((named) => named.name),
            },
      connected: inspection !== undefined,
      connecting: this.connecting,
      authorized: this.bearer !== undefined,
      roots: this.roots,
      listening: this.listening?.filter ?? null,
      logLevel: this.logLevel ?? null,
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
        const settle = (answer: JsonObject | undefined, why = `the user declined the ${kind} request`) => {
          if (!this.#asks.has(id)) return;
          this.#asks.delete(id);
          this.emit({ type: 'answered', id });
          if (answer === undefined) reject(new Error(why));
          else resolve(answer);
        };
        this.#asks.set(id, { kind, params, settle });
        signal.addEventListener('abort', () => settle(undefined, `the ${kind} request was cancelled`), {
          once: true,
        });
        this.emit({ type: 'ask', id, kind, params });
      });
    return { sampling: ask('sampling'), elicitation: ask('elicitation'), roots: async () => this.roots };
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
      const timeline = this.timeline;
      this.inspection = await openInspection(this.#effectiveTarget(this.target), {
        revision: this.revision,
        timeline,
        handlers: this.handlers(),
        ...(this.logLevel === undefined ? {} : { logLevel: this.logLevel }),
        // The server hung up or died: the page learns it and can connect again.
        onClose: (error) =>
          queueMicrotask(() => {
            if (this.inspection === undefined || this.inspection.timeline !== timeline) return;
            this.inspection = undefined;
            this.error = `the server closed the connection${error === undefined ? '' : `: ${error.message}`}`;
            this.emit({ type: 'state', state: this.state() });
          }),
      });
    } catch (error) {
      this.error = error instanceof ConnectFailure ? error.message : String(error);
    } finally {
      this.connecting = false;
      this.emit({ type: 'state', state: this.state() });
    }
  }

  /** The target, with the token chosen in the OAuth debugger (HTTP only; the target stays the CLI's). */
  #effectiveTarget(target: Target): Target {
    if (target.kind !== 'http' || this.bearer === undefined) return target;
    return { ...target, headers: { ...target.headers, authorization: `Bearer ${this.bearer}` } };
  }

  async disconnect(): Promise<void> {
    this.listening = undefined;
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
  const configPath =
    options.configFile === undefined ? undefined : resolve(options.configFile.cwd, options.configFile.path);
  const session = new Session(
    options.target === undefined ? [] : [{ name: 'command line', target: options.target }],
    options.targets ?? [],
    options.initial,
    options.revision ?? 'auto',
    configPath,
  );
  const reloadConfig = () => session.reloadConfig(options.configFile?.cwd ?? process.cwd());
  // Editors replace files (write a copy, rename): the directory is watched, for this one name.
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  if (configPath !== undefined) {
    try {
      watcher = watch(dirname(configPath), (_event, name) => {
        if (name !== null && name !== basename(configPath)) return;
        clearTimeout(debounce);
        debounce = setTimeout(() => void reloadConfig().catch(() => undefined), 100);
      });
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined; // not watchable here: the page's Reload still works
    }
  }
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
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (request.method === 'GET' && path === '/oauth/callback') return oauthCallback(response, session, url);
    // The inspector's own client metadata document, fetched by an authorization server (no token: it holds
    // nothing secret, only the callback address and the client's name).
    if (request.method === 'GET' && path === HOSTED_CLIENT_METADATA_PATH)
      return send(
        response,
        200,
        inspectorClientMetadata(session.redirectUri, session.hostedClientMetadataUrl),
      );
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
      case 'POST /api/html-preview': {
        // A text/html resource, shown from the sandbox origin with no script (never in this origin).
        const body = await readJson(request);
        if (typeof body['html'] !== 'string') throw new HttpFailure(400, 'html must be a string');
        return send(response, 200, { url: sandbox.registerDocument(body['html']).url });
      }
      case 'GET /api/oauth':
        return send(response, 200, oauthOf(session).state());
      case 'POST /api/oauth/reset': {
        const body = await readJson(request);
        const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string).trim() : '');
        const registration = text('registration') === '' ? 'auto' : text('registration');
        if (!(REGISTRATION_PATHS as readonly string[]).includes(registration))
          throw new HttpFailure(400, `registration must be one of ${REGISTRATION_PATHS.join(', ')}`);
        const stepUpArguments = body['stepUpArguments'] ?? {};
        if (typeof stepUpArguments !== 'object' || stepUpArguments === null || Array.isArray(stepUpArguments))
          throw new HttpFailure(400, 'stepUpArguments must be a JSON object');
        const metadataUrl = text('clientMetadataUrl');
        if (metadataUrl !== '' && !/^https?:\/\//i.test(metadataUrl))
          throw new HttpFailure(400, 'the client metadata document URL must be http(s)');
        oauthOf(session).reset({
          clientId: text('clientId'),
          scope: text('scope'),
          registration: registration as RegistrationPath,
          clientMetadataUrl: metadataUrl,
          stepUpTool: text('stepUpTool'),
          stepUpArguments: stepUpArguments as JsonObject,
        });
        return sendOAuth(response, session);
      }
      case 'POST /api/oauth/next':
        await readJson(request);
        await oauthOf(session).next();
        return sendOAuth(response, session);
      case 'POST /api/oauth/use': {
        await readJson(request);
        const token = oauthOf(session).accessToken;
        if (token === undefined) throw new HttpFailure(409, 'the OAuth debugger has no access token yet');
        session.bearer = token;
        await session.disconnect();
        return send(response, 200, session.state());
      }
      case 'POST /api/config/reload':
        await readJson(request); // nothing from the page is used: the file is the launch's
        await reloadConfig();
        return send(response, 200, session.state());
      case 'POST /api/target': {
        const body = await readJson(request);
        await session.choose(String(body['name']));
        return send(response, 200, session.state());
      }
      case 'POST /api/listen': {
        const body = await readJson(request);
        const inspection = session.inspection;
        if (inspection === undefined) throw new HttpFailure(409, 'not connected');
        if (inspection.era !== 'modern')
          throw new HttpFailure(
            409,
            'subscriptions/listen is modern-era (2026-07-28); use resources/subscribe',
          );
        session.listening?.close();
        session.listening = undefined;
        if (body['filter'] !== null) {
          const subscription = inspection.listen(filterOf(body['filter']));
          try {
            const filter = await subscription.acknowledged;
            session.listening = { close: subscription.close, filter };
            void subscription.ended.then(() => {
              if (session.listening?.close !== subscription.close) return;
              session.listening = undefined;
              session.emit({ type: 'state', state: session.state() });
            });
          } catch (error) {
            subscription.close();
            return send(response, 200, {
              error: serverErrorOf(error) ?? { message: (error as Error).message },
            });
          }
        }
        session.emit({ type: 'state', state: session.state() });
        return send(response, 200, session.state());
      }
      case 'POST /api/roots': {
        const body = await readJson(request);
        session.roots = rootsOf(body['roots']);
        // Legacy era: tell the server (the modern era asks for roots in each request that needs them).
        if (session.inspection?.era === 'legacy' && session.inspection.server.capabilities !== undefined)
          session.inspection.notify('notifications/roots/list_changed');
        session.emit({ type: 'state', state: session.state() });
        return send(response, 200, session.state());
      }
      case 'POST /api/log-level': {
        const body = await readJson(request);
        const level = String(body['level']);
        if (!LOG_LEVELS.includes(level))
          throw new HttpFailure(400, `level must be one of ${LOG_LEVELS.join(', ')}`);
        session.logLevel = level;
        const inspection = session.inspection;
        if (inspection?.era === 'legacy') {
          try {
            await inspection.request('logging/setLevel', { level });
          } catch (error) {
            return send(response, 200, {
              error: serverErrorOf(error) ?? { message: (error as Error).message },
            });
          }
        } else if (inspection !== undefined) {
          // Modern era: the level travels with every request; a new connection carries it.
          await session.disconnect();
          await session.connect();
        }
        session.emit({ type: 'state', state: session.state() });
        return send(response, 200, session.state());
      }
      case 'POST /api/cancel': {
        const body = await readJson(request);
        const call = session.calls.get(String(body['callId']));
        call?.abort(new Error('cancelled by the user'));
        return send(
          response,
          call === undefined ? 404 : 200,
          call === undefined ? { error: 'no such call' } : {},
        );
      }
      case 'POST /api/task-result': {
        const body = await readJson(request);
        const inspection = session.inspection;
        if (inspection === undefined) throw new HttpFailure(409, 'not connected');
        try {
          return send(response, 200, { result: await inspection.awaitTask(String(body['taskId'])) });
        } catch (error) {
          return send(response, 200, {
            error: serverErrorOf(error) ?? { message: (error as Error).message },
          });
        }
      }
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
          if (route === 'POST /api/request' && typeof body['all'] === 'string') {
            // A whole list, every page (`nextCursor` followed).
            const result = await inspection.listAll(String(body['method']), body['all']);
            return send(response, 200, { result });
          }
          if (route === 'POST /api/request') {
            const result = await inspection.request(
              String(body['method']),
              (body['params'] as JsonObject) ?? {},
            );
            return send(response, 200, { result });
          }
          const name = String(body['name']);
          const abort = new AbortController();
          if (callId !== undefined) session.calls.set(callId, abort);
          const result = await inspection
            .callTool(name, (body['arguments'] as JsonObject) ?? {}, {
              signal: abort.signal,
              asTask: body['asTask'] === true,
              ...(onProgress === undefined ? {} : { onProgress }),
            })
            .finally(() => callId !== undefined && session.calls.delete(callId));
          if (body['asTask'] === true && isTaskAnswer(result)) return send(response, 200, { result });
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
  session.redirectUri = `${origin}/oauth/callback`;
  session.hostedClientMetadataUrl = `${origin}${HOSTED_CLIENT_METADATA_PATH}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    sandboxOrigin: sandbox.origin,
    token,
    close: async () => {
      watcher?.close();
      clearTimeout(debounce);
      await session.disconnect();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await sandbox.close();
    },
  };
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const MAX_ROOTS = 100;

/** Roots from the page: `file://` URIs (as the specification requires) with optional names. */
function rootsOf(value: unknown): JsonObject[] {
  if (!Array.isArray(value) || value.length > MAX_ROOTS)
    throw new HttpFailure(400, `roots must be an array of at most ${MAX_ROOTS}`);
  return value.map((root: unknown) => {
    const record = (typeof root === 'object' && root !== null ? root : {}) as JsonObject;
    const uri = record['uri'];
    if (typeof uri !== 'string' || !uri.startsWith('file://') || uri.length > 4096)
      throw new HttpFailure(400, `a root needs a file:// URI, got ${JSON.stringify(uri)}`);
    const name = record['name'];
    return { uri, ...(typeof name === 'string' && name !== '' ? { name: name.slice(0, 200) } : {}) };
  });
}

/** A `subscriptions/listen` filter from the page: the known flags and at most 256 resource URIs. */
function filterOf(value: unknown): JsonObject {
  const record = (typeof value === 'object' && value !== null ? value : {}) as JsonObject;
  const out: JsonObject = {};
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'])
    if (record[flag] === true) out[flag] = true;
  const uris = record['resourceSubscriptions'];
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.length > 256 || uris.some((uri) => typeof uri !== 'string'))
      throw new HttpFailure(400, 'resourceSubscriptions must be at most 256 URIs');
    if (uris.length > 0) out['resourceSubscriptions'] = uris;
  }
  return out;
}

/** A `tools/call` answered with a task (2025-11-25 `CreateTaskResult`, or the modern tasks extension). */
function isTaskAnswer(result: JsonObject): boolean {
  if (result['resultType'] === 'task') return true;
  const task = result['task'];
  return typeof task === 'object' && task !== null && typeof (task as JsonObject)['taskId'] === 'string';
}

function oauthOf(session: Session): OAuthDebugger {
  return session.oauthDebugger();
}

function sendOAuth(response: ServerResponse, session: Session): void {
  const state = oauthOf(session).state();
  session.emit({ type: 'oauth', state });
  send(response, 200, state);
}

/**
 * The authorization server's redirect back (a top-level navigation: no token, no Origin). Only a redirect
 * carrying the state of the pending authorization is taken; anything else changes nothing.
 */
function oauthCallback(response: ServerResponse, session: Session, url: URL): void {
  const taken = session.oauth?.callback(url.searchParams) ?? false;
  if (taken) session.emit({ type: 'oauth', state: session.oauth!.state() });
  response.writeHead(taken ? 200 : 400, {
    'content-type': 'text/plain; charset=utf-8',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(
    taken
      ? 'Authorization received: return to the inspector (OAuth tab) and continue.\n'
      : 'No authorization is waiting for this redirect (wrong or old state).\n',
  );
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
