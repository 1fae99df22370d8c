/**
 * A minimal HTTP/1.1 keep-alive client on a raw TCP socket: one request at a time, requests written as
 * prepared text, responses parsed just enough (status, headers, Content-Length or chunked body). It costs the
 * driver a fraction of what node:http's client does, so that the server, not the driver, limits throughput.
 */
import { connect, type Socket } from 'node:net';

/** The body of a JSON response longer than this is only decoded at its ends unless someone asks for it all. */
const PROBE_BYTES = 512;

/** A response as received: the body is decoded only when asked (a large list need not be decoded to be counted). */
export class HttpResponse {
  #body: string | undefined;

  constructor(
    readonly status: number,
    /** Header names in lower case. */
    readonly headers: Map<string, string>,
    readonly bytes: Buffer,
  ) {}

  get body(): string {
    return (this.#body ??= this.bytes.toString('utf8'));
  }

  /**
   * Enough of the body to find a JSON-RPC response's top-level id and tell success from failure: the whole
   * body when it is short (or not plain JSON), else its first and last bytes. Top-level keys of a response are
   * within those (`{"jsonrpc":"2.0","id":…,"result":` first, or `…,"jsonrpc":"2.0","id":…}` last).
   */
  probe(): string {
    const bytes = this.bytes;
    if (this.#body !== undefined || bytes.length <= 4 * PROBE_BYTES) return this.body;
    if (!this.headers.get('content-type')?.startsWith('application/json')) return this.body;
    return `${bytes.toString('latin1', 0, PROBE_BYTES)} … ${bytes.toString('latin1', bytes.length - PROBE_BYTES)}`;
  }
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * Incremental parser for a stream of HTTP/1.1 responses. `push` bytes as they arrive; it returns every
 * response completed by them.
 */
export class ResponseParser {
  #buffer: Buffer = Buffer.alloc(0);
  /** Chunks not yet joined into #buffer: a large body is joined once, when it is complete. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #head: { status: number; headers: Map<string, string>; bodyStart: number } | undefined;
  /** Bytes the current response needs in all (known once its head says Content-Length). */
  #needed = 0;
  #chunked = false;

  push(chunk: Buffer): HttpResponse[] {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    const available = this.#buffer.length + this.#pendingBytes;
    if (this.#head !== undefined && (available < this.#needed || (this.#chunked && !this.#mayEndChunked())))
      return [];
    this.#buffer =
      this.#buffer.length === 0 && this.#pending.length === 1
        ? chunk
        : Buffer.concat([this.#buffer, ...this.#pending]);
    this.#pending = [];
    this.#pendingBytes = 0;
    const done: HttpResponse[] = [];
    for (let response = this.#next(); response !== undefined; response = this.#next()) done.push(response);
    return done;
  }

  /** Whether the bytes received so far end like a chunked body does (`0\r\n\r\n`); cheap, across chunks. */
  #mayEndChunked(): boolean {
    const tail: number[] = [];
    for (let i = this.#pending.length - 1; i >= 0 && tail.length < 5; i--) {
      const part = this.#pending[i]!;
      for (let j = part.length - 1; j >= 0 && tail.length < 5; j--) tail.unshift(part[j]!);
    }
    for (let j = this.#buffer.length - 1; j >= 0 && tail.length < 5; j--) tail.unshift(this.#buffer[j]!);
    return Buffer.from(tail).toString('latin1') === '0\r\n\r\n';
  }

  #next(): HttpResponse | undefined {
    const buffer = this.#buffer;
    if (this.#head === undefined) {
      const end = buffer.indexOf(CRLF_CRLF);
      if (end === -1) return undefined;
      const lines = buffer.toString('latin1', 0, end).split('\r\n');
      const statusLine = lines[0] ?? '';
      const status = Number(statusLine.split(' ')[1]);
      if (!statusLine.startsWith('HTTP/1.') || !Number.isInteger(status)) {
        throw new Error(`malformed HTTP status line: ${JSON.stringify(statusLine.slice(0, 100))}`);
      }
      const headers = new Map<string, string>();
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      this.#head = { status, headers, bodyStart: end + 4 };
      const length = headers.get('content-length');
      this.#needed = length === undefined ? 0 : end + 4 + Number(length);
      this.#chunked =
        length === undefined &&
        (headers.get('transfer-encoding')?.toLowerCase().includes('chunked') ?? false);
    }
    const head = this.#head;
    const length = head.headers.get('content-length');
    let body: Buffer;
    let consumed: number;
    if (length !== undefined) {
      const size = Number(length);
      if (buffer.length < head.bodyStart + size) return undefined;
      body = buffer.subarray(head.bodyStart, head.bodyStart + size);
      consumed = head.bodyStart + size;
    } else if (head.headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) {
      const chunks = readChunked(buffer, head.bodyStart);
      if (chunks === undefined) return undefined;
      body = chunks.body;
      consumed = chunks.end;
    } else if (head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) {
      body = EMPTY;
      consumed = head.bodyStart;
    } else {
      throw new Error(`HTTP response ${head.status} without Content-Length or chunked encoding`);
    }
    this.#head = undefined;
    this.#needed = 0;
    this.#chunked = false;
    this.#buffer = consumed === buffer.length ? Buffer.alloc(0) : buffer.subarray(consumed);
    return new HttpResponse(head.status, head.headers, body);
  }
}

/** Decodes a complete chunked body starting at `start`, or undefined when it has not fully arrived. */
function readChunked(buffer: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0]!, 16);
    if (!Number.isFinite(size)) throw new Error('malformed chunk size');
    if (size === 0) {
      // Optional trailers, then an empty line.
      const end = buffer.indexOf(CRLF_CRLF, lineEnd);
      if (end === -1) return undefined;
      return { body: parts.length === 1 ? parts[0]! : Buffer.concat(parts), end: end + 4 };
    }
    const dataStart = lineEnd + 2;
    if (buffer.length < dataStart + size + 2) return undefined;
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** The head of a POST request up to (excluding) Content-Length. `headers` are written as given. */
export function postHead(path: string, host: string, headers: Readonly<Record<string, string>>): string {
  let head = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return head;
}

/** A complete POST request as text (ASCII head; the body may be any UTF-8). */
export function postRequest(head: string, body: string): string {
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** One keep-alive connection; `request` may only be called once the previous response has arrived. */
export class RawHttpConnection {
  readonly #socket: Socket;
  readonly #parser = new ResponseParser();
  #waiting: ((response: HttpResponse) => void) | undefined;
  #failure: ((error: Error) => void) | undefined;
  #ready: Promise<void>;

  constructor(host: string, port: number) {
    this.#socket = connect({ host, port, noDelay: true });
    this.#ready = new Promise((resolve, reject) => {
      this.#socket.once('connect', resolve);
      this.#socket.once('error', reject);
    });
    this.#socket.on('data', (chunk: Buffer) => {
      let responses: HttpResponse[];
      try {
        responses = this.#parser.push(chunk);
      } catch (error) {
        this.#fail(error as Error);
        return;
      }
      for (const response of responses) {
        const waiting = this.#waiting;
        this.#waiting = undefined;
        if (!waiting) {
          this.#fail(new Error(`unsolicited HTTP response ${response.status}`));
          return;
        }
        waiting(response);
      }
    });
    this.#socket.on('error', (error) => this.#fail(error));
    this.#socket.on('close', () => {
      if (this.#waiting) this.#fail(new Error('connection closed by the server'));
    });
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  /** Writes a prepared request; `onResponse` gets its response. `onError` gets any failure of the connection. */
  send(
    request: string | Buffer,
    onResponse: (response: HttpResponse) => void,
    onError: (error: Error) => void,
  ): void {
    if (this.#waiting) throw new Error('a request is already in flight on this connection');
    this.#waiting = onResponse;
    this.#failure = onError;
    this.#socket.write(request);
  }

  request(request: string | Buffer): Promise<HttpResponse> {
    return new Promise((resolve, reject) => this.send(request, resolve, reject));
  }

  close(): void {
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    const failure = this.#failure;
    this.#waiting = undefined;
    this.#failure = undefined;
    this.#socket.destroy();
    failure?.(error);
  }
}
