import { isAscii, isUtf8 } from 'node:buffer';
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

/** Only JSON whitespace counts. A message starts with `{` or `[`, so the loop almost never runs past one char. */
function isBlankText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
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
 * The complete lines of a chunk are checked and decoded together: one `isAscii`/`isUtf8` scan (SIMD) and one
 * string for the whole run of lines, which is then split on `\n`. A pipe read under load carries dozens of
 * requests, and per-line views and decoder calls cost more than the scan itself. A run that is not valid UTF-8
 * is decoded line by line, so that only the bad line is reported. A line that spans chunks is kept as a list of
 * views and concatenated once; a multi-byte character split across chunks is therefore never an error. A line
 * over the limit is dropped as it streams in, only its length being counted, so memory stays bounded by the
 * limit (plus the chunk being read).
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
    if (bytes.length === 0) return;
    let start = 0;
    if (this.#pendingBytes > 0 || this.#discarding) {
      // First finish the line that began in an earlier chunk.
      const newline = bytes.indexOf(LF);
      if (newline === -1) {
        this.#hold(bytes, 0);
        return;
      }
      this.#completeLine(bytes, 0, newline);
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(LF);
    if (last >= start) {
      this.#completeRun(bytes, start, last);
      start = last + 1;
    }
    if (start < bytes.length) this.#hold(bytes, start);
  }

  /** The complete lines in `bytes[start, end)`, where `end` is the last newline of the chunk. */
  #completeRun(bytes: Buffer, start: number, end: number): void {
    const run = bytes.subarray(start, end);
    const ascii = isAscii(run);
    if (!ascii && !isUtf8(run)) {
      for (let from = start; from <= end;) {
        const newline = bytes.indexOf(LF, from);
        this.#completeLine(bytes, from, newline);
        from = newline + 1;
      }
      return;
    }
    const text = bytes.toString(ascii ? 'latin1' : 'utf8', start, end);
    const limit = this.#limit;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8: most lines need no byte count at all.
    const unitLimit = ascii ? limit : Math.floor(limit / 3);
    let from = 0;
    while (from <= text.length) {
      let to = text.indexOf('\n', from);
      if (to === -1) to = text.length;
      const lineEnd = to > from && text.charCodeAt(to - 1) === CR ? to - 1 : to;
      if (lineEnd - from > unitLimit) {
        const size = ascii ? lineEnd - from : Buffer.byteLength(text.slice(from, lineEnd), 'utf8');
        if (size > limit) {
          this.#sink.invalid({ kind: 'too-large', limit, size });
          from = to + 1;
          continue;
        }
      }
      if (!isBlankText(text, from, lineEnd)) this.#sink.line(text.slice(from, lineEnd));
      from = to + 1;
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
