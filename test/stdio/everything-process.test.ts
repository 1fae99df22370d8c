/**
 * The built everything server as a process, driven with raw bytes on stdin (no MCP client in between): framing,
 * malformed and hostile input, both eras on one stream, and shutdown.
 *
 * Invariant checked for every process: each stdout line is a JSON-RPC message (or a batch) that the official
 * schema of its revision accepts, written with a plain `\n` ending, and nothing else ever appears on stdout.
 *
 * Both eras share one stream here, so the messages are validated by two taps: the modern ones (requests carrying
 * the 2026-07-28 `_meta`, their responses and the notifications tied to them) by a tap pinned to 2026-07-28, the
 * rest by a tap that follows the legacy handshake.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WireTap } from '@mcpengine/oracle';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../servers/everything/dist/main.js', import.meta.url));
const LIMIT = 4 * 1024 * 1024;

type Message = Record<string, any>;

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-stdio', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SERVER_INFO_META = {
  'io.modelcontextprotocol/serverInfo': {
    name: 'mcpengine-everything',
    title: 'MCPEngine everything server',
    version: '0.1.0',
    description: 'Reference server exposing every conformance fixture and the engine showcase',
  },
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One server process, spoken to in raw bytes. */
class RawProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly legacyTap = new WireTap({ validate: ['server'] });
  private readonly modernTap = new WireTap({ validate: ['server'], revision: '2026-07-28' });
  /** Ids (JSON-encoded) of the modern requests sent, to route their responses and notifications. */
  private readonly modernIds = new Set<string>();
  /** Every stdout message, parsed, in order. */
  readonly messages: Message[] = [];
  /** Anything on stdout that is not a JSON-RPC line. */
  readonly problems: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private pending = Buffer.alloc(0);
  private waiters: { predicate: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(args: string[] = []) {
    this.child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.stdout(chunk));
    this.child.stdout.on('end', () => {
      if (this.pending.length > 0) this.problems.push(`unterminated last line: ${this.pending.toString()}`);
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.stderr += text));
    this.child.stdin.on('error', () => {}); // EPIPE after the process exits is expected in shutdown tests.
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  private stdout(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    let newline: number;
    while ((newline = this.pending.indexOf(0x0a)) !== -1) {
      const line = this.pending.subarray(0, newline);
      this.pending = this.pending.subarray(newline + 1);
      this.line(line);
    }
  }

  private line(bytes: Buffer): void {
    let text: string;
    try {
      text = this.utf8.decode(bytes);
    } catch {
      this.problems.push(`a stdout line is not valid UTF-8: ${bytes.toString('hex').slice(0, 80)}`);
      return;
    }
    if (text.endsWith('\r')) this.problems.push(`a stdout line ends with CR: ${text.slice(0, 80)}`);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.problems.push(`a stdout line is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      return;
    }
    const items = Array.isArray(message) ? message : [message];
    if (items.length === 0 || !items.every((m) => (m as Message | null)?.['jsonrpc'] === '2.0')) {
      this.problems.push(`a stdout line is not JSON-RPC: ${text.slice(0, 200)}`);
      return;
    }
    this.tapFor(message as Message, 'server').record(message, 'server');
    this.messages.push(message as Message);
    for (const waiter of this.waiters.filter((w) => w.predicate(message as Message))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message as Message);
    }
  }

  /** Follows a message the client sent (written raw or by `send`), so that its answer validates correctly. */
  record(message: unknown): void {
    this.tapFor(message as Message, 'client').record(message, 'client');
  }

  private tapFor(message: Message, sender: 'client' | 'server'): WireTap {
    if (Array.isArray(message)) return this.legacyTap;
    const key = (value: unknown) => JSON.stringify(value ?? null);
    if (sender === 'client') {
      if (message['params']?.['_meta']?.[PROTOCOL_VERSION] === undefined) return this.legacyTap;
      if (message['id'] !== undefined) this.modernIds.add(key(message['id']));
      return this.modernTap;
    }
    const meta = message['params']?.['_meta'];
    const related =
      message['method'] === undefined
        ? message['id']
        : (meta?.['io.modelcontextprotocol/subscriptionId'] ?? message['params']?.['progressToken']);
    return related !== undefined && related !== null && this.modernIds.has(key(related))
      ? this.modernTap
      : this.legacyTap;
  }

  /** Writes raw bytes (resolves once handed to the pipe). */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.child.stdin.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Sends one message as a line; the tap follows it (for revision tracking) unless told otherwise. */
  send(message: unknown, ending = '\n'): Promise<void> {
    this.record(message);
    return this.write(JSON.stringify(message) + ending);
  }

  /** The first message from now on that matches (rejects after a generous guard timeout). */
  next(predicate: (m: Message) => boolean, timeoutMs = 5_000): Promise<Message> {
    const existing = this.messages.find((m) => predicate(m) && !this.seen.has(m));
    if (existing) {
      this.seen.add(existing);
      return Promise.resolve(existing);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching stdout message within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        predicate,
        resolve: (m) => {
          clearTimeout(timer);
          this.seen.add(m);
          resolve(m);
        },
      });
    });
  }
  private readonly seen = new Set<Message>();

  /** The response with this id. */
  response(id: unknown): Promise<Message> {
    return this.next((m) => !Array.isArray(m) && m['id'] === id && m['method'] === undefined);
  }

  /** Sends a request and resolves with its response. */
  async request(id: string | number, method: string, params?: Message): Promise<Message> {
    const answered = this.response(id);
    await this.send(
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
    );
    return answered;
  }

  /** Writes raw input and resolves with the next `count` messages it produced, checked by a ping barrier. */
  async answersTo(input: string | Buffer, barrierId: string): Promise<Message[]> {
    const from = this.messages.length;
    await this.write(input);
    await this.request(barrierId, 'ping');
    return this.messages.slice(from).filter((m) => m['id'] !== barrierId);
  }

  async initialize(protocolVersion: string): Promise<Message> {
    const response = await this.request(`init-${protocolVersion}`, 'initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'raw-stdio', version: '1.0.0' },
    });
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /** Fails the test if stdout ever carried anything but schema-valid JSON-RPC. */
  assertCleanStdout(): void {
    expect(this.problems).toEqual([]);
    this.legacyTap.assertClean();
    this.modernTap.assertClean();
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

const parseError = (message = 'Parse error: invalid JSON') => ({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32700, message },
});
const invalidRequest = (id: string | number | null, message: string) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32600, message },
});

/** A ping of exactly `size` bytes (before the line ending), padded inside params. */
function pingOfSize(id: string, size: number): string {
  const empty = `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":{"pad":""}}`;
  return empty.replace('"pad":""', `"pad":"${'x'.repeat(size - empty.length)}"`);
}

describe('everything server process: hostile input on one long-lived stream', () => {
  let server: RawProcess;
  beforeAll(() => {
    server = new RawProcess();
  });
  afterAll(async () => {
    server.assertCleanStdout();
    server.kill();
    await server.exited;
  });

  it('before initialize: legacy requests are -32602, ping is answered', async () => {
    expect(await server.request(1, 'tools/list')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message:
          'Invalid params: missing _meta["io.modelcontextprotocol/protocolVersion"]; send initialize first (legacy) or include the per-request _meta fields (2026-07-28)',
      },
    });
    expect(await server.request(2, 'ping')).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('reassembles a message split across writes at awkward byte positions, inside multi-byte UTF-8', async () => {
    const text = 'héllo ✓ 😀 中文';
    const message = {
      jsonrpc: '2.0',
      id: 'split',
      method: 'tools/call',
      params: { name: 'echo', arguments: { text }, _meta: MODERN_META },
    };
    const bytes = Buffer.from(JSON.stringify(message) + '\n');
    const at = (needle: string, offset: number) => bytes.indexOf(Buffer.from(needle)) + offset;
    // Cuts: after 1 byte, inside é (2 bytes), inside ✓ (3 bytes), after each byte of 😀 (4 bytes), inside 中,
    // and just before the newline.
    const cuts = [1, at('é', 1), at('✓', 1), at('✓', 2), at('😀', 1), at('😀', 2), at('😀', 3), at('中', 2)];
    cuts.push(bytes.length - 1);
    const answered = server.response('split');
    server.record(message);
    let start = 0;
    for (const cut of [...cuts, bytes.length]) {
      await server.write(bytes.subarray(start, cut));
      start = cut;
      await delay(2); // separate reads on the server side
    }
    expect(await answered).toEqual({
      jsonrpc: '2.0',
      id: 'split',
      result: { content: [{ type: 'text', text }], resultType: 'complete', _meta: SERVER_INFO_META },
    });
  });

  it('accepts CRLF line endings, also when CR and LF arrive in separate writes', async () => {
    const crlf = server.response('crlf');
    await server.send({ jsonrpc: '2.0', id: 'crlf', method: 'ping' }, '\r\n');
    expect(await crlf).toEqual({ jsonrpc: '2.0', id: 'crlf', result: {} });

    const split = server.response('cr-then-lf');
    const discover = {
      jsonrpc: '2.0',
      id: 'cr-then-lf',
      method: 'server/discover',
      params: { _meta: MODERN_META },
    };
    server.record(discover);
    await server.write(`${JSON.stringify(discover)}\r`);
    await delay(5);
    await server.write('\n');
    expect((await split)['result']['supportedVersions']).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
  });

  it('ignores empty and whitespace-only lines', async () => {
    expect(await server.answersTo('\n\n   \n\t\t\n \r\n\r\n', 'after-blank')).toEqual([]);
  });

  it('answers malformed JSON with -32700 and a null id', async () => {
    for (const input of [
      'not json',
      '{"jsonrpc":"2.0","id":1,"method":"ping"',
      "{'jsonrpc':'2.0','id':1,'method':'ping'}",
      '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
      '{"jsonrpc":"2.0",,"id":1}',
      '\u0000',
    ]) {
      expect(await server.answersTo(`${input}\n`, 'after-parse-error'), input).toEqual([parseError()]);
    }
  });

  it('answers invalid envelopes with -32600, echoing the id when it is readable', async () => {
    const cases: [string, unknown][] = [
      ['42', invalidRequest(null, 'Invalid Request: a JSON-RPC message must be an object')],
      ['"ping"', invalidRequest(null, 'Invalid Request: a JSON-RPC message must be an object')],
      ['null', invalidRequest(null, 'Invalid Request: a JSON-RPC message must be an object')],
      ['{"id":3,"method":"ping"}', invalidRequest(3, 'Invalid Request: "jsonrpc" must be exactly "2.0"')],
      [
        '{"jsonrpc":"1.0","id":"v1","method":"ping"}',
        invalidRequest('v1', 'Invalid Request: "jsonrpc" must be exactly "2.0"'),
      ],
      [
        '{"jsonrpc":"2.0","id":4,"method":""}',
        invalidRequest(4, 'Invalid Request: "method" must be a non-empty string'),
      ],
      [
        '{"jsonrpc":"2.0","id":5,"method":7}',
        invalidRequest(5, 'Invalid Request: "method" must be a non-empty string'),
      ],
      [
        '{"jsonrpc":"2.0","id":null,"method":"ping"}',
        invalidRequest(null, 'Invalid Request: "id" must be a string or an integer (MCP forbids null ids)'),
      ],
      [
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        invalidRequest(null, 'Invalid Request: "id" must be a string or an integer (MCP forbids null ids)'),
      ],
      [
        '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
        invalidRequest(null, 'Invalid Request: "id" must be a string or an integer (MCP forbids null ids)'),
      ],
      [
        '{"jsonrpc":"2.0","id":6}',
        invalidRequest(
          6,
          'Invalid Request: a message needs "method", or exactly one of "result" and "error"',
        ),
      ],
      [
        '{"jsonrpc":"2.0","id":7,"method":"ping","result":{}}',
        invalidRequest(7, 'Invalid Request: a request must not carry "result" or "error"'),
      ],
      [
        '{"jsonrpc":"2.0","id":8,"method":"ping","params":[1,2]}',
        {
          jsonrpc: '2.0',
          id: 8,
          error: { code: -32602, message: 'Invalid params: "params" must be an object' },
        },
      ],
    ];
    for (const [input, expected] of cases) {
      expect(await server.answersTo(`${input}\n`, 'after-envelope'), input).toEqual([expected]);
    }
    // A notification with unusable params, and malformed responses, are never answered.
    for (const input of [
      '{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}',
      '{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"x"}}',
      '{"jsonrpc":"2.0","id":10,"result":[]}',
      '{"jsonrpc":"2.0","id":11,"error":"bad"}',
    ]) {
      expect(await server.answersTo(`${input}\n`, 'after-unanswered'), input).toEqual([]);
    }
  });

  it('answers invalid UTF-8 with -32700 and a null id', async () => {
    const utf8Error = parseError('Parse error: message is not valid UTF-8');
    const json = (inner: number[]) =>
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"'),
        Buffer.from(inner),
        Buffer.from('"}}\n'),
      ]);
    for (const [name, bytes] of [
      ['a lone 0xFF', Buffer.from([0xff, 0x0a])],
      ['a truncated 3-byte sequence', json([0xe2, 0x82])],
      ['an overlong encoding of "/"', json([0xc0, 0xaf])],
      ['an encoded UTF-16 surrogate', json([0xed, 0xa0, 0x80])],
      ['a stray continuation byte', json([0x80])],
    ] as const) {
      expect(await server.answersTo(bytes, 'after-utf8'), name).toEqual([utf8Error]);
    }
  });

  it('refuses a line over 4 MiB with -32600, then answers the next message; a line at the limit is served', async () => {
    const atLimit = pingOfSize('at-limit', LIMIT);
    expect(Buffer.byteLength(atLimit)).toBe(LIMIT);
    const served = server.response('at-limit');
    await server.write(`${atLimit}\n`);
    expect(await served).toEqual({ jsonrpc: '2.0', id: 'at-limit', result: {} });

    // With CRLF, the CR does not count.
    const crlf = server.response('at-limit-crlf');
    await server.write(`${pingOfSize('at-limit-crlf', LIMIT)}\r\n`);
    expect(await crlf).toEqual({ jsonrpc: '2.0', id: 'at-limit-crlf', result: {} });

    expect(await server.answersTo(`${pingOfSize('over', LIMIT + 1)}\n`, 'after-over')).toEqual([
      invalidRequest(null, `Invalid Request: message of ${LIMIT + 1} bytes exceeds the ${LIMIT}-byte limit`),
    ]);
    // Streamed in pieces, 6 MiB of garbage is counted, dropped, and reported once.
    const from = server.messages.length;
    for (let i = 0; i < 6; i++) await server.write('y'.repeat(1024 * 1024));
    await server.write('\n');
    expect(await server.request('after-streamed', 'ping')).toEqual({
      jsonrpc: '2.0',
      id: 'after-streamed',
      result: {},
    });
    expect(server.messages.slice(from, -1)).toEqual([
      invalidRequest(
        null,
        `Invalid Request: message of ${6 * 1024 * 1024} bytes exceeds the ${LIMIT}-byte limit`,
      ),
    ]);
  });

  it('survives deeply nested JSON (100 000 levels)', async () => {
    const depth = 100_000;
    const arrays = '['.repeat(depth) + ']'.repeat(depth);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    // A top-level array is a batch, which this stream does not accept before initialization.
    expect(await server.answersTo(`${arrays}\n`, 'after-deep-1')).toEqual([
      invalidRequest(
        null,
        'Invalid Request: batches (not supported by this connection before initialization)',
      ),
    ]);
    expect(await server.answersTo(`${objects}\n`, 'after-deep-2')).toEqual([
      invalidRequest(null, 'Invalid Request: "jsonrpc" must be exactly "2.0"'),
    ]);
    // Nested inside params the server does not look at: served.
    expect(
      await server.answersTo(
        `{"jsonrpc":"2.0","id":"deep-ping","method":"ping","params":{"x":${arrays}}}\n`,
        'after-deep-3',
      ),
    ).toEqual([{ jsonrpc: '2.0', id: 'deep-ping', result: {} }]);
    // Nested inside tool arguments (modern): invalid params, not an internal error.
    const meta = JSON.stringify(MODERN_META);
    for (const [id, args] of [
      ['deep-args-1', `{"text":${objects}}`],
      ['deep-args-2', `{"name":"Ada","email":"a@b.c","address":{"street":${arrays}}}`],
    ] as const) {
      const name = id === 'deep-args-1' ? 'echo' : 'json_schema_2020_12_tool';
      const input = `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${name}","arguments":${args},"_meta":${meta}}}\n`;
      server.record({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, _meta: MODERN_META } });
      expect(await server.answersTo(input, `after-${id}`)).toEqual([
        { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: nested too deeply' } },
      ]);
    }
  });

  it('ignores responses to ids it never used', async () => {
    for (const input of [
      '{"jsonrpc":"2.0","id":"never-sent","result":{}}',
      '{"jsonrpc":"2.0","id":12345,"error":{"code":-32000,"message":"nobody asked"}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    ]) {
      expect(await server.answersTo(`${input}\n`, 'after-response'), input).toEqual([]);
    }
  });

  it('after initialize (2025-11-25): a notification method sent with an id is -32601; a second initialize is -32600', async () => {
    const init = await server.initialize('2025-11-25');
    expect(init['result']['protocolVersion']).toBe('2025-11-25');
    expect(await server.request(20, 'notifications/initialized')).toEqual({
      jsonrpc: '2.0',
      id: 20,
      error: { code: -32601, message: 'Method not found: notifications/initialized' },
    });
    expect(
      await server.request(21, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'again', version: '1' },
      }),
    ).toEqual(invalidRequest(21, 'Invalid Request: the session is already initialized'));
  });

  it('answers a duplicate in-flight id with -32600 and still answers the original', async () => {
    const original = server.next((m) => m['id'] === 30 && m['result'] !== undefined);
    await server.send({
      jsonrpc: '2.0',
      id: 30,
      method: 'tools/call',
      params: { name: 'long_running_operation', arguments: { durationMs: 600, steps: 1 } },
    });
    const duplicate = server.next((m) => m['id'] === 30 && m['error'] !== undefined);
    await server.write('{"jsonrpc":"2.0","id":30,"method":"ping"}\n');
    expect(await duplicate).toEqual(invalidRequest(30, 'Invalid Request: request id 30 is already in use'));
    expect(await original).toEqual({
      jsonrpc: '2.0',
      id: 30,
      result: { content: [{ type: 'text', text: 'Finished 1 steps in 600 ms' }] },
    });
    // Once answered, the id is free again.
    expect(await server.request(30, 'ping')).toEqual({ jsonrpc: '2.0', id: 30, result: {} });
  });

  it('refuses batches at 2025-11-25 (they exist only in 2025-03-26)', async () => {
    expect(await server.answersTo('[{"jsonrpc":"2.0","id":40,"method":"ping"}]\n', 'after-batch')).toEqual([
      invalidRequest(null, 'Invalid Request: batches (not supported by protocol revision 2025-11-25)'),
    ]);
  });

  it('serves both eras on one stream, each in its own shape', async () => {
    const legacy = await server.request(50, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(legacy['result']).toEqual({
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    const modern = await server.request(51, 'tools/call', {
      name: 'add',
      arguments: { a: 1, b: 2 },
      _meta: MODERN_META,
    });
    expect(modern['result']).toEqual({
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
    const legacyList = await server.request(52, 'prompts/list');
    expect(Object.keys(legacyList['result'])).toEqual(['prompts']);
    const modernList = await server.request(53, 'prompts/list', { _meta: MODERN_META });
    expect([
      modernList['result']['resultType'],
      modernList['result']['ttlMs'],
      modernList['result']['cacheScope'],
    ]).toEqual(['complete', 60_000, 'public']);
    // Resource not found: -32002 in the legacy session, -32602 in the modern era.
    expect((await server.request(54, 'resources/read', { uri: 'test://nope' }))['error']['code']).toBe(
      -32002,
    );
    expect(
      (await server.request(55, 'resources/read', { uri: 'test://nope', _meta: MODERN_META }))['error'][
        'code'
      ],
    ).toBe(-32602);
    // A modern request naming a legacy revision is refused with the modern revisions listed.
    const wrong = await server.request(56, 'tools/list', {
      _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' },
    });
    expect(wrong['error']['code']).toBe(-32022);
    expect(wrong['error']['data']).toEqual({ supported: ['2026-07-28'], requested: '2025-06-18' });
  });

  it('after all of that, still answers normally and stdout carried only schema-valid JSON-RPC lines', async () => {
    expect(await server.request('final', 'tools/call', { name: 'test_simple_text', arguments: {} })).toEqual({
      jsonrpc: '2.0',
      id: 'final',
      result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
    });
    expect(server.child.exitCode).toBeNull();
    server.assertCleanStdout();
  });
});

describe('everything server process: batches at 2025-03-26', () => {
  let server: RawProcess;
  afterEach(async () => {
    server.assertCleanStdout();
    server.kill();
    await server.exited;
  });

  it('answers a batch with one array, skips notifications, refuses initialize inside, and empty batches', async () => {
    server = new RawProcess();
    expect((await server.initialize('2025-03-26'))['result']['protocolVersion']).toBe('2025-03-26');
    const batch = [
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      {
        jsonrpc: '2.0',
        id: 'b2',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'batched' } },
      },
      { jsonrpc: '2.0', id: 'b3', method: 'tools/call', params: { name: 'nope', arguments: {} } },
    ];
    const answered = server.next((m) => Array.isArray(m));
    await server.send(batch);
    expect(await answered).toEqual([
      { jsonrpc: '2.0', id: 'b1', result: {} },
      { jsonrpc: '2.0', id: 'b2', result: { content: [{ type: 'text', text: 'batched' }] } },
      { jsonrpc: '2.0', id: 'b3', error: { code: -32602, message: 'Unknown tool: nope' } },
    ]);

    const withInit = server.next((m) => Array.isArray(m));
    await server.send([
      {
        jsonrpc: '2.0',
        id: 'b4',
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      { jsonrpc: '2.0', id: 'b5', method: 'ping' },
    ]);
    expect(await withInit).toEqual([
      invalidRequest('b4', 'Invalid Request: initialize must not be part of a batch'),
      { jsonrpc: '2.0', id: 'b5', result: {} },
    ]);

    expect(
      await server.answersTo(
        '[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n',
        'after-notification-batch',
      ),
    ).toEqual([]);
    expect(await server.answersTo('[]\n', 'after-empty-batch')).toEqual([
      invalidRequest(null, 'Invalid Request: an empty batch'),
    ]);
  });
});

describe('everything server process: shutdown and stderr', () => {
  let server: RawProcess;
  afterEach(async () => {
    server.assertCleanStdout();
    server.kill();
    await server.exited;
  });

  it('closing stdin right after writing requests still delivers every answer, then exits 0', async () => {
    server = new RawProcess();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 'i',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools/call',
        params: { name: 'long_running_operation', arguments: { durationMs: 300, steps: 1 } },
      },
      {
        jsonrpc: '2.0',
        id: 'modern',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'bye' }, _meta: MODERN_META },
      },
      { jsonrpc: '2.0', id: 'ping', method: 'ping' },
    ];
    for (const line of lines) server.record(line);
    server.child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const ids = server.messages.map((m) => m['id']);
    expect(ids.sort()).toEqual(['i', 'modern', 'ping', 'slow']);
    expect(server.messages.find((m) => m['id'] === 'slow')?.['result']).toEqual({
      content: [{ type: 'text', text: 'Finished 1 steps in 300 ms' }],
    });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: in-flight requests are answered, subscriptions end gracefully, exit 0`, async () => {
      server = new RawProcess();
      await server.initialize('2025-11-25'); // the process is up and has installed its signal handlers
      const slow = server.response('slow');
      await server.send({
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools/call',
        params: { name: 'long_running_operation', arguments: { durationMs: 300, steps: 1 } },
      });
      const acknowledged = server.next((m) => m['method'] === 'notifications/subscriptions/acknowledged');
      const closed = server.response('listen');
      await server.send({
        jsonrpc: '2.0',
        id: 'listen',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
      });
      await acknowledged;
      server.child.kill(signal);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect((await slow)['result']).toEqual({
        content: [{ type: 'text', text: 'Finished 1 steps in 300 ms' }],
      });
      expect((await closed)['result']).toEqual({
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen', ...SERVER_INFO_META },
      });
    });
  }

  it('with --banner, human messages go to stderr and stdout stays protocol-only', async () => {
    server = new RawProcess(['--banner']);
    expect(await server.request('p', 'ping')).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    expect(server.stderr).toContain('MCPEngine everything server — speaking MCP on stdio');
    expect(server.messages).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('an unknown argument exits 2 with usage on stderr and nothing on stdout', async () => {
    server = new RawProcess(['--no-such-flag']);
    expect(await server.exited).toEqual({ code: 2, signal: null });
    const [first, second] = server.stderr.split('\n');
    expect(first).toBe('Unknown argument: --no-such-flag');
    expect(second).toMatch(/^Usage: mcpengine-everything /);
    expect(server.messages).toEqual([]);
  });
});
