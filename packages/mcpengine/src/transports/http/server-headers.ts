/**
 * 2026-07-28 request metadata headers: `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}` must mirror the body.
 * A missing, malformed, mismatched or repeated header is HTTP 400 with JSON-RPC -32020 (HeaderMismatch).
 *
 * Repeated headers: an intermediary that routes on the first of two `Mcp-Name` headers must not see another
 * value than the server. Behind `toNodeHandler` the raw header list is counted, so any repetition is refused.
 * A web-standard `Headers` has already joined repetitions with ", ": the joined value is then what must
 * mirror the body, which refuses every repetition except one whose joined value equals the body's.
 */
import { ErrorCode, ProtocolError } from '../../protocol/errors.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { decodeHeaderValue, headerMatchesValue, headerParamValue } from '../../protocol/param-headers.js';
import type { ServerDefinition } from '../../server/definition.js';
import { headerOccurrences } from './server-request.js';

/** Where `Mcp-Name` comes from, per method. */
function nameSource(method: string): 'name' | 'uri' | 'taskId' | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return 'name';
    case 'resources/read':
      return 'uri';
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return 'taskId';
    default:
      return undefined;
  }
}

function mismatch(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** A header's value, refusing one sent more than once (see above). */
function single(headers: Headers, name: string, display: string): string | null {
  const occurrences = headerOccurrences(headers, name);
  if (occurrences !== undefined && occurrences > 1) throw mismatch(`the ${display} header is repeated`);
  return headers.get(name);
}

/** Throws -32020 when the standard and parameter headers do not mirror the request body. */
export function checkRequestHeaders(
  headers: Headers,
  request: JsonRpcRequest,
  definition: ServerDefinition,
): void {
  const method = single(headers, 'mcp-method', 'Mcp-Method');
  if (method === null) throw mismatch('the Mcp-Method header is required');
  if (method.trim() !== request.method) {
    throw mismatch(
      `Mcp-Method header value ${JSON.stringify(method.trim())} does not match body method ${JSON.stringify(request.method)}`,
    );
  }

  const params = request.params ?? {};
  const source = nameSource(request.method);
  if (source !== undefined) {
    const expected = params[source];
    const raw = single(headers, 'mcp-name', 'Mcp-Name');
    if (raw === null) {
      if (expected !== undefined) throw mismatch('the Mcp-Name header is required');
    } else {
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) throw mismatch('the Mcp-Name header value is malformed');
      if (decoded !== expected) {
        throw mismatch(
          `Mcp-Name header value ${JSON.stringify(decoded)} does not match body ${source} ${JSON.stringify(expected ?? null)}`,
        );
      }
    }
  }

  if (request.method === 'tools/call' && typeof params.name === 'string') {
    const tool = definition.toolsByName.get(params.name);
    for (const param of tool?.headerParams ?? []) {
      const value = headerParamValue(params.arguments, param);
      const header = `Mcp-Param-${param.name}`;
      const raw = single(headers, param.header, header);
      if (raw === null) {
        if (value !== undefined) throw mismatch(`the ${header} header is required`);
        continue;
      }
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) throw mismatch(`the ${header} header value is malformed`);
      if (value === undefined) throw mismatch(`${header} is present but the argument is absent`);
      if (!headerMatchesValue(decoded, value)) {
        throw mismatch(`${header} header value does not match the argument`);
      }
    }
  }
}
