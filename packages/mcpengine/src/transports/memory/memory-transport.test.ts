import { describe, expect, it, vi } from 'vitest';
import { createMemoryTransportPair } from './index.js';
import { recorder } from '../../test/transport-recorder.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createMemoryTransportPair', () => {
  it('delivers asynchronously and in order, both ways', async () => {
    const [client, server] = createMemoryTransportPair();
    const c = recorder();
    const s = recorder();
    client.start(c);
    server.start(s);
    for (let i = 0; i < 1000; i++) client.send(`m${i}`);
    server.send('reply');
    expect(s.messages).toEqual([]);
    await Promise.resolve();
    expect(s.messages).toHaveLength(1000);
    expect(s.messages[0]).toBe('m0');
    expect(s.messages[999]).toBe('m999');
    expect(c.messages).toEqual(['reply']);
  });

  it('queues messages sent before the peer started', async () => {
    const [a, b] = createMemoryTransportPair();
    a.start(recorder());
    a.send('early-1');
    a.send('early-2');
    await tick();
    const r = recorder();
    b.start(r);
    a.send('late');
    expect(r.messages).toEqual([]);
    await tick();
    expect(r.messages).toEqual(['early-1', 'early-2', 'late']);
  });

  it('closes both ends once, after delivering what the peer was sent', async () => {
    const [a, b] = createMemoryTransportPair();
    const ra = recorder();
    const rb = recorder();
    a.start(ra);
    b.start(rb);
    a.send('last words');
    await a.close();
    await a.close();
    await b.close();
    expect(() => a.send('x')).toThrow(/closed/);
    expect(() => b.send('x')).toThrow(/closed/);
    await tick();
    expect(rb.messages).toEqual(['last words']);
    expect(ra.closes).toEqual([undefined]);
    expect(rb.closes).toEqual([undefined]);
  });

  it('tells an end that starts after the close', async () => {
    const [a, b] = createMemoryTransportPair();
    a.send('before close');
    await a.close();
    const r = recorder();
    b.start(r);
    await tick();
    expect(r.messages).toEqual(['before close']);
    expect(r.closes).toEqual([undefined]);
  });

  it('keeps delivering after a handler throws', async () => {
    const [a, b] = createMemoryTransportPair();
    const received: string[] = [];
    const errors: unknown[] = [];
    const onError = (error: unknown): void => void errors.push(error);
    process.on('uncaughtException', onError);
    try {
      a.start(recorder());
      b.start({
        message: (text) => {
          received.push(text);
          if (text === 'boom') throw new Error('handler failed');
        },
        invalid: vi.fn(),
        close: vi.fn(),
      });
      a.send('boom');
      a.send('after');
      await tick();
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(received).toEqual(['boom', 'after']);
    expect(errors).toHaveLength(1);
  });

  it('rejects a second start', () => {
    const [a] = createMemoryTransportPair();
    a.start(recorder());
    expect(() => a.start(recorder())).toThrow(/already/);
  });
});
