/**
 * @mcpengine/inspector: `mcpengine inspect` as a library. Connect to any MCP server (stdio, Streamable HTTP,
 * HTTP+SSE; either era or a pinned revision), record a schema-checked session timeline, save and reload it,
 * diff two sessions, and run the command-line mode.
 */
export {
  ConnectFailure,
  DEFAULT_CONNECT_TIMEOUT_MS,
  Inspection,
  openInspection,
  serverErrorOf,
  type InspectionHandlers,
  type JsonObject,
  type OpenOptions,
  type RequestCallOptions,
  type ServerErrorLike,
} from './core/connection.js';
export { diffSessions, diffTools, toolsOf, type ToolChange, type ToolsDiff } from './core/diff.js';
export { recordingFetch, redactUrl } from './core/http-recorder.js';
export {
  loadSession,
  parseSession,
  saveSession,
  serializeSession,
  sessionOf,
  SessionFileError,
  SESSION_FORMAT,
  type SessionFile,
  type SessionHeader,
} from './core/session-file.js';
export {
  describeTarget,
  type HttpTarget,
  type HttpTransportChoice,
  type StdioTarget,
  type Target,
} from './core/target.js';
export {
  recordingTransport,
  Timeline,
  type HttpEntry,
  type MessageEntry,
  type NoteEntry,
  type TimelineEntry,
  type TimelineOptions,
} from './core/timeline.js';
export { parseInspectArguments, UsageError, type RawArguments } from './cli/arguments.js';
export { CLI_METHODS, EXIT, runInspectCli, type CliIo } from './cli/run-cli.js';
export { runInspectWeb } from './web/run-web.js';
export { startBackend, type BackendOptions, type RunningBackend } from './web/backend.js';
export { loopbackBindAddress, RequestGuard } from './web/guard.js';
// The MCP Apps reference host, for other pages that render Views (the command center): the sandbox proxy
// listener, the `/api/apps/*` routes, the policy built from `_meta.ui`, and the client's UI advertisement. The
// page half is the `@mcpengine/inspector/apps-page` export (ui/apps/bridge.ts, bundled by the page).
export { AppsRoutes, type AppsAnswer, type AppsSession } from './web/apps-host/routes.js';
export { startSandbox, type RunningSandbox, type SandboxView } from './web/apps-host/sandbox.js';
export {
  cspHeader,
  originProblem,
  resourceUiMeta,
  toolResourceUri,
  toolVisibility,
  viewPolicy,
  type CspDomains,
  type ViewPolicy,
} from './web/apps-host/csp.js';
export { advertiseUi, advertisingUiTransport } from './core/ui-capability.js';
