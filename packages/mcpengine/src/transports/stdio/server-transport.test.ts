import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioServerTransport } from './index.js';
import { recorder } from '../../test/transport-recorder.js';

/** A writable that records each write call separately. */
class RecordingWritable extends Writable {
  readonly writes: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writes.push(chunk.toString('utf8'));
    callback();
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup(options: { maxMessageBytes?: number } = {}) {
  const input = new PassThrough();
  const output = new RecordingWritable();
  const transport = new StdioServerTransport({ input, output, ...options });
  const handlers = recorder();
  transport.start(handlers);
  return { input, output, transport, handlers };
}

describe('StdioServerTransport', () => {
  it('delivers each inbound line as a message, and problems as problems', async () => {
    const { input, handlers } = setup({ maxMessageBytes: 64 });
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}'.slice(0, 20));
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}'.slice(20) + '\n\n');
    input.write(Buffer.from([0xff, 0x0a]));
    input.write('x'.repeat(100) + '\r\n{"id":2}\n');
    await turn();
    expect(handlers.messages).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"id":2}']);
    expect(handlers.problems).toEqual([
      { kind: 'invalid-utf8' },
      { kind: 'too-large', limit: 64, size: 100 },
    ]);
  });

  it('writes each message with a newline, coalescing a burst into one write', async () => {
    const { output, transport } = setup();
    transport.send('{"id":1}');
    transport.send('{"id":2}');
    await Promise.resolve();
    transport.send('{"id":3}'); // still the same event-loop turn
    expect(output.writes).toEqual([]);
    await turn();
    expect(output.writes).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n']);
    transport.send('{"id":4}');
    await turn();
    expect(output.writes).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n', '{"id":4}\n']);
  });

  it('refuses a message with a raw newline (it would break framing)', () => {
    const { transport } = setup();
    expect(() => transport.send('{"a":\n1}')).toThrow(TypeError);
  });

  it('reports close when input ends, yet still answers what it received until close()', async () => {
    const { input, output, transport, handlers } = setup();
    input.end('{"method":"last"}'); // a final line without a newline
    await turn();
    expect(handlers.messages).toEqual(['{"method":"last"}']);
    expect(handlers.closes).toEqual([undefined]);
    expect(input.listenerCount('data')).toBe(0);
    // Half-closed: the answer to the last request still goes out.
    transport.send('{"id":1}');
    await turn();
    expect(output.writes).toEqual(['{"id":1}\n']);
    expect(output.writableEnded).toBe(false);
    transport.send('{"id":2}');
    await transport.close();
    expect(output.writes).toEqual(['{"id":1}\n', '{"id":2}\n']);
    expect(output.writableFinished).toBe(true);
    expect(() => transport.send('{}')).toThrow(/closed/);
    expect(handlers.closes).toHaveLength(1);
  });

  it('close() stops reading, flushes, ends output and reports close once', async () => {
    const { input, output, transport, handlers } = setup();
    transport.send('{"id":1}');
    await transport.close();
    await transport.close();
    expect(output.writes).toEqual(['{"id":1}\n']);
    expect(output.writableFinished).toBe(true);
    expect(handlers.closes).toEqual([undefined]);
    input.write('{"late":true}\n');
    await turn();
    expect(handlers.messages).toEqual([]);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('closes with the error instead of crashing when output fails (EPIPE)', async () => {
    const input = new PassThrough();
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const transport = new StdioServerTransport({ input, output });
    const handlers = recorder();
    transport.start(handlers);
    transport.send('{"id":1}');
    await turn();
    await turn();
    expect(handlers.closes).toHaveLength(1);
    expect(handlers.closes[0]?.message).toBe('write EPIPE');
    expect(() => transport.send('{}')).toThrow(/closed/);
    await transport.close();
  });

  it('closes with the error when input fails', async () => {
    const { input, handlers } = setup();
    input.destroy(new Error('read EIO'));
    await turn();
    expect(handlers.closes.map((e) => e?.message)).toEqual(['read EIO']);
  });

  it('holds messages while output applies backpressure and sends them in one write on drain', async () => {
    const input = new PassThrough();
    const writes: string[] = [];
    let release: (() => void) | undefined;
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        release = () => callback();
      },
    });
    const transport = new StdioServerTransport({ input, output });
    transport.start(recorder());
    transport.send('{"id":1}');
    await turn();
    transport.send('{"id":2}');
    await turn();
    transport.send('{"id":3}');
    await turn();
    expect(writes).toEqual(['{"id":1}\n']);
    release?.();
    await turn();
    expect(writes).toEqual(['{"id":1}\n', '{"id":2}\n{"id":3}\n']);
    release?.();
  });

  it('rejects send before start and a second start', () => {
    const transport = new StdioServerTransport({ input: new PassThrough(), output: new PassThrough() });
    expect(() => transport.send('{}')).toThrow(/not been started/);
    transport.start(recorder());
    expect(() => transport.start(recorder())).toThrow(/already/);
  });
});
