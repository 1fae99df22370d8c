/**
 * The backend half of the reference host: `/api/apps/*`.
 *
 * - `open {uri, toolName?}`: reads the View's resource (`resources/read`: "Host MUST use `resources/read` to fetch
 *   the referenced resource URI"), builds its policy from `_meta.ui` (content item over list entry) and registers
 *   a sandbox proxy document for it.
 * - `request {viewId, method, params}`: a View's MCP request, forwarded to the server after the host's checks —
 *   `tools/call` only for tools the server listed whose visibility includes `"app"` ("Host MUST reject
 *   `tools/call` requests from apps for tools that don't include `"app"` in visibility"; an unlisted tool is
 *   refused too: the host decides what a View may call, and it never saw that tool).
 * - `record {viewId, from, message}`: every postMessage the page saw, into the session timeline.
 * - `close {viewId}`: the View is gone; its proxy document is no longer served.
 */
import type { Inspection, JsonObject } from '../../core/connection.js';
import { serverErrorOf } from '../../core/connection.js';
import type { Timeline } from '../../core/timeline.js';
import { resourceUiMeta, toolVisibility, viewPolicy } from './csp.js';
import { APP_MIME_TYPE, APP_URI_SCHEME } from 'mcpengine/apps/protocol';
import { PROXY_SANDBOX, VIEW_SANDBOX } from './protocol.js';
import type { RunningSandbox } from './sandbox.js';

export interface AppsSession {
  readonly inspection: Inspection | undefined;
  readonly timeline: Timeline;
}

export interface AppsAnswer {
  readonly status: number;
  readonly body: JsonObject;
}

/** Methods a View may send that the host forwards to the server. */
const FORWARDED = new Set(['tools/call', 'resources/read', 'resources/list', 'resources/templates/list']);
const MAX_RECORD_CHARS = 64 * 1024;

export class AppsRoutes {
  readonly #views = new Map<string, { uri: string; toolName: string | undefined }>();

  constructor(readonly sandbox: RunningSandbox) {}

  async handle(route: string, body: JsonObject, session: AppsSession): Promise<AppsAnswer> {
    switch (route) {
      case 'POST /api/apps/open':
        return this.#open(body, session);
      case 'POST /api/apps/request':
        return this.#request(body, session);
      case 'POST /api/apps/record':
        return this.#record(body, session);
      case 'POST /api/apps/close': {
        const viewId = String(body['viewId']);
        if (this.#views.delete(viewId)) {
          this.sandbox.unregister(viewId);
          session.timeline.add({ kind: 'app', viewId, from: 'host', text: `view ${viewId} torn down` });
        }
        return { status: 200, body: {} };
      }
      default:
        return { status: 404, body: { error: `no such API: ${route}` } };
    }
  }

  async #open(body: JsonObject, session: AppsSession): Promise<AppsAnswer> {
    const inspection = session.inspection;
    if (inspection === undefined) return { status: 409, body: { error: 'not connected' } };
    const uri = body['uri'];
    if (typeof uri !== 'string' || !uri.startsWith(APP_URI_SCHEME))
      return { status: 400, body: { error: `an app resource URI must start with ${APP_URI_SCHEME}` } };
    let read: JsonObject;
    try {
      read = await inspection.request('resources/read', { uri });
    } catch (error) {
      const remote = serverErrorOf(error);
      return {
        status: 502,
        body: { error: `resources/read ${uri} failed: ${remote?.message ?? (error as Error).message}` },
      };
    }
    const contents = Array.isArray(read['contents']) ? (read['contents'] as JsonObject[]) : [];
    const content = contents.find((item) => item?.['uri'] === uri) ?? contents[0];
    if (content === undefined) return { status: 502, body: { error: `${uri} has no contents` } };
    const warnings: string[] = [];
    if (content['mimeType'] !== APP_MIME_TYPE)
      warnings.push(
        `the resource's mimeType is ${JSON.stringify(content['mimeType'])}, not ${APP_MIME_TYPE}`,
      );
    const html =
      typeof content['text'] === 'string'
        ? content['text']
        : typeof content['blob'] === 'string'
          ? Buffer.from(content['blob'], 'base64').toString('utf8')
          : undefined;
    if (html === undefined) return { status: 502, body: { error: `${uri} has neither text nor blob` } };
    // The list entry's _meta.ui counts too (the content item's wins); a server may not list UI-only resources.
    const listed = await inspection
      .listAll('resources/list', 'resources')
      .then((answer) => (answer['resources'] as JsonObject[]).find((item) => item?.['uri'] === uri))
      .catch(() => undefined);
    const ui = resourceUiMeta(listed, content);
    const policy = viewPolicy(ui);
    warnings.push(...policy.refused.map((reason) => `refused: ${reason}`));
    const { id, url } = this.sandbox.register({ header: policy.header, allow: policy.allow });
    const toolName = typeof body['toolName'] === 'string' ? body['toolName'] : undefined;
    this.#views.set(id, { uri, toolName });
    // "Audit Trail: Host SHOULD log CSP configurations for security review".
    session.timeline.add({
      kind: 'app',
      viewId: id,
      from: 'host',
      text: `view ${id} for ${uri}: CSP ${policy.header}${policy.allow === '' ? '' : `; allow ${policy.allow}`}${warnings.length === 0 ? '' : `; ${warnings.join('; ')}`}`,
      message: { uri, csp: policy.csp, permissions: policy.permissions, header: policy.header, warnings },
    });
    return {
      status: 200,
      body: {
        viewId: id,
        proxyUrl: url,
        sandboxOrigin: this.sandbox.origin,
        proxySandbox: PROXY_SANDBOX,
        viewSandbox: VIEW_SANDBOX,
        html,
        csp: { ...policy.csp },
        permissions: policy.permissions,
        allow: policy.allow,
        header: policy.header,
        prefersBorder: typeof ui['prefersBorder'] === 'boolean' ? ui['prefersBorder'] : null,
        warnings,
      },
    };
  }

  async #request(body: JsonObject, session: AppsSession): Promise<AppsAnswer> {
    const inspection = session.inspection;
    const viewId = String(body['viewId']);
    if (!this.#views.has(viewId)) return { status: 404, body: { error: `no open view ${viewId}` } };
    if (inspection === undefined) return { status: 409, body: { error: 'not connected' } };
    const method = String(body['method']);
    const params = (
      typeof body['params'] === 'object' && body['params'] !== null ? body['params'] : {}
    ) as JsonObject;
    if (!FORWARDED.has(method))
      return {
        status: 200,
        body: { error: { code: -32601, message: `the host does not forward ${method}` } },
      };
    if (method === 'tools/call') {
      // The host decides which tools a View may call: only tools the server listed, and only those whose
      // visibility includes "app". A tool the server never listed (or a list that cannot be had) is refused.
      const name = params['name'];
      let listFailure: string | undefined;
      const tools = await inspection
        .listAll('tools/list', 'tools')
        .then((answer) => answer['tools'] as JsonObject[])
        .catch((error: unknown) => {
          listFailure = serverErrorOf(error)?.message ?? (error as Error).message;
          return [] as JsonObject[];
        });
      const tool = tools.find((item) => item?.['name'] === name);
      const refusal =
        tool === undefined
          ? {
              code: -32602,
              reason:
                listFailure === undefined
                  ? 'the server never listed it'
                  : `the tool list could not be read (${listFailure})`,
              message: `tool ${JSON.stringify(name)} is not callable by apps: ${
                listFailure === undefined
                  ? 'the server did not list it'
                  : `the tool list could not be read (${listFailure})`
              }`,
            }
          : !toolVisibility(tool).includes('app')
            ? {
                code: -32000,
                reason: 'its visibility has no "app"',
                message: `tool ${JSON.stringify(name)} is not callable by apps: its _meta.ui.visibility does not include "app"`,
              }
            : undefined;
      if (refusal !== undefined) {
        session.timeline.add({
          kind: 'app',
          viewId,
          from: 'host',
          text: `refused tools/call ${String(name)} from view ${viewId}: ${refusal.reason}`,
        });
        return { status: 200, body: { error: { code: refusal.code, message: refusal.message } } };
      }
    }
    try {
      return { status: 200, body: { result: await inspection.request(method, params) } };
    } catch (error) {
      const remote = serverErrorOf(error);
      return {
        status: 200,
        body: { error: remote ?? { code: -32603, message: (error as Error).message } },
      };
    }
  }

  #record(body: JsonObject, session: AppsSession): AppsAnswer {
    const viewId = String(body['viewId']);
    const from = body['from'] === 'view' ? 'view' : body['from'] === 'sandbox' ? 'sandbox' : 'host';
    const message = body['message'];
    let text = JSON.stringify(message) ?? 'undefined';
    const summary =
      typeof message === 'object' && message !== null
        ? ((message as JsonObject)['method'] ?? `response ${JSON.stringify((message as JsonObject)['id'])}`)
        : 'not an object';
    if (text.length > MAX_RECORD_CHARS) text = `${text.slice(0, MAX_RECORD_CHARS)}… (${text.length} chars)`;
    session.timeline.add({
      kind: 'app',
      viewId,
      from,
      text: `${from === 'view' ? 'view → host' : from === 'sandbox' ? 'sandbox → host' : 'host → view'} ${String(summary)}`,
      message: text.length >= MAX_RECORD_CHARS ? text : message,
    });
    return { status: 200, body: {} };
  }
}
