/**
 * `mcpengine test --generate`: connect, list the tools (and resources and prompts), derive cases from the
 * schemas, run them with the defect judge, and optionally write what was generated as a YAML test file to edit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Document, isMap, isSeq } from 'yaml';
import type { JsonObject, RevisionChoice, ServerTarget, SuiteResult, TestCase, TestSuite } from '../model.js';
import { openConnection } from '../session/connection.js';
import { ScriptedHandlers } from '../session/scripted-handlers.js';
import { runSuite, type RunEvent } from '../run/run-suite.js';
import { casesForTool, testCaseOf } from './cases.js';
import { judgeGenerated } from './judge.js';
import { sampleValue } from './values.js';

export const DEFAULT_GENERATE_TIMEOUT_MS = 10_000;

/** The client of generated runs answers whatever the server asks, so tools that need a client can be called. */
export const GENERATED_CLIENT = {
  sampling: [
    {
      reply: {
        role: 'assistant',
        content: { type: 'text', text: 'A reply from the mcpengine test client.' },
        model: 'mcpengine-test',
      },
    },
  ],
  elicitation: [{ action: 'accept' as const }],
  roots: [{ uri: 'file:///tmp', name: 'tmp' }],
};

export interface GenerateRequest {
  readonly server: ServerTarget;
  /** How the server was named on the command line (for --write). */
  readonly serverSpec: JsonObject;
  readonly revisions: readonly RevisionChoice[];
  readonly timeoutMs: number;
  /** Tools not to call. */
  readonly excludeTools?: readonly string[];
  readonly write?: string;
  readonly cwd: string;
}

export interface Discovery {
  readonly tools: JsonObject[];
  readonly resources: JsonObject[];
  readonly prompts: JsonObject[];
}

export async function discover(
  server: ServerTarget,
  revision: RevisionChoice,
  timeoutMs: number,
): Promise<Discovery> {
  const connection = await openConnection(server, {
    revision,
    handlers: new ScriptedHandlers({}, {}),
    timeoutMs,
  });
  try {
    const caps = connection.session.serverCapabilities;
    const settings = { timeoutMs };
    return {
      tools: caps['tools'] === undefined ? [] : await connection.session.listAll('tools', settings),
      resources:
        caps['resources'] === undefined ? [] : await connection.session.listAll('resources', settings),
      prompts: caps['prompts'] === undefined ? [] : await connection.session.listAll('prompts', settings),
    };
  } finally {
    await connection.close();
  }
}

/** The generated suite for what a server lists. */
export function generatedSuite(
  discovery: Discovery,
  request: GenerateRequest,
): { suite: TestSuite; notes: string[] } {
  const notes: string[] = [];
  const tests: TestCase[] = [];
  const excluded = new Set(request.excludeTools ?? []);
  for (const tool of discovery.tools) {
    if (excluded.has(String(tool['name']))) {
      notes.push(`${String(tool['name'])}: excluded (--exclude-tool)`);
      continue;
    }
    const { cases, notes: toolNotes } = casesForTool(tool);
    notes.push(...toolNotes);
    tests.push(...cases.map((c) => ({ ...testCaseOf(c), timeoutMs: request.timeoutMs })));
  }
  for (const resource of discovery.resources)
    tests.push({
      name: `resource ${String(resource['uri'])}`,
      action: { kind: 'resource', uri: String(resource['uri']) },
      expect: { generated: 'valid' },
      timeoutMs: request.timeoutMs,
    });
  for (const prompt of discovery.prompts) {
    const args: Record<string, string> = {};
    for (const arg of (prompt['arguments'] as JsonObject[] | undefined) ?? [])
      if (arg['required'] === true)
        args[String(arg['name'])] = String(sampleValue({ type: 'string' }, {}, String(arg['name']), false));
    tests.push({
      name: `prompt ${String(prompt['name'])}`,
      action: { kind: 'prompt', name: String(prompt['name']), arguments: args },
      expect: { generated: 'valid' },
      timeoutMs: request.timeoutMs,
    });
  }
  return {
    suite: {
      file: 'generated',
      source: 'generated',
      name: 'generated tests',
      server: request.server,
      revisions: request.revisions,
      timeoutMs: request.timeoutMs,
      client: GENERATED_CLIENT,
      tests,
      snapshotFile: resolve(request.cwd, '__snapshots__', 'generated.snap.yaml'),
      snapshotFormat: 'yaml',
      notices: notes,
    },
    notes,
  };
}

export async function runGenerated(
  request: GenerateRequest,
  options: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void } = {},
): Promise<{ result: SuiteResult; suite: TestSuite }> {
  const discovery = await discover(request.server, request.revisions[0] ?? 'auto', request.timeoutMs);
  const { suite } = generatedSuite(discovery, request);
  const result = await runSuite(suite, { ...options, judge: judgeGenerated });
  if (request.write !== undefined)
    writeGeneratedFile(resolve(request.cwd, request.write), suite, result, request.serverSpec);
  return { result, suite };
}

/** Saves the generated cases as a declarative test file, each with what happened as a comment. */
export function writeGeneratedFile(
  path: string,
  suite: TestSuite,
  result: SuiteResult,
  serverSpec: JsonObject,
): void {
  const outcomes = new Map(result.tests.map((t) => [t.name.replace(/ \[[^\]]+\]$/, ''), t]));
  const tests = suite.tests.map((test) => {
    const entry: JsonObject = { name: test.name };
    const action = test.action;
    if (action.kind === 'tool') Object.assign(entry, { tool: action.name, arguments: action.arguments });
    else if (action.kind === 'resource') entry['resource'] = action.uri;
    else if (action.kind === 'prompt')
      Object.assign(entry, { prompt: action.name, arguments: action.arguments });
    if (test.expect.generated === 'invalid') entry['expect'] = { rejectsInput: true };
    const outcome = outcomes.get(test.name);
    if (
      outcome?.status === 'warned' &&
      test.expect.generated === 'valid' &&
      outcome.warnings.some((w) => w.startsWith('tool error'))
    )
      entry['expect'] = { isError: true };
    return entry;
  });
  const doc = new Document({
    name: `generated tests for ${String(serverSpec['stdio'] ?? serverSpec['url'] ?? 'the server')}`,
    server: serverSpec,
    ...(suite.revisions.length === 1 && suite.revisions[0] === 'auto'
      ? {}
      : { revision: suite.revisions.length === 1 ? suite.revisions[0] : suite.revisions }),
    timeout: suite.timeoutMs,
    tests,
  });
  doc.commentBefore =
    ' Generated by `mcpengine test --generate`: valid inputs must succeed, invalid ones must be refused.\n' +
    ' Edit freely: add expectations (text, structuredContent, json paths…), remove what does not matter.';
  const seq = isMap(doc.contents) ? doc.contents.get('tests', true) : undefined;
  if (isSeq(seq))
    seq.items.forEach((item, index) => {
      const outcome = outcomes.get(suite.tests[index]!.name);
      if (outcome === undefined || typeof item !== 'object' || item === null) return;
      const lines = [
        ...outcome.failures.map((f) => `FAILED: ${f}`),
        ...outcome.warnings.map((w) => `warning: ${w}`),
      ];
      if (lines.length > 0)
        (item as { commentBefore?: string }).commentBefore = lines
          .map((l) => ` ${l.split('\n')[0]!.slice(0, 200)}`)
          .join('\n');
    });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, doc.toString({ lineWidth: 0 }));
}
