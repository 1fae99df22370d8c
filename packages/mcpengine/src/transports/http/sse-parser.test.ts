import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from './sse-parser.js';

interface Parsed {
  events: SseEvent[];
  retries: number[];
  oversized: number[];
  parser: SseParser;
}

function parser(maxEventSize?: number, lastEventId?: string): Parsed {
  const out: Omit<Parsed, 'parser'> = { events: [], retries: [], oversized: [] };
  const instance = new SseParser({
    onEvent: (event) => out.events.push(event),
    onRetry: (ms) => out.retries.push(ms),
    onOversized: (size) => out.oversized.push(size),
    ...(maxEventSize !== undefined && { maxEventSize }),
    ...(lastEventId !== undefined && { lastEventId }),
  });
  return { ...out, parser: instance };
}

/** Parses `chunks` in order, then ends the stream. */
function parse(chunks: readonly string[], maxEventSize?: number): Parsed {
  const result = parser(maxEventSize);
  for (const chunk of chunks) result.parser.push(chunk);
  result.parser.end();
  return result;
}

const message = (data: string, lastEventId = '', type = 'message'): SseEvent => ({ type, data, lastEventId });

describe('SseParser: fields', () => {
  it('dispatches an event on a blank line, with the default type "message"', () => {
    expect(parse(['data: hello\n\n']).events).toEqual([message('hello')]);
  });

  it('joins data lines with LF and removes only the final LF', () => {
    expect(parse(['data: a\ndata:\ndata: b\n\n']).events).toEqual([message('a\n\nb')]);
    expect(parse(['data\ndata\n\n']).events).toEqual([message('\n')]);
  });

  it('strips exactly one space after the colon', () => {
    expect(parse(['data:no-space\n\n', 'data:  two\n\n', 'data: \n\n']).events).toEqual([
      message('no-space'),
      message(' two'),
      message(''),
    ]);
  });

  it('treats a line without a colon as a field with an empty value', () => {
    expect(parse(['data\n\n']).events).toEqual([message('')]);
  });

  it('keeps colons after the first one in the value', () => {
    expect(parse(['data: {"a":"b:c"}\n\n']).events).toEqual([message('{"a":"b:c"}')]);
  });

  it('takes the type from the event field; an empty one means "message"', () => {
    expect(parse(['event: endpoint\ndata: /messages\n\n', 'event:\ndata: x\n\n']).events).toEqual([
      message('/messages', '', 'endpoint'),
      message('x'),
    ]);
  });

  it('ignores comments, unknown fields and field names in another case', () => {
    const parsed = parse([':keep-alive\n', ': another\n\n', 'foo: bar\nData: x\nDATA: y\n\n', 'data: z\n\n']);
    expect(parsed.events).toEqual([message('z')]);
  });

  it('does not dispatch an event without data, and resets its type', () => {
    expect(parse(['event: ping\n\n', 'data: x\n\n']).events).toEqual([message('x')]);
  });

  it('discards an event that is not terminated by a blank line when the stream ends', () => {
    expect(parse(['data: complete\n\ndata: partial\n']).events).toEqual([message('complete')]);
    expect(parse(['data: partial']).events).toEqual([]);
  });

  it('refuses input after end()', () => {
    const { parser: instance } = parse([]);
    expect(() => instance.push('data: x\n\n')).toThrow('push() after end()');
  });
});

describe('SseParser: event ids', () => {
  it('sets the last event id at dispatch, and keeps it for later events', () => {
    const parsed = parse(['id: 1\ndata: a\n\n', 'data: b\n\n', 'id: 2\ndata: c\n\n']);
    expect(parsed.events).toEqual([message('a', '1'), message('b', '1'), message('c', '2')]);
    expect(parsed.parser.lastEventId).toBe('2');
  });

  it('commits an id on a blank line even when no event is dispatched (a priming event without data)', () => {
    const parsed = parse(['id: event-7\nretry: 500\n\n']);
    expect(parsed.events).toEqual([]);
    expect(parsed.parser.lastEventId).toBe('event-7');
  });

  it('dispatches a priming event with an empty data field', () => {
    const parsed = parse(['id: event-1\nretry: 500\ndata: \n\n']);
    expect(parsed.events).toEqual([message('', 'event-1')]);
    expect(parsed.retries).toEqual([500]);
  });

  it('does not commit an id whose event was never terminated', () => {
    expect(parse(['id: 1\ndata: a\n\nid: 2\ndata: b\n']).parser.lastEventId).toBe('1');
  });

  it('ignores an id containing NULL, and an empty id resets it', () => {
    const parsed = parse(['id: 1\ndata: a\n\n', 'id: 2\u00003\ndata: b\n\n', 'id\ndata: c\n\n']);
    expect(parsed.events).toEqual([message('a', '1'), message('b', '1'), message('c', '')]);
  });

  it('starts from a given last event id (a resumed stream)', () => {
    const result = parser(undefined, 'earlier');
    result.parser.push('data: x\n\n');
    expect(result.events).toEqual([message('x', 'earlier')]);
    expect(result.parser.lastEventId).toBe('earlier');
  });
});

describe('SseParser: retry', () => {
  it('accepts only ASCII digits', () => {
    const parsed = parse(['retry: 1000\n', 'retry: 0\n', 'retry: 1.5\n', 'retry: -1\n', 'retry: 1e3\n']);
    expect(parsed.retries).toEqual([1000, 0]);
    expect(parsed.parser.retry).toBe(0);
  });

  it('ignores an empty value and a value with extra spaces', () => {
    expect(parse(['retry:\n', 'retry: abc\n', 'retry:  20\n', 'retry: 20 \n']).retries).toEqual([]);
  });
});

describe('SseParser: line endings and chunk boundaries', () => {
  it('accepts CRLF, CR and LF, mixed', () => {
    expect(parse(['data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n']).events).toEqual([
      message('a'),
      message('b'),
      message('c'),
      message('d'),
    ]);
  });

  it('treats a CR at the end of a chunk and a LF at the start of the next as one line ending', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']).events).toEqual([message('a\nb')]);
  });

  it('treats CR CR as a line ending and a blank line', () => {
    expect(parse(['data: a\r', '\r']).events).toEqual([message('a')]);
  });

  it('gives the same events whatever the chunking (every two-way and three-way split)', () => {
    const stream =
      '\uFEFFid: 1\r\nevent: note\r\ndata: first\r\ndata: second\r\n\r\n: comment\rretry: 42\rdata: {"x":"é"}\n\ndata:last\r\n\r\n';
    const expected = parse([stream]);
    expect(expected.events).toEqual([
      message('first\nsecond', '1', 'note'),
      message('{"x":"é"}', '1'),
      message('last', '1'),
    ]);
    for (let i = 0; i <= stream.length; i++) {
      expect(parse([stream.slice(0, i), stream.slice(i)]).events).toEqual(expected.events);
      for (let j = i; j <= stream.length; j += 3) {
        const parsed = parse([stream.slice(0, i), stream.slice(i, j), stream.slice(j)]);
        expect(parsed.events).toEqual(expected.events);
        expect(parsed.retries).toEqual([42]);
      }
    }
  });

  it('decodes UTF-8 split anywhere, including inside a multi-byte character', () => {
    const bytes = new TextEncoder().encode('data: Hello, 世界 🌍\n\n');
    for (let i = 0; i <= bytes.length; i++) {
      const result = parser();
      result.parser.pushBytes(bytes.subarray(0, i));
      result.parser.pushBytes(bytes.subarray(i));
      result.parser.end();
      expect(result.events).toEqual([message('Hello, 世界 🌍')]);
    }
  });

  it('replaces invalid UTF-8 with U+FFFD, as the standard decodes', () => {
    const result = parser();
    result.parser.pushBytes(new Uint8Array([...new TextEncoder().encode('data: a'), 0xff, 0x0a, 0x0a]));
    result.parser.end();
    expect(result.events).toEqual([message('a\uFFFD')]);
  });

  it('strips one leading BOM, only at the start of the stream', () => {
    expect(parse(['\uFEFFdata: a\n\n']).events).toEqual([message('a')]);
    expect(parse(['\uFEFF', 'data: a\n\n']).events).toEqual([message('a')]);
    // A second BOM is part of the first line: the field name is "\uFEFFdata", which is unknown.
    expect(parse(['\uFEFF\uFEFFdata: a\n\ndata: b\n\n']).events).toEqual([message('b')]);
    expect(parse(['data: a\n\n\uFEFFdata: b\n\n']).events).toEqual([message('a')]);
  });

  it('strips a BOM that arrives as bytes exactly once', () => {
    const result = parser();
    result.parser.pushBytes(new Uint8Array([0xef, 0xbb]));
    result.parser.pushBytes(new Uint8Array([0xbf, ...new TextEncoder().encode('data: a\n\n')]));
    result.parser.end();
    expect(result.events).toEqual([message('a')]);
  });
});

describe('SseParser: size limit', () => {
  it('skips an event whose data grows past the limit, and parses the next one', () => {
    const parsed = parse(['data: 0123456789\ndata: abcdef\n\n', 'data: ok\n\n'], 12);
    expect(parsed.events).toEqual([message('ok')]);
    expect(parsed.oversized).toEqual([16]);
  });

  it('stops buffering a line that never ends, across chunks', () => {
    const parsed = parse(
      ['data: ', 'x'.repeat(30), 'y'.repeat(30), 'z\n', 'data: more\n\n', 'data: ok\n\n'],
      20,
    );
    expect(parsed.events).toEqual([message('ok')]);
    expect(parsed.oversized).toHaveLength(1);
  });

  it('does not take the rest of an oversized line for a blank line', () => {
    const parsed = parse(
      ['data: ' + 'x'.repeat(40), '\n', 'data: still skipped\n', '\n', 'data: ok\n\n'],
      20,
    );
    expect(parsed.events).toEqual([message('ok')]);
  });

  it('accepts an event exactly at the limit', () => {
    expect(parse(['data: 12345\n\n'], 11).events).toEqual([message('12345')]);
    expect(parse(['data: 123456\n\n'], 11).events).toEqual([]);
  });
});
