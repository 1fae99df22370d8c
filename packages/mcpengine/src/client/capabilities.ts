/**
 * The capabilities a client declares, per era: derived from its handlers unless given explicitly.
 */
import { REVISION_SPECS, type Revision, type RevisionSpec } from '../protocol/revisions.js';
import type { ClientCapabilities } from '../protocol/types.js';
import { clientTaskCapabilities } from './tasks.js';
import type { ClientOptions } from './types.js';

/** What the options declare: explicit capabilities, or the ones the handlers imply. */
export function declaredCapabilities(options: ClientOptions): ClientCapabilities {
  if (options.capabilities) return options.capabilities;
  const caps: ClientCapabilities = {};
  const handlers = options.handlers ?? {};
  if (handlers.sampling) caps.sampling = {};
  if (handlers.elicitation) caps.elicitation = { form: {} };
  if (handlers.roots) caps.roots = { listChanged: true };
  return caps;
}

/**
 * Legacy capabilities for the revision asked for: derived from the handlers, they leave out elicitation where
 * the revision has no `elicitation/create` (the client would only answer it with -32601). Explicit
 * capabilities are sent as given.
 */
export function legacyCapabilities(options: ClientOptions, revision: Revision): ClientCapabilities {
  const caps = { ...declaredCapabilities(options) };
  if (options.capabilities) return caps;
  if (!REVISION_SPECS[revision].serverRequests['elicitation/create']) delete caps.elicitation;
  return clientTaskCapabilities(REVISION_SPECS[revision], caps, options.handlers ?? {}, options.tasks);
}

/** Modern capabilities: `roots` has no `listChanged` (there is no roots notification any more). */
export function modernCapabilities(options: ClientOptions, spec: RevisionSpec): ClientCapabilities {
  const caps = { ...declaredCapabilities(options) };
  if (caps.roots) caps.roots = {};
  if (options.capabilities) return caps;
  return clientTaskCapabilities(spec, caps, options.handlers ?? {}, options.tasks);
}
