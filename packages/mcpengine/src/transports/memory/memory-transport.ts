import type { Transport, TransportHandlers } from '../transport.js';

/**
 * One end of an in-process channel. Messages go through the receiving end's inbox and are delivered in a
 * microtask, in order, so a sender never re-enters its peer synchronously (as with a real transport).
 */
class MemoryTransport implements Transport {
  peer: MemoryTransport | undefined;
  #handlers: TransportHandlers | undefined;
  #inbox: string[] = [];
  /** Index of the next undelivered message (shifting would make long bursts quadratic). */
  #next = 0;
  #drainScheduled = false;
  #closed = false;
  /** The channel closed but this end has not been told yet. */
  #closePending = false;

  start(handlers: TransportHandlers): void {
    if (this.#handlers !== undefined) throw new Error('MemoryTransport has already been started');
    this.#handlers = handlers;
    // Messages (and a close) that arrived before start are delivered now.
    this.#scheduleDrain();
  }

  send(message: string): void {
    if (this.#closed) throw new Error('MemoryTransport is closed');
    this.peer!.#receive(message);
  }

  close(): Promise<void> {
    if (!this.#closed) {
      // The closing end drops what it has not read yet; the peer still reads what was sent to it.
      this.#inbox = [];
      this.#next = 0;
      this.#markClosed();
      this.peer!.#markClosed();
    }
    return Promise.resolve();
  }

  #receive(message: string): void {
    this.#inbox.push(message);
    this.#scheduleDrain();
  }

  #markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closePending = true;
    this.#scheduleDrain();
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled || this.#handlers === undefined) return;
    this.#drainScheduled = true;
    queueMicrotask(this.#drain);
  }

  readonly #drain = (): void => {
    this.#drainScheduled = false;
    const handlers = this.#handlers!;
    try {
      while (this.#next < this.#inbox.length) handlers.message(this.#inbox[this.#next++]!);
      this.#inbox = [];
      this.#next = 0;
      if (this.#closePending) {
        this.#closePending = false;
        handlers.close();
      }
    } finally {
      // A throwing handler must not strand the rest of the inbox.
      if (this.#next < this.#inbox.length || this.#closePending) this.#scheduleDrain();
    }
  };
}

/**
 * Two connected transports for tests and for embedding a client and a server in one process. Messages sent
 * on one end arrive at the other asynchronously and in order, including those sent before the other end
 * started. Closing either end closes both: each end's `handlers.close()` is called once, after it has
 * received the messages sent to it before the close; sending on either end then throws.
 */
export function createMemoryTransportPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
