/**
 * Prompts: configuration, compilation, and getting a prompt.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { RevisionSpec } from '../../protocol/revisions.js';
import type {
  ContentBlock,
  GetPromptResult,
  Icon,
  InputRequiredResult,
  JsonObject,
  MetaObject,
  Prompt,
  PromptArgument,
} from '../../protocol/types.js';
import type { Caller, RequestContext } from '../context.js';
import type { Completer } from './completion.js';
import { adaptContent, blockProblem, pickFields } from './content.js';
import { compileRequiredScopes, scopedVisibility } from './scopes.js';

export interface PromptArgumentConfig extends PromptArgument {
  complete?: Completer;
}

export interface PromptConfig {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentConfig[];
  icons?: Icon[];
  _meta?: MetaObject;
  visible?: (caller: Caller) => boolean;
  /** OAuth scopes the caller's access token must grant to see and get it (see `ToolConfig.requiredScopes`). */
  requiredScopes?: readonly string[];
  get: (
    args: Record<string, string>,
    ctx: RequestContext,
  ) => GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;
}

export interface CompiledPrompt {
  readonly name: string;
  readonly descriptor: Prompt;
  readonly config: PromptConfig;
  readonly completers: ReadonlyMap<string, Completer>;
  json(revision: RevisionSpec): string;
}

export function compilePrompt(config: PromptConfig): CompiledPrompt {
  if (typeof config.name !== 'string' || config.name.length === 0)
    throw new TypeError('A prompt needs a name');
  if (typeof config.get !== 'function') throw new TypeError(`Prompt "${config.name}" needs a get function`);
  const completers = new Map<string, Completer>();
  const args: PromptArgument[] = [];
  for (const arg of config.arguments ?? []) {
    const { complete, ...descriptor } = arg;
    if (complete) completers.set(arg.name, complete);
    args.push(descriptor);
  }
  const descriptor: Prompt = { name: config.name };
  if (config.title !== undefined) descriptor.title = config.title;
  if (config.description !== undefined) descriptor.description = config.description;
  if (args.length > 0) descriptor.arguments = args;
  if (config.icons !== undefined) descriptor.icons = config.icons;
  if (config._meta !== undefined) descriptor._meta = config._meta;

  const cache = new Map<RevisionSpec, string>();
  const requiredScopes = compileRequiredScopes(`Prompt "${config.name}"`, config.requiredScopes);
  return {
    name: config.name,
    descriptor,
    config: requiredScopes
      ? { ...config, requiredScopes, visible: scopedVisibility(config.visible, requiredScopes) }
      : config,
    completers,
    json(revision) {
      let json = cache.get(revision);
      if (json === undefined) {
        const picked = pickFields(descriptor, revision.fields.prompt);
        if (picked.arguments)
          picked.arguments = picked.arguments.map(
            (a) => pickFields(a, revision.fields.promptArgument) as PromptArgument,
          );
        json = JSON.stringify(picked);
        cache.set(revision, json);
      }
      return json;
    },
  };
}

/** Checks prompt arguments: string values only, required ones present. */
export function readPromptArguments(prompt: CompiledPrompt, params: JsonObject): Record<string, string> {
  const raw = params.arguments;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw ProtocolError.invalidParams('Invalid params: "arguments" must be an object of strings');
  }
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries((raw ?? {}) as JsonObject)) {
    if (typeof value !== 'string') {
      throw ProtocolError.invalidParams(`Invalid params: prompt argument "${key}" must be a string`);
    }
    args[key] = value;
  }
  for (const arg of prompt.descriptor.arguments ?? []) {
    if (arg.required && args[arg.name] === undefined) {
      throw ProtocolError.invalidParams(
        `Invalid params: missing required argument "${arg.name}" for prompt "${prompt.name}"`,
      );
    }
  }
  return args;
}

export function finishPrompt(
  prompt: CompiledPrompt,
  result: unknown,
  revision: RevisionSpec,
): GetPromptResult {
  if (typeof result !== 'object' || result === null || !Array.isArray((result as GetPromptResult).messages)) {
    throw ProtocolError.internal(`Prompt "${prompt.name}" returned an invalid result`);
  }
  const value = result as GetPromptResult;
  for (const [i, message] of value.messages.entries()) {
    const problem =
      message?.role !== 'user' && message?.role !== 'assistant'
        ? 'role must be "user" or "assistant"'
        : blockProblem(message.content);
    if (problem)
      throw ProtocolError.internal(`Prompt "${prompt.name}" returned an invalid message ${i}: ${problem}`);
  }
  let changed = false;
  const messages = value.messages.map((message) => {
    const [content] = adaptContent([message.content as ContentBlock], revision);
    if (content === message.content) return message;
    changed = true;
    return { ...message, content: content! };
  });
  return changed ? { ...value, messages } : value;
}
