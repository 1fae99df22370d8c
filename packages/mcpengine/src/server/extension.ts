/**
 * Protocol extensions: one mechanism to add what an extension brings to a server — capabilities, request
 * methods, and gates on existing methods — without wiring it into the core by hand. `server.extend(extension)`
 * installs one; the tasks extension (`io.modelcontextprotocol/tasks`, and the 2025-11-25 tasks utility) is
 * the first instance, MCP Apps (`io.modelcontextprotocol/ui`) the next.
 */
import type { ClientMethodRule, RevisionSpec } from '../protocol/revisions.js';
import type { ServerCapabilities } from '../protocol/types.js';
import type { ExtensionGates, ListenGate, MethodHandler, ToolCallGate, ToolListMeta } from './dispatch.js';
import type { CompiledTool } from './features/tools.js';

export type { ListenGate, ToolCallGate, ToolListMeta } from './dispatch.js';

/** What an extension's capabilities may depend on. */
export interface ExtensionCapabilityContext {
  /** Every registered tool, enabled or not (capabilities stay stable while features are toggled). */
  readonly tools: readonly CompiledTool[];
  /** The capabilities given in `ServerOptions.capabilities`. */
  readonly declared: ServerCapabilities;
}

export interface ServerExtension {
  /** The extension identifier, e.g. `io.modelcontextprotocol/tasks`. One extension per id. */
  readonly id: string;
  /**
   * The capabilities the extension adds, in every form it supports: a 2025-era key (`tasks`) and a
   * 2026-07-28 `extensions[id]` entry may both be returned — each revision keeps the keys it defines
   * (`RevisionSpec.serverCapabilityKeys`), so one answer covers every era. Undefined adds nothing.
   */
  capabilities?(context: ExtensionCapabilityContext): ServerCapabilities | undefined;
  /** Request methods the extension serves. */
  readonly methods?: Readonly<Record<string, MethodHandler>>;
  /**
   * Rules for methods the revision registry does not know (a vendor extension's own methods), per revision.
   * Methods the registry knows (such as `tasks/*`) take its rules, including the capability that gates them.
   */
  rules?(revision: RevisionSpec): Readonly<Record<string, ClientMethodRule>> | undefined;
  /** Gates on existing methods. */
  readonly gates?: {
    readonly toolsCall?: ToolCallGate;
    readonly listen?: ListenGate;
    readonly toolsListMeta?: ToolListMeta;
  };
  /** Called when the server closes. */
  close?(): void;
}

/** The installed extensions, arranged for the method handlers (who read it on every call, so arrays). */
export class ExtensionSet implements ExtensionGates {
  private readonly byId = new Map<string, ServerExtension>();
  /** Gates in installation order. */
  toolCallGates: readonly ToolCallGate[] = [];
  listenGates: readonly ListenGate[] = [];
  toolListMeta: readonly ToolListMeta[] = [];

  add(extension: ServerExtension): void {
    if (typeof extension?.id !== 'string' || extension.id.length === 0)
      throw new TypeError('An extension needs an id');
    if (this.byId.has(extension.id)) throw new TypeError(`Duplicate extension: ${extension.id}`);
    for (const method of Object.keys(extension.methods ?? {})) {
      const owner = [...this.byId.values()].find(
        (other) => other.methods && Object.hasOwn(other.methods, method),
      );
      if (owner) throw new TypeError(`${extension.id}: ${method} is already served by ${owner.id}`);
    }
    this.byId.set(extension.id, extension);
    const gates = extension.gates ?? {};
    if (gates.toolsCall) this.toolCallGates = [...this.toolCallGates, gates.toolsCall];
    if (gates.listen) this.listenGates = [...this.listenGates, gates.listen];
    if (gates.toolsListMeta) this.toolListMeta = [...this.toolListMeta, gates.toolsListMeta];
  }

  get(id: string): ServerExtension | undefined {
    return this.byId.get(id);
  }

  /** The handler an extension offers for `name`, and its rule when the registry has none. */
  method(
    name: string,
    revision: RevisionSpec,
  ): { handler: MethodHandler; rule: ClientMethodRule | undefined } | undefined {
    for (const extension of this.byId.values()) {
      if (!extension.methods || !Object.hasOwn(extension.methods, name)) continue;
      const rules = extension.rules?.(revision);
      const rule = rules && Object.hasOwn(rules, name) ? rules[name] : undefined;
      return { handler: extension.methods[name]!, rule };
    }
    return undefined;
  }

  /** Every extension's capabilities merged over `base` (extension entries merge into `extensions`). */
  capabilities(base: ServerCapabilities, context: ExtensionCapabilityContext): ServerCapabilities {
    let caps = base;
    for (const extension of this.byId.values()) {
      const added = extension.capabilities?.(context);
      if (!added) continue;
      const extensions = added.extensions ? { ...caps.extensions, ...added.extensions } : caps.extensions;
      caps = { ...caps, ...added };
      if (extensions) caps.extensions = extensions;
    }
    return caps;
  }

  close(): void {
    for (const extension of this.byId.values()) extension.close?.();
  }
}
