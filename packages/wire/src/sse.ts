/**
 * An incremental `text/event-stream` parser (WHATWG HTML, "Server-sent events": lines end with CRLF, LF or CR;
 * `:` starts a comment; a blank line dispatches the event). It also keeps the raw text and notes framing
 * problems, which the HTTP checks report.
 */
import type { SseEvent } from './channel.js';

export class SseParser {
  readonly events: SseEvent[] = [];
  /** Framing problems seen (a field the standard does not define is not one: it is ignored). */
  readonly problems: string[] = [];
  raw = '';
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;
  #retry: number | undefined;
  #sawField = false;
  readonly #onEvent: (event: SseEvent) => void;

  constructor(onEvent: (event: SseEvent) => void = () => {}) {
    this.#onEvent = onEvent;
  }

  push(text: string): void {
    this.raw += text;
    this.#buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (match === null) break;
      // A lone CR at the very end may be the first half of CRLF: wait for more.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      this.#line(line);
    }
  }

  /** The stream ended: an event without its terminating blank line is discarded, as the standard says. */
  end(): void {
    if (this.#buffer !== '' || this.#sawField) {
      this.problems.push('the stream ended in the middle of an event (no terminating blank line)');
    }
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.#sawField = true;
    switch (field) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        else this.problems.push(`retry field is not a number: ${JSON.stringify(value)}`);
        break;
      default:
        break;
    }
  }

  #dispatch(): void {
    if (!this.#sawField) return;
    const event: SseEvent = {
      event: this.#event === '' ? 'message' : this.#event,
      data: this.#data.join('\n'),
      ...(this.#id === undefined ? {} : { id: this.#id }),
      ...(this.#retry === undefined ? {} : { retry: this.#retry }),
    };
    this.#data = [];
    this.#event = '';
    this.#retry = undefined;
    this.#sawField = false;
    // The last event id persists across events (it is the stream's, not the event's), but an event that does
    // not carry an `id` line has none of its own: report only ids set by the event itself.
    this.#id = undefined;
    this.events.push(event);
    this.#onEvent(event);
  }
}
