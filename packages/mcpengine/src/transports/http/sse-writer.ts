/**
 * One Server-Sent Events connection: the body of an HTTP response, as a web `ReadableStream`.
 *
 * Writes never block the protocol core (an `Outbox` is synchronous). A reader that falls behind lets the queue
 * grow up to `maxBufferedBytes`; beyond that the connection is dropped rather than buffering without bound
 * (events of resumable streams stay in the event store and can be replayed after a reconnect).
 */

const encoder = new TextEncoder();

/** Why a connection ended: closed by the server, cancelled by the reader (client gone), or a reader too slow. */
export type SseCloseReason = 'closed' | 'cancelled' | 'overflow';

/** Formats one SSE event. JSON text never contains raw newlines, but other data is split into `data:` lines. */
export function formatSseEvent(data: string, id?: string, event?: string): string {
  let out = '';
  if (event !== undefined) out += `event: ${event}\n`;
  if (id !== undefined) out += `id: ${id}\n`;
  if (data.includes('\n') || data.includes('\r')) {
    for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  } else {
    out += `data: ${data}\n`;
  }
  return `${out}\n`;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Tells reverse proxies (nginx) not to buffer the stream.
  'x-accel-buffering': 'no',
};

export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  /** Milliseconds since the epoch of the last write, for keep-alive comments. */
  lastWriteAt = Date.now();
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private ended = false;
  private listeners: ((reason: SseCloseReason) => void)[] = [];

  constructor(private readonly maxBufferedBytes: number) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.end('cancelled'),
      },
      { highWaterMark: 16 * 1024, size: (chunk) => chunk.byteLength },
    );
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Runs once when the connection ends, whatever the reason. */
  onClose(listener: (reason: SseCloseReason) => void): void {
    if (this.ended) listener('closed');
    else this.listeners.push(listener);
  }

  /** Writes raw SSE text. Returns false if the connection is gone (or was just dropped for a slow reader). */
  write(text: string): boolean {
    if (this.ended) return false;
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch {
      this.end('cancelled');
      return false;
    }
    this.lastWriteAt = Date.now();
    if ((this.controller.desiredSize ?? 0) < -this.maxBufferedBytes) {
      this.end('overflow');
      return false;
    }
    return true;
  }

  event(data: string, id?: string, event?: string): boolean {
    return this.write(formatSseEvent(data, id, event));
  }

  /** An SSE comment: ignored by clients, keeps intermediaries from timing the connection out. */
  keepAlive(): boolean {
    return this.write(': keep-alive\n\n');
  }

  /** Ends the stream after what was written so far has been read. */
  close(): void {
    this.end('closed');
  }

  private end(reason: SseCloseReason): void {
    if (this.ended) return;
    this.ended = true;
    try {
      if (reason === 'overflow') this.controller.error(new Error('SSE reader too slow'));
      else if (reason === 'closed') this.controller.close();
    } catch {
      // Already cancelled by the reader.
    }
    for (const listener of this.listeners.splice(0)) {
      try {
        listener(reason);
      } catch {
        // A listener must not stop the others.
      }
    }
  }
}
