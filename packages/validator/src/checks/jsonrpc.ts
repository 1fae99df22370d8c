/**
 * JSON-RPC envelopes and robustness: malformed JSON, invalid requests, unknown methods, requests posing as
 * notifications, duplicate ids and batches. Each probe runs on its own connection, so that a server that falls
 * over on bad input fails only the check that found it.
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence, rawEvidence } from '../evidence.js';
import { LegacySession, modernRequest } from '../session.js';
import {
  isObject,
  resultOf,
  sameId,
  type CallResult,
  type Channel,
  type JsonObject,
  type RawResult,
  type Received,
} from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { isError } from './expect.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const PARSE_ERROR = defineCheck(
  'jsonrpc.parse-error',
  'jsonrpc',
  'Invalid JSON is answered with -32700 (Parse error) and "id": null',
  { robustness: true },
);
export const INVALID_REQUEST = defineCheck(
  'jsonrpc.invalid-request',
  'jsonrpc',
  'A message that is not a valid request object is answered with -32600 (Invalid Request)',
  { robustness: true },
);
export const METHOD_NOT_FOUND = defineCheck(
  'jsonrpc.method-not-found',
  'jsonrpc',
  'An unknown method is answered with -32601 (Method not found) carrying the request id',
);
export const REQUEST_NAMED_NOTIFICATION = defineCheck(
  'jsonrpc.notification-with-id',
  'jsonrpc',
  'A message with an id is a request even when its method names a notification, and gets an error response with that id',
);
export const DUPLICATE_ID = defineCheck(
  'jsonrpc.duplicate-id',
  'jsonrpc',
  'Two in-flight requests with the same id each get exactly one response with that id, and the server keeps working',
);
export const BATCH = defineCheck(
  'jsonrpc.batch',
  'jsonrpc',
  'Batches are answered as the revision says: every request answered in 2025-03-26; elsewhere never with an array (revisions without batches prescribe no particular refusal)',
);
export const RECOVERS = defineCheck(
  'jsonrpc.recovers',
  'jsonrpc',
  'After malformed input the server still answers valid requests on the same connection',
);

/**
 * A connection ready for requests in the run's era (initialized for legacy revisions): the shared robustness
 * connection while the server keeps recovering, else a fresh one.
 */
async function readyChannel(ctx: ProbeContext): Promise<Channel | undefined> {
  const state = ctx.state;
  if (state.robust !== undefined && state.robust.alive()) return state.robust;
  const handoff = state.handoff;
  if (handoff !== undefined && !handoff.taken) {
    // Legacy revisions on stdio: the legacy handshake's connection, initialized, once that probe is over — but
    // not longer than a request's time limit (a server silent before initialize keeps the handshake waiting).
    handoff.taken = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ctx.settings.requestTimeoutMs);
    });
    const channel = await Promise.race([handoff.channel, late]);
    clearTimeout(timer);
    if (channel === 'late') {
      const closing = handoff.channel.then((c) => c?.close()).catch(() => undefined);
      state.closing.push(closing);
    } else if (channel !== undefined && channel.alive()) {
      state.robust = channel;
      return channel;
    } else if (channel !== undefined) state.closing.push(channel.close().catch(() => undefined));
  }
  const channel = await state.openChannel();
  state.robust = channel;
  if (ctx.era === 'modern') return channel;
  const { session } = await LegacySession.open(channel, ctx.revision, {
    timeoutMs: ctx.settings.requestTimeoutMs,
  });
  if (session !== undefined) return channel;
  retire(ctx);
  return undefined;
}

/** Drops the shared robustness connection (after the server failed to recover on it). */
function retire(ctx: ProbeContext): void {
  const channel = ctx.state.robust;
  ctx.state.robust = undefined;
  if (channel !== undefined) ctx.state.closing.push(channel.close().catch(() => undefined));
}

/** A harmless request that every server of the era answers. */
function probeRequest(ctx: ProbeContext, channel: Channel, id?: string | number): JsonObject {
  if (ctx.era === 'modern') {
    return modernRequest(channel, ctx.revision, 'server/discover', {}, id === undefined ? {} : { id });
  }
  return { jsonrpc: '2.0', id: id ?? channel.nextId(), method: 'ping' };
}

function probeMethod(ctx: ProbeContext): string {
  return ctx.era === 'modern' ? 'server/discover' : 'ping';
}

/** The request still works after something bad was sent. */
async function stillWorks(ctx: ProbeContext, channel: Channel, after: string): Promise<void> {
  const call = await channel.call(probeRequest(ctx, channel), { timeoutMs: ctx.settings.requestTimeoutMs });
  ctx.schema.response(call, probeMethod(ctx));
  const ok = resultOf(call) !== undefined;
  if (!ok) retire(ctx);
  ctx.expect(
    RECOVERS,
    ok,
    `still answers ${probeMethod(ctx)} after ${after}`,
    `after ${after}, ${probeMethod(ctx)} got ${call.response === undefined ? (channel.deathNote() ?? 'no response') : brief(call.response)}`,
    [callEvidence(call, `${probeMethod(ctx)} after ${after}`)],
  );
}

const isErrorResponse = (received: Received): boolean =>
  isObject(received.message) && 'error' in received.message;

/** A conforming server answers bad input at once: no need to wait the full request time limit for it. */
function quickTimeout(ctx: ProbeContext): number {
  return Math.min(ctx.settings.requestTimeoutMs, 3000);
}

/** The least time an answer still missing once the fence is answered is given (see fenced). */
const FENCE_GRACE_MS = 250;

/** How a fenced send ended without the awaited answer: the fence came back, and the grace after it ran out. */
interface Fence {
  readonly roundTripMs: number;
  readonly graceMs: number;
}

let fences = 0;

/**
 * Sends `text` and collects what arrives until `until` accepts a message. A server that stays silent would cost
 * the whole quick time limit (3 s, once per garbage input, per revision). A fence — a harmless request on the
 * same connection (session) — ends that wait early: once the fence is answered, the server has read the text and
 * is still serving, and an answer to the text still missing gets a grace of three fence round trips (at least
 * FENCE_GRACE_MS) before it counts as silence. The round trip measures how loaded the server and the machine
 * are, so the bound grows with the load.
 *
 * On stdio one ordered stream carries the text and every answer: the fence is written right behind the text.
 * Over HTTP the fence goes out once the server has answered the POST that carried the text: on HTTP+SSE (the
 * answers come on the event stream) when that POST got its 2xx; on Streamable HTTP when the response's headers
 * say that the answer comes as an event stream which is still open (a JSON body or an empty 202 ends the
 * exchange by itself, and needs no fence).
 */
async function fenced(
  ctx: ProbeContext,
  channel: Channel,
  text: string,
  until: (received: Received) => boolean,
): Promise<{ raw: RawResult; fence?: Fence }> {
  const timeoutMs = quickTimeout(ctx);
  const fenceId = `fence-${++fences}`;
  const isFence = (r: Received): boolean =>
    isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], fenceId);
  const stop = new AbortController();
  let fence: Fence | undefined;
  let fenceCall: Promise<CallResult> | undefined;
  const sendFence = (): void => {
    if (fenceCall !== undefined || stop.signal.aborted) return;
    fenceCall = channel.call(probeRequest(ctx, channel, fenceId), { timeoutMs, signal: stop.signal });
    void fenceCall.then(async (call) => {
      if (call.response === undefined || stop.signal.aborted) return;
      const graceMs = Math.max(FENCE_GRACE_MS, 3 * call.elapsedMs);
      await new Promise((resolve) => setTimeout(resolve, graceMs));
      fence = { roundTripMs: call.elapsedMs, graceMs };
      stop.abort();
    });
  };
  const pending = channel.raw(text, {
    timeoutMs,
    until: (r) => !isFence(r) && until(r),
    signal: stop.signal,
    ...(channel.kind === 'stdio'
      ? {}
      : {
          onSent: (response?: { readonly status: number; readonly contentType: string }) => {
            if (response === undefined || response.contentType.toLowerCase().startsWith('text/event-stream'))
              sendFence();
          },
        }),
  });
  // On stdio the text is written synchronously when raw starts, so the fence goes out right behind it.
  if (channel.kind === 'stdio') sendFence();
  const raw = await pending;
  const answered = raw.received.some((r) => !isFence(r) && until(r));
  // Answered: let the fence come back too, so that its answer does not stray into the next exchange.
  if (!answered) stop.abort();
  if (fenceCall !== undefined) ctx.schema.response(await fenceCall, probeMethod(ctx));
  return {
    raw: { ...raw, received: raw.received.filter((r) => !isFence(r)) },
    ...(answered || fence === undefined ? {} : { fence }),
  };
}

/** Why nothing came back for a raw text: the wait ran out, or the connection died. */
function silence(
  ctx: ProbeContext,
  channel: Channel,
  sent: { raw: RawResult; fence?: Fence },
  what: string,
): string {
  if (sent.fence !== undefined)
    return `no ${what}: a ${probeMethod(ctx)} sent ${channel.kind === 'stdio' ? 'right behind it' : 'on the same session once its POST was answered'} was answered (in ${sent.fence.roundTripMs} ms), and nothing more came within ${sent.fence.graceMs} ms`;
  return sent.raw.timedOut
    ? `no ${what} within ${quickTimeout(ctx)} ms`
    : (channel.deathNote() ?? `no ${what}`);
}

/**
 * Sends a text that is not a valid request and judges the error response it draws: `code`, with "id": null or,
 * when the request's id could be read (`id`), that id.
 */
async function sendInvalid(
  ctx: ProbeContext,
  channel: Channel,
  text: string,
  code: number,
  id?: string,
): Promise<{ raw: RawResult; problems: string[] }> {
  const sent = await fenced(ctx, channel, text, isErrorResponse);
  const { raw } = sent;
  const reply = raw.received.find(isErrorResponse);
  if (reply !== undefined) ctx.schema.raw(reply, undefined, text);
  const message = reply?.message as JsonObject | undefined;
  const error = isObject(message?.['error']) ? (message['error'] as JsonObject) : undefined;
  const problems: string[] = [];
  if (message === undefined) problems.push(silence(ctx, channel, sent, 'error response'));
  else {
    if (error?.['code'] !== code) problems.push(`error code ${brief(error?.['code'])}, expected ${code}`);
    if (message['id'] !== null && (id === undefined || message['id'] !== id)) {
      const expected = id === undefined ? 'null (the id could not be read)' : `${JSON.stringify(id)} or null`;
      problems.push(`"id" is ${brief(message['id'])}, expected ${expected}`);
    }
  }
  return { raw, problems };
}

export const parseErrorProbe: Probe = {
  lane: 'robustness',
  name: 'malformed JSON',
  eras: ['legacy', 'modern'],
  // The shared robustness connection, opened by the first of these probes (legacy revisions on stdio: handed
  // over by the legacy handshake).
  fresh: (state) => (state.handoff === undefined ? 1 : 0),
  checks: [PARSE_ERROR, RECOVERS],
  async run(ctx) {
    const channel = await readyChannel(ctx);
    if (channel === undefined) return ctx.notRun(PARSE_ERROR, 'initialize failed on a fresh connection');
    const text = '{"jsonrpc": "2.0", "id": 41, "method": "ping", "params": {';
    const { raw, problems } = await sendInvalid(ctx, channel, text, -32700);
    ctx.expect(PARSE_ERROR, problems.length === 0, '-32700 with "id": null', problems.join('; '), [
      rawEvidence(raw, 'a truncated JSON text'),
    ]);
    await stillWorks(ctx, channel, 'invalid JSON');
  },
};

export const invalidRequestProbe: Probe = {
  lane: 'robustness',
  name: 'invalid request objects',
  eras: ['legacy', 'modern'],
  checks: [INVALID_REQUEST, RECOVERS],
  async run(ctx) {
    const channel = await readyChannel(ctx);
    if (channel === undefined) return ctx.notRun(INVALID_REQUEST, 'initialize failed on a fresh connection');
    const cases: { label: string; text: string; id: string }[] = [
      { label: 'method is a number', text: '{"jsonrpc":"2.0","id":"bad-1","method":42}', id: 'bad-1' },
      { label: 'jsonrpc is "1.0"', text: '{"jsonrpc":"1.0","id":"bad-2","method":"ping"}', id: 'bad-2' },
    ];
    for (const { label, text, id } of cases) {
      const { raw, problems } = await sendInvalid(ctx, channel, text, -32600, id);
      ctx.expect(
        INVALID_REQUEST,
        problems.length === 0,
        `${label}: -32600`,
        `${label}: ${problems.join('; ')}`,
        [rawEvidence(raw, label)],
      );
    }
    await stillWorks(ctx, channel, 'invalid request objects');
  },
};

export const methodNotFoundProbe: Probe = {
  lane: 'robustness',
  name: 'unknown method',
  eras: ['legacy', 'modern'],
  checks: [METHOD_NOT_FOUND, REQUEST_NAMED_NOTIFICATION, RECOVERS],
  async run(ctx) {
    // On this lane's own connection: the shared one belongs to the shared lane, whose tool calls may flood or
    // kill the process while this request is in flight (a finding of theirs, not of the unknown method).
    const channel = await readyChannel(ctx);
    const method = 'validator/no-such-method';
    let unknown: CallResult;
    if (channel === undefined) unknown = await ctx.rpc(method, {});
    else if (ctx.era === 'modern') unknown = await ctx.modern(channel, method, {});
    else {
      unknown = await channel.call(
        { jsonrpc: '2.0', id: channel.nextId(), method, params: {} },
        { timeoutMs: ctx.settings.requestTimeoutMs },
      );
      ctx.schema.response(unknown, method);
    }
    const judgement = isError(unknown, -32601);
    const sameRequestId =
      unknown.response === undefined || sameId(unknown.response['id'], unknown.sent['id']);
    ctx.expect(
      METHOD_NOT_FOUND,
      judgement.ok && sameRequestId,
      judgement.detail,
      judgement.ok
        ? `the error carries id ${brief(unknown.response?.['id'])}, not the request's`
        : judgement.detail,
      [callEvidence(unknown, 'an unknown method')],
    );

    if (channel === undefined)
      return ctx.notRun(REQUEST_NAMED_NOTIFICATION, 'initialize failed on a fresh connection');
    const message: JsonObject =
      ctx.era === 'modern'
        ? modernRequest(channel, ctx.revision, 'notifications/cancelled', { requestId: 'nothing-in-flight' })
        : { jsonrpc: '2.0', id: channel.nextId(), method: 'notifications/initialized' };
    const call = await channel.call(message, { timeoutMs: ctx.settings.requestTimeoutMs });
    ctx.schema.response(call, undefined);
    const error = call.response?.['error'];
    ctx.expect(
      REQUEST_NAMED_NOTIFICATION,
      isObject(error),
      `answered with error ${brief(isObject(error) ? error['code'] : undefined)}`,
      call.response === undefined
        ? `no response: the request (it has an id) was treated as a notification`
        : `answered with a result ${brief(call.response['result'])}; no request method has this name`,
      [callEvidence(call, `${String(message['method'])} sent with an id`)],
    );
    await stillWorks(ctx, channel, 'a request named like a notification');
  },
};

export const duplicateIdProbe: Probe = {
  lane: 'robustness',
  name: 'duplicate request ids',
  eras: ['legacy', 'modern'],
  checks: [DUPLICATE_ID, RECOVERS],
  async run(ctx) {
    const channel = await readyChannel(ctx);
    if (channel === undefined) return ctx.notRun(DUPLICATE_ID, 'initialize failed on a fresh connection');
    const id = 'same-id';
    const first = probeRequest(ctx, channel, id);
    const second = probeRequest(ctx, channel, id);
    const text = `${JSON.stringify(first)}`;
    const responses: Received[] = [];
    const isOurs = (r: Received): boolean =>
      isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], id);
    // On stdio both go out before any answer; on HTTP they are two concurrent POSTs.
    const [a, b] = await Promise.all([
      channel.raw(text, { timeoutMs: ctx.settings.requestTimeoutMs, until: isOurs }),
      channel.raw(JSON.stringify(second), { timeoutMs: ctx.settings.requestTimeoutMs, until: isOurs }),
    ]);
    for (const received of [...a.received, ...b.received]) {
      if (isOurs(received) && !responses.includes(received)) responses.push(received);
    }
    if (channel.kind !== 'streamable-http') {
      // Both raws may have settled on the first response: collect a little longer for the second.
      const more = await channel.collect(300);
      for (const received of more)
        if (isOurs(received) && !responses.includes(received)) responses.push(received);
    }
    for (const response of responses) ctx.schema.raw(response, undefined, text);
    ctx.expect(
      DUPLICATE_ID,
      responses.length === 2,
      `two responses with id "${id}" (${responses.map((r) => ('error' in (r.message as JsonObject) ? 'error' : 'result')).join(', ')})`,
      `${responses.length} response(s) with id "${id}" for two requests${channel.deathNote() ? `; ${channel.deathNote()}` : ''}`,
      [rawEvidence({ ...a, received: responses }, 'two concurrent requests with the same id')],
    );
    await stillWorks(ctx, channel, 'duplicate ids');
  },
};

export const batchProbe: Probe = {
  lane: 'robustness',
  name: 'batches',
  eras: ['legacy', 'modern'],
  checks: [BATCH, RECOVERS],
  async run(ctx) {
    const channel = await readyChannel(ctx);
    if (channel === undefined) return ctx.notRun(BATCH, 'initialize failed on a fresh connection');
    const batch = [probeRequest(ctx, channel, 'batch-1'), probeRequest(ctx, channel, 'batch-2')];
    const text = JSON.stringify(batch);
    const isReply = (r: Received): boolean =>
      Array.isArray(r.message) || (isObject(r.message) && !('method' in r.message));
    const required = factsOf(ctx.revision).batching === 'required';
    // HTTP delivers the array's elements one by one (one SSE event each); stdio delivers the array.
    const elementsOf = (replies: readonly Received[]): unknown[] =>
      replies.flatMap((r) => (Array.isArray(r.message) ? (r.message as unknown[]) : [r.message]));
    const answeredIds = new Set<unknown>();
    // 2025-03-26: read until both requests are answered, not just the first event.
    const untilAnswered = (r: Received): boolean => {
      if (!isReply(r)) return false;
      for (const element of elementsOf([r])) if (isObject(element)) answeredIds.add(element['id']);
      return answeredIds.has('batch-1') && answeredIds.has('batch-2');
    };
    const sent = await fenced(ctx, channel, text, required ? untilAnswered : isReply);
    const { raw } = sent;
    const replies = raw.received.filter(isReply);
    const evidence = [rawEvidence(raw, 'a batch of two requests')];
    if (required) {
      // 2025-03-26, basic/index: "MCP implementations MUST support receiving JSON-RPC batches".
      const ids = elementsOf(replies)
        .filter(isObject)
        .filter((e) => isObject(e['result']))
        .map((e) => e['id']);
      const ok = ids.includes('batch-1') && ids.includes('batch-2');
      ctx.expect(
        BATCH,
        ok,
        'the batch was answered with a result for each request',
        replies.length === 0
          ? silence(ctx, channel, sent, 'answer to the batch')
          : `the answer does not hold a result for both requests: ${brief(replies.map((r) => r.text).join(' '))}`,
        evidence,
      );
      await stillWorks(ctx, channel, 'a batch');
      return;
    }
    // Revisions without batches (docs/validator/interpretations.md, "Batches"): 2025-06-18's changelog only
    // removes batching, and no sentence of 2025-06-18 or later says how a batch is refused. What the spec does
    // require is that the server writes only messages of the revision (an array is none) and keeps serving
    // (jsonrpc.recovers). So an error of any code, answers per element or silence are all acceptable here.
    const reply = replies[0];
    if (reply !== undefined && !Array.isArray(reply.message)) ctx.schema.raw(reply, undefined, text);
    const arrayAnswer = replies.find((r) => Array.isArray(r.message));
    ctx.expect(
      BATCH,
      arrayAnswer === undefined,
      reply === undefined
        ? `no answer to the batch (${ctx.revision} has no batches and prescribes no reply)`
        : `refused or answered without an array: ${brief(reply.text)}`,
      `answered with an array: ${ctx.revision} has no batches, so an array is not one of its messages`,
      evidence,
    );
    await stillWorks(ctx, channel, 'a batch');
  },
};
