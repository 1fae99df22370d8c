/**
 * Progress and cancellation. Progress is judged on the notifications the tool calls produced (every call
 * carries a progress token); cancellation interrupts a tool that reports progress.
 */
import { brief, callEvidence, clip, messagesEvidence } from '../evidence.js';
import {
  isObject,
  notification,
  resultOf,
  sameId,
  type CallOptions,
  type CallResult,
  type JsonObject,
  type Received,
} from '@mcpengine/wire';
import type { InPlaceCancellation, ProbeContext, ToolCallRecord } from './context.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const PROGRESS_TOKEN = defineCheck(
  'progress.token',
  'progress',
  'Progress notifications reference only the progress token of an active request',
);
export const PROGRESS_INCREASING = defineCheck(
  'progress.increasing',
  'progress',
  'The progress value increases with each notification for a token',
);
export const PROGRESS_STOPS = defineCheck(
  'progress.stops',
  'progress',
  'No progress notification arrives for a request after its response',
);
export const CANCEL_UNKNOWN = defineCheck(
  'cancellation.unknown-request',
  'cancellation',
  'A cancellation for an unknown request is ignored (no response, the server keeps working)',
);
export const CANCEL_STOPS = defineCheck(
  'cancellation.no-response',
  'cancellation',
  'A cancelled request gets no response and no further messages',
  { facets: ['no-response', 'stop'] },
);

function isProgress(received: Received): boolean {
  return isObject(received.message) && received.message['method'] === 'notifications/progress';
}

function paramsOf(received: Received): JsonObject {
  const message = received.message as JsonObject;
  return isObject(message['params']) ? message['params'] : {};
}

/** How long after the last tool call's answer progress notifications are still collected before judging. */
const LATE_PROGRESS_MS = 1000;

export const progressProbe: Probe = {
  name: 'progress',
  eras: ['legacy', 'modern'],
  checks: [PROGRESS_TOKEN, PROGRESS_INCREASING, PROGRESS_STOPS],
  async run(ctx) {
    // A progress notification sent just behind its response must still be seen: the shared lane can end a few
    // milliseconds after the last tool call (and a loaded machine delays the server's timers), so give the last
    // answer a moment before judging what arrived.
    const lastAnswer = Math.max(
      0,
      ...ctx.state.toolCalls
        .filter((record) => record.cancelled === undefined)
        .map((record) => record.call.startedAt + record.call.elapsedMs),
    );
    const wait = lastAnswer + LATE_PROGRESS_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const tokens = new Map<
      unknown,
      { id: unknown; done: boolean; last: number | undefined; values: number }
    >();
    for (const record of ctx.state.toolCalls)
      tokens.set(record.progressToken, {
        id: record.call.sent['id'],
        done: false,
        last: undefined,
        values: 0,
      });
    // A call cancelled in flight is judged here on what arrived before its cancellation; what came after belongs to
    // the cancellation check's bounded watch (taking it here would make the verdict depend on when this probe runs).
    const cancelledCall = ctx.state.toolCalls.find((record) => record.cancelled !== undefined);
    const beforeCancel = new Set(cancelledCall?.call.during ?? []);
    let seen = 0;
    // Tool calls go over the shared connection: the legacy session, or the modern channel.
    const shared = [ctx.state.session?.channel, ctx.state.modernChannel].filter((c) => c !== undefined);
    for (const channel of shared) {
      for (const received of channel.received) {
        const message = received.message;
        if (isObject(message) && !('method' in message)) {
          for (const [token, state] of tokens)
            if (sameId(state.id, message['id']) && token !== cancelledCall?.progressToken) state.done = true;
          continue;
        }
        if (!isProgress(received)) continue;
        const params = paramsOf(received);
        const token = params['progressToken'];
        if (
          cancelledCall !== undefined &&
          token === cancelledCall.progressToken &&
          !beforeCancel.has(received)
        )
          continue;
        seen++;
        const state = tokens.get(token);
        const evidence = [messagesEvidence([received], 'progress notification')];
        if (state === undefined) {
          ctx.fail(PROGRESS_TOKEN, `progress for token ${brief(token)}, which no request carried`, evidence);
          continue;
        }
        if (state.done)
          ctx.fail(PROGRESS_STOPS, `progress for ${brief(token)} after its request completed`, evidence);
        const value = params['progress'];
        if (typeof value === 'number') {
          if (state.last !== undefined && !(value > state.last)) {
            ctx.fail(
              PROGRESS_INCREASING,
              `progress for ${brief(token)} went from ${state.last} to ${value}`,
              evidence,
            );
          }
          state.last = value;
          state.values++;
        }
      }
    }
    if (seen === 0) {
      for (const check of [PROGRESS_TOKEN, PROGRESS_INCREASING, PROGRESS_STOPS]) {
        if (ctx.state.toolCalls.length === 0)
          ctx.notRun(check, 'no tool was called (use --call <tool> or --call-all)');
        else ctx.notApplicable(check, 'no called tool sent progress notifications');
      }
      return;
    }
    // A call cancelled in flight (`callTool`) leaves its first notifications only: when it was the only source, there
    // was nothing to compare and no completion to watch — not run, never a pass on no evidence.
    if (cancelledCall !== undefined) {
      const why = `${String(cancelledCall.tool['name'])} was cancelled mid-flight to test cancellation`;
      if (!ctx.recorded(PROGRESS_INCREASING) && ![...tokens.values()].some((state) => state.values >= 2))
        ctx.notRun(
          PROGRESS_INCREASING,
          `no request got two progress notifications to compare (${why}, after its first)`,
        );
      if (
        !ctx.recorded(PROGRESS_STOPS) &&
        ![...tokens.values()].some((state) => state.done && state.values > 0)
      )
        ctx.notRun(PROGRESS_STOPS, `no request that sent progress was answered (${why})`);
    }
    for (const check of [PROGRESS_TOKEN, PROGRESS_INCREASING, PROGRESS_STOPS]) {
      if (!ctx.recorded(check)) ctx.pass(check, `${seen} progress notification(s) judged`);
    }
  },
};

/** How long a tool must keep working after its first progress notification to be cancelled in flight. */
export const CANCEL_WINDOW_MS = 250;

/**
 * How long after the server has read a cancellation an answer or progress for the cancelled request is watched: at
 * least this, more for a tool that reports progress slowly (`callTool`), at most CANCEL_WATCH_MAX_MS.
 */
const CANCEL_WATCH_MS = 1000;
const CANCEL_WATCH_MAX_MS = 5000;

/**
 * Calls a tool on the shared connection, as `ctx.rpc` would. When `cancel` is set and the tool is still working
 * CANCEL_WINDOW_MS after its first progress notification, the call is cancelled in flight — it becomes the
 * cancellation check's case — instead of being waited for (a tool may take its time: server-everything's
 * long-running operation takes 10 s) and then called again only to be cancelled. Right behind the
 * cancellation goes a fence (`ping`, `server/discover` in 2026-07-28): an answer of the tool that arrives before
 * the fence's crossed the cancellation, which the spec allows; the call is then judged as any other.
 */
export async function callTool(
  ctx: ProbeContext,
  params: JsonObject,
  cancel: boolean,
  /** Cancel this long after the first progress notification; 0 for a tool already known to keep working. */
  cancelAfterMs = CANCEL_WINDOW_MS,
): Promise<{ call: CallResult; cancelled?: InPlaceCancellation }> {
  const { channel, message } = await ctx.prepare('tools/call', params);
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  const progressToken = meta['progressToken'];
  const startedAt = Date.now();
  const during: Received[] = [];
  const abandon = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let keptWorking: () => void = () => {};
  const trigger = new Promise<'cancel'>((resolve) => {
    keptWorking = () => resolve('cancel');
  });
  let firstProgressAt: number | undefined;
  // Mutable on purpose: the HTTP channel reads `noResume` when the stream ends, and a stream the server closes
  // because its request was cancelled must not be resumed (that is no polling to judge).
  const options: { -readonly [K in keyof CallOptions]: CallOptions[K] } = {
    timeoutMs: ctx.settings.requestTimeoutMs,
    progressExtendsToMs: ctx.settings.requestTimeoutMs * 3,
    signal: abandon.signal,
    onMessage: (received) => {
      during.push(received);
      if (
        cancel &&
        timer === undefined &&
        isProgress(received) &&
        paramsOf(received)['progressToken'] === progressToken
      ) {
        firstProgressAt = Date.now();
        timer = setTimeout(keptWorking, cancelAfterMs);
      }
    },
  };
  let cancelledInPlace = false;
  const pending = channel.call(message, options).then((call) => {
    clearTimeout(timer);
    // A call cancelled in place stays pending while the cancellation is watched: what arrives meanwhile belongs to
    // other probes (validated with their own requests), and its own messages up to the cancellation are below.
    if (!cancelledInPlace) ctx.schema.response(call, 'tools/call');
    return call;
  });
  const first = await Promise.race([pending, trigger]);
  if (first !== 'cancel') return { call: first };

  const at = Date.now();
  const before = [...during];
  options.noResume = true;
  // The watch covers twice the tool's pace (its first progress came this long after the call; consecutive ones
  // this far apart), so a tool that keeps working shows it whatever the machine's load; 1–5 s.
  const own = before.filter((r) => isProgress(r) && paramsOf(r)['progressToken'] === progressToken);
  const gaps = own.slice(1).map((r, i) => r.at - own[i]!.at);
  const pace = Math.max((firstProgressAt ?? at) - startedAt, ...gaps);
  const watchMs = Math.min(CANCEL_WATCH_MAX_MS, Math.max(CANCEL_WATCH_MS, 2 * pace));
  const cancellation = notification('notifications/cancelled', {
    requestId: message['id'],
    reason: 'validator probe',
  });
  const sentAt = channel.received.length;
  await channel.send(cancellation);
  const fence = await ctx.rpc(ctx.era === 'legacy' ? 'ping' : 'server/discover', {});
  const answered = indexOfResponse(channel.received, message['id']);
  const fenced = indexOfResponse(channel.received, fence.sent['id']);
  // An answer before the fence's may have been on its way before the server read the cancellation: an ordinary,
  // completed call. Not so for a tool known to keep working well past its first progress notification (cancelled
  // at once): an answer right behind the cancellation is one the cancellation caused.
  const crossed = cancelAfterMs > 0 ? fenced === -1 || answered < fenced : answered < sentAt;
  if (answered !== -1 && crossed) return { call: await pending };
  const snapshot: CallResult = {
    sent: message,
    sentText: JSON.stringify(message),
    during: before,
    startedAt,
    elapsedMs: at - startedAt,
  };
  cancelledInPlace = true;
  ctx.schema.response(snapshot, 'tools/call');
  return {
    call: snapshot,
    cancelled: {
      channel,
      notification: cancellation,
      at,
      fence,
      answersFrom: cancelAfterMs > 0 ? undefined : sentAt,
      watchMs,
      pending,
      stop: () => abandon.abort(),
    },
  };
}

/**
 * A tool that kept working CANCEL_WINDOW_MS after its first progress notification but whose answer crossed the
 * in-place cancellation (a machine slow enough to delay the validator's timer): it is called once more and
 * cancelled at its first progress notification, as the tool is known to keep working past it.
 */
async function cancelAgain(ctx: ProbeContext): Promise<ToolCallRecord | undefined> {
  const candidate = ctx.state.toolCalls.find((record) => {
    const first = record.call.during.find(isProgress);
    const answeredAt = record.call.respondedAt;
    return first !== undefined && answeredAt !== undefined && answeredAt - first.at >= CANCEL_WINDOW_MS;
  });
  if (candidate === undefined) return undefined;
  const params = candidate.call.sent['params'];
  const progressToken = 'validator-cancel-progress';
  const { call, cancelled } = await callTool(
    ctx,
    {
      name: candidate.tool['name'],
      arguments: isObject(params) ? params['arguments'] : {},
      _meta: { progressToken },
    },
    true,
    0,
  );
  return cancelled === undefined ? undefined : { tool: candidate.tool, call, progressToken, cancelled };
}

function indexOfResponse(received: readonly Received[], id: unknown): number {
  return received.findIndex(
    (r) => isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], id),
  );
}

export const cancellationProbe: Probe = {
  name: 'cancellation',
  eras: ['legacy', 'modern'],
  checks: [CANCEL_UNKNOWN, CANCEL_STOPS],
  async run(ctx: ProbeContext) {
    const modernHttp = ctx.era === 'modern' && ctx.target.kind !== 'stdio';
    if (modernHttp) {
      const reason =
        'on Streamable HTTP (2026-07-28) a request is cancelled by closing its stream, not by a notification';
      ctx.notApplicable(CANCEL_UNKNOWN, reason);
    } else {
      const channel = ctx.era === 'legacy' ? (await ctx.session())?.channel : await ctx.modernChannel();
      if (channel === undefined) return;
      await channel.send(
        notification('notifications/cancelled', {
          requestId: 'validator-unknown-request',
          reason: 'validator probe',
        }),
      );
      const after = await ctx.rpc(ctx.era === 'legacy' ? 'ping' : 'server/discover', {});
      const stray = after.during.filter(
        (r) => isObject(r.message) && 'error' in r.message && !channel.sentIds.has(r.message['id']),
      );
      ctx.expect(
        CANCEL_UNKNOWN,
        stray.length === 0 && resultOf(after) !== undefined,
        'ignored; the next request was answered',
        stray.length > 0
          ? `the cancellation was answered: ${brief(stray[0]!.text)}`
          : `the next request got no result`,
        [callEvidence(after, 'a request after cancelling an unknown request id')],
      );
    }

    // The tools probe cancelled a tool in flight when one kept working CANCEL_WINDOW_MS after its first progress
    // notification (`callTool`). A tool that answers right behind its first progress notification cannot be
    // cancelled in flight: any answer would cross the cancellation, which the spec allows.
    let record = ctx.state.toolCalls.find((r) => r.cancelled !== undefined);
    if (record === undefined && !modernHttp) record = await cancelAgain(ctx);
    if (record === undefined || record.cancelled === undefined) {
      const withProgress = ctx.state.toolCalls.filter((r) => r.call.during.some(isProgress));
      ctx.notRun(
        CANCEL_STOPS,
        modernHttp && withProgress.length > 0
          ? 'closing a response stream mid-request is not exercised on Streamable HTTP'
          : withProgress.length === 0
            ? 'no callable tool sends progress, so there is no moment to cancel a request in flight'
            : `every callable tool that sends progress answered within ${CANCEL_WINDOW_MS} ms of its first progress notification (or as the cancellation was sent), too soon to cancel it in flight`,
      );
      return;
    }
    const { channel, fence, notification: sent } = record.cancelled;
    const name = String(record.tool['name']);
    const label = `tools/call ${name}, cancelled in flight (it keeps working ${CANCEL_WINDOW_MS} ms after its first progress notification)`;
    const fenceIndex = indexOfResponse(channel.received, fence.sent['id']);
    if (fenceIndex === -1) {
      record.cancelled.stop();
      ctx.notRun(
        CANCEL_STOPS,
        `the ${String(fence.sent['method'])} sent right behind the cancellation of ${name} was not answered, so what came after the cancellation cannot be told from what crossed it`,
        [callEvidence(fence, `${String(fence.sent['method'])} sent right behind the cancellation`)],
      );
      return;
    }
    // Watch a bounded window from the moment the server had read the cancellation (its answer to the fence);
    // the shared lane usually spent much of it on other probes already. Anything for the request ends it early.
    const { watchMs } = record.cancelled;
    const fenceAt = channel.received[fenceIndex]!.at;
    const requestId = record.call.sent['id'];
    const isAnswer = (r: Received): boolean =>
      isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], requestId);
    const isOwnProgress = (r: Received): boolean =>
      isProgress(r) && paramsOf(r)['progressToken'] === record.progressToken;
    const answersFrom = record.cancelled.answersFrom ?? fenceIndex + 1;
    const watched = (): Received[] =>
      channel.received.filter(
        (r, index) =>
          r.at <= fenceAt + watchMs &&
          ((index >= answersFrom && isAnswer(r)) || (index > fenceIndex && isOwnProgress(r))),
      );
    const end = fence.startedAt + fence.elapsedMs + watchMs;
    while (Date.now() < end && watched().length === 0)
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, end - Date.now())));
    record.cancelled.stop();
    await record.cancelled.pending;
    const after = watched();
    const response = after.find(isAnswer);
    const progress = after.filter(isOwnProgress);
    const evidence = [
      {
        label,
        sent: clip(`${record.call.sentText}\n${JSON.stringify(sent)}`),
        received: clip(
          [
            ...record.call.during.filter(isOwnProgress).map((r) => r.text),
            '(the cancellation was sent here)',
            ...after.map((r) => r.text),
          ].join('\n'),
        ),
        note: `the ${String(fence.sent['method'])} sent right behind the cancellation was answered in ${fence.elapsedMs} ms; what followed was watched for up to ${watchMs} ms`,
      },
    ];
    ctx.expect(
      CANCEL_STOPS,
      response === undefined && progress.length === 0,
      'no response and no progress after the cancellation',
      response !== undefined
        ? 'the cancelled request was still answered'
        : `${progress.length} progress notification(s) after the cancellation`,
      evidence,
      [...(response !== undefined ? ['no-response'] : []), ...(progress.length > 0 ? ['stop'] : [])],
    );
  },
};
