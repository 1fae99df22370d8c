/**
 * Progress and cancellation. Progress is judged on the notifications the tool calls produced (every call
 * carries a progress token); cancellation interrupts a tool that reports progress.
 */
import { brief, callEvidence, messagesEvidence } from '../evidence.js';
import { modernRequest } from '../session.js';
import { isObject, notification, resultOf, sameId, type JsonObject, type Received } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
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
      ...ctx.state.toolCalls.map((record) => record.call.startedAt + record.call.elapsedMs),
    );
    const wait = lastAnswer + LATE_PROGRESS_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const tokens = new Map<unknown, { id: unknown; done: boolean; last: number | undefined }>();
    for (const record of ctx.state.toolCalls)
      tokens.set(record.progressToken, { id: record.call.sent['id'], done: false, last: undefined });
    let seen = 0;
    // Tool calls go over the shared connection: the legacy session, or the modern channel.
    const shared = [ctx.state.session?.channel, ctx.state.modernChannel].filter((c) => c !== undefined);
    for (const channel of shared) {
      for (const received of channel.received) {
        const message = received.message;
        if (isObject(message) && !('method' in message)) {
          for (const state of tokens.values()) if (sameId(state.id, message['id'])) state.done = true;
          continue;
        }
        if (!isProgress(received)) continue;
        seen++;
        const params = paramsOf(received);
        const token = params['progressToken'];
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
    for (const check of [PROGRESS_TOKEN, PROGRESS_INCREASING, PROGRESS_STOPS]) {
      if (!ctx.recorded(check)) ctx.pass(check, `${seen} progress notification(s) judged`);
    }
  },
};

/** How long a tool must keep working after its first progress notification for the cancellation check. */
const CANCEL_WINDOW_MS = 250;

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

    // A tool that answers right behind its first progress notification cannot be cancelled in flight: any
    // answer would cross the cancellation, which the spec allows. Only a tool that kept working is a candidate.
    const withProgress = ctx.state.toolCalls.filter((record) => record.call.during.some(isProgress));
    const candidate = withProgress.find((record) => {
      const first = record.call.during.find(isProgress);
      const answeredAt = record.call.respondedAt;
      return first !== undefined && answeredAt !== undefined && answeredAt - first.at >= CANCEL_WINDOW_MS;
    });
    if (candidate === undefined) {
      ctx.notRun(
        CANCEL_STOPS,
        withProgress.length === 0
          ? 'no callable tool sends progress, so there is no moment to cancel a request in flight'
          : `every callable tool that sends progress answered within ${CANCEL_WINDOW_MS} ms of its first progress notification, too soon to cancel it in flight`,
      );
      return;
    }
    const name = String(candidate.tool['name']);
    const args = isObject(candidate.call.sent['params'])
      ? (candidate.call.sent['params'] as JsonObject)['arguments']
      : {};
    if (modernHttp) {
      ctx.notRun(CANCEL_STOPS, 'closing a response stream mid-request is not exercised on Streamable HTTP');
      return;
    }
    const channel = ctx.era === 'legacy' ? (await ctx.session())?.channel : await ctx.modernChannel();
    if (channel === undefined) return;
    const progressToken = 'validator-cancel-progress';
    const params = { name, arguments: args, _meta: { progressToken } };
    const message =
      ctx.era === 'legacy'
        ? { jsonrpc: '2.0', id: channel.nextId(), method: 'tools/call', params }
        : modernRequest(channel, ctx.revision, 'tools/call', params);
    let cancelledAt: number | undefined;
    let afterCancel: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      afterCancel = resolve;
    });
    const abandon = new AbortController();
    const pending = channel.call(message, {
      timeoutMs: Math.min(ctx.settings.requestTimeoutMs, 5000),
      noResume: true,
      signal: abandon.signal,
      onMessage: (received) => {
        if (
          cancelledAt === undefined &&
          isProgress(received) &&
          paramsOf(received)['progressToken'] === progressToken
        ) {
          cancelledAt = received.at;
          void channel.send(
            notification('notifications/cancelled', { requestId: message['id'], reason: 'validator probe' }),
          );
          // A response or more progress would come soon after: watching for a second is enough.
          setTimeout(afterCancel, 1000);
        }
      },
    });
    const call = await Promise.race([pending, settled.then(() => undefined)]);
    // The watch is over: stop waiting for an answer that should never come.
    abandon.abort();
    const received = channel.received.filter((r) => cancelledAt !== undefined && r.at > cancelledAt);
    const response =
      call?.response ??
      received
        .map((r) => r.message)
        .find((m) => isObject(m) && !('method' in m) && sameId(m['id'], message['id']));
    const afterCancel2 = received.filter(
      (r) =>
        cancelledAt !== undefined &&
        r.at > cancelledAt + 50 &&
        isProgress(r) &&
        paramsOf(r)['progressToken'] === progressToken,
    );
    const evidence = [
      call !== undefined
        ? callEvidence(call, `tools/call ${name}, cancelled after its first progress notification`)
        : {
            label: `tools/call ${name}, cancelled after its first progress notification`,
            sent: JSON.stringify(message),
            received: received.map((r) => r.text).join('\n') || '(nothing after the cancellation)',
          },
    ];
    if (cancelledAt === undefined) {
      ctx.notRun(CANCEL_STOPS, `${name} sent no progress this time, so it was not cancelled`, evidence);
    } else {
      ctx.expect(
        CANCEL_STOPS,
        response === undefined && afterCancel2.length === 0,
        'no response and no progress after the cancellation',
        response !== undefined
          ? 'the cancelled request was still answered'
          : `${afterCancel2.length} progress notification(s) after the cancellation`,
        evidence,
        [...(response !== undefined ? ['no-response'] : []), ...(afterCancel2.length > 0 ? ['stop'] : [])],
      );
    }
  },
};
