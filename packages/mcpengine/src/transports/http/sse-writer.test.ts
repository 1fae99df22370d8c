import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import { eventId, parseEventId, ResponseStream } from './session-stream.js';
import { formatSseEvent, SseConnection } from './sse-writer.js';

async function text(connection: SseConnection): Promise<string> {
  return new Response(connection.body).text();
}

describe('SSE writing', () => {
  it('formats events, splitting multi-line data', () => {
    expect(formatSseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(formatSseEvent('x', '1-2', 'message')).toBe('event: message\nid: 1-2\ndata: x\n\n');
    expect(formatSseEvent('a\nb\r\nc')).toBe('data: a\ndata: b\ndata: c\n\n');
  });

  it('delivers what was written before close', async () => {
    const connection = new SseConnection(1024);
    const reasons: string[] = [];
    connection.onClose((reason) => reasons.push(reason));
    connection.event('one');
    connection.keepAlive();
    connection.close();
    expect(connection.write('late')).toBe(false);
    expect(await text(connection)).toBe('data: one\n\n: keep-alive\n\n');
    expect(reasons).toEqual(['closed']);
  });

  it('drops a connection whose reader falls too far behind', () => {
    const connection = new SseConnection(64 * 1024);
    const reasons: string[] = [];
    connection.onClose((reason) => reasons.push(reason));
    let written = 0;
    while (connection.write('x'.repeat(1024))) written++;
    expect(written).toBeGreaterThan(60);
    expect(written).toBeLessThan(200);
    expect(reasons).toEqual(['overflow']);
  });

  it('notices a reader that cancels', async () => {
    const connection = new SseConnection(1024);
    const reasons: string[] = [];
    connection.onClose((reason) => reasons.push(reason));
    await connection.body.cancel();
    expect(reasons).toEqual(['cancelled']);
    expect(connection.event('x')).toBe(false);
  });
});

describe('ResponseStream', () => {
  it('numbers events per stream and parses them back', () => {
    expect(eventId('a1', 7)).toBe('a1-7');
    expect(parseEventId('a1-7')).toEqual({ streamId: 'a1', seq: 7 });
    expect(parseEventId('a1-x')).toBeUndefined();
    expect(parseEventId('A-1')).toBeUndefined();
  });

  it('primes, stores while disconnected and resumes after the last event seen', async () => {
    const store = new MemoryEventStore();
    const stream = new ResponseStream('3', { store: { store, sessionId: 's' }, report: () => {} });
    expect(stream.send('before open')).toBe(false);
    const first = new SseConnection(1 << 20);
    stream.open(first, 500);
    stream.send('a');
    expect(stream.detach(200)).toBe(true);
    stream.send('b');
    stream.send('c');
    expect(await text(first)).toBe('id: 3-0\nretry: 500\ndata: \n\nid: 3-1\ndata: a\n\nretry: 200\n\n');
    const second = new SseConnection(1 << 20);
    expect(await stream.resume(second, 1)).toBe(true);
    stream.send('d');
    stream.end();
    expect(await text(second)).toBe('id: 3-2\ndata: b\n\nid: 3-3\ndata: c\n\nid: 3-4\ndata: d\n\n');
    expect(stream.send('after end')).toBe(false);
  });

  it('without a store is just its connection', async () => {
    const stream = new ResponseStream('m', { report: () => {} });
    const connection = new SseConnection(1 << 20);
    stream.open(connection, 500);
    expect(stream.resumable).toBe(false);
    expect(stream.detach()).toBe(false);
    stream.send('x');
    stream.end();
    expect(await text(connection)).toBe('data: x\n\n');
  });
});
