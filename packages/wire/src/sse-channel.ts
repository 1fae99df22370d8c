/**
 * The HTTP+SSE transport of 2024-11-05 (deprecated since 2025-03-26): a GET opens an event stream whose first
 * event, `endpoint`, names the URI to POST messages to; every server message arrives as a `message` event on the
 * stream.
 */
import { requestIdsIn, type HttpInfo, type Received, type SseEvent } from './channel.js';
import { lowerKeys, type HttpTargetOptions } from './http-channel.js';
import { SseParser } from './sse.js';
import { StreamChannel } from './stream-channel.js';

export interface PostRecord {
  readonly body: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly responseBody: string;
}

export class SseChannel extends StreamChannel {
  readonly kind = 'sse' as const;
  readonly options: HttpTargetOptions;
  /** The GET that opened the stream. */
  readonly stream: HttpInfo;
  /** The `endpoint` event's data, and the URL it resolves to. */
  readonly endpoint: { readonly data: string; readonly url: string } | undefined;
  readonly events: SseEvent[] = [];
  readonly posts: PostRecord[] = [];
  readonly parser: SseParser;
  #open = true;
  #end: string | undefined;
  readonly #controller: AbortController;
  readonly #started = Date.now();

  private constructor(
    options: HttpTargetOptions,
    stream: HttpInfo,
    endpoint: { data: string; url: string } | undefined,
    parser: SseParser,
    controller: AbortController,
  ) {
    super(options.timeoutMs);
    this.options = options;
    this.stream = stream;
    this.endpoint = endpoint;
    this.parser = parser;
    this.#controller = controller;
  }

  /**
   * Opens the stream and waits for the `endpoint` event. Rejects when there is no event stream at the URL; a
   * stream without an `endpoint` event gives a channel that cannot send (its `endpoint` is undefined).
   */
  static async open(options: HttpTargetOptions): Promise<SseChannel> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    const requestHeaders = { accept: 'text/event-stream', ...lowerKeys(options.headers) };
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'GET',
        headers: requestHeaders,
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (error) {
      clearTimeout(timer);
      throw new Error(
        `GET ${options.url} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const contentType = headers['content-type'] ?? '';
    const info = {
      method: 'GET',
      url: options.url,
      requestHeaders,
      status: response.status,
      headers,
      contentType,
      body: '',
    };
    if (!response.ok || !contentType.startsWith('text/event-stream') || response.body === null) {
      clearTimeout(timer);
      const body = await response.text().catch(() => '');
      controller.abort();
      throw new Error(
        `GET ${options.url} answered ${response.status} ${contentType || '(no content type)'}, not an event stream: ${body.slice(0, 200)}`,
      );
    }
    // Events before the channel exists are kept; afterwards they go straight to it.
    const holder: { channel?: SseChannel } = {};
    const early: SseEvent[] = [];
    let endpointResolve: (event: SseEvent | undefined) => void = () => {};
    const endpointEvent = new Promise<SseEvent | undefined>((resolve) => {
      endpointResolve = resolve;
    });
    const parser = new SseParser((event) => {
      if (holder.channel === undefined) {
        early.push(event);
        if (event.event === 'endpoint') endpointResolve(event);
      } else {
        holder.channel.#onEvent(event);
      }
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let endedEarly: string | undefined;
    let ended: (reason: string) => void = (reason) => {
      endedEarly = reason;
    };
    const pump = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            parser.push(decoder.decode());
            parser.end();
            ended('the server ended the event stream');
            return;
          }
          parser.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        ended('the event stream was closed');
      }
    })();
    const first = await Promise.race([endpointEvent, pump.then(() => undefined)]);
    clearTimeout(timer);
    const endpoint =
      first === undefined
        ? undefined
        : { data: first.data, url: new URL(first.data, options.url).toString() };
    const opened = new SseChannel(options, info, endpoint, parser, controller);
    holder.channel = opened;
    ended = (reason) => opened.#closed(reason);
    for (const event of early) opened.events.push(event);
    for (const event of early.filter((e) => e.event === 'message')) opened.#onEvent(event, false);
    if (endedEarly !== undefined) opened.#closed(endedEarly);
    return opened;
  }

  #onEvent(event: SseEvent, record = true): void {
    if (record) this.events.push(event);
    if (event.event !== 'message') return;
    let received: Received;
    try {
      received = {
        at: Date.now() - this.#started,
        text: event.data,
        message: JSON.parse(event.data) as unknown,
      };
    } catch (error) {
      received = {
        at: Date.now() - this.#started,
        text: event.data,
        parseError: error instanceof Error ? error.message : String(error),
      };
    }
    this.deliver(received);
  }

  #closed(reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    this.#end = reason;
    this.ended();
  }

  protected async write(text: string): Promise<boolean> {
    if (this.endpoint === undefined || !this.#open) return false;
    const post = await this.post(text);
    return post.status >= 200 && post.status < 300;
  }

  /** POSTs a message to the endpoint and records the answer. */
  async post(text: string, extraHeaders: Record<string, string> = {}): Promise<PostRecord> {
    const url = this.endpoint?.url ?? this.options.url;
    // Whatever answers arrive on the stream for this POST answer a request the validator sent.
    for (const id of requestIdsIn(text)) this.sentIds.add(id);
    const headers = {
      'content-type': 'application/json',
      ...lowerKeys(this.options.headers),
      ...lowerKeys(extraHeaders),
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: text,
        signal: controller.signal,
        redirect: 'manual',
      });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      const record = {
        body: text,
        status: response.status,
        headers: responseHeaders,
        responseBody: await response.text(),
      };
      this.posts.push(record);
      return record;
    } catch (error) {
      const record = {
        body: text,
        status: 0,
        headers: {},
        responseBody: error instanceof Error ? error.message : String(error),
      };
      this.posts.push(record);
      return record;
    } finally {
      clearTimeout(timer);
    }
  }

  alive(): boolean {
    return this.#open;
  }

  deathNote(): string | undefined {
    return this.#end;
  }

  close(): Promise<void> {
    this.#open = false;
    this.#controller.abort();
    return Promise.resolve();
  }
}
