/**
 * HTTP rules: statuses, content types, session ids and the version header of legacy Streamable HTTP; the
 * mirrored request headers and their validation in 2026-07-28; the endpoint event of the 2024-11-05 HTTP+SSE
 * transport; Origin validation and SSE framing on all of them.
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence, httpRequestText, httpResponseText } from '../evidence.js';
import type { Evidence } from '../outcomes.js';
import { initializeRequest, LegacySession, modernRequest } from '../session.js';
import {
  encodeHeaderValue,
  HttpChannel,
  isObject,
  notification,
  requestIdsIn,
  sameId,
  SseChannel,
  type CallResult,
  type ExchangeResult,
  type HttpInfo,
  type JsonObject,
} from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { errorCode } from './expect.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';
import { xMcpHeaders } from './tools.js';

export const HTTP_CONTENT_TYPE = defineCheck(
  'http.response-content-type',
  'http',
  'A POSTed request is answered with Content-Type application/json or text/event-stream',
);
export const HTTP_NOTIFICATION_ACCEPTED = defineCheck(
  'http.notification-202',
  'http',
  'A POSTed notification is answered with 202 Accepted and no body',
  { facets: ['accepted', 'rejected'] },
);
export const HTTP_GET = defineCheck(
  'http.get-stream',
  'http',
  'GET on the MCP endpoint opens an event stream or answers 405 Method Not Allowed',
);
export const HTTP_GET_NO_RESPONSES = defineCheck(
  'http.get-no-responses',
  'http',
  'The GET stream carries no JSON-RPC responses',
);
export const HTTP_SESSION_ID = defineCheck(
  'http.session-id-charset',
  'http',
  'An Mcp-Session-Id holds only visible ASCII (0x21–0x7E)',
);
export const HTTP_SESSION_REQUIRED = defineCheck(
  'http.session-required',
  'http',
  'A server that assigned a session answers a request without Mcp-Session-Id with 400 Bad Request',
);
export const HTTP_SESSION_TERMINATED = defineCheck(
  'http.session-terminated',
  'http',
  'After the session is deleted (DELETE), requests carrying its id are answered with 404 Not Found',
);
export const HTTP_PROTOCOL_VERSION = defineCheck(
  'http.protocol-version-header',
  'http',
  'An invalid or unsupported MCP-Protocol-Version header is answered with 400 Bad Request',
);
export const HTTP_ORIGIN = defineCheck(
  'http.origin',
  'http',
  'A request with a foreign Origin is refused (403 Forbidden from 2025-11-25), on a server bound to loopback',
  { facets: ['validated', 'status-403'] },
);
export const HTTP_SSE_FRAMING = defineCheck(
  'http.sse-framing',
  'http',
  'Event streams are well-formed UTF-8 SSE whose message events hold JSON-RPC messages',
  { facets: ['framing', 'json', 'utf8'] },
);
export const HTTP_SSE_CLOSE = defineCheck(
  'http.sse-close',
  'http',
  'An SSE response stream ends once it has carried the response, and not before',
  { facets: ['after-response', 'early'] },
);
export const HTTP_EVENT_IDS = defineCheck(
  'http.sse-event-ids',
  'http',
  'SSE event ids, when present, are unique across the streams of a session',
);
export const HTTP_SSE_PRIMING = defineCheck(
  'http.sse-priming',
  'http',
  'An event stream opened for a request starts with an event holding an id and empty data (2025-11-25)',
);
export const HTTP_SSE_RESUMPTION = defineCheck(
  'http.sse-resumption',
  'http',
  'A stream closed before its response carried an event id and a retry field, and resuming it with Last-Event-ID delivers the response',
);
export const HTTP_HEADER_MISMATCH = defineCheck(
  'http.header-mismatch',
  'http',
  'A request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header disagrees with the body gets 400 and -32020',
  { facets: ['version', 'method', 'name'] },
);
export const HTTP_HEADER_MISSING = defineCheck(
  'http.header-missing',
  'http',
  'A request missing a required header (Mcp-Method, Mcp-Name, MCP-Protocol-Version) gets 400 and -32020',
);
export const HTTP_HEADER_BASE64 = defineCheck(
  'http.header-base64',
  'http',
  'A Base64-sentinel Mcp-Name is decoded before it is compared with the body',
);
export const HTTP_PARAM_HEADER = defineCheck(
  'http.param-header',
  'http',
  'Mcp-Param-* headers are validated against the body: mismatched, missing or malformed ones get 400 and -32020; absent or null values need no header',
  { facets: ['mismatch', 'omitted', 'invalid-chars', 'absent', 'null'] },
);
export const HTTP_MODERN_ERROR_STATUS = defineCheck(
  'http.error-status',
  'http',
  'Modern errors carry their HTTP status: -32022, -32602 and -32021 with 400, -32601 with 404',
  { facets: ['unsupported-version', 'method-not-found', 'missing-meta', 'missing-capability'] },
);
export const HTTP_NO_SESSIONS = defineCheck(
  'http.no-sessions',
  'http',
  'A 2026-07-28 server mints no Mcp-Session-Id and answers GET and DELETE with 405',
  { facets: ['get-delete', 'session-header'] },
);
export const HTTP_NO_REQUESTS_ON_STREAMS = defineCheck(
  'http.no-server-requests',
  'http',
  'Response streams carry no server-initiated JSON-RPC requests (2026-07-28)',
);
export const HTTP_ACCEL_BUFFERING = defineCheck(
  'http.sse-accel-buffering',
  'http',
  'Event-stream responses carry X-Accel-Buffering: no',
);
export const SSE_ENDPOINT = defineCheck(
  'sse.endpoint-event',
  'http',
  'The HTTP+SSE stream opens with an endpoint event naming the URI for POSTs',
);
export const SSE_MESSAGES = defineCheck(
  'sse.messages',
  'http',
  'POSTs to the endpoint are accepted, and the answers arrive as message events on the stream',
);

const FOREIGN_ORIGIN = 'http://validator-foreign-origin.invalid';
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

function exchangeEvidence(http: HttpInfo, label: string): Evidence {
  return { label, sent: httpRequestText(http), received: httpResponseText(http) };
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host === '::1' || host.startsWith('127.');
}

/** Checks that every exchange of the revision fed: framing, content types, event ids. */
function judgeExchanges(ctx: ProbeContext, channels: readonly HttpChannel[], modern: boolean): void {
  const exchanges: ExchangeResult[] = channels.flatMap((c) => c.exchanges);
  const framing = exchanges.flatMap((e) => e.sseProblems.map((p) => ({ e, p })));
  const badMessages = exchanges.flatMap((e) =>
    (e.http.events ?? [])
      .filter((ev) => ev.event === 'message' && ev.data !== '')
      .filter((ev) => {
        try {
          JSON.parse(ev.data);
          return false;
        } catch {
          return true;
        }
      })
      .map(() => e),
  );
  const streams = exchanges.filter((e) => e.http.contentType.startsWith('text/event-stream'));
  if (streams.length === 0) {
    ctx.notRun(HTTP_SSE_FRAMING, 'the server answered no request with an event stream');
    ctx.notApplicable(HTTP_SSE_CLOSE, 'the server answered no request with an event stream');
  } else {
    const problems = [
      ...framing.map(({ e, p }) => ({ e, p, facet: 'framing' })),
      ...badMessages.map((e) => ({ e, p: 'a message event whose data is not JSON', facet: 'json' })),
      ...streams
        .filter((e) => e.invalidUtf8 === true)
        .map((e) => ({ e, p: 'an event stream that is not valid UTF-8', facet: 'utf8' })),
    ];
    const problem = problems[0];
    ctx.expect(
      HTTP_SSE_FRAMING,
      problem === undefined,
      `${streams.length} event stream(s) well formed`,
      [...new Set(problems.map((x) => x.p))].join('; '),
      problem ? [exchangeEvidence(problem.e.http, 'event stream')] : [],
      problems.map((x) => x.facet),
    );
    // Before 2025-11-25 a stream must not end before its response; later revisions let the server close it
    // early and have the client resume (http.sse-resumption judges that).
    if (!modern && !factsOf(ctx.revision).http.streamMayCloseEarly) {
      // A request the validator cancelled is rightly left unanswered.
      const cancelled = exchanges.flatMap((e) => {
        try {
          const body = JSON.parse(e.http.requestBody ?? 'null') as unknown;
          return isObject(body) && body['method'] === 'notifications/cancelled' && isObject(body['params'])
            ? [body['params']['requestId']]
            : [];
        } catch {
          return [];
        }
      });
      const early = streams.filter((e) => {
        if (e.http.method !== 'POST' || e.ended !== true || e.http.requestBody === undefined) return false;
        const asked = requestIdsIn(e.http.requestBody).filter((id) => !cancelled.some((c) => sameId(c, id)));
        return (
          asked.length > 0 &&
          !e.messages.some(
            (r) =>
              isObject(r.message) &&
              !('method' in r.message) &&
              asked.some((id) => sameId(id, (r.message as JsonObject)['id'])),
          )
        );
      });
      if (early.length > 0) {
        ctx.fail(
          HTTP_SSE_CLOSE,
          `${early.length} event stream(s) ended before carrying the response`,
          [exchangeEvidence(early[0]!.http, 'event stream')],
          ['early'],
        );
      }
    }
  }
  if (factsOf(ctx.revision).http.primingEvent && !modern) {
    const postStreams = streams.filter((e) => e.http.method === 'POST');
    if (postStreams.length === 0)
      ctx.notRun(HTTP_SSE_PRIMING, 'the server answered no POST with an event stream');
    else {
      const unprimed = postStreams.filter((e) => {
        const first = e.http.events?.[0];
        return first === undefined || first.id === undefined || first.data !== '';
      });
      ctx.expect(
        HTTP_SSE_PRIMING,
        unprimed.length === 0,
        `${postStreams.length} event stream(s) primed with an id and empty data`,
        `${unprimed.length} event stream(s) do not start with an event id and empty data`,
        unprimed[0] ? [exchangeEvidence(unprimed[0].http, 'event stream')] : [],
      );
    }
  }
  if (!modern) {
    const resumptions = channels.flatMap((c) => c.resumptions);
    if (resumptions.length === 0)
      ctx.notApplicable(HTTP_SSE_RESUMPTION, 'the server closed no event stream before its response');
    for (const { stream, resumed } of resumptions) {
      const events = stream.http.events ?? [];
      const problems = [
        events.some((e) => e.retry !== undefined) ? '' : 'the closed stream sent no retry field',
        resumed.messages.some((r) => isObject(r.message) && !('method' in r.message))
          ? ''
          : `resuming with Last-Event-ID (HTTP ${resumed.http.status}) did not deliver the response`,
      ].filter(Boolean);
      ctx.expect(
        HTTP_SSE_RESUMPTION,
        problems.length === 0,
        'the response arrived on the resumed stream',
        problems.join('; '),
        [
          exchangeEvidence(stream.http, 'the stream closed early'),
          exchangeEvidence(resumed.http, 'GET with Last-Event-ID'),
        ],
      );
    }
  }
  const bySession = new Map<string, string[]>();
  for (const channel of channels) {
    for (const exchange of channel.exchanges) {
      const session = exchange.http.requestHeaders['mcp-session-id'] ?? '(none)';
      const ids = (exchange.http.events ?? [])
        .map((ev) => ev.id)
        .filter((id): id is string => id !== undefined && id !== '');
      bySession.set(session, [...(bySession.get(session) ?? []), ...ids]);
    }
  }
  const repeated = [...bySession.values()].flatMap((ids) => ids.filter((id, i) => ids.indexOf(id) !== i));
  const anyIds = [...bySession.values()].some((ids) => ids.length > 0);
  if (!anyIds) ctx.notApplicable(HTTP_EVENT_IDS, 'no SSE event carried an id');
  else
    ctx.expect(
      HTTP_EVENT_IDS,
      repeated.length === 0,
      'event ids unique within each session',
      `repeated event ids: ${brief([...new Set(repeated)])}`,
      [],
    );
  if (modern) {
    if (streams.length === 0) ctx.notRun(HTTP_ACCEL_BUFFERING, 'no event-stream response seen');
    else {
      const missing = streams.filter((e) => e.http.headers['x-accel-buffering']?.toLowerCase() !== 'no');
      ctx.expect(
        HTTP_ACCEL_BUFFERING,
        missing.length === 0,
        'X-Accel-Buffering: no on every event stream',
        `${missing.length} event stream(s) without X-Accel-Buffering: no`,
        missing[0] ? [exchangeEvidence(missing[0].http, 'event stream')] : [],
      );
    }
    const requests = exchanges
      .flatMap((e) => e.messages)
      .filter((r) => isObject(r.message) && typeof r.message['method'] === 'string' && 'id' in r.message);
    ctx.expect(
      HTTP_NO_REQUESTS_ON_STREAMS,
      requests.length === 0,
      'no server-initiated requests',
      `${requests.length} request(s) from the server: ${brief(requests.map((r) => (r.message as JsonObject)['method']))}`,
      [],
    );
  }
}

/**
 * Reads one answer to the end: an event-stream answer should end once the response is in. Waits up to two
 * seconds after the request for the stream to end.
 */
async function judgeStreamEnd(ctx: ProbeContext, channel: HttpChannel, message: JsonObject): Promise<void> {
  const exchange = await channel.exchange({
    body: JSON.stringify(message),
    headers: channel.headersFor(message),
    timeoutMs: 2000,
  });
  const evidence = [
    exchangeEvidence(exchange.http, `${String(message['method'])}, read to the end of its stream`),
  ];
  if (!exchange.http.contentType.toLowerCase().startsWith('text/event-stream')) {
    if (!ctx.recorded(HTTP_SSE_CLOSE))
      ctx.notApplicable(
        HTTP_SSE_CLOSE,
        `${String(message['method'])} was answered with ${exchange.http.contentType || 'no Content-Type'}, not an event stream`,
      );
    return;
  }
  const answered = exchange.messages.some(
    (r) => isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], message['id']),
  );
  if (!answered) {
    ctx.notRun(
      HTTP_SSE_CLOSE,
      `the stream carried no response to ${String(message['method'])} within 2 s`,
      evidence,
    );
    return;
  }
  ctx.expect(
    HTTP_SSE_CLOSE,
    exchange.ended === true,
    'the stream ended after the response',
    'the stream stayed open after the response (2 s)',
    evidence,
    ['after-response'],
  );
}

/** A copy of `args` with the value at `path` replaced (`undefined` removes it). */
function withValue(args: JsonObject, path: readonly string[], value: unknown): JsonObject {
  const copy = structuredClone(args);
  let cursor: JsonObject = copy;
  path.forEach((key, i) => {
    if (i < path.length - 1) {
      if (!isObject(cursor[key])) cursor[key] = {};
      cursor = cursor[key] as JsonObject;
    } else if (value === undefined) delete cursor[key];
    else cursor[key] = value;
  });
  return copy;
}

/** A POST with exactly these headers (the channel's defaults, overridden and trimmed). */
async function post(
  ctx: ProbeContext,
  channel: HttpChannel,
  message: JsonObject,
  headers: Record<string, string>,
  omit: string[] = [],
): Promise<CallResult> {
  const call = await channel.call(message, {
    timeoutMs: ctx.settings.requestTimeoutMs,
    headers,
    omitHeaders: omit,
  });
  ctx.schema.response(call, typeof message['method'] === 'string' ? message['method'] : undefined);
  return call;
}

function statusAndCode(call: CallResult, status: number, code: number): { ok: boolean; detail: string } {
  const got = call.http?.status;
  const gotCode = errorCode(call);
  const ok = got === status && gotCode === code;
  return {
    ok,
    detail: `HTTP ${got ?? 'none'} with ${gotCode === undefined ? 'no JSON-RPC error' : `error ${gotCode}`} (expected ${status} and ${code})`,
  };
}

export const httpLegacyProbe: Probe = {
  name: 'Streamable HTTP (sessions)',
  eras: ['legacy'],
  transports: ['streamable-http'],
  revisions: (revision) => factsOf(revision).httpTransport === 'streamable-http',
  checks: [
    HTTP_CONTENT_TYPE,
    HTTP_NOTIFICATION_ACCEPTED,
    HTTP_GET,
    HTTP_GET_NO_RESPONSES,
    HTTP_SESSION_ID,
    HTTP_SESSION_REQUIRED,
    HTTP_SESSION_TERMINATED,
    HTTP_PROTOCOL_VERSION,
    HTTP_ORIGIN,
    HTTP_SSE_FRAMING,
    HTTP_SSE_CLOSE,
    HTTP_SSE_PRIMING,
    HTTP_SSE_RESUMPTION,
    HTTP_EVENT_IDS,
  ],
  async run(ctx) {
    const channel = (await ctx.open()) as HttpChannel;
    const init = await channel.call(initializeRequest(channel, ctx.revision), {
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    const http = init.http!;
    const type = http.contentType.toLowerCase();
    ctx.expect(
      HTTP_CONTENT_TYPE,
      type.startsWith('application/json') || type.startsWith('text/event-stream'),
      `initialize answered with ${http.contentType}`,
      `initialize answered with Content-Type ${JSON.stringify(http.contentType)}`,
      [callEvidence(init, 'initialize')],
    );
    channel.negotiated(ctx.revision);
    const sessionId = channel.sessionId;
    const initialized = await channel.send(notification('notifications/initialized'));
    const ack = initialized.http!;
    ctx.expect(
      HTTP_NOTIFICATION_ACCEPTED,
      ack.status === 202 && ack.body.trim() === '',
      '202 with no body',
      `HTTP ${ack.status}${ack.body.trim() === '' ? '' : ` with a body: ${brief(ack.body)}`}`,
      [exchangeEvidence(ack, 'notifications/initialized')],
      [ack.status >= 300 && ack.status < 400 ? 'rejected' : 'accepted'],
    );
    await judgeStreamEnd(ctx, channel, { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' });
    if (sessionId === undefined) {
      ctx.notApplicable(HTTP_SESSION_ID, 'the server assigns no session id');
      ctx.notApplicable(HTTP_SESSION_REQUIRED, 'the server assigns no session id');
    } else {
      ctx.expect(
        HTTP_SESSION_ID,
        VISIBLE_ASCII.test(sessionId),
        'visible ASCII only',
        `session id ${JSON.stringify(sessionId)} has characters outside 0x21–0x7E`,
        [callEvidence(init, 'initialize')],
      );
      channel.sendSessionId = false;
      const without = await post(ctx, channel, { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' }, {});
      channel.sendSessionId = true;
      ctx.expect(
        HTTP_SESSION_REQUIRED,
        without.http?.status === 400,
        '400 without the session id',
        `HTTP ${without.http?.status ?? 'none'} for a request without Mcp-Session-Id`,
        [callEvidence(without, 'ping without Mcp-Session-Id')],
      );
    }

    const get = await channel.exchange({
      method: 'GET',
      headers: { ...channel.headersFor(undefined), accept: 'text/event-stream' },
      timeoutMs: 800,
    });
    const getType = get.http.headers['content-type'] ?? '';
    ctx.expect(
      HTTP_GET,
      get.http.status === 405 || (get.http.status === 200 && getType.startsWith('text/event-stream')),
      get.http.status === 405 ? '405 Method Not Allowed' : 'an event stream',
      `GET answered HTTP ${get.http.status} ${getType}`,
      [exchangeEvidence(get.http, 'GET on the MCP endpoint')],
    );
    if (get.http.status === 200 && !getType.startsWith('text/event-stream')) {
      ctx.notRun(
        HTTP_GET_NO_RESPONSES,
        `the GET answer is not an event stream (${getType || 'no Content-Type'}); http.get-stream reports it`,
      );
    } else if (get.http.status === 200) {
      const responses = get.messages.filter(
        (r) =>
          isObject(r.message) && !('method' in r.message) && ('result' in r.message || 'error' in r.message),
      );
      ctx.expect(
        HTTP_GET_NO_RESPONSES,
        responses.length === 0,
        'no responses on the GET stream',
        `responses on the GET stream: ${brief(responses.map((r) => r.text))}`,
        [exchangeEvidence(get.http, 'GET stream')],
      );
    } else {
      ctx.notApplicable(HTTP_GET_NO_RESPONSES, 'the server offers no GET stream');
    }

    if (factsOf(ctx.revision).http.protocolVersionHeader) {
      const wrong = await post(
        ctx,
        channel,
        { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' },
        { 'mcp-protocol-version': '1999-01-01' },
      );
      ctx.expect(
        HTTP_PROTOCOL_VERSION,
        wrong.http?.status === 400,
        '400 for MCP-Protocol-Version 1999-01-01',
        `HTTP ${wrong.http?.status ?? 'none'} for MCP-Protocol-Version 1999-01-01`,
        [callEvidence(wrong, 'ping with an unsupported MCP-Protocol-Version')],
      );
    } else {
      ctx.notApplicable(HTTP_PROTOCOL_VERSION, `${ctx.revision} has no MCP-Protocol-Version header`);
    }

    await judgeOrigin(
      ctx,
      async (headers) =>
        (await post(ctx, channel, { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' }, headers)).http!,
    );

    if (sessionId !== undefined) {
      const deleted = await channel.exchange({
        method: 'DELETE',
        headers: channel.headersFor(undefined),
        timeoutMs: ctx.settings.requestTimeoutMs,
      });
      if (deleted.http.status === 405)
        ctx.notApplicable(HTTP_SESSION_TERMINATED, 'the server does not let clients delete sessions (405)');
      else {
        const after = await post(ctx, channel, { jsonrpc: '2.0', id: channel.nextId(), method: 'ping' }, {});
        ctx.expect(
          HTTP_SESSION_TERMINATED,
          after.http?.status === 404,
          '404 after DELETE',
          `HTTP ${after.http?.status ?? 'none'} for the deleted session (DELETE answered ${deleted.http.status})`,
          [exchangeEvidence(deleted.http, 'DELETE'), callEvidence(after, 'ping in the deleted session')],
        );
      }
      channel.sessionId = undefined;
    } else {
      ctx.notApplicable(HTTP_SESSION_TERMINATED, 'the server assigns no session id');
    }
    judgeExchanges(
      ctx,
      ctx.state.channels.filter((c): c is HttpChannel => c instanceof HttpChannel),
      false,
    );
  },
};

async function judgeOrigin(
  ctx: ProbeContext,
  send: (headers: Record<string, string>) => Promise<HttpInfo>,
): Promise<void> {
  if (!isLoopback(ctx.target.label.split(' ')[0]!)) {
    ctx.notRun(HTTP_ORIGIN, 'the server is not on loopback: which origins it allows is its own policy');
    return;
  }
  const http = await send({ origin: FOREIGN_ORIGIN });
  const strict = factsOf(ctx.revision).http.foreignOrigin403;
  const refused = http.status >= 400 && http.status < 500;
  const ok = strict ? http.status === 403 : refused;
  ctx.expect(
    HTTP_ORIGIN,
    ok,
    `HTTP ${http.status} for Origin ${FOREIGN_ORIGIN}`,
    `HTTP ${http.status} for Origin ${FOREIGN_ORIGIN} (expected ${strict ? '403' : 'a refusal'})`,
    [exchangeEvidence(http, 'a request with a foreign Origin')],
    refused ? ['status-403'] : ['validated', ...(strict ? ['status-403'] : [])],
  );
}

export const httpModernProbe: Probe = {
  name: 'Streamable HTTP (2026-07-28)',
  eras: ['modern'],
  transports: ['streamable-http'],
  checks: [
    HTTP_CONTENT_TYPE,
    HTTP_NOTIFICATION_ACCEPTED,
    HTTP_HEADER_MISMATCH,
    HTTP_HEADER_MISSING,
    HTTP_HEADER_BASE64,
    HTTP_PARAM_HEADER,
    HTTP_MODERN_ERROR_STATUS,
    HTTP_NO_SESSIONS,
    HTTP_ORIGIN,
    HTTP_SSE_FRAMING,
    HTTP_SSE_CLOSE,
    HTTP_EVENT_IDS,
    HTTP_ACCEL_BUFFERING,
    HTTP_NO_REQUESTS_ON_STREAMS,
  ],
  async run(ctx) {
    const channel = (await ctx.open()) as HttpChannel;
    const rev = ctx.revision;
    const discover = () => modernRequest(channel, rev, 'server/discover');
    const ok = await post(ctx, channel, discover(), {});
    const type = ok.http?.contentType.toLowerCase() ?? '';
    ctx.expect(
      HTTP_CONTENT_TYPE,
      type.startsWith('application/json') || type.startsWith('text/event-stream'),
      `server/discover answered with ${type}`,
      `Content-Type ${JSON.stringify(type)}`,
      [callEvidence(ok, 'server/discover')],
    );
    const sessionHeader = ok.http?.headers['mcp-session-id'];

    const note = await channel.send(
      notification('notifications/cancelled', { requestId: 'validator-nothing-in-flight' }),
      {
        headers: { 'mcp-protocol-version': rev, 'mcp-method': 'notifications/cancelled' },
      },
    );
    const noteHttp = note.http!;
    ctx.expect(
      HTTP_NOTIFICATION_ACCEPTED,
      (noteHttp.status === 202 && noteHttp.body.trim() === '') ||
        (noteHttp.status >= 400 && noteHttp.status < 500),
      noteHttp.status === 202 ? '202 with no body' : `refused with HTTP ${noteHttp.status}`,
      `HTTP ${noteHttp.status}${noteHttp.body.trim() === '' ? '' : ` with a body: ${brief(noteHttp.body)}`} for a notification`,
      [exchangeEvidence(noteHttp, 'a POSTed notification')],
      [noteHttp.status >= 200 && noteHttp.status < 300 ? 'accepted' : 'rejected'],
    );

    const mismatches: { label: string; facet: string; call: Promise<CallResult> }[] = [
      {
        label: 'MCP-Protocol-Version 2025-11-25 with a 2026-07-28 body',
        facet: 'version',
        call: post(ctx, channel, discover(), { 'mcp-protocol-version': '2025-11-25' }),
      },
      {
        label: 'Mcp-Method tools/list on a server/discover body',
        facet: 'method',
        call: post(ctx, channel, discover(), { 'mcp-method': 'tools/list' }),
      },
      {
        label: 'Mcp-Name other-name on tools/call validator_header_probe',
        facet: 'name',
        call: post(
          ctx,
          channel,
          modernRequest(channel, rev, 'tools/call', { name: 'validator_header_probe', arguments: {} }),
          { 'mcp-name': 'other-name' },
        ),
      },
    ];
    for (const { label, facet, call } of mismatches) {
      const result = await call;
      const judgement = statusAndCode(result, 400, -32020);
      ctx.expect(
        HTTP_HEADER_MISMATCH,
        judgement.ok,
        `${label}: 400 / -32020`,
        `${label}: ${judgement.detail}`,
        [callEvidence(result, label)],
        [facet],
      );
    }
    const missing: { label: string; message: JsonObject; omit: string[] }[] = [
      { label: 'no Mcp-Method', message: discover(), omit: ['mcp-method'] },
      {
        label: 'no Mcp-Name on tools/call',
        message: modernRequest(channel, rev, 'tools/call', { name: 'validator_header_probe', arguments: {} }),
        omit: ['mcp-name'],
      },
    ];
    for (const { label, message, omit } of missing) {
      const result = await post(ctx, channel, message, {}, omit);
      const judgement = statusAndCode(result, 400, -32020);
      ctx.expect(
        HTTP_HEADER_MISSING,
        judgement.ok,
        `${label}: 400 / -32020`,
        `${label}: ${judgement.detail}`,
        [callEvidence(result, label)],
      );
    }
    const encodedName = 'validator_header_probe';
    const encoded = await post(
      ctx,
      channel,
      modernRequest(channel, rev, 'tools/call', { name: encodedName, arguments: {} }),
      {
        'mcp-name': `=?base64?${Buffer.from(encodedName).toString('base64')}?=`,
      },
    );
    ctx.expect(
      HTTP_HEADER_BASE64,
      errorCode(encoded) !== -32020 && encoded.response !== undefined,
      `decoded (answered ${errorCode(encoded) === undefined ? 'a result' : `error ${errorCode(encoded)}`}, not a header mismatch)`,
      encoded.response === undefined
        ? `no JSON-RPC answer (HTTP ${encoded.http?.status})`
        : 'a correctly Base64-encoded Mcp-Name was rejected as a header mismatch',
      [callEvidence(encoded, 'tools/call with a Base64-sentinel Mcp-Name')],
    );

    const annotatedTools = (ctx.inventory.tools ?? []).filter((t) =>
      xMcpHeaders(t['inputSchema']).some(
        (h) => typeof h.header === 'string' && h.reachable && h.type === 'string',
      ),
    );
    // A server that fails these checks runs the tool: only tools the validator may call are used.
    const tool = annotatedTools.find((t) => ctx.mayCall(t));
    if (annotatedTools.length === 0) {
      ctx.notApplicable(HTTP_PARAM_HEADER, 'no tool has a string parameter annotated with x-mcp-header');
    } else if (tool === undefined) {
      ctx.notRun(
        HTTP_PARAM_HEADER,
        `the tools with x-mcp-header parameters (${annotatedTools.map((t) => String(t['name'])).join(', ')}) are not read-only; use --call <tool> or --call-all`,
      );
    } else {
      const annotation = xMcpHeaders(tool['inputSchema']).find(
        (h) => typeof h.header === 'string' && h.reachable && h.type === 'string',
      )!;
      const args: JsonObject = {};
      let cursor = args;
      annotation.path.forEach((key, i) => {
        if (i === annotation.path.length - 1) cursor[key] = 'validator-value';
        else cursor = (cursor[key] = {}) as JsonObject;
      });
      const header = `mcp-param-${(annotation.header as string).toLowerCase()}`;
      const toolName = String(tool['name']);
      const message = (values: JsonObject = args) =>
        modernRequest(channel, rev, 'tools/call', { name: tool['name'], arguments: values });
      const mismatched = await post(ctx, channel, message(), {
        [header]: encodeHeaderValue('a-different-value'),
      });
      const judgeMismatch = statusAndCode(mismatched, 400, -32020);
      ctx.expect(
        HTTP_PARAM_HEADER,
        judgeMismatch.ok,
        `mismatched ${header}: 400 / -32020`,
        `mismatched ${header}: ${judgeMismatch.detail}`,
        [callEvidence(mismatched, `tools/call ${toolName} with a mismatched ${header}`)],
        ['mismatch'],
      );
      const omitted = await post(ctx, channel, message(), {}, [header]);
      const judgeOmitted = statusAndCode(omitted, 400, -32020);
      ctx.expect(
        HTTP_PARAM_HEADER,
        judgeOmitted.ok,
        `omitted ${header}: 400 / -32020`,
        `omitted ${header} while the body has the value: ${judgeOmitted.detail}`,
        [callEvidence(omitted, `tools/call ${toolName} without ${header}`)],
        ['omitted'],
      );
      // A raw (not Base64-encoded) non-ASCII value: outside the characters a header value may hold.
      const accented = withValue(args, annotation.path, 'caf\u00e9');
      const invalid = await post(ctx, channel, message(accented), { [header]: 'caf\u00e9' });
      const judgeInvalid = statusAndCode(invalid, 400, -32020);
      ctx.expect(
        HTTP_PARAM_HEADER,
        judgeInvalid.ok,
        `raw non-ASCII ${header}: 400 / -32020`,
        `raw non-ASCII ${header}: ${judgeInvalid.detail}`,
        [callEvidence(invalid, `tools/call ${toolName} with a raw non-ASCII ${header}`)],
        ['invalid-chars'],
      );
      // Without the parameter, or with null, the client sends no header and the server must not expect one.
      for (const [facet, values, label] of [
        ['absent', withValue(args, annotation.path, undefined), `the parameter left out, no ${header}`],
        ['null', withValue(args, annotation.path, null), `the parameter null, no ${header}`],
      ] as const) {
        const call = await post(ctx, channel, message(values), {}, [header]);
        const refused = errorCode(call) === -32020;
        ctx.expect(
          HTTP_PARAM_HEADER,
          call.response !== undefined && !refused,
          `${label}: answered ${errorCode(call) === undefined ? 'a result' : `error ${errorCode(call)}`} (not a header mismatch)`,
          `${label}: ${refused ? 'rejected as a header mismatch (-32020)' : `no JSON-RPC answer (HTTP ${call.http?.status ?? 'none'})`}`,
          [callEvidence(call, `tools/call ${toolName}, ${label}`)],
          [facet],
        );
      }
    }

    const statuses: {
      label: string;
      facet: string;
      message: JsonObject;
      headers: Record<string, string>;
      status: number;
      code: number;
    }[] = [
      {
        label: 'unsupported version 1999-01-01',
        facet: 'unsupported-version',
        message: modernRequest(channel, rev, 'server/discover', {}, { protocolVersion: '1999-01-01' }),
        headers: { 'mcp-protocol-version': '1999-01-01' },
        status: 400,
        code: -32022,
      },
      {
        label: 'unknown method',
        facet: 'method-not-found',
        message: modernRequest(channel, rev, 'validator/no-such-method'),
        headers: {},
        status: 404,
        code: -32601,
      },
      {
        label: 'no _meta',
        facet: 'missing-meta',
        message: { jsonrpc: '2.0', id: channel.nextId(), method: 'server/discover', params: {} },
        headers: { 'mcp-protocol-version': rev, 'mcp-method': 'server/discover' },
        status: 400,
        code: -32602,
      },
    ];
    for (const { label, facet, message, headers, status, code } of statuses) {
      const result = await post(ctx, channel, message, headers);
      const judgement = statusAndCode(result, status, code);
      ctx.expect(
        HTTP_MODERN_ERROR_STATUS,
        judgement.ok,
        `${label}: ${status} / ${code}`,
        `${label}: ${judgement.detail}`,
        [callEvidence(result, label)],
        [facet],
      );
    }
    const refused = ctx.state.toolCalls.filter((record) => errorCode(record.call) === -32021);
    for (const record of refused) {
      ctx.expect(
        HTTP_MODERN_ERROR_STATUS,
        record.call.http?.status === 400,
        '-32021 with 400',
        `-32021 with HTTP ${record.call.http?.status}`,
        [callEvidence(record.call)],
        ['missing-capability'],
      );
    }

    const get = await channel.exchange({
      method: 'GET',
      headers: { accept: 'text/event-stream', ...channel.headersFor(undefined) },
      timeoutMs: 800,
    });
    const del = await channel.exchange({
      method: 'DELETE',
      headers: channel.headersFor(undefined),
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    const withSession = await post(ctx, channel, discover(), {
      'mcp-session-id': 'validator-legacy-session',
    });
    const echoed = withSession.http?.headers['mcp-session-id'];
    const problems = [
      sessionHeader !== undefined
        ? { text: `minted Mcp-Session-Id ${JSON.stringify(sessionHeader)}`, facet: 'session-header' }
        : undefined,
      echoed !== undefined
        ? { text: `echoed Mcp-Session-Id ${JSON.stringify(echoed)}`, facet: 'session-header' }
        : undefined,
      get.http.status !== 405 ? { text: `GET answered ${get.http.status}`, facet: 'get-delete' } : undefined,
      del.http.status !== 405
        ? { text: `DELETE answered ${del.http.status}`, facet: 'get-delete' }
        : undefined,
      withSession.response === undefined || errorCode(withSession) !== undefined
        ? {
            text: `a request carrying Mcp-Session-Id was not served (HTTP ${withSession.http?.status})`,
            facet: 'session-header',
          }
        : undefined,
    ].filter((p) => p !== undefined);
    ctx.expect(
      HTTP_NO_SESSIONS,
      problems.length === 0,
      'no session ids; GET and DELETE answered 405',
      problems.map((p) => p.text).join('; '),
      [
        exchangeEvidence(get.http, 'GET'),
        exchangeEvidence(del.http, 'DELETE'),
        callEvidence(withSession, 'a request with an Mcp-Session-Id'),
      ],
      problems.map((p) => p.facet),
    );

    await judgeStreamEnd(ctx, channel, discover());
    await judgeOrigin(ctx, async (headers) => (await post(ctx, channel, discover(), headers)).http!);
    judgeExchanges(
      ctx,
      ctx.state.channels.filter((c): c is HttpChannel => c instanceof HttpChannel),
      true,
    );
  },
};

export const sseProbe: Probe = {
  name: 'HTTP+SSE',
  eras: ['legacy'],
  transports: ['sse'],
  checks: [SSE_ENDPOINT, SSE_MESSAGES, HTTP_ORIGIN],
  async run(ctx) {
    const channel = await ctx.open();
    if (!(channel instanceof SseChannel)) return;
    const evidence: Evidence = {
      label: 'GET (event stream)',
      sent: httpRequestText(channel.stream),
      received: `HTTP ${channel.stream.status} ${channel.stream.contentType}\n\n${channel.parser.raw.slice(0, 1000)}`,
    };
    const first = channel.events[0];
    ctx.expect(
      SSE_ENDPOINT,
      channel.endpoint !== undefined && first?.event === 'endpoint',
      `endpoint event: ${brief(channel.endpoint?.data)}`,
      channel.endpoint === undefined
        ? 'no endpoint event on the stream'
        : `the first event is ${brief(first?.event)}, not endpoint`,
      [evidence],
    );
    if (channel.endpoint === undefined) {
      ctx.notRun(SSE_MESSAGES, 'no endpoint to POST to');
      ctx.notRun(HTTP_ORIGIN, 'no endpoint to POST to');
      return;
    }
    const { session, call } = await LegacySession.open(channel, ctx.revision, {
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    const postRecord = channel.posts[0];
    ctx.expect(
      SSE_MESSAGES,
      session !== undefined &&
        postRecord !== undefined &&
        postRecord.status >= 200 &&
        postRecord.status < 300,
      `POST answered ${postRecord?.status}; the initialize result arrived on the stream`,
      session === undefined
        ? `initialize: ${call.response === undefined ? 'no message event answered it' : brief(call.responseText)}`
        : `POST answered ${postRecord?.status}`,
      [callEvidence(call, 'initialize over HTTP+SSE')],
    );
    if (!isLoopback(ctx.target.label.split(' ')[0]!)) {
      ctx.notRun(HTTP_ORIGIN, 'the server is not on loopback: which origins it allows is its own policy');
    } else {
      const refused = await channel.post(
        JSON.stringify({ jsonrpc: '2.0', id: 'origin-probe', method: 'ping' }),
        { origin: FOREIGN_ORIGIN },
      );
      ctx.expect(
        HTTP_ORIGIN,
        refused.status >= 400 && refused.status < 500,
        `HTTP ${refused.status} for a foreign Origin`,
        `HTTP ${refused.status} for Origin ${FOREIGN_ORIGIN}`,
        [
          {
            label: 'POST with a foreign Origin',
            sent: `POST ${channel.endpoint.url}\norigin: ${FOREIGN_ORIGIN}`,
            received: `HTTP ${refused.status}\n\n${refused.responseBody.slice(0, 500)}`,
          },
        ],
        ['validated'],
      );
    }
  },
};
