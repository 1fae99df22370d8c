/**
 * The requests the scenarios send, in either era, and how their responses are checked.
 */
import type { ResponseCheck } from './driver/load-stats.js';
import type { RequestTemplate } from './driver/stdio-load.js';
import { requestTemplate } from './driver/stdio-load.js';
import { CATALOG_TOOLS, ECHO_ARGS, ECHO_EXPECTED } from './servers/fixtures.js';

export type Workload = 'echo-call' | 'catalog-list';
export type Era = 'legacy' | 'modern';

export const LEGACY_REVISION = '2025-11-25';
export const MODERN_REVISION = '2026-07-28';

export const CLIENT_INFO = { name: 'mcpengine-bench', version: '1.0.0' } as const;

/** The per-request `_meta` every 2026-07-28 request carries. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
} as const;

interface Call {
  method: string;
  params: Record<string, unknown>;
  /** The `Mcp-Name` header value (2026-07-28 standard headers), when the method has one. */
  name?: string;
}

export function callOf(workload: Workload, era: Era): Call {
  const call: Call =
    workload === 'echo-call'
      ? { method: 'tools/call', params: { name: 'echo', arguments: ECHO_ARGS }, name: 'echo' }
      : { method: 'tools/list', params: {} };
  if (era === 'modern') call.params = { ...call.params, _meta: MODERN_META };
  return call;
}

export function templateOf(workload: Workload, era: Era): RequestTemplate {
  const call = callOf(workload, era);
  return requestTemplate(call.method, call.params);
}

/** The HTTP headers of a request: content negotiation, the protocol version, and (modern) the standard headers. */
export function httpHeadersOf(workload: Workload, era: Era, sessionId?: string): Record<string, string> {
  const call = callOf(workload, era);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': era === 'modern' ? MODERN_REVISION : LEGACY_REVISION,
  };
  if (era === 'modern') {
    headers['Mcp-Method'] = call.method;
    if (call.name !== undefined) headers['Mcp-Name'] = call.name;
  }
  if (sessionId !== undefined) headers['Mcp-Session-Id'] = sessionId;
  return headers;
}

export function checkOf(workload: Workload): ResponseCheck {
  if (workload === 'echo-call') {
    return (response) => {
      const content = response.result?.content as { type?: string; text?: string }[] | undefined;
      const text = content?.[0]?.text;
      return text === ECHO_EXPECTED ? undefined : `expected the text ${JSON.stringify(ECHO_EXPECTED)}`;
    };
  }
  return (response) => {
    const tools = response.result?.tools as unknown[] | undefined;
    return tools?.length === CATALOG_TOOLS + 1
      ? undefined
      : `expected ${CATALOG_TOOLS + 1} tools, got ${tools?.length}`;
  };
}
