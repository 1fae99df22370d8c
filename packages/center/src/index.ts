/**
 * @mcpengine/center: the command center — the factory pipeline over the fleet (every stage measured by running
 * the factory tools), its store-backed history, review reports, the HTTP API and the dashboard.
 */
export { Center, type ServerOverview } from './center.js';
export { discoverFleet, externalName, type FleetManifest, type ServerEntry } from './fleet.js';
export {
  summarizeServer,
  regressionsOf,
  type Regression,
  type ServerSummary,
  type TrendPoint,
} from './history.js';
export { createCenterServer, allowedHosts, type CenterHttpOptions } from './http.js';
export { inspectServer, toolHash, toolsHash, type Inspection } from './inspect.js';
export { checkExternal, driftOf, startMonitor, type Drift } from './monitor.js';
export { reviewChecks, scoreOf, type ReviewCheck, type ReviewInput } from './review/checks.js';
export { renderHtml, renderMarkdown, type ReviewReport } from './review/render.js';
export { Runner, markInterrupted, type RunEvent, type RunOptions } from './runner.js';
export { validateServerJson } from './server-json.js';
export { runStage, STAGES, type StageName, type StageOutcome, type StageContext } from './stages.js';
export { startCenter, ASSETS_DIR, DEFAULT_PORT, type RunningCenter, type StartOptions } from './start.js';
