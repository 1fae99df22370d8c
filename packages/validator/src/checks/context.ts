/**
 * What a probe works with: the target, the revision under test, the server's profile, what was listed so far,
 * and a recorder for outcomes. Every response that comes back through `rpc` is also validated against the
 * official schema of the revision.
 */
import { eraOf, type Era } from '../revisions.js';
import type { Revision } from '../catalog/model.js';
import { takeSpare, type Discovery, type RefusedConnection } from '../discovery.js';
import type { Judgement } from './expect.js';
import type { Evidence, Outcome } from '../outcomes.js';
import { SchemaObserver } from '../schema-observer.js';
import {
  hasCapability,
  LegacySession,
  modernRequest,
  type ModernRequestOptions,
  type ServerProfile,
} from '../session.js';
import type { Target } from '../target.js';
import {
  HttpChannel,
  type CallResult,
  type Channel,
  type JsonObject,
  type ParamHeader,
} from '@mcpengine/wire';

export { eraOf, type Era };

/**
 * Tool annotations seen in any revision, by tool name: 2024-11-05 has no annotations, so whether a tool is
 * read-only there is learnt from the same server's listing in a newer revision.
 */
export class SharedAnnotations {
  readonly readOnly = new Set<string>();
  #settle: () => void = () => {};
  readonly settled: Promise<void> = new Promise((resolve) => {
    this.#settle = resolve;
  });

  settle(): void {
    this.#settle();
  }
}

/**
 * What the baseline file holds: tool definition hashes per revision. Declared here, beside the settings that carry
 * it, rather than in security.ts (which fills it), because the security probe itself imports this module.
 */
export type Baseline = Record<string, Record<string, string>>;

/** The default bound for "The receiver MUST respond promptly" to a ping. */
export const DEFAULT_PING_BOUND_MS = 2000;

export interface RunSettings {
  /** Robustness failures (replies to garbage input) fail the run (`--strict`). */
  readonly strict?: boolean;
  /** Time limit for one request. */
  readonly requestTimeoutMs: number;
  /** Time limit for one probe (all its requests). */
  readonly probeTimeoutMs: number;
  /**
   * What "promptly" means for a ping (`--ping-bound`, default DEFAULT_PING_BOUND_MS): a slower answer is judged
   * against the server's other answers of the moment (interpretations.md, "A ping answered promptly").
   */
  readonly pingBoundMs?: number;
  /** Tools the validator may call besides those annotated `readOnlyHint: true`. */
  readonly callTools: ReadonlySet<string>;
  readonly callAllTools: boolean;
  /** Read-only tools learnt from annotated revisions (set by the runner). */
  readonly annotations?: SharedAnnotations;
  /** Tool definition hashes: those recorded by an earlier run, and those of this run (filled by the lints). */
  readonly baseline?: { readonly previous: Baseline | undefined; readonly current: Baseline };
}

/** Lists gathered once per revision and shared by later probes. */
export interface Inventory {
  tools?: JsonObject[];
  resources?: JsonObject[];
  templates?: JsonObject[];
  prompts?: JsonObject[];
}

/** A tool call made by the tools probe, kept for the progress and MRTR probes. */
export interface ToolCallRecord {
  readonly tool: JsonObject;
  /** The exchange; for a call cancelled in place, what had arrived when the cancellation was sent. */
  readonly call: CallResult;
  readonly progressToken: string;
  /** Set when the tools probe cancelled this call in flight (the cancellation probe judges what followed). */
  readonly cancelled?: InPlaceCancellation;
}

/**
 * A tool call cancelled while it was still working (it kept reporting progress), instead of being waited for and
 * then called a second time just to be cancelled.
 */
export interface InPlaceCancellation {
  readonly channel: Channel;
  /** The `notifications/cancelled` sent, and when. */
  readonly notification: JsonObject;
  readonly at: number;
  /**
   * The request sent right behind the cancellation and its answer: once that answer is in, the server has read
   * the cancellation, so an answer or progress of the tool arriving later was sent after it.
   */
  readonly fence: CallResult;
  /**
   * Where in the channel's messages an answer to the request starts to count: after the fence's answer (an
   * earlier one may have crossed the cancellation), or right after the cancellation for a tool cancelled at once.
   */
  readonly answersFrom: number | undefined;
  /** How long after the fence's answer the request is watched. */
  readonly watchMs: number;
  /** The call itself, still waiting for an answer; `stop` ends the wait. */
  readonly pending: Promise<CallResult>;
  stop(): void;
}

/** What the probes of one revision share: the outcomes, the session, the server's profile, the lists. */
export class RevisionState {
  readonly revision: Revision;
  readonly era: Era;
  readonly target: Target;
  readonly settings: RunSettings;
  readonly outcomes: Outcome[] = [];
  readonly inventory: Inventory = {};
  readonly toolCalls: ToolCallRecord[] = [];
  /** Ids of the subscriptions/listen requests sent (server cancellations may reference only these). */
  readonly listenIds = new Set<unknown>();
  /** Connections whose requests set a log level (the logging opt-in judge leaves them out). */
  readonly logLevelChannels = new Set<Channel>();
  /** `x-mcp-header` parameters per tool (2026-07-28), mirrored by every HTTP channel opened after listing. */
  toolHeaders = new Map<string, readonly ParamHeader[]>();
  readonly schema: SchemaObserver;
  /** The server's capabilities and identity for this revision. */
  profile: ServerProfile | undefined;
  session: LegacySession | undefined;
  modernChannel: Channel | undefined;
  readonly discovery: Discovery;
  /** Set once a fresh session could not be initialized: later probes give up at once instead of waiting again. */
  sessionFailed = false;

  constructor(revision: Revision, target: Target, settings: RunSettings, discovery: Discovery) {
    this.revision = revision;
    this.discovery = discovery;
    this.era = eraOf(revision);
    this.target = target;
    this.settings = settings;
    this.schema = new SchemaObserver(revision, {
      pass: (check, message, evidence = []) =>
        this.outcomes.push({ check, status: 'pass', message, evidence }),
      fail: (check, message, evidence = [], facets) =>
        this.outcomes.push({
          check,
          status: 'fail',
          message,
          evidence,
          ...(facets === undefined || facets.length === 0 ? {} : { facets: [...new Set(facets)] }),
        }),
    });
  }

  /** Every channel opened for this revision, in order. */
  readonly channels: Channel[] = [];

  /** Connections the server refused during this revision's probes (judged by `transport.connections`). */
  readonly refused: RefusedConnection[] = [];

  /** Connections started ahead of need (`warm`), not handed out yet. */
  readonly #warm: Promise<Channel | undefined>[] = [];

  /**
   * Starts `count` connections now, for the probes that will need fresh ones later: on stdio each is a server
   * process that has been sent nothing yet, exactly what a fresh `open()` gives, but started side by side with the
   * rest instead of when a probe late in its lane asks. A failure here is not recorded: the probe's own
   * `openChannel` then opens (and judges) a connection itself.
   */
  warm(count: number): void {
    for (let i = 0; i < count; i++) this.#warm.push(this.target.open().catch(() => undefined));
  }

  async openChannel(purpose = 'a probe'): Promise<Channel> {
    while (this.#warm.length > 0) {
      const ready = await this.#warm.shift()!;
      if (ready === undefined) continue;
      if (!ready.alive()) {
        // Died while waiting (a server that exits on its own): a fresh start is what the probe would have got.
        this.closing.push(ready.close().catch(() => undefined));
        continue;
      }
      if (ready instanceof HttpChannel) ready.toolHeaders = this.toolHeaders;
      this.channels.push(ready);
      return ready;
    }
    let channel: Channel;
    try {
      channel = await this.target.open();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.refused.push({ purpose, error: message });
      // The probe stops here; its checks are reported as not run, with this reason, and the refusal fails
      // the run (a server that breaks connections does not pass on the checks that could still run).
      throw new ProbeAbort(`the server refused a connection: ${message}`);
    }
    if (channel instanceof HttpChannel) channel.toolHeaders = this.toolHeaders;
    this.channels.push(channel);
    return channel;
  }

  /** Set once a tool not annotated read-only was called: the server's state may have changed. */
  mutated = false;

  /** Channels on which the validator declared client capabilities (their server requests are legitimate). */
  readonly capable = new Set<Channel>();

  /** Requests the server sent on this revision's channels, those that declared client capabilities excepted. */
  get serverRequests(): JsonObject[] {
    return this.channels
      .filter((channel) => !this.capable.has(channel))
      .flatMap(
        (channel) =>
          (channel as Channel & { serverRequests?: { request: JsonObject }[] }).serverRequests?.map(
            (entry) => entry.request,
          ) ?? [],
      );
  }

  /**
   * The connection the robustness probes share while the server keeps recovering from bad input; replaced by a
   * fresh one as soon as it does not, so one failure never spills into the next probe.
   */
  robust: Channel | undefined;
  /** A second connection (modern era) for the checks that compare two connections. */
  other: Channel | undefined;
  /**
   * Legacy revisions on stdio: the connection the legacy handshake ends with (initialized with the revision, after
   * its quiet moment), handed over to the robustness lane as its shared connection, which saves a server start
   * per revision. Resolved once the handshake probe is over (undefined when it has no such connection).
   */
  handoff:
    | {
        readonly channel: Promise<Channel | undefined>;
        give(channel: Channel | undefined): void;
        /** Set once the robustness lane asked for it. */
        taken: boolean;
      }
    | undefined;

  /** Arranges the handoff (the runner does, when both the handshake and the robustness probes run). */
  expectHandoff(): void {
    let give: (channel: Channel | undefined) => void = () => {};
    const channel = new Promise<Channel | undefined>((resolve) => {
      give = resolve;
    });
    this.handoff = { channel, give: (c) => give(c), taken: false };
  }
  /** Serialises the opening of the shared connections between the probe lanes. */
  opening: Promise<unknown> = Promise.resolve();

  /** Connections being closed in the background. */
  readonly closing: Promise<void>[] = [];

  async close(): Promise<void> {
    const shared = [this.session?.channel, this.modernChannel, this.robust, this.other].filter(
      (c): c is Channel => c !== undefined,
    );
    this.session = undefined;
    this.modernChannel = undefined;
    this.robust = undefined;
    this.other = undefined;
    const unused = this.#warm.splice(0).map(async (ready) => (await ready)?.close());
    await Promise.all([...shared.map((channel) => channel.close()), ...this.closing, ...unused]);
  }
}

/**
 * One probe's view of the revision. Its outcomes are buffered and handed over when the probe ends; once the
 * runner has sealed it (the probe ran out of time), anything the probe still records is dropped.
 */
export class ProbeContext {
  readonly state: RevisionState;
  readonly outcomes: Outcome[] = [];
  readonly #opened = new Set<Channel>();
  #sealed = false;

  constructor(state: RevisionState) {
    this.state = state;
  }

  get revision(): Revision {
    return this.state.revision;
  }
  get era(): Era {
    return this.state.era;
  }
  get target(): Target {
    return this.state.target;
  }
  get settings(): RunSettings {
    return this.state.settings;
  }
  get inventory(): Inventory {
    return this.state.inventory;
  }
  get schema(): SchemaObserver {
    return this.state.schema;
  }
  get profile(): ServerProfile | undefined {
    return this.state.profile;
  }
  get discovery(): Discovery {
    return this.state.discovery;
  }

  /** Stops accepting outcomes and returns those recorded so far. */
  seal(): Outcome[] {
    this.#sealed = true;
    return this.outcomes;
  }

  // ── recording ───────────────────────────────────────────────────────────────────────────────────────────

  #record(outcome: Outcome): void {
    if (!this.#sealed) this.outcomes.push(outcome);
  }

  pass(check: string, message: string, evidence: readonly Evidence[] = []): void {
    this.#record({ check, status: 'pass', message, evidence });
  }

  /** Records a failure; `facets` names the rules of the check it breaks when it does not break them all. */
  fail(check: string, message: string, evidence: readonly Evidence[] = [], facets?: readonly string[]): void {
    this.#record({
      check,
      status: 'fail',
      message,
      evidence,
      ...(facets === undefined || facets.length === 0 ? {} : { facets: [...new Set(facets)] }),
    });
  }

  /** Passes or fails on `ok`. */
  expect(
    check: string,
    ok: boolean,
    passMessage: string,
    failMessage: string,
    evidence: readonly Evidence[],
    facets?: readonly string[],
  ): boolean {
    if (ok) this.pass(check, passMessage, evidence);
    else this.fail(check, failMessage, evidence, facets);
    return ok;
  }

  /** Records a judgement as it stands: its detail is the message (after `label`, when given) either way. */
  judge(check: string, judgement: Judgement, evidence: readonly Evidence[], label?: string): boolean {
    const message = label === undefined ? judgement.detail : `${label}: ${judgement.detail}`;
    return this.expect(check, judgement.ok, message, message, evidence);
  }

  notApplicable(check: string, reason: string): void {
    this.#record({ check, status: 'not-applicable', message: reason, evidence: [] });
  }

  notRun(check: string, reason: string, evidence: readonly Evidence[] = []): void {
    this.#record({ check, status: 'not-run', message: reason, evidence });
  }

  /** Whether this check already has an outcome from this probe. */
  recorded(check: string): boolean {
    return this.outcomes.some((outcome) => outcome.check === check);
  }

  has(capability: string): boolean {
    return hasCapability(this.profile, capability);
  }

  // ── connections ─────────────────────────────────────────────────────────────────────────────────────────

  /** A fresh connection (a new process on stdio), closed when the probe ends. */
  async open(): Promise<Channel> {
    const channel = await this.state.openChannel();
    this.#opened.add(channel);
    return channel;
  }

  /** Keeps one of the probe's own connections open when the probe ends (it was handed over). */
  keep(channel: Channel): void {
    this.#opened.delete(channel);
  }

  /**
   * Closes the probe's own connections. The processes are stopped in the background (the revision waits for them
   * at its end), so that the next probe need not wait for each shutdown.
   */
  closeOpened(): void {
    for (const channel of this.#opened) this.state.closing.push(channel.close().catch(() => undefined));
    this.#opened.clear();
  }

  /**
   * The revision's shared legacy session, opened (or re-opened, if the server died) on demand. `undefined`
   * when the server refuses to initialize with this revision.
   */
  session(): Promise<LegacySession | undefined> {
    // Probes of two lanes may ask at once: one opening at a time.
    const state = this.state;
    const next = state.opening.catch(() => undefined).then(() => this.#session());
    state.opening = next.catch(() => undefined);
    return next;
  }

  async #session(): Promise<LegacySession | undefined> {
    const state = this.state;
    if (state.session !== undefined && state.session.channel.alive()) return state.session;
    if (state.session !== undefined) await state.session.channel.close();
    else {
      // The first session reuses the connection discovery initialized with this revision.
      const spare = takeSpare(state.discovery, this.revision);
      const call = state.discovery.initialize.get(this.revision);
      if (spare !== undefined && call !== undefined) {
        state.channels.push(spare);
        state.session = await LegacySession.adopt(spare, this.revision, call);
        state.profile ??= state.session.profile;
        return state.session;
      }
    }
    if (state.sessionFailed) return undefined;
    const channel = await state.openChannel();
    const { session, call } = await LegacySession.open(channel, this.revision, {
      timeoutMs: this.settings.requestTimeoutMs,
    });
    if (session === undefined) {
      await channel.close();
      state.session = undefined;
      state.sessionFailed = true;
      return undefined;
    }
    this.schema.response(call, 'initialize');
    state.session = session;
    state.profile ??= session.profile;
    return session;
  }

  /** The shared modern connection (stateless: any connection serves any request). */
  modernChannel(): Promise<Channel> {
    const state = this.state;
    const next = state.opening.catch(() => undefined).then(() => this.#modernChannel());
    state.opening = next.catch(() => undefined);
    return next;
  }

  async #modernChannel(): Promise<Channel> {
    const state = this.state;
    if (state.modernChannel !== undefined && state.modernChannel.alive()) return state.modernChannel;
    if (state.modernChannel !== undefined) await state.modernChannel.close();
    else {
      const spare = takeSpare(state.discovery, 'modern');
      if (spare !== undefined) {
        state.channels.push(spare);
        state.modernChannel = spare;
        return spare;
      }
    }
    state.modernChannel = await state.openChannel();
    return state.modernChannel;
  }

  /**
   * A request in the revision's era: on the shared legacy session, or as a modern request with `_meta`. The
   * response (and anything that arrived with it) is validated against the revision's schema.
   */
  async rpc(method: string, params?: JsonObject, options: ModernRequestOptions = {}): Promise<CallResult> {
    const { channel, message } = await this.prepare(method, params, options);
    const call = await channel.call(message, {
      timeoutMs: options.timeoutMs ?? this.settings.requestTimeoutMs,
      ...options,
    });
    this.schema.response(call, method);
    return call;
  }

  /**
   * The message `rpc` would send and the shared channel it would go on, for a probe that must know the request's
   * id while it waits (to cancel it).
   */
  async prepare(
    method: string,
    params?: JsonObject,
    options: ModernRequestOptions = {},
  ): Promise<{ channel: Channel; message: JsonObject }> {
    if (this.era === 'legacy') {
      const session = await this.session();
      if (session === undefined)
        throw new ProbeAbort(`the server no longer initializes with ${this.revision}`);
      const id = options.id ?? session.channel.nextId();
      const message =
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      return { channel: session.channel, message };
    }
    const channel = await this.modernChannel();
    return { channel, message: modernRequest(channel, this.revision, method, params, options) };
  }

  /** A second, shared connection (a second process on stdio), distinct from the main one. */
  async otherChannel(): Promise<Channel> {
    const state = this.state;
    if (state.other !== undefined && state.other.alive()) return state.other;
    state.other = await state.openChannel();
    return state.other;
  }

  /** A modern request on a given channel (for probes that need their own connection). */
  async modern(
    channel: Channel,
    method: string,
    params?: JsonObject,
    options: ModernRequestOptions = {},
  ): Promise<CallResult> {
    const call = await channel.call(modernRequest(channel, this.revision, method, params, options), {
      timeoutMs: options.timeoutMs ?? this.settings.requestTimeoutMs,
      ...options,
    });
    this.schema.response(call, method);
    return call;
  }

  /** Whether the validator may call this tool (annotated read-only, or allowed on the command line). */
  mayCall(tool: JsonObject): boolean {
    if (this.settings.callAllTools) return true;
    const name = tool['name'];
    if (typeof name === 'string' && this.settings.callTools.has(name)) return true;
    const annotations = tool['annotations'];
    if (typeof annotations === 'object' && annotations !== null)
      return (annotations as JsonObject)['readOnlyHint'] === true;
    return typeof name === 'string' && this.settings.annotations?.readOnly.has(name) === true;
  }
}

/** Thrown by helpers when a probe cannot go on; the runner reports the probe's remaining checks as not run. */
export class ProbeAbort extends Error {
  override readonly name = 'ProbeAbort';
}
