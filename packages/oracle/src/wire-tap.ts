/**
 * Follows one client–server conversation, works out which revision each message belongs to, and validates
 * every message with the oracle.
 *
 * Revision tracking:
 * - legacy: the `initialize` request validates at the revision it asks for (`params.protocolVersion`, else
 *   2025-11-25); everything after the `initialize` result validates at the negotiated `protocolVersion`.
 * - modern: a request carrying `_meta["io.modelcontextprotocol/protocolVersion"]` validates at that revision,
 *   and so do its response and the notifications tied to it (its progress token, its subscription id, its
 *   cancellation). Other messages validate at the revision of the latest such request, unless `initialize`
 *   happened, which takes precedence.
 * - a pinned revision overrides all of that.
 */
import { idKey, isJsonObject, metaOf, shapeOf, type JsonObject } from './message-shape.js';
import { isRevision, LATEST_LEGACY_REVISION, otherSide, type Revision, type Side } from './revisions.js';

/** Revisions from this one on are modern (per-request `_meta`, no handshake). */
const FIRST_MODERN_REVISION = '2026-07-28';
import { defaultOracle, type CheckContext, type WireOracle } from './wire-oracle.js';
import { META_PROTOCOL_VERSION, META_SUBSCRIPTION_ID } from './wire-rules.js';
import { formatViolation, type WireViolation } from './wire-violation.js';

export interface WireTapOptions {
  /** Defaults to the process-wide `defaultOracle()`. */
  readonly oracle?: WireOracle;
  /** Validate everything at this revision, whatever the conversation negotiates. */
  readonly revision?: Revision;
  /** Whose messages to validate; defaults to both. The other side's messages are still followed. */
  readonly validate?: readonly Side[];
}

/** A request still waiting for its response. */
interface Pending {
  readonly method: string;
  readonly revision: Revision;
  readonly taskAugmented: boolean;
}

export class WireTap {
  readonly #oracle: WireOracle;
  readonly #pinned: Revision | undefined;
  readonly #validated: ReadonlySet<Side>;
  readonly #violations: WireViolation[] = [];
  /** Keyed by requester and id. */
  readonly #pending = new Map<string, Pending>();
  /** Request revisions by progress token, for `notifications/progress`. */
  readonly #progressTokens = new Map<string, Revision>();
  /**
   * Request revisions by id, kept after the response: a `subscriptions/listen` id names its subscription, and a
   * cancellation may cross the response on the wire.
   */
  readonly #requestIds = new Map<string, Revision>();
  /** What the `initialize` request asked for: the revision of everything until its result arrives. */
  #requested: Revision | undefined;
  #negotiated: Revision | undefined;
  #initialized = false;
  #modern: Revision | undefined;
  /**
   * The methods each side declared it accepts as tasks (2025-11-25 `capabilities.tasks.requests`), once its
   * `initialize` message was seen. A receiver that did not declare a method processes it normally, ignoring
   * `params.task`, so only a declared method is answered by a `CreateTaskResult`.
   */
  readonly #taskMethods = new Map<Side, ReadonlySet<string>>();

  constructor(options: WireTapOptions = {}) {
    this.#oracle = options.oracle ?? defaultOracle();
    if (options.revision !== undefined && !isRevision(options.revision)) {
      throw new TypeError(`Unknown MCP revision ${JSON.stringify(options.revision)}`);
    }
    this.#pinned = options.revision;
    this.#validated = new Set(options.validate ?? ['client', 'server']);
  }

  /** Every violation seen so far, in order. */
  get violations(): WireViolation[] {
    return [...this.#violations];
  }

  /** The revision of the conversation: pinned, negotiated by `initialize`, or announced by modern requests. */
  get revision(): Revision | undefined {
    if (this.#pinned !== undefined) return this.#pinned;
    return this.#initialized ? this.#negotiated : (this.#modern ?? this.#negotiated);
  }

  /** Records one message as it went over the wire: a serialized string, or an already parsed value. */
  record(message: unknown, sender: Side): void {
    let parsed: unknown = message;
    if (typeof message === 'string') {
      try {
        parsed = JSON.parse(message);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#report(sender, {
          revision: this.#current(),
          sender,
          message,
          definition: 'JSONRPCMessage',
          errors: [`not JSON: ${reason}`],
        });
        return;
      }
    }
    if (!Array.isArray(parsed)) {
      this.#recordOne(parsed, sender);
      return;
    }
    if (this.#validated.has(sender)) {
      this.#report(sender, this.#oracle.checkBatch(parsed, { revision: this.#current(), sender }));
    }
    for (const element of parsed) this.#recordOne(element, sender);
  }

  /** Throws an error describing every violation, if there was any. */
  assertClean(): void {
    if (this.#violations.length === 0) return;
    const count = this.#violations.length;
    const list = this.#violations.map((violation, index) => `${index + 1}) ${formatViolation(violation)}`);
    throw new Error(`${count} message(s) violate the official MCP schema:\n\n${list.join('\n\n')}`);
  }

  #recordOne(message: unknown, sender: Side): void {
    const shape = shapeOf(message);
    if (shape === undefined || !isJsonObject(message)) {
      this.#check(message, { revision: this.#current(), sender });
      return;
    }
    switch (shape) {
      case 'request':
        this.#request(message, sender);
        return;
      case 'notification':
        this.#check(message, { revision: this.#pinned ?? this.#notificationRevision(message), sender });
        return;
      case 'result':
      case 'error':
        this.#response(message, sender, shape === 'result');
        return;
    }
  }

  #request(message: JsonObject, sender: Side): void {
    const method = message['method'];
    const params = isJsonObject(message['params']) ? message['params'] : undefined;
    let revision = this.#current();
    if (method === 'initialize') {
      const requested = params?.['protocolVersion'];
      // A client may ask for a revision this oracle does not know; the server then negotiates one it does.
      revision = isRevision(requested) ? requested : LATEST_LEGACY_REVISION;
      this.#requested = revision;
      this.#taskMethods.set(sender, declaredTaskMethods(params?.['capabilities']));
    } else {
      const announced = metaOf(message)?.[META_PROTOCOL_VERSION];
      // A modern request names its own revision even on a stream that also carries a legacy session.
      const modernAfterInit = isRevision(announced) && announced >= FIRST_MODERN_REVISION;
      if (announced !== undefined && (!this.#initialized || modernAfterInit)) {
        if (isRevision(announced)) {
          this.#modern = announced;
          revision = announced;
        } else if (this.#pinned === undefined) {
          this.#unsupportedVersion(message, sender, announced, `/params/_meta/${META_PROTOCOL_VERSION}`);
          return;
        }
      }
    }

    const id = idKey(message['id']);
    if (id !== undefined && typeof method === 'string') {
      this.#pending.set(`${sender}|${id}`, {
        method,
        revision,
        taskAugmented: params?.['task'] !== undefined && this.#acceptsTask(otherSide(sender), method),
      });
      this.#requestIds.set(id, revision);
    }
    const token = idKey(metaOf(message)?.['progressToken']);
    if (token !== undefined) this.#progressTokens.set(token, revision);
    this.#check(message, { revision: this.#pinned ?? revision, sender });
  }

  #response(message: JsonObject, sender: Side, isResult: boolean): void {
    const id = idKey(message['id']);
    const key = `${otherSide(sender)}|${id}`;
    const request = id === undefined ? undefined : this.#pending.get(key);
    if (request) this.#pending.delete(key);
    let revision = request?.revision ?? this.#current();

    if (request?.method === 'initialize' && isResult) {
      this.#initialized = true;
      const result = message['result'];
      const negotiated = isJsonObject(result) ? result['protocolVersion'] : undefined;
      if (isJsonObject(result)) this.#taskMethods.set(sender, declaredTaskMethods(result['capabilities']));
      if (isRevision(negotiated)) {
        this.#negotiated = negotiated;
        revision = negotiated;
      } else if (this.#pinned === undefined) {
        this.#unsupportedVersion(message, sender, negotiated, '/result/protocolVersion');
      }
    }
    const ctx: CheckContext = {
      revision: this.#pinned ?? revision,
      sender,
      ...(request && { inReplyTo: request.method, taskAugmented: request.taskAugmented }),
    };
    this.#check(message, ctx);
  }

  /** Whether `receiver` treats `params.task` on `method` as task augmentation (unknown capabilities: yes). */
  #acceptsTask(receiver: Side, method: string): boolean {
    const declared = this.#taskMethods.get(receiver);
    return declared === undefined || declared.has(method);
  }

  /** The revision of the request a notification refers to, else the conversation's. */
  #notificationRevision(message: JsonObject): Revision {
    const params = isJsonObject(message['params']) ? message['params'] : undefined;
    const byToken = this.#progressTokens.get(idKey(params?.['progressToken']) ?? '');
    const bySubscription = this.#requestIds.get(idKey(metaOf(message)?.[META_SUBSCRIPTION_ID]) ?? '');
    const byCancelled =
      message['method'] === 'notifications/cancelled'
        ? this.#requestIds.get(idKey(params?.['requestId']) ?? '')
        : undefined;
    return byToken ?? bySubscription ?? byCancelled ?? this.#current();
  }

  /** The revision for messages that do not carry their own. */
  #current(): Revision {
    return this.revision ?? this.#requested ?? LATEST_LEGACY_REVISION;
  }

  #unsupportedVersion(message: JsonObject, sender: Side, version: unknown, path: string): void {
    this.#report(sender, {
      revision: this.#current(),
      sender,
      message,
      definition: path.startsWith('/result') ? 'InitializeResult' : 'RequestMetaObject',
      errors: [`${path} ${JSON.stringify(version)} is not a revision this oracle knows`],
    });
  }

  #check(message: unknown, ctx: CheckContext): void {
    if (this.#validated.has(ctx.sender)) this.#report(ctx.sender, this.#oracle.check(message, ctx));
  }

  #report(sender: Side, violation: WireViolation | null): void {
    if (violation && this.#validated.has(sender)) this.#violations.push(violation);
  }
}

/** `tasks.requests` of 2025-11-25 capabilities as method names: `{ tools: { call: {} } }` → `tools/call`. */
function declaredTaskMethods(capabilities: unknown): ReadonlySet<string> {
  const methods = new Set<string>();
  const tasks = isJsonObject(capabilities) ? capabilities['tasks'] : undefined;
  const requests = isJsonObject(tasks) ? tasks['requests'] : undefined;
  if (!isJsonObject(requests)) return methods;
  for (const [area, verbs] of Object.entries(requests)) {
    if (!isJsonObject(verbs)) continue;
    for (const verb of Object.keys(verbs)) methods.add(`${area}/${verb}`);
  }
  return methods;
}
