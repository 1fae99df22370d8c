/**
 * Requests this side sends and awaits: id allocation, correlation, progress, timeouts and cancellation.
 * Shared by the client and by legacy server sessions (server→client requests).
 */
import { RemoteError, RequestAbortedError } from '../protocol/errors.js';
import { serializeNotification, serializeRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { MetaKey } from '../protocol/meta.js';
import type { JsonObject, ProgressParams, ProgressToken, RequestId } from '../protocol/types.js';
import type { Outbox } from './outbox.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` (or the transport's equivalent) and rejects the call. */
  signal?: AbortSignal;
  /** Time without an answer after which the request is cancelled. Default 60 s. */
  timeoutMs?: number;
  /** Restart the timeout whenever a progress notification arrives for this request. */
  resetTimeoutOnProgress?: boolean;
  /** Hard cap on the total time, whatever progress says. Default: 10 × timeoutMs. */
  maxTotalTimeoutMs?: number;
  /** Receives progress notifications; setting it attaches a progress token to the request. */
  onProgress?: (progress: Progress) => void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

interface Pending {
  id: RequestId;
  method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  progressToken?: ProgressToken;
  lastProgress: number;
  onProgress?: (progress: Progress) => void;
  timer?: ReturnType<typeof setTimeout>;
  deadline: number;
  timeoutMs: number;
  resetOnProgress: boolean;
  cleanup(): void;
}

export interface OutgoingRequestsOptions {
  /** How a cancellation is signalled to the peer. Default: a `notifications/cancelled` on the same outbox. */
  cancel?: (id: RequestId, reason: string, outbox: Outbox) => void;
  /** First id to hand out; ids are integers counting up from here. */
  firstId?: number;
}

export class OutgoingRequests {
  private nextId: number;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly byToken = new Map<ProgressToken, Pending>();
  private readonly cancelPeer: (id: RequestId, reason: string, outbox: Outbox) => void;
  private closedReason: string | undefined;

  constructor(options: OutgoingRequestsOptions = {}) {
    this.nextId = options.firstId ?? 1;
    this.cancelPeer =
      options.cancel ??
      ((id, reason, outbox) =>
        outbox.send(serializeNotification('notifications/cancelled', { requestId: id, reason })));
  }

  get size(): number {
    return this.pending.size;
  }

  /**
   * Sends a request on `outbox` and resolves with its result, or rejects with a RemoteError / RequestAbortedError.
   * `onId` learns the request's id before it is sent, for requests whose id names something (a subscription).
   */
  request(
    method: string,
    params: JsonObject | undefined,
    outbox: Outbox,
    options: RequestOptions = {},
    onId?: (id: RequestId) => void,
  ): Promise<JsonObject> {
    if (this.closedReason !== undefined) {
      return Promise.reject(new RequestAbortedError('closed', `Cannot send ${method}: ${this.closedReason}`));
    }
    const signal = options.signal;
    if (signal?.aborted) {
      return Promise.reject(
        new RequestAbortedError('cancelled', `${method} was cancelled before it was sent`),
      );
    }
    const id = this.nextId++;
    let wireParams = params;
    let progressToken: ProgressToken | undefined;
    if (options.onProgress) {
      progressToken = id;
      const meta = (params?._meta as JsonObject | undefined) ?? {};
      wireParams = { ...params, _meta: { ...meta, [MetaKey.progressToken]: progressToken } };
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const maxTotal = options.maxTotalTimeoutMs ?? (Number.isFinite(timeoutMs) ? timeoutMs * 10 : Infinity);

    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        const reason =
          signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason ?? 'cancelled');
        this.abandon(id, reason, outbox);
        reject(new RequestAbortedError('cancelled', `${method} was cancelled: ${reason}`));
      };
      const entry: Pending = {
        id,
        method,
        resolve,
        reject,
        lastProgress: -Infinity,
        deadline: Date.now() + maxTotal,
        timeoutMs,
        resetOnProgress: options.resetTimeoutOnProgress ?? false,
        cleanup: () => {
          if (entry.timer) clearTimeout(entry.timer);
          signal?.removeEventListener('abort', onAbort);
          this.pending.delete(id);
          if (progressToken !== undefined) this.byToken.delete(progressToken);
        },
      };
      if (progressToken !== undefined) entry.progressToken = progressToken;
      if (options.onProgress) entry.onProgress = options.onProgress;
      this.pending.set(id, entry);
      if (progressToken !== undefined) this.byToken.set(progressToken, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.arm(id, entry, outbox);
      onId?.(id);
      if (!outbox.send(serializeRequest(id, method, wireParams))) {
        entry.cleanup();
        reject(new RequestAbortedError('closed', `Cannot send ${method}: the connection is closed`));
      }
    });
  }

  private arm(id: RequestId, entry: Pending, outbox: Outbox): void {
    if (entry.timer) clearTimeout(entry.timer);
    // Long-lived requests (subscriptions/listen) pass Infinity: no timer at all.
    if (!Number.isFinite(entry.timeoutMs)) return;
    const wait = Math.max(0, Math.min(entry.timeoutMs, entry.deadline - Date.now()));
    entry.timer = setTimeout(() => {
      this.abandon(id, `timed out after ${entry.timeoutMs} ms`, outbox);
      entry.reject(
        new RequestAbortedError('timeout', `${entry.method} timed out after ${entry.timeoutMs} ms`),
      );
    }, wait);
    entry.timer.unref?.();
  }

  /** Gives up on a request: stop waiting and tell the peer. A response that still arrives is ignored. */
  private abandon(id: RequestId, reason: string, outbox: Outbox): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    entry.cleanup();
    this.cancelPeer(id, reason, outbox);
  }

  /** Routes a response to its request. Returns false for unknown ids (late or bogus responses are ignored). */
  settle(response: JsonRpcResponse): boolean {
    if (response.id === null) return false;
    const entry = this.pending.get(response.id);
    if (!entry) return false;
    entry.cleanup();
    if ('error' in response) entry.reject(new RemoteError(response.error));
    else entry.resolve(response.result);
    return true;
  }

  /** Fails one request with a local error (its transport reported it lost). Returns false for unknown ids. */
  fail(id: RequestId, error: Error): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.cleanup();
    entry.reject(error);
    return true;
  }

  /** Handles `notifications/progress`; progress must increase and only live tokens count. */
  progress(params: ProgressParams, outbox: Outbox): void {
    const entry = this.byToken.get(params.progressToken);
    if (!entry || !(params.progress > entry.lastProgress)) return;
    entry.lastProgress = params.progress;
    if (entry.resetOnProgress) this.arm(entry.id, entry, outbox);
    const update: Progress = { progress: params.progress };
    if (params.total !== undefined) update.total = params.total;
    if (params.message !== undefined) update.message = params.message;
    try {
      entry.onProgress?.(update);
    } catch {
      // A throwing progress callback must not break message processing.
    }
  }

  /** Rejects every pending request (connection closed). */
  closeAll(reason: string): void {
    this.closedReason = reason;
    for (const [, entry] of [...this.pending]) {
      entry.cleanup();
      entry.reject(new RequestAbortedError('closed', `${entry.method} failed: ${reason}`));
    }
  }
}
