import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.js';

describe('SseParser', () => {
  it('parses events across chunks and line endings, ignoring comments', () => {
    const parser = new SseParser();
    parser.push(': comment\r\nid: 1\r\nevent: message\r\ndata: {"a"');
    parser.push(':1}\r\n\r\nretry: 1000\nid: 2\ndata: \n\ndata: one\ndata: two\r');
    parser.push('\n\n');
    parser.end();
    expect(parser.events.map((e) => ({ id: e.id, event: e.event, data: e.data, retry: e.retry }))).toEqual([
      { id: '1', event: 'message', data: '{"a":1}', retry: undefined },
      { id: '2', event: 'message', data: '', retry: 1000 },
      // An event's own id field (the last-event-id buffer is the channel's business).
      { id: undefined, event: 'message', data: 'one\ntwo', retry: undefined },
    ]);
    expect(parser.problems).toEqual([]);
  });

  it('reports an event cut off by the end of the stream, and a malformed retry', () => {
    const parser = new SseParser();
    parser.push('retry: soon\ndata: {"jsonrpc":"2.0","id":');
    parser.end();
    expect(parser.events).toEqual([]);
    expect(parser.problems).toEqual([
      'retry field is not a number: "soon"',
      'the stream ended in the middle of an event (no terminating blank line)',
    ]);
  });
});
