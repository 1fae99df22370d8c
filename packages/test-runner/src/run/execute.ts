/**
 * Runs one action on a connection and observes what happens: the request through the engine's client, progress
 * and log notifications, the server's questions to the client, and the wire tap's new violations.
 */
import { globToRegExp } from '../format/glob.js';
import type { Action, JsonObject, TestCase } from '../model.js';
import type { Connection } from '../session/connection.js';
import { RemoteError, RequestAbortedError, type RequestSettings } from '../session/mcp-client.js';
import type { Observation } from './observation.js';

/** Resource-update notifications may trail the call that caused them; wait this long for the first. */
const UPDATE_WAIT_MS = 2_000;

function requestOf(action: Action): { method: string; params: JsonObject } {
  switch (action.kind) {
    case 'tool':
      return { method: 'tools/call', params: { name: action.name, arguments: action.arguments } };
    case 'resource':
      return { method: 'resources/read', params: { uri: action.uri } };
    case 'prompt':
      return { method: 'prompts/get', params: { name: action.name, arguments: action.arguments } };
    case 'complete':
      return {
        method: 'completion/complete',
        params: {
          ref: action.ref,
          argument: action.argument,
          ...(action.context === undefined ? {} : { context: action.context }),
        },
      };
    case 'list':
      return {
        method: `${action.list === 'resourceTemplates' ? 'resources/templates' : action.list}/list`,
        params: {},
      };
    case 'ping':
      return { method: 'ping', params: {} };
    case 'subscribe':
      return { method: 'resources/subscribe', params: { uri: action.uri } };
    case 'resource-glob':
      return { method: 'resources/list', params: {} };
  }
}

type Answer = Pick<Observation, 'result' | 'error' | 'failure'>;

async function answerOf(promise: Promise<JsonObject>): Promise<Answer> {
  try {
    return { result: await promise };
  } catch (error) {
    if (error instanceof RemoteError)
      return {
        error: {
          code: error.code,
          message: error.message,
          ...(error.data === undefined ? {} : { data: error.data }),
        },
      };
    if (error instanceof RequestAbortedError)
      return { failure: { kind: error.reason === 'timeout' ? 'timeout' : 'closed', message: error.message } };
    return { failure: { kind: 'local', message: (error as Error).message } };
  }
}

async function perform(
  connection: Connection,
  action: Action,
  settings: RequestSettings,
): Promise<Answer & { updates?: JsonObject[] }> {
  const session = connection.session;
  const { method, params } = requestOf(action);
  switch (action.kind) {
    case 'list':
      return answerOf(session.listAll(action.list, settings).then((items) => ({ [action.list]: items })));
    case 'resource-glob':
      return answerOf(
        session.listAll('resources', settings).then((resources) => {
          const pattern = globToRegExp(action.pattern);
          return {
            resources: resources.filter(
              (r) => pattern.test(String(r['uri'])) || pattern.test(String(r['name'])),
            ),
          };
        }),
      );
    case 'ping':
      if (session.era === 'modern') return answerOf(session.request('server/discover', {}, settings));
      return answerOf(session.request('ping', {}, settings));
    case 'subscribe': {
      const updates: JsonObject[] = [];
      let notify: () => void = () => {};
      const first = new Promise<void>((resolve) => (notify = resolve));
      let unsubscribe: (() => Promise<void>) | undefined;
      const subscribed = await answerOf(
        session
          .subscribe(
            action.uri,
            (update) => {
              updates.push(update);
              notify();
            },
            settings,
          )
          .then((off) => {
            unsubscribe = off;
            return {};
          }),
      );
      if (subscribed.result === undefined) return subscribed;
      let answer: Answer = { result: {} };
      if (action.then !== undefined) answer = await perform(connection, action.then, settings);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        first,
        new Promise<void>((r) => (timer = setTimeout(r, Math.min(UPDATE_WAIT_MS, settings.timeoutMs)))),
      ]);
      clearTimeout(timer);
      await unsubscribe?.();
      return { ...answer, updates };
    }
    default:
      return answerOf(session.request(method, params, settings));
  }
}

/**
 * The action, bounded: whatever the client waits for (a task's result, a subscription, a request whose own time
 * limit progress keeps extending), the test ends at its time limit plus a grace period, or when the run is
 * interrupted. Never a hung runner.
 */
async function bounded(
  work: Promise<Answer & { updates?: JsonObject[] }>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Answer & { updates?: JsonObject[] }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<Answer>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({ failure: { kind: 'timeout', message: `the test did not finish within ${timeoutMs} ms` } }),
      timeoutMs + DEADLINE_GRACE_MS,
    );
    onAbort = () => resolve({ failure: { kind: 'local', message: 'interrupted' } });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** Time the engine's own request timeout gets to fire first (it also cancels the request on the wire). */
const DEADLINE_GRACE_MS = 1_000;

export async function execute(
  connection: Connection,
  test: TestCase,
  timeoutMs: number,
  tool?: JsonObject,
  signal?: AbortSignal,
): Promise<Observation> {
  const started = Date.now();
  const violationsBefore = connection.tap.violations.length;
  const inboundBefore = connection.inbound.length;
  const askedBefore = connection.handlers.asked.length;
  const unansweredBefore = connection.handlers.unanswered.length;
  if (test.client !== undefined) connection.handlers.current = test.client;
  const progress: JsonObject[] = [];
  const settings: RequestSettings = {
    timeoutMs,
    ...(test.progress === true
      ? {
          onProgress: (p: { progress: number; total?: number; message?: string }) =>
            void progress.push({ ...p }),
        }
      : {}),
    ...(test.logLevel === undefined ? {} : { logLevel: test.logLevel }),
  };
  const run = async (): Promise<Answer & { updates?: JsonObject[] }> => {
    if (test.logLevel !== undefined && connection.session.era === 'legacy') {
      const set = await answerOf(connection.session.setLogLevel(test.logLevel, settings).then(() => ({})));
      if (set.result === undefined) return set;
    }
    return perform(connection, test.action, settings);
  };
  const answer = await bounded(run(), timeoutMs, signal);
  // Let notifications that trail the response (logs, list changes) arrive.
  await new Promise((r) => setImmediate(r));
  const notifications = connection.inbound.slice(inboundBefore);
  return {
    revision: connection.revision,
    request: requestOf(test.action),
    ...(answer.result === undefined ? {} : { result: answer.result }),
    ...(answer.error === undefined ? {} : { error: answer.error }),
    ...(answer.failure === undefined ? {} : { failure: answer.failure }),
    notifications,
    progress,
    logs: notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params ?? {}),
    asked: connection.handlers.asked.slice(askedBefore),
    unanswered: connection.handlers.unanswered.slice(unansweredBefore),
    updates: answer.updates ?? [],
    violations: connection.tap.violations.slice(violationsBefore),
    ...(tool === undefined ? {} : { tool }),
    elapsedMs: Date.now() - started,
  };
}
