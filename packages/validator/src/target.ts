/**
 * The server under test and how to reach it. Every `open()` is a fresh connection: a new process on stdio, a
 * new (session-less) client on HTTP, a new event stream on HTTP+SSE.
 */
import {
  HttpChannel,
  SseChannel,
  StdioChannel,
  type Channel,
  type HttpTargetOptions,
  type StdioLaunch,
  type TransportKind,
} from '@mcpengine/wire';

export interface Target {
  readonly kind: TransportKind;
  /** How the report names the target (never includes secrets). */
  readonly label: string;
  /** Every channel opened so far (the transport checks read them all). */
  readonly opened: readonly Channel[];
  open(): Promise<Channel>;
  /** Closes every channel opened so far, and any that an in-flight `open()` yields later. */
  dispose(): Promise<void>;
}

/** The bookkeeping every target shares: what it opened, and whether the run is over. */
abstract class Opened<C extends Channel> {
  readonly opened: C[] = [];
  #disposed = false;

  protected async keep(channel: C): Promise<C> {
    this.opened.push(channel);
    if (this.#disposed) {
      await channel.close().catch(() => undefined);
      throw new Error('the validation is over');
    }
    return channel;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await Promise.all(this.opened.map((channel) => channel.close().catch(() => undefined)));
  }
}

export class StdioTarget extends Opened<StdioChannel> implements Target {
  readonly kind = 'stdio' as const;
  readonly label: string;
  readonly launch: StdioLaunch;
  readonly #timeoutMs: number;
  /** A process started before the run (to tell a missing command from a failing server), not yet used. */
  #prestarted: StdioChannel | undefined;

  /**
   * `prestarted`: a channel already opened on `launch` and never written to; the first `open()` hands it out
   * instead of starting another process (a server start costs up to seconds of CPU on heavy servers).
   */
  constructor(launch: StdioLaunch, timeoutMs: number, label: string, prestarted?: StdioChannel) {
    super();
    this.launch = launch;
    this.#timeoutMs = timeoutMs;
    this.label = label;
    this.#prestarted = prestarted;
  }

  async open(): Promise<Channel> {
    const prestarted = this.#prestarted;
    this.#prestarted = undefined;
    if (prestarted !== undefined && prestarted.alive()) return this.keep(prestarted);
    if (prestarted !== undefined) await prestarted.close().catch(() => undefined);
    return this.keep(await StdioChannel.open(this.launch, this.#timeoutMs));
  }

  override async dispose(): Promise<void> {
    const prestarted = this.#prestarted;
    this.#prestarted = undefined;
    await Promise.all([super.dispose(), prestarted?.close().catch(() => undefined)]);
  }
}

export class StreamableHttpTarget extends Opened<HttpChannel> implements Target {
  readonly kind = 'streamable-http' as const;
  readonly label: string;
  readonly options: HttpTargetOptions;

  constructor(options: HttpTargetOptions) {
    super();
    this.options = options;
    this.label = options.url;
  }

  open(): Promise<Channel> {
    return this.keep(new HttpChannel(this.options));
  }
}

export class SseTarget extends Opened<SseChannel> implements Target {
  readonly kind = 'sse' as const;
  readonly label: string;
  readonly options: HttpTargetOptions;

  constructor(options: HttpTargetOptions) {
    super();
    this.options = options;
    this.label = `${options.url} (HTTP+SSE)`;
  }

  async open(): Promise<Channel> {
    return this.keep(await SseChannel.open(this.options));
  }
}
