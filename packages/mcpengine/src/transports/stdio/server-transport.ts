import type { Readable, Writable } from 'node:stream';
import { sendSerialized, type Transport, type TransportHandlers } from '../transport.js';
import { LineDecoder } from './line-decoder.js';
import { assertOneLine, LineWriter } from './line-writer.js';

export interface StdioServerTransportOptions {
  /** Where messages arrive. Default: `process.stdin`. */
  input?: Readable;
  /** Where messages go; nothing else is ever written to it. Default: `process.stdout`. */
  output?: Writable;
  /** Largest inbound message in bytes; longer lines are reported as `too-large`. Default 4 MiB. */
  maxMessageBytes?: number;
}

/**
 * The server side of the stdio transport: one JSON-RPC message per line on stdin and stdout.
 *
 * The end of input is the client's shutdown signal. It is a half-close: `send` keeps working until `close()`,
 * so that requests already received can still be answered (a client may pipe its requests in and close stdin
 * straight away). It is reported with `handlers.end()` when the owner handles it (the owner then calls
 * `close()` when done), otherwise with `handlers.close()`. `close()` flushes and ends the output.
 * Output errors (EPIPE once the client has gone) close the transport with that error instead of crashing.
 */
export class StdioServerTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxMessageBytes: number | undefined;
  #handlers: TransportHandlers | undefined;
  #endReported = false;
  #decoder: LineDecoder | undefined;
  #writer: LineWriter | undefined;
  /** `close()` was called or the output failed: nothing more can be sent. */
  #closed = false;
  #reading = false;
  #closeReported = false;
  #finished: Promise<void> = Promise.resolve();

  constructor(options: StdioServerTransportOptions = {}) {
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#maxMessageBytes = options.maxMessageBytes;
  }

  start(handlers: TransportHandlers): void {
    if (this.#handlers !== undefined) throw new Error('StdioServerTransport has already been started');
    if (this.#closed) throw new Error('StdioServerTransport is closed');
    this.#handlers = handlers;
    this.#decoder = new LineDecoder(
      { line: (text) => handlers.message(text), invalid: (problem) => handlers.invalid(problem) },
      { maxMessageBytes: this.#maxMessageBytes },
    );
    this.#writer = new LineWriter(this.#output, (error) => this.#fail(error));
    this.#output.on('close', this.#onOutputClose);
    const input = this.#input;
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    // Never removed: a late error with no listener would crash the process.
    input.on('error', this.#onInputError);
    input.on('close', this.#onInputClose);
    this.#reading = true;
  }

  send(message: string): void {
    assertOneLine(message);
    this[sendSerialized](message);
  }

  [sendSerialized](message: string): void {
    if (this.#writer === undefined) throw new Error('StdioServerTransport has not been started');
    if (this.#closed) throw new Error('StdioServerTransport is closed');
    this.#writer.write(message);
  }

  /** Stops reading, flushes queued messages and ends the output; resolves once it has finished. */
  close(): Promise<void> {
    this.#stopReading();
    this.#endOutput();
    this.#reportClose(undefined);
    return this.#finished;
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#decoder?.write(chunk);
  };

  readonly #onEnd = (): void => {
    // A final line without a newline is still a message.
    this.#decoder?.end();
    this.#inputFinished();
  };

  /** Input is over. An owner that handles `end` still answers and then calls close(); others get close now. */
  #inputFinished(): void {
    this.#stopReading();
    if (this.#handlers?.end) {
      if (this.#endReported) return;
      this.#endReported = true;
      this.#handlers.end();
    } else {
      this.#reportClose(undefined);
    }
  }

  readonly #onInputError = (error: Error): void => {
    this.#stopReading();
    this.#reportClose(error);
  };

  readonly #onInputClose = (): void => this.#inputFinished();

  readonly #onOutputClose = (): void => this.#fail(new Error('stdout was closed'));

  #fail(error: Error): void {
    this.#stopReading();
    this.#endOutput();
    this.#reportClose(error);
  }

  #stopReading(): void {
    if (!this.#reading) return;
    this.#reading = false;
    const input = this.#input;
    input.off('data', this.#onData);
    input.off('end', this.#onEnd);
    input.off('close', this.#onInputClose);
    // Stop reading, so that process.stdin no longer keeps the process alive.
    input.pause();
  }

  #endOutput(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#output.off('close', this.#onOutputClose);
    this.#finished = this.#writer?.end() ?? Promise.resolve();
  }

  #reportClose(error: Error | undefined): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.#handlers?.close(error);
  }
}
