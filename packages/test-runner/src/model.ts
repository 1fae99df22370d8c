/**
 * The runner's model: what a test file says (suites, tests, actions, expectations) once any source — our YAML
 * format, an mcp-jest config, a generated plan — has been read, and what running a test produced.
 */
import type { WireViolation } from '@mcpengine/oracle';

export type JsonObject = Record<string, unknown>;

/** `file:line:column` of the thing a message is about (1-based). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export function formatLocation(location: SourceLocation | undefined): string {
  return location === undefined ? '' : `${location.file}:${location.line}:${location.column}`;
}

/** The MCP revisions, oldest first (kept here so the test format does not need the engine's internals). */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export function isRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (REVISIONS as readonly string[]).includes(value);
}

/** `auto`: let the client probe (modern first, then legacy). */
export type RevisionChoice = Revision | 'auto';

export interface CassetteConfig {
  /** Absolute path of the cassette file. */
  readonly path: string;
  /** record: call the real upstream and save; replay: answer from the file, fail on anything else; auto: replay when the file exists. */
  readonly mode: 'record' | 'replay' | 'auto';
  /** Environment variables whose values are secrets: replaced by `{{NAME}}` wherever they appear. */
  readonly secrets: readonly string[];
}

export interface ServerTarget {
  readonly kind: 'stdio' | 'http' | 'memory';
  /** stdio, or the process that serves `url`. */
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** http: the endpoint; `{port}` is replaced by a free port (also in `args`). */
  readonly url?: string;
  readonly transport?: 'auto' | 'streamable-http' | 'sse';
  readonly headers?: Readonly<Record<string, string>>;
  /** memory: the module and its export that makes the server (a function returning an McpServer, or one). */
  readonly module?: string;
  readonly export?: string;
  /** memory, from code: the factory itself. */
  readonly factory?: () => unknown;
  readonly cassette?: CassetteConfig;
  /** How long the server may take to start and answer the handshake. */
  readonly startupTimeoutMs?: number;
}

/** Scripted answers to what the server asks the client (sampling, elicitation, roots). */
export interface ClientScript {
  readonly sampling?: readonly SamplingRule[];
  readonly elicitation?: readonly ElicitationRule[];
  readonly roots?: readonly { uri: string; name?: string }[];
}

export interface SamplingRule {
  /** A matcher on the request's params; absent matches anything. */
  readonly when?: unknown;
  readonly reply: JsonObject;
}

export interface ElicitationRule {
  readonly when?: unknown;
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: JsonObject;
}

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export type Action =
  | { readonly kind: 'tool'; readonly name: string; readonly arguments: JsonObject }
  | { readonly kind: 'resource'; readonly uri: string }
  | { readonly kind: 'prompt'; readonly name: string; readonly arguments: Record<string, string> }
  | {
      readonly kind: 'complete';
      readonly ref: JsonObject;
      readonly argument: { name: string; value: string };
      readonly context?: JsonObject;
    }
  | { readonly kind: 'list'; readonly list: ListKind }
  | { readonly kind: 'ping' }
  /** Subscribe to a resource, run `then`, and collect the update notifications. */
  | { readonly kind: 'subscribe'; readonly uri: string; readonly then?: Action }
  /** mcp-jest resource globs: list resources, match names/URIs. */
  | { readonly kind: 'resource-glob'; readonly pattern: string };

/** What a test expects. Every member is optional; the defaults are the strict ones (no error, no isError). */
export interface Expectations {
  /** A JSON-RPC error is expected; a matcher on `{code, message, data}`. */
  readonly error?: unknown;
  /** Tool result `isError` (default: must be false/absent). `'any'` accepts both. */
  readonly isError?: boolean | 'any';
  /** The tool must refuse the input as the negotiated revision says: -32602 before 2025-11-25, isError from it on. */
  readonly rejectsInput?: boolean;
  readonly text?: unknown;
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  /** JSONPath → matcher, on structuredContent (tools) or the result. */
  readonly json?: Readonly<Record<string, unknown>>;
  readonly result?: unknown;
  readonly messages?: unknown;
  readonly contents?: unknown;
  readonly values?: unknown;
  readonly names?: unknown;
  readonly notifications?: unknown;
  readonly progress?: unknown;
  readonly logs?: unknown;
  readonly asked?: unknown;
  readonly updated?: boolean;
  /** Snapshot the result under this name (true: the test's name). */
  readonly snapshot?: string | boolean;
  /** mcp-jest: snapshot only these paths / without these paths. */
  readonly snapshotProperties?: readonly string[];
  readonly snapshotExclude?: readonly string[];
  /** mcp-jest `expect` expression, evaluated on the result. */
  readonly expression?: { readonly source: string; readonly location?: SourceLocation };
  /** mcp-jest `shouldThrow`: a JSON-RPC error or an isError result passes; success fails. */
  readonly shouldThrow?: boolean;
  /** mcp-jest resources `shouldExist: false`. */
  readonly shouldExist?: boolean;
  /** Generated tests: classify instead of asserting (definite defects fail, doubts warn). */
  readonly generated?: 'valid' | 'invalid';
}

export interface TestCase {
  readonly name: string;
  readonly location?: SourceLocation;
  /** Run at these revisions only (else the suite's). */
  readonly revisions?: readonly RevisionChoice[];
  readonly timeoutMs?: number;
  readonly action: Action;
  readonly expect: Expectations;
  /** Legacy: `logging/setLevel` first; modern: the per-request log level. */
  readonly logLevel?: string;
  /** Ask for progress notifications. */
  readonly progress?: boolean;
  readonly client?: ClientScript;
  readonly skip?: string;
  /** A note shown with the result (e.g. what a generated case tries). */
  readonly note?: string;
}

export interface TestSuite {
  /** The file the suite came from (absolute), or a name for suites made in code. */
  readonly file: string;
  readonly source: 'yaml' | 'mcp-jest' | 'generated';
  readonly name: string;
  readonly server: ServerTarget;
  readonly revisions: readonly RevisionChoice[];
  readonly timeoutMs: number;
  readonly client: ClientScript;
  readonly tests: readonly TestCase[];
  /** Where snapshots of this suite live. */
  readonly snapshotFile: string;
  readonly snapshotFormat: 'yaml' | 'mcp-jest';
  /** Notices about the file (ignored keys, …), shown once. */
  readonly notices: readonly string[];
}

export type TestStatus = 'passed' | 'failed' | 'warned' | 'skipped';

export interface TestResult {
  readonly suite: string;
  readonly name: string;
  readonly location?: SourceLocation;
  readonly revision?: string;
  readonly status: TestStatus;
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
  readonly notes?: readonly string[];
  readonly durationMs: number;
  /** What happened, for the reports: request, response, stderr, schema violations. */
  readonly evidence?: Evidence;
}

export interface Evidence {
  readonly request?: unknown;
  readonly response?: unknown;
  readonly stderr?: string;
  readonly violations?: readonly WireViolation[];
  readonly exit?: string;
}

export interface SuiteResult {
  readonly file: string;
  readonly name: string;
  readonly tests: readonly TestResult[];
  /** The server could not be reached at all (exit code 2). */
  readonly connectionError?: string;
  /** The file itself is malformed (exit code 2). */
  readonly fileError?: string;
  readonly notices: readonly string[];
  readonly durationMs: number;
}

export interface RunSummary {
  readonly suites: readonly SuiteResult[];
  readonly passed: number;
  readonly failed: number;
  readonly warned: number;
  readonly skipped: number;
  readonly durationMs: number;
  /** 0 all passed, 1 failures, 2 usage or connection error. */
  readonly exitCode: 0 | 1 | 2;
}

export function summarize(suites: readonly SuiteResult[], durationMs: number): RunSummary {
  const all = suites.flatMap((suite) => suite.tests);
  const count = (status: TestStatus) => all.filter((test) => test.status === status).length;
  const failed = count('failed');
  const broken = suites.some((suite) => suite.connectionError !== undefined || suite.fileError !== undefined);
  return {
    suites,
    passed: count('passed'),
    failed,
    warned: count('warned'),
    skipped: count('skipped'),
    durationMs,
    exitCode: broken ? 2 : failed > 0 ? 1 : 0,
  };
}
