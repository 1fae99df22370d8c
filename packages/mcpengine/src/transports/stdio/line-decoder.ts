import type { InboundProblem } from '../transport.js';

/** Default cap on one inbound message, in bytes of UTF-8 (excluding the line ending). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface LineDecoderSink {
  /** One complete, non-blank line of valid UTF-8, without its line ending. */
  line(text: string): void;
  /** A line that was dropped: over the size limit, or not valid UTF-8. */
  invalid(problem: InboundProblem): void;
}

export interface LineDecoderOptions {
  maxMessageBytes?: number;
}

const LF = 10;
const CR = 13;
const EMPTY = Buffer.alloc(0);

/** Only JSON whitespace counts (the line ending itself is already gone). */
function isBlank(bytes: Buffer, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Splits a byte stream into newline-delimited messages (`\n` or `\r\n`).
 *
 * Chunks are scanned with `indexOf` (memchr speed); a line that spans chunks is kept as a list of views and
 * concatenated once, and a line within one chunk is decoded in place without copying. Decoding happens per
 * complete line, so a multi-byte character split across chunks is never an error. A line over the limit is
 * dropped as it streams in, only its length being counted, so memory stays bounded by the limit.
 *
 * The sink must not throw: an exception propagates out of `write` and loses the rest of that chunk.
 */
export class LineDecoder {
  // fatal: invalid UTF-8 must be reported, not silently replaced with U+FFFD.
  static readonly #utf8 = new TextDecoder('utf-8', { fatal: true });

  readonly #sink: LineDecoderSink;
  readonly #limit: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Counting the bytes of an oversized line until its end arrives. */
  #discarding = false;
  #discardedBytes = 0;
  #discardedEndsWithCr = false;

  constructor(sink: LineDecoderSink, options: LineDecoderOptions = {}) {
    const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${limit}`);
    }
    this.#sink = sink;
    this.#limit = limit;
  }

  write(chunk: Uint8Array | string): void {
    const bytes = toBuffer(chunk);
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(LF, start);
      if (newline === -1) {
        this.#hold(bytes, start);
        return;
      }
      this.#completeLine(bytes, start, newline);
      start = newline + 1;
    }
  }

  /** End of stream: a final line without a newline still counts. */
  end(): void {
    if (this.#discarding || this.#pendingBytes > 0) this.#completeLine(EMPTY, 0, 0);
  }

  #hold(bytes: Buffer, start: number): void {
    const length = bytes.length - start;
    if (this.#discarding) {
      this.#discardedBytes += length;
      this.#discardedEndsWithCr = bytes[bytes.length - 1] === CR;
      return;
    }
    // One byte of slack for the `\r` of a CRLF line that is exactly at the limit.
    if (this.#pendingBytes + length > this.#limit + 1) {
      this.#discarding = true;
      this.#discardedBytes = this.#pendingBytes + length;
      this.#discardedEndsWithCr = bytes[bytes.length - 1] === CR;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(bytes.subarray(start));
    this.#pendingBytes += length;
  }

  #completeLine(bytes: Buffer, start: number, end: number): void {
    if (this.#discarding) {
      const endsWithCr = end > start ? bytes[end - 1] === CR : this.#discardedEndsWithCr;
      const size = this.#discardedBytes + (end - start) - (endsWithCr ? 1 : 0);
      this.#discarding = false;
      this.#discardedBytes = 0;
      this.#sink.invalid({ kind: 'too-large', limit: this.#limit, size });
      return;
    }

    // Measure before concatenating, so an oversized line is never copied.
    const total = this.#pendingBytes + (end - start);
    const lastByte = end > start ? bytes[end - 1] : this.#pending.at(-1)?.at(-1);
    const length = lastByte === CR ? total - 1 : total;
    if (length > this.#limit) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#sink.invalid({ kind: 'too-large', limit: this.#limit, size: length });
      return;
    }

    let line: Buffer;
    if (this.#pendingBytes === 0) {
      line = bytes.subarray(start, end);
    } else {
      this.#pending.push(bytes.subarray(start, end));
      line = Buffer.concat(this.#pending, total);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    if (isBlank(line, length)) return;

    let text: string;
    try {
      text = LineDecoder.#utf8.decode(length === line.length ? line : line.subarray(0, length));
    } catch {
      this.#sink.invalid({ kind: 'invalid-utf8' });
      return;
    }
    this.#sink.line(text);
  }
}
