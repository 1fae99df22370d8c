/**
 * Reads an `mcpengine test` YAML file into a TestSuite: syntax (yaml), the published JSON Schema (validated with
 * the engine's own validator), then what a schema cannot say (one action per test, regexes that compile, JSONPaths
 * that parse, operators that exist). Every problem carries the `file:line:column` of its YAML node.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { splitCommandLine } from '@mcpengine/wire';
import { compileSchema, type ValidationIssue } from 'mcpengine/schema';
import { parseJsonPath } from '../expect/json-path.js';
import { isOperator, OPERATORS, toRegExp } from '../expect/match.js';
import type {
  Action,
  CassetteConfig,
  ClientScript,
  Expectations,
  JsonObject,
  RevisionChoice,
  ServerTarget,
  TestCase,
  TestSuite,
} from '../model.js';
import { TEST_FILE_SCHEMA } from './schema.js';
import { FileError, YamlSource } from './yaml-source.js';

const validator = compileSchema(TEST_FILE_SCHEMA as never);
const ACTIONS = ['tool', 'resource', 'prompt', 'complete', 'list', 'ping', 'subscribe'] as const;
const MAX_PROBLEMS = 20;

export const DEFAULT_TIMEOUT_MS = 10_000;

export async function loadYamlFile(path: string): Promise<TestSuite> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError([`${file}: cannot read: ${(error as Error).message}`]);
  }
  return parseYamlSuite(file, text);
}

export function parseYamlSuite(file: string, text: string): TestSuite {
  const source = YamlSource.parse(file, text);
  const data = source.toJS();
  const problems: string[] = [];
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new FileError([`${source.where('')}: a test file is a mapping with server: and tests:`]);
  const doc = data as JsonObject;
  checkActions(doc, source, problems);
  const result = validator.validate(doc);
  if (!result.valid) problems.push(...describeIssues(result.issues, source));
  checkMatchers(doc, source, problems);
  if (problems.length > 0) throw new FileError(dedupe(problems).slice(0, MAX_PROBLEMS));
  return toSuite(file, doc, source);
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)];
}

/** One action per test (a schema `oneOf` would only say "matches 0 or 2 alternatives"). */
function checkActions(doc: JsonObject, source: YamlSource, problems: string[]): void {
  const tests = Array.isArray(doc['tests']) ? (doc['tests'] as unknown[]) : [];
  tests.forEach((test, index) => {
    if (typeof test !== 'object' || test === null || Array.isArray(test)) return;
    const present = ACTIONS.filter((key) => key in test);
    if (present.length === 0)
      problems.push(`${source.where(['tests', index])}: a test needs one of ${ACTIONS.join(', ')}`);
    else if (present.length > 1)
      problems.push(
        `${source.where(['tests', index], present[1])}: a test does one thing; this one has ${present.join(' and ')}`,
      );
    const then = (test as JsonObject)['then'];
    if (then !== undefined && !('subscribe' in test))
      problems.push(`${source.where(['tests', index], 'then')}: then: belongs to subscribe tests`);
  });
  const server = doc['server'];
  if (typeof server === 'object' && server !== null && !Array.isArray(server)) {
    const s = server as JsonObject;
    if ('stdio' in s && 'command' in s)
      problems.push(`${source.where(['server'], 'command')}: give stdio: or command:, not both`);
    if ('module' in s && ('stdio' in s || 'command' in s || 'url' in s))
      problems.push(
        `${source.where(['server'], 'module')}: an in-memory server (module:) takes no command or url`,
      );
    if ('args' in s && !('command' in s))
      problems.push(`${source.where(['server'], 'args')}: args: goes with command:`);
  }
}

/** Schema issues as `file:line:col: message`, alternatives of a oneOf folded into one line. */
function describeIssues(issues: readonly ValidationIssue[], source: YamlSource): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    // Action alternatives were reported by checkActions; server alternatives are described below.
    if (/^#\/properties\/tests\/items\/oneOf/.test(issue.schemaPath)) continue;
    if (/\/oneOf\/\d+\//.test(issue.schemaPath) || /\/anyOf\/\d+\//.test(issue.schemaPath)) continue;
    let message = issue.message;
    if (issue.keyword === 'oneOf' || issue.keyword === 'anyOf') {
      const branches = issues
        .filter(
          (other) =>
            other.instancePath === issue.instancePath && other.schemaPath.startsWith(`${issue.schemaPath}/`),
        )
        .map((other) => other.message);
      if (issue.schemaPath === '#/properties/server/anyOf')
        message = 'the server needs stdio:, command:, url: or module:';
      else if (branches.length > 0) message = dedupe(branches).join(', or ');
    }
    const extra = /additional property "([^"]+)"/.exec(message)?.[1];
    const field = issue.instancePath === '' ? '(top level)' : issue.instancePath.slice(1).replace(/\//g, '.');
    const where =
      extra === undefined ? source.where(issue.instancePath) : source.where(issue.instancePath, extra);
    out.push(
      extra === undefined
        ? `${where}: ${field}: ${message}`
        : `${where}: unknown key ${JSON.stringify(extra)} in ${field}`,
    );
  }
  return out;
}

/** Operators, regexes and JSONPaths inside matchers. */
function checkMatchers(doc: JsonObject, source: YamlSource, problems: string[]): void {
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const object = value as JsonObject;
    // `expect.json` maps JSONPaths (which start with `$`) to matchers: not an operator object.
    const isJsonPaths = path.length === 4 && path[3] === 'json';
    if (isJsonPaths) {
      for (const [key, child] of Object.entries(object)) visit(child, [...path, key]);
      return;
    }
    if (isOperator(object)) {
      for (const [op, arg] of Object.entries(object)) {
        if (!(OPERATORS as readonly string[]).includes(op))
          problems.push(`${source.where(path, op)}: unknown operator ${op} (known: ${OPERATORS.join(' ')})`);
        if (op === '$matches') {
          try {
            toRegExp(String(arg));
          } catch (error) {
            problems.push(`${source.where([...path, op])}: $matches: ${(error as Error).message}`);
          }
        }
      }
    }
    for (const [key, child] of Object.entries(object)) visit(child, [...path, key]);
  };
  const tests = Array.isArray(doc['tests']) ? (doc['tests'] as unknown[]) : [];
  tests.forEach((test, index) => {
    if (typeof test !== 'object' || test === null) return;
    const expect = (test as JsonObject)['expect'];
    visit(expect, ['tests', index, 'expect']);
    const json = typeof expect === 'object' && expect !== null ? (expect as JsonObject)['json'] : undefined;
    if (typeof json === 'object' && json !== null)
      for (const key of Object.keys(json)) {
        try {
          parseJsonPath(key);
        } catch (error) {
          problems.push(
            `${source.where(['tests', index, 'expect', 'json'], key)}: ${(error as Error).message}`,
          );
        }
      }
  });
}

function revisionsOf(value: unknown): RevisionChoice[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]) as RevisionChoice[];
}

function serverOf(file: string, raw: JsonObject): ServerTarget {
  const dir = dirname(file);
  const cwd = typeof raw['cwd'] === 'string' ? resolve(dir, raw['cwd']) : dir;
  let command: string | undefined;
  let args: string[] = [];
  if (typeof raw['stdio'] === 'string') {
    const words = splitCommandLine(raw['stdio']);
    command = words[0];
    args = words.slice(1);
  } else if (typeof raw['command'] === 'string') {
    command = raw['command'];
    args = ((raw['args'] as string[] | undefined) ?? []).map(String);
  }
  const cassette = cassetteOf(dir, raw['cassette']);
  const common = {
    ...(raw['env'] === undefined ? {} : { env: raw['env'] as Record<string, string> }),
    cwd,
    ...(cassette === undefined ? {} : { cassette }),
    ...(raw['startupTimeout'] === undefined ? {} : { startupTimeoutMs: raw['startupTimeout'] as number }),
  };
  if (typeof raw['module'] === 'string')
    return {
      kind: 'memory',
      module: resolve(dir, raw['module']),
      ...(typeof raw['export'] === 'string' ? { export: raw['export'] } : {}),
      ...common,
    };
  if (typeof raw['url'] === 'string')
    return {
      kind: 'http',
      url: raw['url'],
      transport: (raw['transport'] as ServerTarget['transport']) ?? 'auto',
      ...(raw['headers'] === undefined ? {} : { headers: raw['headers'] as Record<string, string> }),
      ...(command === undefined ? {} : { command, args }),
      ...common,
    };
  return { kind: 'stdio', command: command!, args, ...common };
}

function cassetteOf(dir: string, raw: unknown): CassetteConfig | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return { path: resolve(dir, raw), mode: 'auto', secrets: [] };
  const object = raw as JsonObject;
  return {
    path: resolve(dir, String(object['file'])),
    mode: (object['mode'] as CassetteConfig['mode']) ?? 'auto',
    secrets: (object['secrets'] as string[] | undefined) ?? [],
  };
}

export function clientScriptOf(raw: unknown): ClientScript {
  if (typeof raw !== 'object' || raw === null) return {};
  const object = raw as JsonObject;
  const sampling = (object['sampling'] as JsonObject[] | undefined)?.map((rule) => ({
    ...(rule['when'] === undefined ? {} : { when: rule['when'] }),
    reply:
      typeof rule['reply'] === 'string'
        ? { role: 'assistant', content: { type: 'text', text: rule['reply'] }, model: 'mcpengine-test' }
        : (rule['reply'] as JsonObject),
  }));
  return {
    ...(sampling === undefined ? {} : { sampling }),
    ...(object['elicitation'] === undefined ? {} : { elicitation: object['elicitation'] as never }),
    ...(object['roots'] === undefined ? {} : { roots: object['roots'] as never }),
  };
}

export function actionOf(raw: JsonObject): Action {
  const args = (raw['arguments'] as JsonObject | undefined) ?? {};
  if (typeof raw['tool'] === 'string') return { kind: 'tool', name: raw['tool'], arguments: args };
  if (typeof raw['resource'] === 'string') return { kind: 'resource', uri: raw['resource'] };
  if (typeof raw['prompt'] === 'string')
    return {
      kind: 'prompt',
      name: raw['prompt'],
      arguments: Object.fromEntries(
        Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ),
    };
  if (raw['complete'] !== undefined) {
    const c = raw['complete'] as JsonObject;
    return {
      kind: 'complete',
      ref:
        typeof c['prompt'] === 'string'
          ? { type: 'ref/prompt', name: c['prompt'] }
          : { type: 'ref/resource', uri: String(c['resourceTemplate']) },
      argument: { name: String(c['argument']), value: String(c['value']) },
      ...(c['context'] === undefined ? {} : { context: { arguments: c['context'] as JsonObject } }),
    };
  }
  if (typeof raw['list'] === 'string') return { kind: 'list', list: raw['list'] as never };
  if (typeof raw['subscribe'] === 'string') {
    const then = raw['then'] as JsonObject | undefined;
    return {
      kind: 'subscribe',
      uri: raw['subscribe'],
      ...(then === undefined ? {} : { then: actionOf(then) }),
    };
  }
  return { kind: 'ping' };
}

function toSuite(file: string, doc: JsonObject, source: YamlSource): TestSuite {
  const tests = (doc['tests'] as JsonObject[]).map((raw, index): TestCase => {
    const expect = (raw['expect'] as Expectations | undefined) ?? {};
    const revisions = revisionsOf(raw['revision']);
    const skip = raw['skip'];
    return {
      name: String(raw['name']),
      location: source.locate(['tests', index]),
      action: actionOf(raw),
      expect,
      ...(revisions === undefined ? {} : { revisions }),
      ...(raw['timeout'] === undefined ? {} : { timeoutMs: raw['timeout'] as number }),
      ...(raw['logLevel'] === undefined ? {} : { logLevel: String(raw['logLevel']) }),
      ...(raw['progress'] === true ? { progress: true } : {}),
      ...(raw['client'] === undefined ? {} : { client: clientScriptOf(raw['client']) }),
      ...(skip === true ? { skip: 'skipped' } : typeof skip === 'string' ? { skip } : {}),
    };
  });
  const names = new Map<string, number>();
  tests.forEach((test, index) => {
    const earlier = names.get(test.name);
    if (earlier !== undefined)
      throw new FileError([
        `${source.where(['tests', index, 'name'])}: duplicate test name ${JSON.stringify(test.name)} (first at ${source.where(['tests', earlier, 'name'])})`,
      ]);
    names.set(test.name, index);
  });
  return {
    file,
    source: 'yaml',
    name: typeof doc['name'] === 'string' ? doc['name'] : basename(file),
    server: serverOf(file, doc['server'] as JsonObject),
    revisions: revisionsOf(doc['revision']) ?? ['auto'],
    timeoutMs: (doc['timeout'] as number | undefined) ?? DEFAULT_TIMEOUT_MS,
    client: clientScriptOf(doc['client']),
    tests,
    snapshotFile: join(dirname(file), '__snapshots__', `${basename(file)}.snap.yaml`),
    snapshotFormat: 'yaml',
    notices: [],
  };
}
