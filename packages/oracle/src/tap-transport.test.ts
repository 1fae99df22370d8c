import { describe, expect, test } from 'vitest';
import { tapTransport, type TransportHandlersLike, type TransportLike } from './tap-transport.js';
import { WireTap } from './wire-tap.js';

/** One end of an in-memory pipe. Private fields make sure the tap's proxy keeps `this` intact. */
class PipeEnd implements TransportLike {
  readonly label: string;
  #handlers: TransportHandlersLike | undefined;
  #peer: PipeEnd | undefined;
  #closed = false;

  constructor(label: string) {
    this.label = label;
  }

  static pair(): [PipeEnd, PipeEnd] {
    const a = new PipeEnd('client-end');
    const b = new PipeEnd('server-end');
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  start(handlers: TransportHandlersLike): void {
    this.#handlers = handlers;
  }

  send(message: string): void {
    if (this.#closed) throw new Error('closed');
    const peer = this.#peer;
    if (peer) peer.#handlers?.message(message);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#handlers?.close();
  }

  /** Something a real transport adds to the contract. */
  get sessionId(): string {
    return `${this.label}-session`;
  }

  reportInvalid(): void {
    this.#handlers?.invalid({ kind: 'invalid-utf8' });
  }
}

describe('tapTransport', () => {
  test('records what the side sends as its own and what arrives as the peer’s', async () => {
    const [clientEnd, serverEnd] = PipeEnd.pair();
    const tap = new WireTap({ revision: '2025-06-18' });
    const client = tapTransport(clientEnd, tap, 'client');
    const received: string[] = [];
    await client.start({ message: (text) => received.push(text), invalid: () => {}, close: () => {} });
    // The server answers synchronously, inside the client's send: the tap must see the request first.
    serverEnd.start({
      message: (text) => {
        const { id } = JSON.parse(text) as { id: number };
        serverEnd.send(JSON.stringify({ jsonrpc: '2.0', id, result: { content: 'not an array' } }));
      },
      invalid: () => {},
      close: () => {},
    });

    client.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }));
    client.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }));

    expect(received).toHaveLength(2);
    // The reply to the unknown method falls back to ServerResult, which admits any object.
    expect(tap.violations.map((v) => [v.sender, v.definition])).toEqual([
      ['server', 'CallToolResult'],
      ['client', 'ClientRequest'],
    ]);
  });

  test('passes everything else through', async () => {
    const [clientEnd] = PipeEnd.pair();
    const tapped = tapTransport(clientEnd, new WireTap(), 'server');
    expect(tapped.sessionId).toBe('client-end-session');
    expect(tapped.label).toBe('client-end');

    const events: string[] = [];
    await tapped.start({
      message: () => events.push('message'),
      invalid: (problem) => events.push(`invalid ${JSON.stringify(problem)}`),
      close: (error) => events.push(`close ${String(error)}`),
    });
    tapped.reportInvalid();
    await tapped.close();
    expect(events).toEqual(['invalid {"kind":"invalid-utf8"}', 'close undefined']);
    expect(() => tapped.send('{}')).toThrow('closed');
  });
});
