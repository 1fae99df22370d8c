/**
 * Registers an API's operations on an `McpServer`. With `expose: 'all'` every operation is a listed tool. With
 * `expose: 'groups'` (the default when listing everything would cost more than `tokenThreshold` tokens, or above
 * `threshold` operations) the list starts with two tools: `discover_tools` (groups by tag, search, and enabling
 * a group, which sends `notifications/tools/list_changed`) and `call_operation` (calls any operation by name,
 * for clients that do not refresh their list).
 */
import type { FeatureHandle, McpServer, ToolConfig } from 'mcpengine/server';
import type { CallToolResult } from 'mcpengine/protocol';
import { compileSchema, type JsonSchema, type JsonSchemaValidator } from 'mcpengine/schema';
import type { OperationCaller } from './call.js';
import type { OperationTool } from './model.js';

export type Exposure = 'all' | 'groups';

export interface RegisterOptions {
  /** Default: `all` while the estimated `tools/list` cost is within `tokenThreshold` and `threshold`, else `groups`. */
  readonly expose?: Exposure;
  /** Operations listed at most without disclosure. Default 40. */
  readonly threshold?: number;
  /** Estimated `tools/list` tokens at most without disclosure. Default 20,000. */
  readonly tokenThreshold?: number;
  /**
   * Tokens per byte of this API's `tools/list` JSON, measured by the generator with a real tokenizer
   * (`ApiModel.tokensPerByte`); default 0.25.
   */
  readonly tokensPerByte?: number;
  /** Called for an operation the engine refuses to register (its schema); the operation is left out. */
  readonly onRefused?: (tool: OperationTool, error: Error) => void;
}

export const DISCOVER_TOOL = 'discover_tools';
export const CALL_TOOL = 'call_operation';
export const DEFAULT_THRESHOLD = 40;
export const DEFAULT_TOKEN_THRESHOLD = 20_000;
/** o200k_base on the JSON of OpenAPI tool lists: 0.20–0.27 tokens per byte (median 0.22) on 80 corpus descriptions; 0.25 errs towards disclosure. */
export const DEFAULT_TOKENS_PER_BYTE = 0.25;

export interface Registration {
  readonly exposure: Exposure;
  readonly handles: ReadonlyMap<string, FeatureHandle<ToolConfig>>;
  /** The operations registered. */
  readonly tools: readonly OperationTool[];
  /** The estimated `tools/list` tokens with every operation listed, when the choice needed it. */
  readonly estimatedTokens?: number;
}

function toolConfig(tool: OperationTool, caller: OperationCaller): ToolConfig {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: tool.inputSchema as JsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonSchema }),
    annotations: { ...tool.annotations },
    // An API call can take a while (timeouts, retries, pages): clients that speak tasks may run it as one.
    execution: { taskSupport: 'optional' },
    handler: (args, ctx) =>
      caller.call(tool, args, ctx.signal, (done, total, message) => ctx.progress(done, total, message)),
  };
}

/**
 * The exposure: the one asked for, else `groups` when listing every operation would cost more than the token
 * threshold (estimated from the list's JSON size and the API's measured tokens per byte) or when there are more
 * operations than the operation threshold, else `all`.
 */
export function exposureFor(count: number, options: RegisterOptions, listBytes = 0): Exposure {
  if (options.expose !== undefined) return options.expose;
  if (count > (options.threshold ?? DEFAULT_THRESHOLD)) return 'groups';
  return estimateTokens(listBytes, options) > (options.tokenThreshold ?? DEFAULT_TOKEN_THRESHOLD)
    ? 'groups'
    : 'all';
}

/** Estimated tokens of a `tools/list` JSON of `bytes` bytes. */
export function estimateTokens(bytes: number, options: Pick<RegisterOptions, 'tokensPerByte'> = {}): number {
  return Math.round(bytes * (options.tokensPerByte ?? DEFAULT_TOKENS_PER_BYTE));
}

/** Bytes of the `tools/list` JSON that lists these tools (what a client receives, without paging). */
export function listBytes(server: McpServer, names: ReadonlySet<string>): number {
  const tools = server.definition.tools
    .filter((tool) => names.has(tool.descriptor.name))
    .map((tool) => tool.descriptor);
  return Buffer.byteLength(JSON.stringify({ tools }));
}

export function registerOperationTools(
  server: McpServer,
  tools: readonly OperationTool[],
  caller: OperationCaller,
  options: RegisterOptions = {},
): Registration {
  const handles = new Map<string, FeatureHandle<ToolConfig>>();
  const registered: OperationTool[] = [];
  for (const tool of tools) {
    let handle: FeatureHandle<ToolConfig>;
    try {
      handle = server.addTool(toolConfig(tool, caller));
    } catch (error) {
      if (options.onRefused === undefined) throw error;
      options.onRefused(tool, error as Error);
      continue;
    }
    handles.set(tool.name, handle);
    registered.push(tool);
  }
  // The size of the full list is known once the engine has built every descriptor.
  const needsSize =
    options.expose === undefined && registered.length <= (options.threshold ?? DEFAULT_THRESHOLD);
  const bytes = needsSize ? listBytes(server, new Set(handles.keys())) : 0;
  const exposure = exposureFor(registered.length, options, bytes);
  if (exposure === 'groups') {
    for (const handle of handles.values()) handle.disable();
    registerDiscovery(server, registered, caller, handles);
  }
  return {
    exposure,
    handles,
    tools: registered,
    ...(needsSize ? { estimatedTokens: estimateTokens(bytes, options) } : {}),
  };
}

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

function firstLine(description: string): string {
  const line = description.split('\n')[0]!.trim();
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}

function registerDiscovery(
  server: McpServer,
  tools: readonly OperationTool[],
  caller: OperationCaller,
  handles: ReadonlyMap<string, FeatureHandle<ToolConfig>>,
): void {
  const groups = new Map<string, OperationTool[]>();
  for (const tool of tools) groups.set(tool.group, [...(groups.get(tool.group) ?? []), tool]);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const names = [...groups.keys()];
  server.addTool<{ group?: string; query?: string }>({
    name: DISCOVER_TOOL,
    title: 'Discover API operations',
    description:
      `This server wraps ${tools.length} API operations in ${groups.size} groups. Without arguments this lists the groups. ` +
      `With "group" it lists and enables that group's tools (the tool list changes). With "query" it searches ` +
      `operation names and descriptions. Call an operation with its own tool once enabled, or with ${CALL_TOOL}.`,
    inputSchema: {
      type: 'object',
      properties: {
        group: { type: 'string', description: 'a group name from the list of groups', enum: names },
        query: {
          type: 'string',
          description: 'words to search for in operation names and descriptions',
          maxLength: 200,
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ group, query }) => {
      if (group !== undefined) {
        const members = groups.get(group) ?? [];
        for (const tool of members) handles.get(tool.name)?.enable();
        return text(
          `Enabled ${members.length} tools of group "${group}":\n` +
            members.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join('\n'),
        );
      }
      if (query !== undefined && query.trim() !== '') {
        const words = query
          .toLowerCase()
          .split(/\s+/)
          .filter((w) => w !== '');
        const scored = tools
          .map((tool) => {
            const hay = `${tool.name} ${tool.title ?? ''} ${tool.description} ${tool.path}`.toLowerCase();
            return { tool, score: words.filter((w) => hay.includes(w)).length };
          })
          .filter((entry) => entry.score > 0)
          .sort((a, b) => b.score - a.score)
          .slice(0, 20);
        if (scored.length === 0) return text(`No operation matches "${query}". Groups: ${names.join(', ')}`);
        return text(
          scored
            .map(({ tool }) => `- ${tool.name} (group ${tool.group}): ${firstLine(tool.description)}`)
            .join('\n'),
        );
      }
      return text(
        `Groups (call ${DISCOVER_TOOL} with "group" to enable one):\n` +
          [...groups].map(([name, members]) => `- ${name}: ${members.length} operations`).join('\n'),
      );
    },
  });
  const validators = new Map<string, JsonSchemaValidator>();
  server.addTool<{ name: string; arguments?: Record<string, unknown> }>({
    name: CALL_TOOL,
    title: 'Call an API operation',
    description: `Calls any operation of this API by its tool name (see ${DISCOVER_TOOL}), with the arguments its input schema describes.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'the operation tool name', maxLength: 128 },
        arguments: { type: 'object', description: 'the operation arguments' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    handler: async ({ name, arguments: args = {} }, ctx) => {
      const tool = byName.get(name);
      if (tool === undefined)
        return text(`Unknown operation "${name}"; call ${DISCOVER_TOOL} to find operation names.`, true);
      let validator = validators.get(name);
      if (validator === undefined) {
        validator = compileSchema(tool.inputSchema as JsonSchema);
        validators.set(name, validator);
      }
      const outcome = validator.validate(args);
      if (!outcome.valid) {
        const issues = outcome.issues
          .slice(0, 5)
          .map((i) => `${i.instancePath || '(arguments)'}: ${i.message}`);
        return text(`Invalid arguments for ${name}:\n${issues.join('\n')}`, true);
      }
      return caller.call(tool, args, ctx.signal, (done, total, message) =>
        ctx.progress(done, total, message),
      );
    },
  });
}
