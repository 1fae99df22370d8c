/**
 * The session timeline: every JSON-RPC message both ways, the HTTP exchanges that carried them, the server's
 * stderr and connection events, in order and timed. Each message is checked against the official schema of
 * the negotiated revision (the oracle's WireTap follows the conversation); violations sit on the entry itself,
 * so a viewer flags them inline.
 */
import { formatViolation, WireTap, type Revision, type Side } from '@mcpengine/oracle';

interface EntryBase {
  /** Position in the session, from 1. */
  readonly seq: number;
  /** Milliseconds since the session started. */
  readonly atMs: number;
}

export interface MessageEntry extends EntryBase {
  readonly kind: 'message';
  readonly from: Side;
  /** The message parsed, or the raw text when it was not JSON. */
  readonly message: unknown;
  readonly method?: string;
  readonly id?: string | number;
  /** Where a response is: the method of the request it answers (requests from the other side). */
  readonly inReplyTo?: string;
  /** The message's size on the wire, in bytes (UTF-8). */
  readonly bytes: number;
  /** Schema violations of this message, human-readable; absent when it is valid. */
  readonly violations?: readonly string[];
  /** The SSE event id the message arrived with (HTTP streams that number their events). */
  readonly eventId?: string;
}

export interface HttpEntry extends EntryBase {
  readonly kind: 'http';
  readonly method: string;
  readonly url: string;
  /** Absent when the request failed before any response (network error). */
  readonly status?: number;
  readonly durationMs: number;
  /** Selected request headers; credentials are redacted. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly error?: string;
}

export interface NoteEntry extends EntryBase {
  /** `stderr`: what the stdio server wrote there; `event`: connection life (connected, closed, failures). */
  readonly kind: 'stderr' | 'event';
  readonly text: string;
}

/** A postMessage between an MCP App View and the inspector's host (or its sandbox proxy), or a host decision. */
export interface AppEntry extends EntryBase {
  readonly kind: 'app';
  /** The View (one rendered app) it belongs to. */
  readonly viewId: string;
  /** `view`: the View (through the proxy) to the host; `host`: the host to the View, or the host's own note. */
  readonly from: 'view' | 'host' | 'sandbox';
  /** One line: direction and method. */
  readonly text: string;
  readonly message?: unknown;
}

export type TimelineEntry = MessageEntry | HttpEntry | NoteEntry | AppEntry;

type Distribute<T> = T extends unknown ? Omit<T, 'seq' | 'atMs'> : never;
export type NewEntry = Distribute<TimelineEntry>;

export interface TimelineOptions {
  /** Validate every message at this revision instead of the negotiated one. */
  readonly revision?: Revision;
  /** Largest stderr text kept per entry; the rest is cut (a flood must not exhaust memory). */
  readonly maxNoteChars?: number;
  /** Most entries kept; older ones are dropped first (a flooding server). Default 50 000. */
  readonly maxEntries?: number;
}

export type TimelineListener = (entry: TimelineEntry) => void;

const DEFAULT_MAX_ENTRIES = 50_000;
const DEFAULT_MAX_NOTE_CHARS = 16_384;

export class Timeline {
  readonly startedAt: Date = new Date();
  readonly #entries: TimelineEntry[] = [];
  readonly #tap: WireTap;
  readonly #listeners = new Set<TimelineListener>();
  readonly #maxEntries: number;
  readonly #maxNoteChars: number;
  /** Requests still open, keyed by sender and id, to name the method a response answers. */
  readonly #open = new Map<string, string>();
  #seq = 0;
  #dropped = 0;
  /** SSE events seen by the HTTP recorder and not yet matched to a message: data → event ids. */
  readonly #sseIds = new Map<string, string[]>();

  constructor(options: TimelineOptions = {}) {
    this.#tap = new WireTap(options.revision === undefined ? {} : { revision: options.revision });
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#maxNoteChars = options.maxNoteChars ?? DEFAULT_MAX_NOTE_CHARS;
  }

  get entries(): readonly TimelineEntry[] {
    return this.#entries;
  }

  /** How many old entries were dropped to stay within `maxEntries`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The revision the conversation negotiated (or the pinned one), once known. */
  get revision(): Revision | undefined {
    return this.#tap.revision;
  }

  /** Every message entry that violates the schema. */
  get violations(): MessageEntry[] {
    return this.#entries.filter(
      (entry): entry is MessageEntry => entry.kind === 'message' && entry.violations !== undefined,
    );
  }

  /** Called with every new entry; returns a function that stops listening. */
  subscribe(listener: TimelineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * An SSE event with an id arrived on an HTTP stream; the message it carries (its data, exactly) is recorded
   * when the transport delivers it, and gets the id.
   */
  noteSseEvent(data: string, id: string): void {
    const ids = this.#sseIds.get(data) ?? [];
    ids.push(id);
    this.#sseIds.set(data, ids);
    // Bounded: events whose data never became a message (a comment, a priming event) are forgotten.
    if (this.#sseIds.size > 1_000) this.#sseIds.delete(this.#sseIds.keys().next().value!);
  }

  #takeSseId(text: string): string | undefined {
    const ids = this.#sseIds.get(text);
    if (ids === undefined) return undefined;
    const id = ids.shift();
    if (ids.length === 0) this.#sseIds.delete(text);
    return id;
  }

  /** Records one serialized message as it crossed the wire, validating it. */
  recordMessage(text: string, from: Side): MessageEntry {
    const before = this.#tap.violations.length;
    this.#tap.record(text, from);
    const found = this.#tap.violations.slice(before).map(formatViolation);
    let message: unknown = text;
    try {
      message = JSON.parse(text);
    } catch {
      // Kept as text; the tap has reported it.
    }
    const fields = describe(message);
    let inReplyTo: string | undefined;
    if (fields.id !== undefined) {
      const key = (side: Side) => `${side}|${typeof fields.id}:${String(fields.id)}`;
      if (fields.method !== undefined) this.#open.set(key(from), fields.method);
      else {
        const other: Side = from === 'client' ? 'server' : 'client';
        inReplyTo = this.#open.get(key(other));
        this.#open.delete(key(other));
      }
    }
    const eventId = from === 'server' ? this.#takeSseId(text) : undefined;
    return this.add({
      kind: 'message',
      from,
      message,
      ...fields,
      ...(eventId === undefined ? {} : { eventId }),
      ...(inReplyTo === undefined ? {} : { inReplyTo }),
      bytes: Buffer.byteLength(text),
      ...(found.length === 0 ? {} : { violations: found }),
    }) as MessageEntry;
  }

  note(kind: 'stderr' | 'event', text: string): void {
    const cut =
      text.length > this.#maxNoteChars
        ? `${text.slice(0, this.#maxNoteChars)}… (${text.length} chars)`
        : text;
    this.add({ kind, text: cut });
  }

  add(entry: NewEntry): TimelineEntry {
    const full = { seq: ++this.#seq, atMs: Date.now() - this.startedAt.getTime(), ...entry } as TimelineEntry;
    this.#entries.push(full);
    if (this.#entries.length > this.#maxEntries) {
      this.#entries.shift();
      this.#dropped++;
    }
    for (const listener of this.#listeners) listener(full);
    return full;
  }
}

function describe(message: unknown): { method?: string; id?: string | number } {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return {};
  const record = message as Record<string, unknown>;
  const out: { method?: string; id?: string | number } = {};
  if (typeof record['method'] === 'string') out.method = record['method'];
  const id = record['id'];
  if (typeof id === 'string' || typeof id === 'number') out.id = id;
  return out;
}

/** The inbound callbacks of a transport (structurally the engine's `TransportHandlers`). */
interface HandlersLike {
  message(text: string): void;
  close(error?: Error): void;
  invalid?(problem: unknown): void;
}

interface TransportLike {
  start(handlers: never): void | Promise<void>;
  send(message: string): void;
}

/**
 * Returns `transport` recording into `timeline`: what the client sends before it goes out, what arrives before
 * the client sees it. Everything else (close, requestFailed, getters) passes through untouched.
 */
export function recordingTransport<T extends TransportLike>(
  transport: T,
  timeline: Timeline,
  onClose?: (error?: Error) => void,
): T {
  const start = (handlers: HandlersLike): void | Promise<void> =>
    (transport.start as (h: HandlersLike) => void | Promise<void>)({
      ...handlers,
      message(text: string) {
        timeline.recordMessage(text, 'server');
        handlers.message(text);
      },
      invalid(problem: unknown) {
        timeline.note('event', `unreadable input from the server: ${describeProblem(problem)}`);
        handlers.invalid?.(problem);
      },
      close(error?: Error) {
        timeline.note('event', `the connection closed${error === undefined ? '' : `: ${error.message}`}`);
        handlers.close(error);
        onClose?.(error);
      },
    });
  const send = (message: string): void => {
    timeline.recordMessage(message, 'client');
    transport.send(message);
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'start') return start;
      if (key === 'send') return send;
      const value: unknown = Reflect.get(target, key, target);
      // Bound, so that classes with private fields keep working behind the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function describeProblem(problem: unknown): string {
  if (typeof problem !== 'object' || problem === null) return String(problem);
  const record = problem as Record<string, unknown>;
  return String(record['message'] ?? record['reason'] ?? JSON.stringify(problem));
}
