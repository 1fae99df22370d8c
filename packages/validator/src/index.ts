/**
 * @mcpengine/validator: `mcpengine validate` as a library. Requirement catalogs traced to spec sentences, probes
 * that drive a server over raw wire channels, checks, and reports (terminal, JSON, JUnit, HTML).
 */
export { isRevision, REVISIONS, type Revision } from './catalog/model.js';
export { splitCommandLine } from '@mcpengine/wire';
export {
  ConnectionError,
  validateServer,
  ValidateUsageError,
  type ValidateIo,
  type ValidateOptions,
} from './validate.js';
export { runValidation, VALIDATOR, type RunOptions } from './run.js';
export { SseTarget, StdioTarget, StreamableHttpTarget, type Target } from './target.js';
export type { RequirementVerdict, RevisionReport, ValidationReport } from './report/model.js';
export { renderHtml, renderJson, renderJunit } from './report/files.js';
export { renderTerminal } from './report/terminal.js';
export {
  renderAppsTerminal,
  runAppsValidation,
  type AppsReport,
  type AppsRuleReport,
  type AppsRunOptions,
} from './apps/run.js';
export { APPS_RULES, APPS_SPEC_URL, type AppsRule } from './apps/rules.js';
