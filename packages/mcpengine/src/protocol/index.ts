/**
 * mcpengine/protocol — MCP types, the revision registry, JSON-RPC envelopes and error codes.
 */
export * from './types.js';
export * from './revisions.js';
export * from './errors.js';
export * from './jsonrpc.js';
export * from './meta.js';
export * from './param-headers.js';
