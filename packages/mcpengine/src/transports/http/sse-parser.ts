/**
 * A streaming parser for `text/event-stream`, exactly as the WHATWG HTML standard interprets it (§9.2.6 "Event
 * stream interpretation"): one leading BOM is dropped, lines end with CRLF, LF or CR, `:` starts a comment, a
 * field name without a colon has an empty value, one space after the colon is dropped, `data` lines join with
 * LF, `id` containing NULL is ignored, `retry` must be all ASCII digits, a blank line dispatches, an event
 * without data is not dispatched, and an unfinished event at the end of the stream is discarded.
 *
 * Input may be split anywhere: between the CR and LF of a CRLF, inside a field name, inside a multi-byte UTF-8
 * sequence (`pushBytes`).
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field, or `message` when absent or empty. */
  readonly type: string;
  /** The `data` lines joined with LF. */
  readonly data: string;
  /** The last event ID at dispatch time (it persists across events until an `id` field changes it). */
  readonly lastEventId: string;
}

export interface SseParserOptions {
  onEvent(event: SseEvent): void;
  /** A valid `retry` field: the reconnection time in milliseconds. */
  onRetry?(milliseconds: number): void;
  /**
   * An event grew past `maxEventSize`. It is skipped up to the blank line that ends it; parsing continues after
   * that, so one oversized event does not break the stream.
   */
  onOversized?(size: number): void;
  /**
   * Largest event, counted in UTF-16 code units of its buffered lines (for UTF-8 input this never exceeds the
   * byte count). Default: unlimited.
   */
  maxEventSize?: number;
  /** The last event ID to start from: a resumed stream keeps the one its predecessor ended with. */
  lastEventId?: string;
}

const LF = 10;
const CR = 13;
const BOM = '\uFEFF';

export class SseParser {
  readonly #options: SseParserOptions;
  readonly #maxEventSize: number;
  #decoder: InstanceType<typeof TextDecoder> | undefined;
  /** The current line, not yet terminated. */
  #line = '';
  #data = '';
  #hasData = false;
  #eventType = '';
  #lastEventIdBuffer = '';
  #lastEventId = '';
  #retry: number | undefined;
  #started = false;
  /** The previous chunk ended with CR: a LF at the start of the next one belongs to it. */
  #afterCR = false;
  /** Skipping an oversized event until its terminating blank line. */
  #skippingEvent = false;
  /** Skipping the rest of an oversized line until its terminator. */
  #skippingLine = false;
  #ended = false;

  constructor(options: SseParserOptions) {
    this.#options = options;
    this.#maxEventSize = options.maxEventSize ?? Infinity;
    this.#lastEventId = this.#lastEventIdBuffer = options.lastEventId ?? '';
  }

  /** The last event ID of the stream (set on dispatch, like `EventSource.lastEventId`). */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** The last valid `retry` value seen, in milliseconds. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Feeds raw bytes; UTF-8 is decoded incrementally (invalid sequences become U+FFFD, as the standard says). */
  pushBytes(bytes: Uint8Array): void {
    // ignoreBOM keeps a BOM in the output, so that push() strips exactly one, at the start of the stream.
    this.#decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
    const text = this.#decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.push(text);
  }

  /** Feeds decoded text. */
  push(chunk: string): void {
    if (this.#ended) throw new Error('SseParser: push() after end()');
    let start = 0;
    if (!this.#started && chunk.length > 0) {
      this.#started = true;
      if (chunk.startsWith(BOM)) start = 1;
    }
    if (this.#afterCR && start < chunk.length) {
      this.#afterCR = false;
      if (chunk.charCodeAt(start) === LF) start++;
    }
    for (let i = start; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      this.#endLine(chunk, start, i);
      if (code === CR) {
        if (i + 1 < chunk.length) {
          if (chunk.charCodeAt(i + 1) === LF) i++;
        } else {
          this.#afterCR = true;
        }
      }
      start = i + 1;
    }
    if (start < chunk.length && !this.#skippingLine) {
      if (this.#skippingEvent) {
        // Part of a line inside a skipped event: drop it, and its terminator too (the line is not blank).
        this.#line = '';
        this.#skippingLine = true;
      } else {
        this.#line += chunk.slice(start);
        this.#checkSize();
      }
    }
  }

  /** The stream ended: flushes the decoder, and discards an event that was not terminated by a blank line. */
  end(): void {
    if (this.#ended) return;
    if (this.#decoder) {
      const rest = this.#decoder.decode();
      if (rest.length > 0) this.push(rest);
    }
    this.#ended = true;
    this.#line = '';
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
  }

  #endLine(chunk: string, from: number, to: number): void {
    if (this.#skippingLine) {
      this.#skippingLine = false;
      this.#line = '';
      // The oversized line itself was not blank, so the event goes on.
      return;
    }
    const line = this.#line.length > 0 ? this.#line + chunk.slice(from, to) : chunk.slice(from, to);
    this.#line = '';
    if (this.#skippingEvent) {
      if (line.length === 0) this.#skippingEvent = false;
      return;
    }
    if (line.length === 0) {
      this.#dispatch();
      return;
    }
    if (this.#data.length + line.length > this.#maxEventSize) {
      this.#oversized(this.#data.length + line.length);
      return;
    }
    this.#processLine(line);
  }

  /** An unterminated line keeps growing: stop buffering it as soon as the event is too large. */
  #checkSize(): void {
    const size = this.#data.length + this.#line.length;
    if (size <= this.#maxEventSize) return;
    this.#line = '';
    this.#skippingLine = true;
    this.#oversized(size);
  }

  #oversized(size: number): void {
    this.#skippingEvent = true;
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
    this.#options.onOversized?.(size);
  }

  #processLine(line: string): void {
    if (line.charCodeAt(0) === 58 /* : */) return; // comment
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 /* space */ ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'event':
        this.#eventType = value;
        return;
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        return;
      case 'id':
        if (!value.includes('\0')) this.#lastEventIdBuffer = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) {
          this.#retry = Number.parseInt(value, 10);
          this.#options.onRetry?.(this.#retry);
        }
        return;
      default:
        return; // unknown fields are ignored
    }
  }

  #dispatch(): void {
    this.#lastEventId = this.#lastEventIdBuffer;
    if (!this.#hasData) {
      this.#eventType = '';
      return;
    }
    const event: SseEvent = {
      type: this.#eventType === '' ? 'message' : this.#eventType,
      data: this.#data,
      lastEventId: this.#lastEventId,
    };
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
    this.#options.onEvent(event);
  }
}
