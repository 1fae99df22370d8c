/**
 * The message log view (an MCP App, `io.modelcontextprotocol/ui`): list_messages is linked to
 * `ui://twilio/message-log.html`, a table of messages (status, direction, from, to, date) with filters, built
 * from view/ into one HTML document (dist/view/message-log.html, no CDN). The view pages and filters through the
 * app-only `message_log_page` tool (visibility `["app"]`: hosts never give it to their model, clients without
 * Apps neither list nor call it), which calls the same List Message operation as list_messages.
 */
import { readFile } from 'node:fs/promises';
import { apps } from 'mcpengine/apps';
import type { CallToolResult } from 'mcpengine/protocol';
import type { JsonSchema } from 'mcpengine/schema';
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import type { OperationTool } from '../runtime/model.js';

export const MESSAGE_LOG_URI = 'ui://twilio/message-log.html';
export const PAGE_TOOL = 'message_log_page';
/** The same file from src/custom/ (tests on sources) and from dist/custom/ (the built server). */
const VIEW_FILE = new URL('../../dist/view/message-log.html', import.meta.url);

/** Query parameters of a Twilio page URI the view may carry over (filters and the page cursor). */
const PAGE_PARAMS = ['To', 'From', 'DateSent', 'DateSent<', 'DateSent>', 'PageSize', 'Page', 'PageToken'];

export interface PageRequest {
  readonly pageUri?: string;
  readonly To?: string;
  readonly From?: string;
  readonly DateSent?: string;
  readonly DateSentBefore?: string;
  readonly DateSentAfter?: string;
  readonly PageSize?: number;
}

/**
 * The list_messages arguments for a page request. A `pageUri` (Twilio's next_page_uri or previous_page_uri) must
 * be the path of this account's message list, relative or on the API's own origin: its filters and page cursor
 * are kept, anything else in it is ignored, and any other URI is refused (the view cannot make the server fetch
 * an arbitrary URL). Without one, the first page for the filters given.
 */
export function pageArguments(
  request: PageRequest,
  tool: Pick<OperationTool, 'path' | 'params' | 'server'>,
): { args: Record<string, unknown> } | { error: string } {
  if (request.pageUri === undefined) {
    const args: Record<string, unknown> = {};
    const filters: [keyof PageRequest, string][] = [
      ['To', 'To'],
      ['From', 'From'],
      ['DateSent', 'DateSent'],
      ['DateSentBefore', 'DateSent<'],
      ['DateSentAfter', 'DateSent>'],
      ['PageSize', 'PageSize'],
    ];
    for (const [field, name] of filters) {
      const value = request[field];
      if (value === undefined || value === '') continue;
      const param = tool.params.find((p) => p.in === 'query' && p.name === name);
      if (param !== undefined) args[param.arg] = value;
    }
    return { args };
  }
  const origin = tool.server === undefined ? undefined : new URL(tool.server).origin;
  let url: URL;
  try {
    url = new URL(request.pageUri, origin ?? 'https://api.twilio.com');
  } catch {
    return { error: `not a page of this message log: ${request.pageUri}` };
  }
  const relative = request.pageUri.startsWith('/') && !request.pageUri.startsWith('//');
  if ((!relative && url.origin !== origin) || url.pathname !== tool.path)
    return { error: `not a page of this message log: ${request.pageUri}` };
  const args: Record<string, unknown> = {};
  for (const name of PAGE_PARAMS) {
    const value = url.searchParams.get(name);
    const param = tool.params.find((p) => p.in === 'query' && p.name === name);
    if (value === null || value === '' || param === undefined) continue;
    args[param.arg] = name === 'PageSize' || name === 'Page' ? Number(value) : value;
  }
  return { args };
}

let cached: Promise<string> | undefined;
function messageLogView(): Promise<string> {
  cached ??= readFile(VIEW_FILE, 'utf8').catch((error: unknown) => {
    cached = undefined;
    throw new Error(`The message log view is not built (${VIEW_FILE.pathname}): run npm run build`, {
      cause: error,
    });
  });
  return cached;
}

const E164 = { type: 'string', maxLength: 64, description: 'A phone number in E.164 form.' } as const;
const DAY = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

/** Registers the view, list_messages linked to it (from the curated operation) and the app-only pager. */
export function registerMessageLog(server: McpServer, caller: OperationCaller, list: OperationTool): void {
  const app = apps(server);
  app.resource({
    uri: MESSAGE_LOG_URI,
    name: 'Message log',
    description:
      'The messages of the account as a table (status, direction, from, to, date), filtered and paged in the ' +
      'view; opened under list_messages.',
    html: messageLogView,
    prefersBorder: true,
  });
  app.tool({
    name: list.name,
    ...(list.title === undefined ? {} : { title: list.title }),
    description: list.description,
    inputSchema: list.inputSchema as JsonSchema,
    ...(list.outputSchema === undefined ? {} : { outputSchema: list.outputSchema as JsonSchema }),
    annotations: { ...list.annotations },
    execution: { taskSupport: 'optional' },
    ui: { resourceUri: MESSAGE_LOG_URI },
    handler: (args, ctx) =>
      caller.call(list, args, ctx.signal, (done, total, message) => ctx.progress(done, total, message)),
  });
  app.tool<PageRequest>({
    name: PAGE_TOOL,
    title: 'Load a page of the message log',
    description:
      'Called by the message log view: the first page of messages for the filters given, or the page a ' +
      'next_page_uri / previous_page_uri of the last answer names.',
    inputSchema: {
      type: 'object',
      properties: {
        pageUri: {
          type: 'string',
          maxLength: 2048,
          description: 'next_page_uri or previous_page_uri of a message list answer.',
        },
        To: E164,
        From: E164,
        DateSent: DAY,
        DateSentBefore: DAY,
        DateSentAfter: DAY,
        PageSize: { type: 'integer', minimum: 1, maximum: 1000 },
      },
      additionalProperties: false,
    },
    ...(list.outputSchema === undefined ? {} : { outputSchema: list.outputSchema as JsonSchema }),
    annotations: {
      title: 'Load a page of the message log',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    ui: { resourceUri: MESSAGE_LOG_URI, visibility: ['app'] },
    handler: async (request, ctx): Promise<CallToolResult> => {
      const page = pageArguments(request, list);
      if ('error' in page) return { content: [{ type: 'text', text: page.error }], isError: true };
      return caller.call(list, page.args, ctx.signal);
    },
  });
}
