import type { Writable } from 'node:stream';

/** Framing depends on one message per line: a message from outside the engine's serializer is checked. */
export function assertOneLine(message: string): void {
  if (message.includes('\n')) throw new TypeError('A stdio message must not contain a newline');
}

/**
 * Writes newline-delimited messages to a stream, coalescing every message sent in the same event-loop turn
 * into one `write` call. Pipelined load produces bursts of responses (one per request in a read chunk, each
 * finishing in its own microtask); one write per burst saves a syscall or a stream round trip per message.
 * The flush runs in `setImmediate`, i.e. after the microtasks of the current turn, at the cost of no extra
 * latency beyond the I/O phase that triggered the work. While the stream reports backpressure, messages
 * accumulate and go out in one write on `drain`.
 *
 * Messages are appended to one string (a rope that the stream's UTF-8 encoding flattens once), not queued
 * and joined: a join copies every message once more.
 */
export class LineWriter {
  readonly #output: Writable;
  readonly #onError: (error: Error) => void;
  /** Messages waiting to be written, each followed by its newline. */
  #pending = '';
  #scheduled = false;
  #blocked = false;
  #ended = false;
  #errored = false;

  /** `onError` is called once, for the first error the stream reports; later errors are swallowed. */
  constructor(output: Writable, onError: (error: Error) => void) {
    this.#output = output;
    this.#onError = onError;
    // Kept for the stream's lifetime: an unhandled 'error' (EPIPE when the peer went away) would crash.
    output.on('error', this.#handleError);
  }

  /** Queues one message, which must not contain a newline (framing depends on it; callers check). */
  write(message: string): void {
    if (this.#ended) throw new Error('Cannot write: the stream has been ended');
    // One store into this long-lived object: each one costs a write barrier.
    this.#pending += message + '\n';
    if (!this.#scheduled && !this.#blocked) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  /** Flushes what is queued, ends the stream and resolves once it has finished (or failed, or closed). */
  end(): Promise<void> {
    if (!this.#ended) {
      this.#ended = true;
      // Backpressure no longer matters: the stream buffers the rest until it finishes.
      this.#blocked = false;
      this.#flush();
    }
    const output = this.#output;
    if (output.destroyed || output.writableFinished) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        output.off('finish', done);
        output.off('close', done);
        output.off('error', done);
        resolve();
      };
      output.on('finish', done);
      output.on('close', done);
      output.on('error', done);
      if (!output.writableEnded) output.end();
    });
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    if (this.#pending === '' || this.#blocked) return;
    const chunk = this.#pending;
    this.#pending = '';
    const output = this.#output;
    if (output.destroyed || output.writableEnded) return;
    if (!output.write(chunk)) {
      this.#blocked = true;
      output.once('drain', this.#drained);
    }
  };

  readonly #drained = (): void => {
    this.#blocked = false;
    this.#flush();
  };

  readonly #handleError = (error: Error): void => {
    if (this.#errored) return;
    this.#errored = true;
    this.#pending = '';
    this.#onError(error);
  };
}
