/**
 * The server definition: an immutable snapshot of everything a server offers, compiled once.
 *
 * Tools, resources and prompts are compiled when registered (validators, final JSON Schemas, per-revision JSON);
 * a snapshot only arranges them. Runtime changes (add, remove, enable, disable) build a new snapshot that reuses
 * every unchanged compiled entry, so serving a request never compiles anything.
 */
import { REVISION_SPECS, type Revision, type RevisionSpec } from '../protocol/revisions.js';
import type { Implementation, JsonObject, ServerCapabilities } from '../protocol/types.js';
import type { Caller } from './context.js';
import { pickFields } from './features/content.js';
import type { CompiledPrompt } from './features/prompts.js';
import type { CompiledResource, CompiledTemplate } from './features/resources.js';
import type { CompiledTool } from './features/tools.js';

export interface ServerDefinition {
  /** Increases with every change; list pages are cached per version. */
  readonly version: number;
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** Capabilities in their newest form; `capabilitiesFor` trims them per revision. */
  readonly capabilities: ServerCapabilities;
  readonly revisions: readonly Revision[];
  readonly tools: readonly CompiledTool[];
  readonly toolsByName: ReadonlyMap<string, CompiledTool>;
  readonly resources: readonly CompiledResource[];
  readonly resourcesByUri: ReadonlyMap<string, CompiledResource>;
  readonly templates: readonly CompiledTemplate[];
  readonly prompts: readonly CompiledPrompt[];
  readonly promptsByName: ReadonlyMap<string, CompiledPrompt>;
}

export interface DefinitionParts {
  version: number;
  info: Implementation;
  instructions: string | undefined;
  capabilities: ServerCapabilities;
  revisions: readonly Revision[];
  tools: CompiledTool[];
  resources: CompiledResource[];
  templates: CompiledTemplate[];
  prompts: CompiledPrompt[];
}

export function buildDefinition(parts: DefinitionParts): ServerDefinition {
  return Object.freeze({
    ...parts,
    tools: Object.freeze(parts.tools),
    toolsByName: new Map(parts.tools.map((t) => [t.name, t])),
    resources: Object.freeze(parts.resources),
    resourcesByUri: new Map(parts.resources.map((r) => [r.uri, r])),
    templates: Object.freeze(parts.templates),
    prompts: Object.freeze(parts.prompts),
    promptsByName: new Map(parts.prompts.map((p) => [p.name, p])),
  });
}

const capabilityCache = new WeakMap<ServerDefinition, Map<RevisionSpec, ServerCapabilities>>();

/** The capabilities as a given revision defines them. */
export function capabilitiesFor(definition: ServerDefinition, revision: RevisionSpec): ServerCapabilities {
  let perRevision = capabilityCache.get(definition);
  if (!perRevision) capabilityCache.set(definition, (perRevision = new Map()));
  let caps = perRevision.get(revision);
  if (!caps) {
    caps = pickFields(definition.capabilities, revision.serverCapabilityKeys) as ServerCapabilities;
    perRevision.set(revision, caps);
  }
  return caps;
}

export function implementationFor(definition: ServerDefinition, revision: RevisionSpec): JsonObject {
  return pickFields(definition.info, revision.fields.implementation) as JsonObject;
}

/** Whether a capability gate of the registry is satisfied by these capabilities. */
export function hasCapability(caps: ServerCapabilities, gate: string): boolean {
  if (gate === 'resources.subscribe') return caps.resources?.subscribe === true;
  if (gate.startsWith('extensions.'))
    return caps.extensions?.[gate.slice('extensions.'.length)] !== undefined;
  return (caps as Record<string, unknown>)[gate] !== undefined;
}

export function isVisible(
  item: { visible?: ((caller: Caller) => boolean) | undefined },
  caller: Caller,
): boolean {
  if (!item.visible) return true;
  try {
    return item.visible(caller) === true;
  } catch {
    return false;
  }
}

export { REVISION_SPECS };
