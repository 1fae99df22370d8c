/**
 * Speaking to the server in either era: the legacy `initialize` handshake, and the modern per-request `_meta`.
 */
import type { Revision } from './catalog/model.js';
import {
  isObject,
  notification,
  resultOf,
  type CallOptions,
  type CallResult,
  type Channel,
  type JsonObject,
  type RawResult,
} from '@mcpengine/wire';

export const CLIENT_INFO = { name: 'mcpengine-validate', version: '0.1.0' } as const;

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Hooks a transport offers the sessions (HTTP: session ids and version headers). */
export interface SessionAware {
  /** Called with the negotiated revision after a successful `initialize`. */
  negotiated?(revision: string): void;
}

export function initializeRequest(
  channel: Channel,
  protocolVersion: unknown,
  capabilities: JsonObject = {},
  clientInfo: JsonObject = CLIENT_INFO,
): JsonObject {
  return {
    jsonrpc: '2.0',
    id: channel.nextId(),
    method: 'initialize',
    params: { protocolVersion, capabilities, clientInfo },
  };
}

/** What the server said about itself: from the `initialize` result (legacy) or `server/discover` (modern). */
export interface ServerProfile {
  readonly capabilities: JsonObject;
  readonly serverInfo?: JsonObject;
  readonly instructions?: string;
}

export function profileOf(result: JsonObject | undefined): ServerProfile | undefined {
  if (result === undefined) return undefined;
  const capabilities = isObject(result['capabilities']) ? result['capabilities'] : {};
  const meta = isObject(result['_meta']) ? result['_meta'] : {};
  const fromMeta = meta[META.serverInfo];
  const serverInfo = isObject(result['serverInfo'])
    ? result['serverInfo']
    : isObject(fromMeta)
      ? fromMeta
      : undefined;
  return {
    capabilities,
    ...(serverInfo === undefined ? {} : { serverInfo }),
    ...(typeof result['instructions'] === 'string' ? { instructions: result['instructions'] } : {}),
  };
}

/** Whether a capability (`tools`, or a sub-flag such as `resources.subscribe`) is advertised. */
export function hasCapability(profile: ServerProfile | undefined, capability: string): boolean {
  if (profile === undefined) return false;
  // A dotted path: every step an object, the last one an object or `true` (`resources.subscribe`,
  // `tasks.requests.tools.call`).
  let value: unknown = profile.capabilities;
  for (const step of capability.split('.')) {
    if (!isObject(value)) return false;
    value = value[step];
  }
  return isObject(value) || value === true;
}

/** A legacy session: the handshake done on one channel (a stdio process, or an HTTP session). */
export class LegacySession {
  readonly channel: Channel;
  readonly revision: Revision;
  readonly profile: ServerProfile;
  readonly initializeCall: CallResult;

  private constructor(
    channel: Channel,
    revision: Revision,
    profile: ServerProfile,
    initializeCall: CallResult,
  ) {
    this.channel = channel;
    this.revision = revision;
    this.profile = profile;
    this.initializeCall = initializeCall;
  }

  /**
   * Initializes with `revision`. Returns the session only when the server answered with that same revision;
   * the call is returned either way, as evidence.
   */
  static async open(
    channel: Channel,
    revision: Revision,
    options: { capabilities?: JsonObject; timeoutMs?: number; clientInfo?: JsonObject } = {},
  ): Promise<{ session?: LegacySession; call: CallResult }> {
    const call = await channel.call(
      initializeRequest(channel, revision, options.capabilities, options.clientInfo),
      {
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
    );
    const result = resultOf(call);
    if (result === undefined || result['protocolVersion'] !== revision) return { call };
    (channel as Channel & SessionAware).negotiated?.(revision);
    await channel.send(notification('notifications/initialized'));
    return { session: new LegacySession(channel, revision, profileOf(result)!, call), call };
  }

  /** A session on a channel whose `initialize` already succeeded (sends the initialized notification). */
  static async adopt(channel: Channel, revision: Revision, call: CallResult): Promise<LegacySession> {
    (channel as Channel & SessionAware).negotiated?.(revision);
    await channel.send(notification('notifications/initialized'));
    return new LegacySession(channel, revision, profileOf(resultOf(call))!, call);
  }

  request(method: string, params?: JsonObject, options?: CallOptions): Promise<CallResult> {
    const id = this.channel.nextId();
    const message =
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    return this.channel.call(message, options);
  }

  notify(method: string, params?: JsonObject, options?: CallOptions): Promise<RawResult> {
    return this.channel.send(notification(method, params), options);
  }
}

export interface ModernRequestOptions extends CallOptions {
  /** Client capabilities declared in `_meta` (default: none). */
  readonly capabilities?: JsonObject;
  /** Override the protocol version in `_meta` (default: the run's revision). */
  readonly protocolVersion?: unknown;
  /** Extra `_meta` entries. */
  readonly meta?: JsonObject;
  /** Leave these `_meta` keys out (for malformed-request checks). */
  readonly omitMeta?: readonly string[];
  /** Use this id instead of the channel's next one. */
  readonly id?: string | number;
}

/** The `_meta` a modern request carries. */
export function modernMeta(revision: unknown, options: ModernRequestOptions = {}): JsonObject {
  const meta: JsonObject = {
    [META.protocolVersion]: options.protocolVersion ?? revision,
    [META.clientCapabilities]: options.capabilities ?? {},
    [META.clientInfo]: CLIENT_INFO,
    ...options.meta,
  };
  for (const key of options.omitMeta ?? []) delete meta[key];
  return meta;
}

/** A modern request: the params with `_meta` merged in. */
export function modernRequest(
  channel: Channel,
  revision: Revision,
  method: string,
  params: JsonObject = {},
  options: ModernRequestOptions = {},
): JsonObject {
  const existing = isObject(params['_meta']) ? params['_meta'] : {};
  return {
    jsonrpc: '2.0',
    id: options.id ?? channel.nextId(),
    method,
    params: { ...params, _meta: { ...modernMeta(revision, options), ...existing } },
  };
}
