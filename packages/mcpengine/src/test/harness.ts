/**
 * Test harness: connects our client and server in memory with every message checked against the official
 * schema of the negotiated revision, plus a raw peer for sending hand-made (and malformed) messages.
 */
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { Client, type ClientOptions, type ClientSession, type ConnectOptions } from '../client/index.js';
import type { McpServer } from '../server/index.js';
import { createMemoryTransportPair } from '../transports/memory/index.js';
import type { Transport } from '../transports/transport.js';

export interface Connected {
  /** The session (named `client` since most tests only talk through it). */
  client: ClientSession;
  tap: WireTap;
  close(): Promise<void>;
}

const openTaps: WireTap[] = [];

/** Asserts that every tap opened in the current test saw only schema-valid messages. Call in afterEach. */
export function assertAllTapsClean(): void {
  const taps = openTaps.splice(0);
  for (const tap of taps) tap.assertClean();
}

export async function connect(
  server: McpServer,
  clientOptions: Partial<ClientOptions> = {},
  connectOptions: ConnectOptions = {},
): Promise<Connected> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const tap = new WireTap();
  openTaps.push(tap);
  await server.connect(serverSide);
  const client = await new Client({ name: 'test-client', version: '1.0.0', ...clientOptions }).connect(
    tapTransport(clientSide, tap, 'client'),
    connectOptions,
  );
  return { client, tap, close: () => client.close() };
}

/** A hand-driven peer: send raw text or objects, read what the server answers. */
export class RawPeer {
  readonly received: unknown[] = [];
  private waiters: { predicate: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  private constructor(
    private readonly transport: Transport,
    readonly tap: WireTap | undefined,
  ) {}

  static async open(server: McpServer, options: { validate?: boolean } = {}): Promise<RawPeer> {
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    let transport: Transport = clientSide;
    let tap: WireTap | undefined;
    if (options.validate !== false) {
      tap = new WireTap({ validate: ['server'] });
      openTaps.push(tap);
      transport = tapTransport(clientSide, tap, 'client');
    }
    const peer = new RawPeer(transport, tap);
    await transport.start({
      message: (text) => peer.onMessage(JSON.parse(text) as unknown),
      invalid: () => {},
      close: () => {},
    });
    return peer;
  }

  private onMessage(message: unknown): void {
    this.received.push(message);
    const index = this.waiters.findIndex((w) => w.predicate(message));
    if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(message);
  }

  send(message: unknown): void {
    this.transport.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves with the first message (already received or future) matching the predicate. */
  next(predicate: (m: any) => boolean = () => true, timeoutMs = 2_000): Promise<any> {
    const existing = this.received.find(predicate);
    if (existing !== undefined) {
      this.received.splice(this.received.indexOf(existing), 1);
      return Promise.resolve(existing);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('RawPeer: no matching message in time')), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (m) => {
          clearTimeout(timer);
          this.received.splice(this.received.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  }

  /** Sends a request and waits for the response with the same id. */
  async request(id: string | number, method: string, params?: unknown): Promise<any> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.next((m) => m.id === id && ('result' in m || 'error' in m));
  }

  /** Gives the server a moment, then returns everything received so far (for "nothing was sent" checks). */
  async settle(ms = 30): Promise<unknown[]> {
    await new Promise((r) => setTimeout(r, ms));
    return [...this.received];
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function modernParams(params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  return { ...params, _meta: { ...MODERN_META, ...meta } };
}

export async function initializeRaw(
  peer: RawPeer,
  protocolVersion = '2025-11-25',
  capabilities: object = {},
) {
  const response = await peer.request('init', 'initialize', {
    protocolVersion,
    capabilities,
    clientInfo: { name: 'raw', version: '1.0.0' },
  });
  peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return response;
}
