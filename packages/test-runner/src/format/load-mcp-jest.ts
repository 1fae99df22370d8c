/**
 * mcp-jest config files (`--config mcp-jest.json`), run unchanged:
 *
 *   { server: { command, args, env, transport: stdio | sse | streamable-http, url },
 *     tests: { tools: { <name>: { args, expect, shouldThrow, snapshot } } | [names],
 *              resources: { <uri or glob>: { expect, shouldExist, snapshot } } | [uris],
 *              prompts: { <name>: { args, expect, snapshot } } | [names],
 *              timeout, maxRetries, filter, skip } }
 *
 * with one correction: a tool result with `isError: true` fails unless the test declares `shouldThrow: true`, and
 * `shouldThrow` passes on a JSON-RPC error or an `isError` result and fails on success. Retries are not made
 * (`maxRetries` is reported and ignored: a flaky server should fail).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { globToRegExp } from './glob.js';
import { parseExpectExpression } from './mcp-jest-expect.js';
import type {
  Action,
  Expectations,
  JsonObject,
  ServerTarget,
  SourceLocation,
  TestCase,
  TestSuite,
} from '../model.js';
import { DEFAULT_TIMEOUT_MS } from './load-yaml.js';
import { FileError, YamlSource } from './yaml-source.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function loadMcpJestConfig(path: string): Promise<TestSuite> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError([`${file}: cannot read: ${(error as Error).message}`]);
  }
  return parseMcpJestConfig(file, text);
}

export function parseMcpJestConfig(file: string, text: string): TestSuite {
  // JSON is YAML: the YAML parser gives positions for every node.
  const source = YamlSource.parse(file, text);
  const doc = source.toJS();
  const problems: string[] = [];
  const where = (path: (string | number)[], key?: string) => source.where(path, key);
  if (!isObject(doc))
    throw new FileError([`${where([])}: an mcp-jest config is an object with server and tests`]);
  const server = doc['server'];
  const tests = doc['tests'];
  if (!isObject(server))
    problems.push(`${where([])}: "server" must be an object ({ command, args } or { transport, url })`);
  if (!isObject(tests))
    problems.push(`${where([])}: "tests" must be an object ({ tools, resources, prompts })`);
  for (const key of Object.keys(doc))
    if (key !== 'server' && key !== 'tests' && key !== '$schema')
      problems.push(`${where([], key)}: unknown key "${key}"`);
  if (problems.length > 0) throw new FileError(problems);
  const s = server as JsonObject;
  const t = tests as JsonObject;
  const notices: string[] = [];
  const transport = s['transport'] ?? 'stdio';
  if (!['stdio', 'sse', 'streamable-http'].includes(String(transport)))
    problems.push(`${where(['server', 'transport'])}: transport must be stdio, sse or streamable-http`);
  if (transport === 'stdio' && typeof s['command'] !== 'string')
    problems.push(`${where(['server'])}: a stdio server needs "command"`);
  if (transport !== 'stdio' && typeof s['url'] !== 'string')
    problems.push(`${where(['server'])}: an HTTP server needs "url"`);
  if (
    s['args'] !== undefined &&
    (!Array.isArray(s['args']) || !(s['args'] as unknown[]).every((a) => typeof a === 'string'))
  )
    problems.push(`${where(['server', 'args'])}: "args" must be an array of strings`);
  if (
    s['env'] !== undefined &&
    (!isObject(s['env']) || !Object.values(s['env']).every((v) => typeof v === 'string'))
  )
    problems.push(`${where(['server', 'env'])}: "env" must map names to strings`);
  const timeout = t['timeout'] ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !(timeout > 0))
    problems.push(`${where(['tests', 'timeout'])}: "timeout" must be a positive number of milliseconds`);
  if (t['maxRetries'] !== undefined)
    notices.push(`maxRetries is ignored: mcpengine test does not retry (a flaky server should fail)`);
  const filter = typeof t['filter'] === 'string' ? globToRegExp(t['filter']) : undefined;
  const skip = typeof t['skip'] === 'string' ? globToRegExp(t['skip']) : undefined;
  for (const key of Object.keys(t))
    if (!['tools', 'resources', 'prompts', 'timeout', 'maxRetries', 'filter', 'skip'].includes(key))
      problems.push(`${where(['tests'], key)}: unknown key "${key}"`);

  const cases: TestCase[] = [];
  const add = (
    section: string,
    name: string,
    location: SourceLocation,
    action: Action,
    expect: Expectations,
  ) => {
    const label = `${section.slice(0, -1)} ${name}`;
    const skipped = (filter !== undefined && !filter.test(name)) || (skip !== undefined && skip.test(name));
    cases.push({
      name: label,
      location,
      action,
      expect,
      ...(skipped ? { skip: 'filtered out (filter/skip)' } : {}),
    });
  };
  const expectation = (
    section: string,
    name: string,
    raw: JsonObject,
    path: (string | number)[],
  ): Expectations => {
    const out: Record<string, unknown> = {};
    const e = raw['expect'];
    if (e !== undefined) {
      if (typeof e !== 'string')
        problems.push(
          `${where([...path, 'expect'])}: "expect" must be a string expression (functions exist only in mcp-jest's API)`,
        );
      else if (e.trim() !== 'exists') {
        try {
          parseExpectExpression(e);
          out['expression'] = { source: e, location: source.locate([...path, 'expect']) };
        } catch (error) {
          problems.push(`${where([...path, 'expect'])}: ${(error as Error).message} in ${JSON.stringify(e)}`);
        }
      }
    }
    if (raw['shouldThrow'] !== undefined) {
      if (typeof raw['shouldThrow'] !== 'boolean')
        problems.push(`${where([...path, 'shouldThrow'])}: "shouldThrow" must be true or false`);
      else if (raw['shouldThrow']) out['shouldThrow'] = true;
    }
    if (raw['shouldExist'] === false) out['shouldExist'] = false;
    const snap = raw['snapshot'];
    if (snap === true) out['snapshot'] = `${section}-${name}`;
    else if (typeof snap === 'string') out['snapshot'] = snap;
    else if (isObject(snap)) {
      out['snapshot'] = typeof snap['name'] === 'string' ? snap['name'] : `${section}-${name}`;
      if (Array.isArray(snap['properties'])) out['snapshotProperties'] = snap['properties'];
      if (Array.isArray(snap['exclude'])) out['snapshotExclude'] = snap['exclude'];
    }
    for (const key of Object.keys(raw))
      if (!['args', 'expect', 'shouldThrow', 'shouldExist', 'snapshot', 'description'].includes(key))
        problems.push(`${where(path, key)}: unknown key "${key}"`);
    return out as Expectations;
  };
  for (const section of ['tools', 'resources', 'prompts'] as const) {
    const raw = t[section];
    if (raw === undefined) continue;
    const entries: [string, JsonObject, (string | number)[]][] = Array.isArray(raw)
      ? raw.map((name, index) => [String(name), {}, ['tests', section, index]])
      : isObject(raw)
        ? Object.entries(raw).map(([name, value]) => [
            name,
            isObject(value) ? value : {},
            ['tests', section, name],
          ])
        : [];
    if (!Array.isArray(raw) && !isObject(raw))
      problems.push(`${where(['tests', section])}: "${section}" must be an object or a list of names`);
    for (const [name, value, path] of entries) {
      const location = source.locate(path);
      const expect = expectation(section, name, value, path);
      const args = value['args'];
      if (args !== undefined && !isObject(args))
        problems.push(`${where([...path, 'args'])}: "args" must be an object`);
      if (Array.isArray(raw)) {
        // A list of names checks that each exists (mcp-jest: "verify tools exist").
        if (section === 'resources')
          add(
            section,
            name,
            location,
            { kind: 'resource-glob', pattern: name },
            { expression: { source: 'count >= 1' } },
          );
        else add(section, name, location, { kind: 'list', list: section }, { names: { $contains: [name] } });
      } else if (section === 'tools')
        add(section, name, location, { kind: 'tool', name, arguments: (args as JsonObject) ?? {} }, expect);
      else if (section === 'prompts')
        add(
          section,
          name,
          location,
          {
            kind: 'prompt',
            name,
            arguments: Object.fromEntries(
              Object.entries((args as JsonObject) ?? {}).map(([k, v]) => [
                k,
                typeof v === 'string' ? v : JSON.stringify(v),
              ]),
            ),
          },
          expect,
        );
      else if (/[*?]/.test(name))
        add(
          section,
          name,
          location,
          { kind: 'resource-glob', pattern: name },
          {
            ...expect,
            // "count" and the glob: the listed resources whose URI or name matches.
            ...(expect.expression === undefined ? { expression: { source: 'count >= 1' } } : {}),
          },
        );
      else add(section, name, location, { kind: 'resource', uri: name }, expect);
    }
  }
  if (problems.length > 0) throw new FileError(problems);
  const target: ServerTarget =
    transport === 'stdio'
      ? {
          kind: 'stdio',
          command: String(s['command']),
          args: (s['args'] as string[] | undefined) ?? [],
          ...(s['env'] ? { env: s['env'] as Record<string, string> } : {}),
          cwd: dirname(file),
        }
      : {
          kind: 'http',
          url: String(s['url']),
          transport: transport === 'sse' ? 'sse' : 'streamable-http',
          ...(s['env'] ? { env: s['env'] as Record<string, string> } : {}),
        };
  return {
    file,
    source: 'mcp-jest',
    name: basename(file),
    server: target,
    revisions: ['auto'],
    timeoutMs: timeout as number,
    client: {},
    tests: cases,
    snapshotFile: join(dirname(file), '__snapshots__', 'index'),
    snapshotFormat: 'mcp-jest',
    notices,
  };
}
