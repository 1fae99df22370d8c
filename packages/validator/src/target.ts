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
  /** Processes started ahead of need and never written to (`prestart`), handed out first by `open()`. */
  readonly #ready: Promise<StdioChannel | undefined>[] = [];
  /** How many server processes this target started (handed out or not). */
  started = 0;

  /**
   * `prestarted`: a channel already opened on `launch` and never written to (the process started to tell a
   * missing command from a failing server); the first `open()` hands it out instead of starting another.
   */
  constructor(launch: StdioLaunch, timeoutMs: number, label: string, prestarted?: StdioChannel) {
    super();
    this.launch = launch;
    this.#timeoutMs = timeoutMs;
    this.label = label;
    if (prestarted !== undefined) {
      this.started++;
      this.#ready.push(Promise.resolve(prestarted));
    }
  }

  /**
   * Starts `count` server processes now, for connections the run will open later: a process that has been
   * sent nothing is exactly what a fresh start gives, and starting it early overlaps its start-up (seconds of
   * CPU for heavy servers) with the rest. A start that fails here is simply not handed out.
   */
  prestart(count: number): void {
    for (let i = 0; i < count; i++) {
      this.started++;
      this.#ready.push(StdioChannel.open(this.launch, this.#timeoutMs).catch(() => undefined));
    }
  }

  async open(): Promise<Channel> {
    while (this.#ready.length > 0) {
      const ready = await this.#ready.shift()!;
      if (ready !== undefined && ready.alive()) return this.keep(ready);
      // Exited while it waited (a server that stops on its own): a new start is what the caller would have got.
      if (ready !== undefined) await ready.close().catch(() => undefined);
    }
    this.started++;
    return this.keep(await StdioChannel.open(this.launch, this.#timeoutMs));
  }

  override async dispose(): Promise<void> {
    const unused = this.#ready.splice(0).map(async (ready) => (await ready)?.close().catch(() => undefined));
    await Promise.all([super.dispose(), ...unused]);
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
