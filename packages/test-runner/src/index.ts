/**
 * @mcpengine/test-runner: `mcpengine test` as a library — declarative YAML tests, mcp-jest configs, generated
 * robustness tests and cassettes of upstream HTTP, run over stdio, Streamable HTTP, HTTP+SSE or in memory, with
 * every message checked against the official schema of the negotiated revision.
 */
export * from './model.js';
export { TEST_FILE_SCHEMA } from './format/schema.js';
export { loadYamlFile, parseYamlSuite, DEFAULT_TIMEOUT_MS } from './format/load-yaml.js';
export { loadMcpJestConfig, parseMcpJestConfig } from './format/load-mcp-jest.js';
export { parseExpectExpression, evaluateExpectExpression } from './format/mcp-jest-expect.js';
export { FileError } from './format/yaml-source.js';
export { match, deepEqual, OPERATORS } from './expect/match.js';
export { evaluateJsonPath } from './expect/json-path.js';
export { redact } from './expect/redact.js';
export { lineDiff } from './expect/diff.js';
export { outputSchemaProblems } from './expect/output-schema.js';
export { runSuite, type RunEvent, type SuiteRunOptions } from './run/run-suite.js';
export { plainResult, textOf, type Observation } from './run/observation.js';
export {
  findTestFiles,
  runFiles,
  runOnce,
  writeReports,
  defaultJobs,
  type RunRequest,
  type RunnerIo,
} from './run/runner.js';
export { watchRuns } from './run/watch.js';
export { junitReport, jsonReport } from './report/junit.js';
export { TerminalReporter } from './report/terminal.js';
export { casesForTool, type GeneratedCase } from './generate/cases.js';
export { judgeGenerated } from './generate/judge.js';
export {
  discover,
  generatedSuite,
  runGenerated,
  writeGeneratedFile,
  DEFAULT_GENERATE_TIMEOUT_MS,
  type GenerateRequest,
} from './generate/generate.js';
export { openConnection, Connection, ConnectionError } from './session/connection.js';
export { ScriptedHandlers } from './session/scripted-handlers.js';
export { CassetteSession, hookPath } from './cassette/session.js';
export { installCassetteHook, type CassetteHookOptions } from './cassette/hook.js';
export type { CassetteFile, Interaction } from './cassette/format.js';
export { splitCommandLine } from '@mcpengine/wire';
