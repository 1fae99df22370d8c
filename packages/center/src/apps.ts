/**
 * MCP Apps previews on the server page, through the inspector's reference host (`@mcpengine/inspector`): the same
 * sandbox proxy listener (a second loopback origin), the same policy built from the View's declared `_meta.ui`,
 * the same `/api/apps/*` routes (visibility checks on the View's own calls, every message recorded), and the same
 * page-side bridge (`@mcpengine/inspector/apps-page`). What the center adds: which Views a server has (the tools
 * that link each one, its declared CSP and permissions, the review's Apps check), and a sample tool result to feed
 * a preview — the arguments of a recorded test of that tool, else arguments built from its input schema, checked
 * against the schema, called against the server with its mock environment.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import {
  AppsRoutes,
  openInspection,
  resourceUiMeta,
  Timeline,
  toolResourceUri,
  toolVisibility,
  viewPolicy,
  type Inspection,
  type JsonObject,
  type RunningSandbox,
  type Target,
} from '@mcpengine/inspector';
import { findTestFiles, loadYamlFile } from '@mcpengine/test-runner';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ServerEntry } from './fleet.js';
import { commandLaunch } from './launch.js';
import type { ReviewCheck } from './review/checks.js';

/** One `ui://` View of a server, as the server page lists it. */
export interface AppView {
  readonly uri: string;
  readonly name: string | null;
  readonly mimeType: string | null;
  /** The tools that link it, with who may call them. */
  readonly tools: { readonly name: string; readonly visibility: readonly string[] }[];
  /** What the View declares in `_meta.ui` (content item over list entry). */
  readonly declared: { readonly csp: unknown; readonly permissions: unknown };
  /** What the host grants from it: the CSP header the proxy document is served with, the `allow` attribute. */
  readonly header: string;
  readonly allow: string;
  /** Declared entries the host refuses, and why. */
  readonly refused: readonly string[];
  /** The tool a preview calls, and its arguments; undefined when no tool the model may call links the View. */
  readonly sample: SampleCall | undefined;
  /** Why the View cannot be previewed, when it cannot. */
  readonly problem: string | undefined;
}

export interface SampleCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  /** Where the arguments come from: `test <file>: <case>` or `input schema`. */
  readonly source: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The inspector's target for a managed server: its command line in its folder with its mock env, or its URL. */
export function targetOf(entry: ServerEntry): Target {
  if (entry.manifest.stdio !== undefined) {
    const launch = commandLaunch(entry, entry.manifest.stdio);
    return { kind: 'stdio', command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd };
  }
  if (entry.manifest.url !== undefined) return { kind: 'http', url: entry.manifest.url, transport: 'auto' };
  throw new Error(`${entry.name} has neither a command line nor a URL`);
}

/**
 * A minimal instance of a JSON Schema: required properties only, each its `const`, `default`, first `examples`
 * or `enum` entry, else the smallest value of its type within its bounds. Undefined when the schema is beyond it
 * (the caller checks the result against the schema anyway).
 */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return undefined;
  if ('const' in schema) return schema['const'];
  if ('default' in schema) return schema['default'];
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[key]) && schema[key].length > 0) return sampleOf(schema[key][0], depth + 1);
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  switch (type) {
    case 'object':
    case undefined: {
      if (type === undefined && !isObject(schema['properties'])) return undefined;
      const properties = isObject(schema['properties']) ? schema['properties'] : {};
      const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      const value: Json = {};
      for (const name of required) {
        const item = sampleOf(properties[name], depth + 1);
        if (item === undefined) return undefined;
        value[name] = item;
      }
      return value;
    }
    case 'array': {
      const count = typeof schema['minItems'] === 'number' ? schema['minItems'] : 1;
      const item = sampleOf(schema['items'], depth + 1);
      if (item === undefined) return count === 0 ? [] : undefined;
      return Array.from({ length: Math.min(count, 50) }, () => item);
    }
    case 'string': {
      if (schema['format'] === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema['format'] === 'date') return '2026-01-01';
      if (schema['format'] === 'email') return 'someone@example.com';
      if (schema['format'] === 'uri' || schema['format'] === 'url') return 'https://example.com/';
      const length = typeof schema['minLength'] === 'number' ? schema['minLength'] : 1;
      return 'x'.repeat(Math.max(1, Math.min(length, 1000)));
    }
    case 'integer':
    case 'number': {
      const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined;
      const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
      if (minimum !== undefined) return type === 'integer' ? Math.ceil(minimum) : minimum;
      if (maximum !== undefined && maximum < 1) return type === 'integer' ? Math.floor(maximum) : maximum;
      return 1;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** A check of arguments against a tool's input schema (draft 2020-12 keywords Ajv knows; formats not enforced). */
function argumentsProblem(schema: unknown, args: unknown): string | undefined {
  try {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    // Tool schemas are 2020-12 by default; a `$schema` naming another draft would stop the compiler.
    const { $schema: _dialect, ...rest } = isObject(schema) ? schema : {};
    const validate = ajv.compile(rest);
    if (validate(args)) return undefined;
    const [error] = validate.errors ?? [];
    return `${error?.instancePath || '/'} ${error?.message ?? 'is invalid'}`;
  } catch (error) {
    return `the input schema cannot be compiled: ${(error as Error).message}`;
  }
}

/** The arguments of the first recorded test that calls `tool` successfully and fits its schema; else built ones. */
export async function sampleCall(entry: ServerEntry, tool: Json): Promise<SampleCall | string> {
  const name = String(tool['name']);
  const schema = tool['inputSchema'];
  if (entry.manifest.tests !== undefined && entry.kind === 'fleet') {
    const folder = resolve(entry.dir, entry.manifest.tests);
    const files = existsSync(folder) ? findTestFiles([folder], entry.dir) : [];
    for (const file of files) {
      const suite = await loadYamlFile(file).catch(() => undefined);
      for (const test of suite?.tests ?? []) {
        const { action, expect } = test;
        if (action.kind !== 'tool' || action.name !== name || test.skip !== undefined) continue;
        if (expect.error !== undefined || expect.isError === true || expect.rejectsInput === true) continue;
        if (argumentsProblem(schema, action.arguments) !== undefined) continue;
        return {
          tool: name,
          arguments: action.arguments,
          source: `test ${relative(entry.dir, file)}: ${test.name}`,
        };
      }
    }
  }
  const built = sampleOf(isObject(schema) ? { type: 'object', ...schema } : { type: 'object' });
  const problem = built === undefined ? 'no sample could be built' : argumentsProblem(schema, built);
  if (problem !== undefined || !isObject(built))
    return `no recorded test calls ${name} and arguments built from its input schema do not fit it: ${problem ?? 'not an object'}`;
  return { tool: name, arguments: built, source: 'input schema' };
}

interface Preview {
  readonly server: string;
  readonly inspection: Inspection;
  readonly timeline: Timeline;
  /** The dashboard page that opened it: closed when that page goes away. */
  readonly page: string | undefined;
}

/** At most this many previews stay open (each is a running server); the oldest is closed first. */
const MAX_OPEN = 4;

/** How long a page may be without its event stream before its previews are closed (EventSource reconnects). */
export const PAGE_GONE_GRACE_MS = 10_000;

/** A page id as the dashboard makes it (a random UUID); anything else is refused. */
export const PAGE_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * The center's MCP Apps previews. Each open preview is a running server, so none may outlive the page that
 * opened it: a page names itself (a random id) on its event stream and on the previews it opens, and when its
 * last event stream has been closed for `pageGraceMs` — the tab was closed, navigated away or crashed, so the
 * browser dropped the connection — its previews are closed. The event stream is open for the page's whole life
 * already, so this needs no polling; the grace period covers EventSource's own reconnection after a network blip.
 */
export class AppsPreviews {
  readonly routes: AppsRoutes;
  readonly #previews = new Map<string, Preview>();
  /** Per page: its open event streams, and the timer that closes its previews once it has none. */
  readonly #pages = new Map<string, { streams: number; timer: ReturnType<typeof setTimeout> | undefined }>();

  constructor(
    readonly sandbox: RunningSandbox,
    readonly timeoutMs: number,
    readonly pageGraceMs = PAGE_GONE_GRACE_MS,
  ) {
    this.routes = new AppsRoutes(sandbox);
  }

  /** A page's event stream opened: its previews stay. */
  pageConnected(page: string): void {
    const state = this.#pages.get(page) ?? { streams: 0, timer: undefined };
    clearTimeout(state.timer);
    this.#pages.set(page, { streams: state.streams + 1, timer: undefined });
  }

  /** A page's event stream closed: without another one within the grace period, its previews are closed. */
  pageDisconnected(page: string): void {
    const state = this.#pages.get(page);
    if (state === undefined) return;
    const streams = Math.max(0, state.streams - 1);
    this.#pages.set(page, { streams, timer: state.timer });
    if (streams === 0) this.#schedulePageGone(page);
  }

  #schedulePageGone(page: string): void {
    const state = this.#pages.get(page) ?? { streams: 0, timer: undefined };
    clearTimeout(state.timer);
    const timer = setTimeout(() => void this.#pageGone(page), this.pageGraceMs);
    // A pending close must not keep a stopping center alive.
    timer.unref();
    this.#pages.set(page, { streams: 0, timer });
  }

  async #pageGone(page: string): Promise<void> {
    const state = this.#pages.get(page);
    if (state === undefined || state.streams > 0) return;
    this.#pages.delete(page);
    for (const [viewId, preview] of [...this.#previews])
      if (preview.page === page) await this.close(viewId).catch(() => undefined);
  }

  /** Open previews, by view id, with the server each runs and the page that opened it. */
  get openPreviews(): { viewId: string; server: string; page: string | undefined }[] {
    return [...this.#previews].map(([viewId, preview]) => ({
      viewId,
      server: preview.server,
      page: preview.page,
    }));
  }

  async #connect(entry: ServerEntry, timeline = new Timeline()): Promise<Inspection> {
    return openInspection(targetOf(entry), {
      timeline,
      connectTimeoutMs: this.timeoutMs,
      requestTimeoutMs: this.timeoutMs,
    });
  }

  /** Every `ui://` View the server's tools link (as a host that advertises MCP Apps sees them). */
  async views(
    entry: ServerEntry,
    reviewChecks: readonly ReviewCheck[] | undefined,
  ): Promise<{
    views: AppView[];
    review: readonly ReviewCheck[];
    revision: string;
  }> {
    const inspection = await this.#connect(entry);
    try {
      const tools = ((await inspection.listAll('tools/list', 'tools'))['tools'] ?? []) as Json[];
      const resources =
        inspection.server.capabilities['resources'] === undefined
          ? []
          : (((await inspection.listAll('resources/list', 'resources'))['resources'] ?? []) as Json[]);
      const byUri = new Map<string, Json[]>();
      for (const tool of tools) {
        const uri = toolResourceUri(tool);
        if (uri === undefined || !uri.startsWith('ui://')) continue;
        byUri.set(uri, [...(byUri.get(uri) ?? []), tool]);
      }
      const views: AppView[] = [];
      for (const [uri, linking] of byUri) {
        const listed = resources.find((resource) => resource['uri'] === uri);
        let content: Json | undefined;
        let problem: string | undefined;
        try {
          const read = await inspection.request('resources/read', { uri });
          const contents = Array.isArray(read['contents']) ? (read['contents'] as Json[]) : [];
          content = contents.find((item) => item?.['uri'] === uri) ?? contents[0];
          if (content === undefined) problem = `${uri} has no contents`;
        } catch (error) {
          problem = `resources/read ${uri} failed: ${(error as Error).message}`;
        }
        const ui = resourceUiMeta(listed, content);
        const policy = viewPolicy(ui);
        const callable = linking.find((tool) => toolVisibility(tool).includes('model'));
        let sample: SampleCall | undefined;
        if (callable === undefined) problem ??= 'no tool the model may call links this view';
        else {
          const found = await sampleCall(entry, callable);
          if (typeof found === 'string') problem ??= found;
          else sample = found;
        }
        views.push({
          uri,
          name: typeof listed?.['name'] === 'string' ? listed['name'] : null,
          mimeType: typeof content?.['mimeType'] === 'string' ? content['mimeType'] : null,
          tools: linking.map((tool) => ({ name: String(tool['name']), visibility: toolVisibility(tool) })),
          declared: { csp: ui['csp'] ?? null, permissions: ui['permissions'] ?? null },
          header: policy.header,
          allow: policy.allow,
          refused: policy.refused,
          sample,
          problem,
        });
      }
      return { views, review: reviewChecks ?? [], revision: inspection.revision };
    } finally {
      await inspection.close().catch(() => undefined);
    }
  }

  /**
   * Opens a preview of `uri`: connects (advertising MCP Apps), calls the View's tool with its sample arguments,
   * and registers the View with the sandbox through the inspector's routes. The connection stays open for the
   * View's own calls until `close`, or until the page that opened it (`page`) goes away.
   */
  async open(entry: ServerEntry, uri: string, page?: string): Promise<JsonObject> {
    const listing = await this.views(entry, undefined);
    const view = listing.views.find((item) => item.uri === uri);
    if (view === undefined) throw new PreviewError(404, `${entry.name} has no view ${uri}`);
    if (view.sample === undefined) throw new PreviewError(409, view.problem ?? `${uri} cannot be previewed`);
    const timeline = new Timeline();
    const inspection = await this.#connect(entry, timeline);
    try {
      const tools = ((await inspection.listAll('tools/list', 'tools'))['tools'] ?? []) as Json[];
      const tool = tools.find((item) => item['name'] === view.sample!.tool) ?? { name: view.sample.tool };
      let answer: JsonObject;
      try {
        answer = {
          result: await inspection.request('tools/call', {
            name: view.sample.tool,
            arguments: view.sample.arguments,
          }),
        };
      } catch (error) {
        answer = { error: { message: (error as Error).message } };
      }
      const opened = await this.routes.handle(
        'POST /api/apps/open',
        { uri, toolName: view.sample.tool },
        { inspection, timeline },
      );
      if (opened.status !== 200)
        throw new PreviewError(opened.status, String(opened.body['error'] ?? 'the view did not open'));
      const viewId = String(opened.body['viewId']);
      this.#previews.set(viewId, { server: entry.name, inspection, timeline, page });
      // A page that is not (or no longer) connected gets the grace period to connect, like one that left.
      if (page !== undefined && (this.#pages.get(page)?.streams ?? 0) === 0) this.#schedulePageGone(page);
      while (this.#previews.size > MAX_OPEN) await this.close(this.#previews.keys().next().value!);
      return {
        ...opened.body,
        tool,
        arguments: view.sample.arguments,
        argumentsSource: view.sample.source,
        answer,
      };
    } catch (error) {
      await inspection.close().catch(() => undefined);
      throw error;
    }
  }

  /** `/api/apps/request|record`: the View's calls and the page's message log, for an open preview only. */
  async forward(
    route: 'request' | 'record',
    body: JsonObject,
  ): Promise<{ status: number; body: JsonObject }> {
    const preview = this.#previews.get(String(body['viewId']));
    // The page records a View's last messages (its teardown) while it closes: those arrive after `close`, and
    // are dropped without an error. Requests of a closed View are refused.
    if (preview === undefined && route === 'record')
      return { status: 200, body: { dropped: 'the view is closed' } };
    if (preview === undefined)
      return { status: 404, body: { error: `no open view ${String(body['viewId'])}` } };
    return this.routes.handle(`POST /api/apps/${route}`, body, preview);
  }

  /** The View's messages so far (what the host and the View said, what the host refused). */
  timeline(viewId: string): JsonObject[] | undefined {
    const preview = this.#previews.get(viewId);
    return preview?.timeline.entries.filter((entry) => entry.kind === 'app') as JsonObject[] | undefined;
  }

  async close(viewId: string): Promise<void> {
    const preview = this.#previews.get(viewId);
    if (preview === undefined) return;
    this.#previews.delete(viewId);
    await this.routes.handle('POST /api/apps/close', { viewId }, preview);
    await preview.inspection.close().catch(() => undefined);
  }

  async stop(): Promise<void> {
    for (const state of this.#pages.values()) clearTimeout(state.timer);
    this.#pages.clear();
    for (const viewId of [...this.#previews.keys()]) await this.close(viewId);
    await this.sandbox.close();
  }
}

export class PreviewError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
