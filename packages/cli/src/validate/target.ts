/**
 * The server under test and how to reach it. Every `open()` is a fresh connection: a new process on stdio, a
 * new (session-less) client on HTTP, a new event stream on HTTP+SSE.
 */
import type { Channel, TransportKind } from './wire/channel.js';
import { HttpChannel, type HttpTargetOptions } from './wire/http-channel.js';
import { SseChannel } from './wire/sse-channel.js';
import { StdioChannel } from './wire/stdio-channel.js';
import type { StdioLaunch } from './wire/stdio-process.js';

export interface Target {
  readonly kind: TransportKind;
  /** How the report names the target (never includes secrets). */
  readonly label: string;
  /** Every channel opened so far (the transport checks read them all). */
  readonly opened: readonly Channel[];
  open(): Promise<Channel>;
}

export class StdioTarget implements Target {
  readonly kind = 'stdio' as const;
  readonly label: string;
  readonly launch: StdioLaunch;
  readonly #timeoutMs: number;

  constructor(launch: StdioLaunch, timeoutMs: number, label: string) {
    this.launch = launch;
    this.#timeoutMs = timeoutMs;
    this.label = label;
  }

  readonly opened: StdioChannel[] = [];

  async open(): Promise<Channel> {
    const channel = await StdioChannel.open(this.launch, this.#timeoutMs);
    this.opened.push(channel);
    return channel;
  }
}

export class StreamableHttpTarget implements Target {
  readonly kind = 'streamable-http' as const;
  readonly label: string;
  readonly options: HttpTargetOptions;

  constructor(options: HttpTargetOptions) {
    this.options = options;
    this.label = options.url;
  }

  readonly opened: HttpChannel[] = [];

  open(): Promise<Channel> {
    const channel = new HttpChannel(this.options);
    this.opened.push(channel);
    return Promise.resolve(channel);
  }
}

export class SseTarget implements Target {
  readonly kind = 'sse' as const;
  readonly label: string;
  readonly options: HttpTargetOptions;

  constructor(options: HttpTargetOptions) {
    this.options = options;
    this.label = `${options.url} (HTTP+SSE)`;
  }

  readonly opened: SseChannel[] = [];

  async open(): Promise<Channel> {
    const channel = await SseChannel.open(this.options);
    this.opened.push(channel);
    return channel;
  }
}
