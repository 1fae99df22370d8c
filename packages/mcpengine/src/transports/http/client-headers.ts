/**
 * The 2026-07-28 request metadata headers a Streamable HTTP client sends: `Mcp-Method`, `Mcp-Name`, and the
 * `Mcp-Param-{Name}` headers mirrored from the tool arguments that `x-mcp-header` annotates. The annotation
 * rules and the value encoding are shared with the server (`protocol/param-headers.ts`).
 */
import {
  compileHeaderParams,
  encodeHeaderValue,
  headerParamText,
  headerParamValue,
  type HeaderParam,
} from '../../protocol/param-headers.js';
import type { JsonObject } from '../../protocol/types.js';

export type ToolHeaderCheck =
  | { readonly ok: true; readonly params: readonly HeaderParam[] }
  | { readonly ok: false; readonly reason: string };

/** Checks a tool's `x-mcp-header` annotations; an invalid one makes the tool unusable over Streamable HTTP. */
export function checkToolHeaders(inputSchema: unknown): ToolHeaderCheck {
  try {
    return { ok: true, params: compileHeaderParams(inputSchema) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The `Mcp-Param-*` headers of one `tools/call`: the value at each annotated path, encoded. A missing or
 * `null` value, or one that is not a string, number or boolean, sends no header.
 */
export function toolParamHeaders(params: readonly HeaderParam[], args: unknown): [string, string][] {
  const headers: [string, string][] = [];
  for (const param of params) {
    const text = headerParamText(headerParamValue(args, param));
    if (text !== undefined) headers.push([`Mcp-Param-${param.name}`, encodeHeaderValue(text)]);
  }
  return headers;
}

/** Which `params` field `Mcp-Name` mirrors for a method, if any. */
export function nameSourceOf(method: string): 'name' | 'uri' | 'taskId' | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return 'name';
    case 'resources/read':
      return 'uri';
    default:
      return method.startsWith('tasks/') ? 'taskId' : undefined;
  }
}

/** `Mcp-Method`, and `Mcp-Name` for the methods that name their target. */
export function standardHeaders(method: string, params: JsonObject | undefined): [string, string][] {
  const headers: [string, string][] = [['Mcp-Method', method]];
  const source = nameSourceOf(method);
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers.push(['Mcp-Name', encodeHeaderValue(name)]);
  return headers;
}
