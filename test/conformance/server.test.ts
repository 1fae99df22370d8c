/**
 * The official conformance suite's server scenarios against the everything server over HTTP
 * (`servers/everything/dist/main.js --http`; build first), in every era the suite can drive:
 * `--suite all` at 2025-11-25 (Era A, sessions), 2026-07-28 (Era B, stateless), and 2025-06-18 / 2025-03-26,
 * which add wire-schema validation at those revisions and the 2025-03-26 session lifecycle.
 *
 * Every check of every `checks.json` is read: a FAILURE or a WARNING fails the test (plain runs exit 0 on
 * warnings), unless `expected-failures.yaml` lists it with evidence. Extension scenarios (tasks, skills) are
 * outside `--spec-version` filtering and out of scope.
 *
 * Where the suite is shallow (conformance notes §6), our own probes follow: exact fixture texts, `isError`
 * false on success paths, unknown tools as JSON-RPC errors, the modern envelope on every result, SSE polling
 * that really closes the stream before the result, and the HTTP+SSE endpoint.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertHttpTapsClean, HttpPeer, SseReader } from '@mcpengine/oracle';
import { EVERYTHING_MAIN } from '../interop/everything-expected.js';
import { sharedEverythingHttp } from '../interop/everything-http.js';
import {
  describeCheck,
  isProblem,
  readChecks,
  requireFiles,
  RESULT_STAMP,
  runServerSuite,
  type Check,
} from './runner.js';

const EXPECTED = join(import.meta.dirname, 'expected-failures.yaml');

/** `server:` entries of the expected-failures file: `scenario` or `scenario:check-id`. */
function expectedFailures(): Set<string> {
  const entries = new Set<string>();
  let section = '';
  for (const line of readFileSync(EXPECTED, 'utf8').split('\n')) {
    const text = line.replace(/#.*/, '').trimEnd();
    if (/^\S/.test(text)) section = text.replace(/:.*$/, '');
    const item = /^\s*-\s*(\S+)\s*$/.exec(text);
    if (item && section === 'server') entries.add(item[1]!);
  }
  return entries;
}

beforeAll(() => requireFiles({ 'the everything server (run `npm run build`)': EVERYTHING_MAIN }));
const everything = sharedEverythingHttp();
/** The fixture's origin, `http://127.0.0.1:<port>`. */
const base = () => everything().mcpUrl.origin;

afterEach(() => assertHttpTapsClean());

/** The checks of every `server-<scenario>-<stamp>` result folder, by scenario. */
async function scenarioChecks(output: string): Promise<Map<string, Check[]>> {
  const byScenario = new Map<string, Check[]>();
  for (const entry of await readdir(output)) {
    if (!entry.startsWith('server-') || !RESULT_STAMP.test(entry)) continue;
    byScenario.set(
      entry.slice('server-'.length).replace(RESULT_STAMP, ''),
      await readChecks(join(output, entry)),
    );
  }
  return byScenario;
}

/** Minimum scenario counts, so that a suite that silently runs nothing cannot pass. */
const RUNS: readonly { version: string; minScenarios: number; mustInclude: readonly string[] }[] = [
  {
    version: '2025-11-25',
    minScenarios: 33,
    mustInclude: [
      'server-initialize',
      'server-session-lifecycle',
      'server-sse-polling',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
      'tools-call-sampling',
      'tools-call-elicitation',
    ],
  },
  {
    version: '2026-07-28',
    minScenarios: 40,
    mustInclude: [
      'server-stateless',
      'http-header-validation',
      'http-custom-header-server-validation',
      'caching',
      'dns-rebinding-protection',
      'server-sse-multiple-streams',
    ],
  },
  { version: '2025-06-18', minScenarios: 27, mustInclude: ['server-initialize', 'tools-call-with-logging'] },
  { version: '2025-03-26', minScenarios: 1, mustInclude: ['server-session-lifecycle'] },
];

describe('official conformance suite, server scenarios', () => {
  const seen = new Set<string>();
  const expected = expectedFailures();

  for (const run of RUNS) {
    it(
      `passes --suite all at ${run.version} with no FAILURE and no WARNING`,
      { timeout: 300_000 },
      async () => {
        const output = await mkdtemp(join(tmpdir(), `mcp-conformance-server-${run.version}-`));
        try {
          const log = await runServerSuite(`${base()}/mcp`, [
            '--suite',
            'all',
            '--spec-version',
            run.version,
            '-o',
            output,
          ]);
          const scenarios = await scenarioChecks(output);
          expect(scenarios.size, log).toBeGreaterThanOrEqual(run.minScenarios);
          for (const name of run.mustInclude) expect([...scenarios.keys()], log).toContain(name);

          const problems: string[] = [];
          for (const [scenario, checks] of scenarios) {
            for (const check of checks.filter(isProblem)) {
              const key = `${scenario}:${check.id}`;
              if (expected.has(scenario) || expected.has(key)) {
                seen.add(expected.has(scenario) ? scenario : key);
                continue;
              }
              problems.push(`${run.version} ${scenario} ${describeCheck(check)}`);
            }
          }
          expect(problems, problems.join('\n')).toEqual([]);
        } finally {
          await rm(output, { recursive: true, force: true });
        }
      },
    );
  }

  it('has no stale expected-failures entries', () => {
    const stale = [...expected].filter((entry) => !seen.has(entry));
    expect(stale).toEqual([]);
  });
});

describe('the fixture itself (where the suite is shallow)', () => {
  const fetcher = (request: Request) => fetch(request);

  it('prints its URLs on stderr and nothing on stdout', () => {
    const { stdout, stderr } = everything().output();
    expect(stderr).toContain(`Streamable HTTP: ${base()}/mcp`);
    expect(stderr).toContain(`HTTP+SSE:        ${base()}/sse`);
    expect(stdout).toBe('');
  });

  it('answers the fixture tools exactly in the legacy era', async () => {
    const peer = new HttpPeer(fetcher, `${base()}/mcp`);
    await peer.initialize();
    const simple = (await peer.call(1, 'tools/call', { name: 'test_simple_text' })).response.result;
    expect(simple).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    const error = (await peer.call(2, 'tools/call', { name: 'test_error_handling', arguments: {} })).response
      .result;
    expect(error.isError).toBe(true);
    const unknown = (await peer.call(3, 'tools/call', { name: 'no_such_tool', arguments: {} })).response;
    expect(unknown.error.code).toBe(-32602);
    expect((await peer.delete()).status).toBe(200);
  });

  it('puts the modern envelope on every 2026-07-28 result and echoes ids in errors', async () => {
    const peer = new HttpPeer(fetcher, `${base()}/mcp`);
    const simple = await peer.modernCall(1, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect(simple.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    expect(simple.result.isError).toBeUndefined();
    for (const method of [
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'server/discover',
    ]) {
      const answer = await peer.modernCall(method, method);
      expect(answer.result, method).toMatchObject({
        resultType: 'complete',
        ttlMs: expect.any(Number),
        cacheScope: expect.any(String),
      });
    }
    const unknown = await peer.modernCall('u', 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect([unknown.id, unknown.error.code]).toEqual(['u', -32602]);
  });

  it('closes the test_reconnection stream before the result and replays it after Last-Event-ID', async () => {
    const peer = new HttpPeer(fetcher, `${base()}/mcp`);
    await peer.initialize();
    const answer = await peer.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'test_reconnection', arguments: {} },
    });
    const events = await answer.sse!.all();
    expect(events[0]).toMatchObject({ data: '', id: expect.any(String), retry: expect.any(Number) });
    expect(answer.sse!.messages()).toEqual([]);
    const resumed = await peer.get({ 'last-event-id': events[0]!.id! });
    const result = await resumed.sse!.message((m) => m.id === 1);
    expect(result.result).toEqual({
      content: [{ type: 'text', text: 'Reconnection test completed successfully' }],
    });
    await resumed.sse!.all();
    expect((await peer.delete()).status).toBe(200);
  });

  it('serves the 2024-11-05 HTTP+SSE transport at /sse', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base()}/sse`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const sse = new SseReader(response.body!);
    const endpoint = await sse.next();
    expect(endpoint.event).toBe('endpoint');
    const post = await fetch(new URL(endpoint.data, base()), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    });
    expect(post.status).toBe(202);
    const result = await sse.message((m) => m.id === 1);
    expect(result.result).toMatchObject({
      protocolVersion: '2024-11-05',
      serverInfo: { name: 'mcpengine-everything' },
    });
    controller.abort();
  });
});
