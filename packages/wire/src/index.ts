/**
 * @mcpengine/wire: raw MCP channels to a server under test — a spawned stdio process, Streamable HTTP and
 * HTTP+SSE — that send exactly the bytes they are given and record every exchange (HTTP status, headers, SSE
 * events, stderr, exit), plus process-group reaping so no server outlives its run. The validator, the test runner
 * and the inspector share them; none of them goes through the engine's client, so they can send and observe what
 * a conforming client never would.
 */
export * from './channel.js';
export { splitCommandLine } from './command-line.js';
export {
  encodeHeaderValue,
  HttpChannel,
  lowerKeys,
  type ExchangeOptions,
  type ExchangeResult,
  type HttpTargetOptions,
  type ParamHeader,
} from './http-channel.js';
export { groupAlive, killAllGroups, killGroup, trackedGroupCount, trackGroup } from './processes.js';
export { SseChannel, type PostRecord } from './sse-channel.js';
export { SseParser } from './sse.js';
export { StdioChannel } from './stdio-channel.js';
export {
  DEFAULT_STDIO_LIMITS,
  StdioServerProcess,
  type ExitStatus,
  type StdioLaunch,
  type StdioLimits,
  type StdoutLine,
} from './stdio-process.js';
export { DEFAULT_SERVER_REQUEST_POLICY, StreamChannel, type ServerRequestPolicy } from './stream-channel.js';
