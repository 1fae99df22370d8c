/**
 * Tools: configuration, compilation (once, at registration), and the call path.
 */
import { ErrorCode, ProtocolError } from '../../protocol/errors.js';
import { compileHeaderParams, type HeaderParam } from '../../protocol/param-headers.js';
import type { RevisionSpec } from '../../protocol/revisions.js';
import type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  Icon,
  InputRequiredResult,
  JsonObject,
  MetaObject,
  TextContent,
  Tool,
  ToolAnnotations,
  ToolExecution,
} from '../../protocol/types.js';
import {
  toToolSchema,
  type JsonSchema,
  type StandardSchemaLike,
  type ToolSchema,
  type ValidationResult,
} from '../../schema/index.js';
import type { Caller, RequestContext } from '../context.js';
import { adaptContent, contentProblem, pickFields, text } from './content.js';
import { compileRequiredScopes, scopedVisibility } from './scopes.js';

/**
 * What a tool handler may return: a full result, a bare string (one text block), structured content alone (its
 * JSON becomes the text block), or an explicit input request.
 */
export type ToolReturn = CallToolResult | StructuredToolReturn | string | InputRequiredResult;

/** A result given as structured content only: the engine adds its JSON as text for clients that read text. */
export interface StructuredToolReturn {
  structuredContent: unknown;
  content?: ContentBlock[];
  isError?: boolean;
  _meta?: MetaObject;
}

export type ToolHandler<Args> = (args: Args, ctx: RequestContext) => ToolReturn | Promise<ToolReturn>;

/** Per-tool task settings, next to `execution.taskSupport` in the tool's configuration. */
export interface ToolTaskOptions<Args = JsonObject> {
  /**
   * Runs in the request itself, before any task exists. It may ask for input (`ctx.elicit()` and friends: multi
   * round-trip requests in the modern era, server→client requests in the legacy era), put what it learned in
   * `ctx.state` (the task's context starts with a copy), and return a result to answer at once without a task.
   * Returning nothing creates the task, whose handler then runs in the background. A 2025-11-25 client that asked
   * for a task still gets one, already finished, when `prepare` answers.
   */
  prepare?: (args: Args, ctx: RequestContext) => ToolReturn | undefined | Promise<ToolReturn | undefined>;
  /** How long the task and its result are kept, from creation. Default: the server's `tasks.defaultTtlMs`. */
  ttlMs?: number;
  /** Suggested polling interval. Default: the server's `tasks.pollIntervalMs`. */
  pollIntervalMs?: number;
}

export interface ToolConfig<Args = JsonObject> {
  /** 1–128 characters of A–Z a–z 0–9 _ - . (the spec's naming rules). */
  name: string;
  title?: string;
  description?: string;
  /**
   * JSON Schema (2020-12 unless `$schema` says draft-07) or a Standard Schema object (zod 4, valibot, arktype)
   * that can export JSON Schema. Must describe an object. Default: an object with no properties allowed.
   */
  inputSchema?: JsonSchema | StandardSchemaLike;
  /** When set, every successful result must carry `structuredContent` matching it. */
  outputSchema?: JsonSchema | StandardSchemaLike;
  annotations?: ToolAnnotations;
  /** `taskSupport: 'optional' | 'required'` lets the tool run as a task (see `task`); default forbidden. */
  execution?: ToolExecution;
  /** Task settings and the in-request `prepare` step, for tools whose `execution.taskSupport` allows tasks. */
  task?: ToolTaskOptions<Args>;
  icons?: Icon[];
  _meta?: MetaObject;
  /**
   * Client capabilities the tool cannot work without (e.g. `{ elicitation: {} }`). Checked before the handler
   * runs: a modern client that lacks one gets -32021 (HTTP 400) at once, a legacy one a tool error.
   */
  requiredClientCapabilities?: ClientCapabilities;
  /** Decides per caller whether the tool is listed and callable (scopes, client identity …). */
  visible?: (caller: Caller) => boolean;
  /**
   * OAuth scopes the caller's access token must grant to see and call the tool. Over HTTP with `mcpengine/auth`,
   * a call without them is answered 403 `insufficient_scope` naming them (step-up authorization).
   */
  requiredScopes?: readonly string[];
  handler: ToolHandler<Args>;
}

export interface CompiledTool {
  readonly name: string;
  readonly descriptor: Tool;
  readonly input: ToolSchema;
  readonly output: ToolSchema | undefined;
  readonly visible: ((caller: Caller) => boolean) | undefined;
  /** `requiredScopes`, deduplicated; undefined when none. Also part of `visible`. */
  readonly requiredScopes: readonly string[] | undefined;
  readonly handler: ToolHandler<unknown>;
  /** Parameters mirrored into `Mcp-Param-*` HTTP headers (`x-mcp-header`), checked at registration. */
  readonly headerParams: readonly HeaderParam[];
  /** `execution.taskSupport`, defaulted. */
  readonly taskSupport: 'forbidden' | 'optional' | 'required';
  readonly task: ToolTaskOptions<unknown> | undefined;
  readonly requiredClientCapabilities: ClientCapabilities | undefined;
  /** The descriptor as JSON for a revision (only the fields that revision defines), computed once. */
  json(revision: RevisionSpec): string;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const NO_ARGUMENTS: JsonSchema = { type: 'object', additionalProperties: false };

export function compileTool<Args>(config: ToolConfig<Args>): CompiledTool {
  if (typeof config.name !== 'string' || !TOOL_NAME.test(config.name)) {
    throw new TypeError(
      `Invalid tool name ${JSON.stringify(config.name)}: use 1-128 characters from A-Z a-z 0-9 _ - .`,
    );
  }
  if (typeof config.handler !== 'function')
    throw new TypeError(`Tool "${config.name}" needs a handler function`);
  const input = toToolSchema(config.inputSchema ?? NO_ARGUMENTS, { io: 'input' });
  if (input.jsonSchema.type !== 'object') {
    throw new TypeError(`Tool "${config.name}": inputSchema must describe an object ("type": "object")`);
  }
  let headerParams: HeaderParam[];
  try {
    headerParams = compileHeaderParams(input.jsonSchema);
  } catch (error) {
    throw new TypeError(`Tool "${config.name}": ${(error as Error).message}`, { cause: error });
  }
  const output =
    config.outputSchema === undefined ? undefined : toToolSchema(config.outputSchema, { io: 'output' });

  const descriptor: Tool = {
    name: config.name,
    inputSchema: input.jsonSchema as Tool['inputSchema'],
  };
  if (config.title !== undefined) descriptor.title = config.title;
  if (config.description !== undefined) descriptor.description = config.description;
  if (output) descriptor.outputSchema = output.jsonSchema;
  if (config.annotations !== undefined) descriptor.annotations = config.annotations;
  if (config.execution !== undefined) descriptor.execution = config.execution;
  if (config.icons !== undefined) descriptor.icons = config.icons;
  if (config._meta !== undefined) descriptor._meta = config._meta;
  deepFreeze(descriptor);

  const requiredScopes = compileRequiredScopes(`Tool "${config.name}"`, config.requiredScopes);
  const jsonByRevision = new Map<RevisionSpec, string>();
  return {
    name: config.name,
    descriptor,
    input,
    output,
    visible: scopedVisibility(config.visible, requiredScopes),
    requiredScopes,
    handler: config.handler as ToolHandler<unknown>,
    headerParams,
    taskSupport: toolTaskSupport(config.name, config.execution, config.task),
    task: config.task as ToolTaskOptions<unknown> | undefined,
    requiredClientCapabilities: config.requiredClientCapabilities,
    json(revision) {
      let json = jsonByRevision.get(revision);
      if (json === undefined) {
        json = JSON.stringify(pickFields(descriptor, revision.fields.tool));
        jsonByRevision.set(revision, json);
      }
      return json;
    },
  };
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** True for promises and other thenables (Standard Schema validators may return either). */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export type CheckedArguments = { ok: true; args: unknown } | { ok: false; result: CallToolResult };

/**
 * Validates the arguments of a call; failures are reported the way the revision prescribes. Synchronous when
 * the validator is (a JSON Schema always is): the call path awaits only what is really asynchronous.
 */
export function validateToolArguments(
  tool: CompiledTool,
  params: JsonObject,
  revision: RevisionSpec,
): CheckedArguments | Promise<CheckedArguments> {
  const outcome = tool.input.validate(toolArguments(params));
  return isPromiseLike(outcome)
    ? Promise.resolve(outcome).then((settled) => checkedArguments(tool, settled, revision))
    : checkedArguments(tool, outcome, revision);
}

/** The `arguments` of a tools/call (`{}` when absent); -32602 when they are not an object. */
export function toolArguments(params: JsonObject): JsonObject {
  const raw = params.arguments;
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw ProtocolError.invalidParams('Invalid params: "arguments" must be an object');
  }
  return raw as JsonObject;
}

function checkedArguments(
  tool: CompiledTool,
  outcome: ValidationResult<unknown>,
  revision: RevisionSpec,
): CheckedArguments {
  if (outcome.valid) return { ok: true, args: outcome.value };
  const details = outcome.issues.map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ');
  const message = `Invalid arguments for tool "${tool.name}": ${details}`;
  // From 2025-11-25 on (SEP-1303), invalid input is a tool execution error the model can correct.
  if (revision.toolInputErrors === 'tool-result') {
    return { ok: false, result: { content: [text(message)], isError: true } };
  }
  throw new ProtocolError(ErrorCode.InvalidParams, message, { issues: outcome.issues });
}

/**
 * The result of a tool that returned a plain string: one text block. Its JSON is built from a template rather
 * than by a generic `JSON.stringify` of the object (a quarter of the cost), which matters because this is the
 * most common tool result. It is a class so that the shape is known: a spread copy is a plain object again.
 */
export class TextToolResult implements CallToolResult {
  // `declare`d and assigned (see RequestContext): one is made per call.
  declare readonly content: [TextContent];
  readonly [key: string]: unknown;

  constructor(value: string) {
    this.content = [text(value)];
  }

  get json(): string {
    return `{"content":[{"type":"text","text":${JSON.stringify(this.content[0].text)}}]}`;
  }
}

/** The JSON of a method's result object. */
export function resultJson(result: object): string {
  return result instanceof TextToolResult ? result.json : JSON.stringify(result);
}

/**
 * Turns whatever a handler returned into a CallToolResult checked against the tool's output schema.
 * Synchronous unless the output validator is asynchronous.
 */
export function finishToolResult(
  tool: CompiledTool,
  returned: unknown,
  revision: RevisionSpec,
): CallToolResult | Promise<CallToolResult> {
  let result: CallToolResult;
  if (typeof returned === 'string') {
    // Text exists in every revision and needs no content check; only an output schema can object.
    if (!tool.output) return new TextToolResult(returned) as CallToolResult;
    result = { content: [text(returned)] };
  } else if (typeof returned === 'object' && returned !== null && !Array.isArray(returned)) {
    const candidate = returned as Partial<CallToolResult>;
    const hasStructured = candidate.structuredContent !== undefined;
    if (candidate.content === undefined && hasStructured) {
      // Backwards compatibility: structured results also carry their JSON as text (a SHOULD of the spec).
      result = { ...candidate, content: [text(JSON.stringify(candidate.structuredContent))] };
    } else if (Array.isArray(candidate.content)) {
      result = candidate as CallToolResult;
    } else {
      throw ProtocolError.internal(`Tool "${tool.name}" returned a result without a content array`);
    }
  } else {
    throw ProtocolError.internal(
      `Tool "${tool.name}" returned ${returned === undefined ? 'nothing' : 'an invalid result'}`,
    );
  }

  const problem = contentProblem(result.content);
  if (problem) throw ProtocolError.internal(`Tool "${tool.name}" returned invalid content: ${problem}`);
  if (tool.output && result.isError !== true) {
    if (result.structuredContent === undefined) {
      throw ProtocolError.internal(
        `Tool "${tool.name}" declares an outputSchema but returned no structuredContent`,
      );
    }
    const check = tool.output.validate(result.structuredContent);
    const checked = result;
    return isPromiseLike(check)
      ? Promise.resolve(check).then((settled) => checkedOutput(tool, settled, checked, revision))
      : checkedOutput(tool, check, checked, revision);
  }
  return adaptToolResult(result, revision);
}

function checkedOutput(
  tool: CompiledTool,
  check: ValidationResult<unknown>,
  result: CallToolResult,
  revision: RevisionSpec,
): CallToolResult {
  if (!check.valid) {
    const details = check.issues.map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ');
    throw ProtocolError.internal(
      `Tool "${tool.name}" returned structuredContent that violates its outputSchema: ${details}`,
    );
  }
  return adaptToolResult(result, revision);
}

/** A thrown error becomes a tool execution error the model can read. */
export function toolErrorResult(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { content: [text(message || 'Tool failed')], isError: true };
}

function adaptToolResult(result: CallToolResult, revision: RevisionSpec): CallToolResult {
  const content = adaptContent(result.content as ContentBlock[], revision);
  if (
    content === result.content &&
    (revision.structuredToolOutput || result.structuredContent === undefined)
  ) {
    return result;
  }
  const adapted: CallToolResult = { ...result, content };
  if (!revision.structuredToolOutput) delete adapted.structuredContent;
  return adapted;
}

/** A tool's `execution.taskSupport` (default forbidden), with its task settings checked at registration. */
export function toolTaskSupport(
  name: string,
  execution: ToolExecution | undefined,
  task: ToolTaskOptions<never> | undefined,
): 'forbidden' | 'optional' | 'required' {
  const support = execution?.taskSupport ?? 'forbidden';
  if (support !== 'forbidden' && support !== 'optional' && support !== 'required') {
    throw new TypeError(`Tool "${name}": execution.taskSupport must be forbidden, optional or required`);
  }
  if (task === undefined) return support;
  if (support === 'forbidden') {
    throw new TypeError(`Tool "${name}": task settings need execution.taskSupport 'optional' or 'required'`);
  }
  for (const key of ['ttlMs', 'pollIntervalMs'] as const) {
    const value = task[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(`Tool "${name}": task.${key} must be a positive integer`);
    }
  }
  if (task.prepare !== undefined && typeof task.prepare !== 'function') {
    throw new TypeError(`Tool "${name}": task.prepare must be a function`);
  }
  return support;
}
