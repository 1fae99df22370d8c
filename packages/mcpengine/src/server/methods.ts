/**
 * The method table: one handler per MCP request method, written once for both eras. Era differences
 * (envelopes, error codes, content types) come from the revision spec carried by each call.
 */
import { ProtocolError } from '../protocol/errors.js';
import { isLoggingLevel, missingCapabilityError } from '../protocol/meta.js';
import type { JsonObject, ServerCapabilities, SubscriptionFilter } from '../protocol/types.js';
import type { Caller } from './context.js';
import { missingClientCapabilities } from './input.js';
import { capabilitiesFor, isVisible, type ServerDefinition } from './definition.js';
import {
  EMPTY_COMPLETION,
  finishCompletion,
  readCompletionContext,
  type Completer,
} from './features/completion.js';
import { finishPrompt, readPromptArguments } from './features/prompts.js';
import { finishRead, resourceNotFound, type CompiledTemplate } from './features/resources.js';
import { pickFields } from './features/content.js';
import {
  finishToolResult,
  isPromiseLike,
  toolArguments,
  toolErrorResult,
  validateToolArguments,
  type CheckedArguments,
  type CompiledTool,
} from './features/tools.js';
import type { ListItem, ListRequest } from './lists.js';
import { listPage, RawResult } from './lists.js';
import type { ListKind } from './cursor.js';
import type { Call, MethodHandler, Outcome } from './dispatch.js';
import { isRequestAborted } from './context.js';

function isInputRequired(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as JsonObject).resultType === 'input_required';
}

function requireString(params: JsonObject, key: string): string {
  const value = params[key];
  if (typeof value !== 'string')
    throw ProtocolError.invalidParams(`Invalid params: "${key}" must be a string`);
  return value;
}

/**
 * tools/call. Synchronous from end to end when the validator and the handler are: a promise is created only for
 * what is really asynchronous, because every await costs an allocation and a microtask turn per call.
 */
function callTool(call: Call): Outcome | Promise<Outcome> {
  const name = requireString(call.params, 'name');
  const tool = call.definition.toolsByName.get(name);
  if (!tool || (tool.visible && !isVisible(tool, call.ctx.caller)))
    throw ProtocolError.invalidParams(`Unknown tool: ${name}`);
  if (tool.requiredClientCapabilities) {
    const missing = missingClientCapabilities(tool.requiredClientCapabilities, call.ctx.client.capabilities);
    if (missing) {
      const names = Object.keys(missing).join(', ');
      if (call.revision.era === 'modern')
        throw missingCapabilityError(missing, `tool "${name}" needs ${names}`);
      return toolErrorResult(
        new Error(`Tool "${name}" needs client capabilities the client did not declare: ${names}`),
      );
    }
  }
  const gates = call.settings.extensions.toolCallGates;
  for (let i = 0; i < gates.length; i++) {
    const taken = gates[i]!(tool, call);
    if (taken !== undefined) return taken;
  }
  // Valid arguments of a plain JSON Schema need no result object: they are passed on as they are.
  const accepts = tool.input.accepts;
  if (accepts !== undefined) {
    const args = toolArguments(call.params);
    if (accepts(args)) return invokeTool(tool, call, args);
  }
  const checked = validateToolArguments(tool, call.params, call.revision);
  return isPromiseLike(checked)
    ? checked.then((settled) => invokeChecked(tool, call, settled))
    : invokeChecked(tool, call, checked);
}

function invokeChecked(
  tool: CompiledTool,
  call: Call,
  checked: CheckedArguments,
): Outcome | Promise<Outcome> {
  return checked.ok ? invokeTool(tool, call, checked.args) : checked.result;
}

function invokeTool(tool: CompiledTool, call: Call, args: unknown): Outcome | Promise<Outcome> {
  let returned: unknown;
  try {
    returned = tool.handler(args, call.ctx);
  } catch (error) {
    return toolFailure(call, error);
  }
  return isPromiseLike(returned)
    ? Promise.resolve(returned).then(
        (value) => finishTool(tool, call, value),
        (error: unknown) => toolFailure(call, error),
      )
    : finishTool(tool, call, returned);
}

/** A handler's exception is a tool error (`isError`), except protocol errors and failures after cancellation. */
function toolFailure(call: Call, error: unknown): Outcome {
  if (error instanceof ProtocolError || isRequestAborted(call.ctx)) throw error;
  return toolErrorResult(error);
}

function finishTool(tool: CompiledTool, call: Call, returned: unknown): Outcome | Promise<Outcome> {
  if (isInputRequired(returned)) return returned as JsonObject;
  return finishToolResult(tool, returned, call.revision) as Outcome | Promise<Outcome>;
}

/** One page of a list, from the definition's pre-serialized items (plus per-request dynamic ones). */
function page(
  call: Call,
  kind: ListKind,
  field: string,
  items: readonly ListItem[],
  dynamic?: string[],
): Outcome {
  const request: ListRequest = {
    kind,
    field,
    items,
    cursor: call.params.cursor,
    caller: call.ctx.caller,
    revision: call.revision,
    pageSize: call.settings.pageSize,
    secret: call.settings.secret,
    envelope: call.settings.envelope,
    definition: call.definition,
  };
  return listPage(dynamic ? { ...request, dynamic } : request);
}

function listTools(call: Call): Outcome {
  const listed = page(call, 'tools', 'tools', call.definition.tools);
  const decorators = call.settings.extensions.toolListMeta;
  return decorators.length === 0 ? listed : withToolMeta(call, listed, decorators);
}

/**
 * Adds extensions' per-request `_meta` to the entries of a tools/list page. The page then depends on the
 * client that asked, so a modern result is marked private.
 */
function withToolMeta(
  call: Call,
  listed: Outcome,
  decorators: readonly ((tool: CompiledTool, call: Call) => JsonObject | undefined)[],
): Outcome {
  if (!(listed instanceof RawResult)) return listed;
  const result = JSON.parse(listed.json) as JsonObject;
  let decorated = false;
  for (const entry of result.tools as JsonObject[]) {
    const tool = call.definition.toolsByName.get(entry.name as string);
    if (!tool) continue;
    for (const decorate of decorators) {
      const meta = decorate(tool, call);
      if (!meta) continue;
      entry._meta = { ...(entry._meta as JsonObject | undefined), ...meta };
      decorated = true;
    }
  }
  if (!decorated) return listed;
  if (result.cacheScope !== undefined) result.cacheScope = 'private';
  return result;
}
const listPrompts = (call: Call): Outcome => page(call, 'prompts', 'prompts', call.definition.prompts);
const listTemplates = (call: Call): Outcome =>
  page(call, 'templates', 'resourceTemplates', call.definition.templates);

async function getPrompt(call: Call): Promise<Outcome> {
  const name = requireString(call.params, 'name');
  const prompt = call.definition.promptsByName.get(name);
  if (!prompt || !isVisible(prompt.config, call.ctx.caller))
    throw ProtocolError.invalidParams(`Unknown prompt: ${name}`);
  const args = readPromptArguments(prompt, call.params);
  const result = await prompt.config.get(args, call.ctx);
  if (isInputRequired(result)) return result;
  return finishPrompt(prompt, result, call.revision);
}

async function listResources(call: Call): Promise<Outcome> {
  const listing = call.definition.templates.filter(
    (t) => t.config.list && isVisible(t.config, call.ctx.caller),
  );
  let dynamic: string[] | undefined;
  if (listing.length > 0) {
    dynamic = [];
    for (const template of listing) {
      for (const resource of (await template.config.list!(call.ctx)) ?? []) {
        dynamic.push(JSON.stringify(pickFields(resource, call.revision.fields.resource)));
      }
    }
  }
  return page(call, 'resources', 'resources', call.definition.resources, dynamic);
}

function findTemplate(
  definition: ServerDefinition,
  uri: string,
  caller: Caller,
): { template: CompiledTemplate; variables: Record<string, string | string[]> } | undefined {
  for (const template of definition.templates) {
    if (!isVisible(template.config, caller)) continue;
    const variables = template.template.match(uri);
    if (variables) return { template, variables };
  }
  return undefined;
}

async function readResource(call: Call): Promise<Outcome> {
  const uri = requireString(call.params, 'uri');
  const resource = call.definition.resourcesByUri.get(uri);
  if (resource && isVisible(resource.config, call.ctx.caller)) {
    const returned = await resource.config.read(uri, call.ctx);
    return finishRead(uri, returned, resource.config.mimeType);
  }
  const found = findTemplate(call.definition, uri, call.ctx.caller);
  if (!found) throw resourceNotFound(uri, call.revision);
  const returned = await found.template.config.read(uri, found.variables, call.ctx);
  return finishRead(uri, returned, found.template.config.mimeType);
}

function knownResource(call: Call, uri: string): boolean {
  const resource = call.definition.resourcesByUri.get(uri);
  if (resource && isVisible(resource.config, call.ctx.caller)) return true;
  return findTemplate(call.definition, uri, call.ctx.caller) !== undefined;
}

function subscribe(call: Call): Outcome {
  const uri = requireString(call.params, 'uri');
  if (!knownResource(call, uri)) throw resourceNotFound(uri, call.revision);
  call.session?.subscribe(uri);
  return {};
}

function unsubscribe(call: Call): Outcome {
  const uri = requireString(call.params, 'uri');
  call.session?.unsubscribe(uri);
  return {};
}

function setLevel(call: Call): Outcome {
  const level = call.params.level;
  if (!isLoggingLevel(level)) throw ProtocolError.invalidParams('Invalid params: unknown logging level');
  call.session?.setLogLevel(level);
  return {};
}

async function complete(call: Call): Promise<Outcome> {
  const ref = call.params.ref as JsonObject | undefined;
  const argument = call.params.argument as JsonObject | undefined;
  if (typeof ref !== 'object' || ref === null)
    throw ProtocolError.invalidParams('Invalid params: "ref" must be an object');
  if (
    typeof argument !== 'object' ||
    argument === null ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw ProtocolError.invalidParams('Invalid params: "argument" must have string "name" and "value"');
  }
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    const name = requireString(ref, 'name');
    const prompt = call.definition.promptsByName.get(name);
    if (!prompt || !isVisible(prompt.config, call.ctx.caller))
      throw ProtocolError.invalidParams(`Unknown prompt: ${name}`);
    completer = prompt.completers.get(argument.name);
  } else if (ref.type === 'ref/resource') {
    const uri = requireString(ref, 'uri');
    const template = call.definition.templates.find(
      (t) => t.uriTemplate === uri && isVisible(t.config, call.ctx.caller),
    );
    if (!template) {
      if (call.definition.resourcesByUri.has(uri)) return EMPTY_COMPLETION;
      throw ProtocolError.invalidParams(`Unknown resource template: ${uri}`);
    }
    const completers = template.config.complete;
    // Own properties only: an argument named `constructor` has no completer.
    completer =
      completers && Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
  } else {
    throw ProtocolError.invalidParams('Invalid params: "ref.type" must be "ref/prompt" or "ref/resource"');
  }
  if (!completer) return EMPTY_COMPLETION;
  const returned = await completer({
    value: argument.value,
    arguments: readCompletionContext(call.params),
    ctx: call.ctx,
  });
  return finishCompletion(returned);
}

/** The filter a server can honour: only notification types backed by an advertised capability. */
export function agreedFilter(requested: SubscriptionFilter, caps: ServerCapabilities): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  if (requested.toolsListChanged === true && caps.tools?.listChanged) agreed.toolsListChanged = true;
  if (requested.promptsListChanged === true && caps.prompts?.listChanged) agreed.promptsListChanged = true;
  if (requested.resourcesListChanged === true && caps.resources?.listChanged)
    agreed.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && caps.resources?.subscribe) {
    agreed.resourceSubscriptions = requested.resourceSubscriptions.filter(
      (u): u is string => typeof u === 'string',
    );
  }
  return agreed;
}

/** Resource URIs one `subscriptions/listen` may watch: each costs a lookup on every resource update. */
export const MAX_LISTENED_RESOURCES = 256;

function readFilter(params: JsonObject): SubscriptionFilter {
  const filter = params.notifications;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw ProtocolError.invalidParams('Invalid params: "notifications" must be an object');
  }
  const f = filter as JsonObject;
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']) {
    if (f[flag] !== undefined && typeof f[flag] !== 'boolean') {
      throw ProtocolError.invalidParams(`Invalid params: "notifications.${flag}" must be a boolean`);
    }
  }
  if (
    f.resourceSubscriptions !== undefined &&
    (!Array.isArray(f.resourceSubscriptions) || f.resourceSubscriptions.some((u) => typeof u !== 'string'))
  ) {
    throw ProtocolError.invalidParams(
      'Invalid params: "notifications.resourceSubscriptions" must be an array of strings',
    );
  }
  if (Array.isArray(f.resourceSubscriptions) && f.resourceSubscriptions.length > MAX_LISTENED_RESOURCES) {
    throw ProtocolError.invalidParams(
      `Invalid params: at most ${MAX_LISTENED_RESOURCES} URIs in "notifications.resourceSubscriptions"`,
    );
  }
  return f as SubscriptionFilter;
}

async function listen(call: Call): Promise<Outcome> {
  if (!call.listen) throw ProtocolError.methodNotFound(call.method);
  const requested = readFilter(call.params);
  const agreed = agreedFilter(requested, capabilitiesFor(call.definition, call.revision));
  // The same checks as reading: a caller cannot watch a resource it may not see (visibility, requiredScopes).
  // The acknowledgment then lists the subset agreed to.
  if (agreed.resourceSubscriptions) {
    agreed.resourceSubscriptions = [...new Set(agreed.resourceSubscriptions)].filter((uri) =>
      knownResource(call, uri),
    );
  }
  for (const gate of call.settings.extensions.listenGates) await gate(call, requested, agreed);
  return call.listen.open(requested, agreed);
}

export const METHOD_HANDLERS: Readonly<Record<string, MethodHandler>> = {
  ping: () => ({}),
  'tools/list': listTools,
  'tools/call': callTool,
  'prompts/list': listPrompts,
  'prompts/get': getPrompt,
  'resources/list': listResources,
  'resources/templates/list': listTemplates,
  'resources/read': readResource,
  'resources/subscribe': subscribe,
  'resources/unsubscribe': unsubscribe,
  'logging/setLevel': setLevel,
  'completion/complete': complete,
  'subscriptions/listen': listen,
};
