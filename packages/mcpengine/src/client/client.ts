/**
 * `Client`: reusable configuration — identity, capabilities, handlers (sampling, elicitation, roots) and
 * middleware. Each `connect()` opens a `ClientSession` with one server; one client holds any number of sessions
 * at once, to the same or different servers, in either era.
 */
import { LATEST_LEGACY_REVISION, LATEST_REVISION } from '../protocol/revisions.js';
import type { ClientCapabilities, Implementation } from '../protocol/types.js';
import type { Transport } from '../transports/transport.js';
import { declaredCapabilities } from './capabilities.js';
import { composeClientMiddleware, type ComposedClientMiddleware } from './middleware.js';
import { openSession, type ClientSession, type SessionSetup } from './session.js';
import type { ClientMiddleware, ClientOptions, ConnectOptions } from './types.js';

export class Client {
  private readonly options: ClientOptions;
  private readonly middleware: ClientMiddleware[];
  private chain: ComposedClientMiddleware | undefined;

  constructor(options: ClientOptions) {
    if (!options?.name || !options.version) throw new TypeError('Client needs a name and a version');
    this.options = options;
    this.middleware = [...(options.middleware ?? [])];
    this.chain = composeClientMiddleware(this.middleware);
  }

  get info(): Implementation {
    const info: Implementation = { name: this.options.name, version: this.options.version };
    if (this.options.title !== undefined) info.title = this.options.title;
    return info;
  }

  /** The capabilities this client declares. */
  get capabilities(): ClientCapabilities {
    return declaredCapabilities(this.options);
  }

  /**
   * Adds middleware around every message its sessions send and receive (see `ClientCall`), inside the ones
   * added before. Applies to sessions already open too. Returns the client, for chaining.
   */
  use(middleware: ClientMiddleware): this {
    this.middleware.push(middleware);
    this.chain = composeClientMiddleware(this.middleware);
    return this;
  }

  /**
   * Opens a session over `transport`: probes with `server/discover` (modern) and falls back to `initialize`
   * (legacy), or speaks the revision pinned in `options`. Resolves once the handshake is done.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ClientSession> {
    const setup: SessionSetup = {
      options: this.options,
      info: this.info,
      middleware: () => this.chain,
    };
    return openSession(setup, transport, options);
  }
}

export { LATEST_REVISION, LATEST_LEGACY_REVISION };
