/**
 * The official conformance suite's client scenarios, run one at a time (single-scenario mode, where warnings,
 * timeouts and a non-zero client exit fail the scenario) against the everything client
 * (`clients/conformance/dist/client.js`; build first).
 *
 * Beyond the suite's verdict, each run names the checks that must be SUCCESS: several scenarios pass a client
 * that does nothing (conformance notes §6.2), so "no FAILURE" alone proves little.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_SCENARIO_FILES,
  CONFORMANCE_CLIENT,
  expectClientScenarioPassed,
  listClientScenarios,
  requireFiles,
  runClientScenario,
  runProcess,
  scenarioLabel,
  scratchFolder,
  type ClientScenarioRun,
} from './runner.js';

const REQUEST_METADATA = [
  'sep-2575-http-client-sends-version-header',
  'sep-2575-client-populates-meta',
  'sep-2575-client-sends-client-info',
  'sep-2575-http-version-header-matches-meta',
  'sep-2575-client-declares-roots-capability',
  'sep-2575-client-declares-sampling-capability',
  'sep-2575-client-declares-elicitation-capability',
  'sep-2575-client-retry-supported-version',
];
const PRESERVATION = [
  'json-schema-2020-12-client-tool-found',
  'json-schema-2020-12-client-echo-completed',
  'json-schema-2020-12-client-$schema-preserved',
  'json-schema-2020-12-client-$defs-preserved',
  'json-schema-2020-12-client-additionalProperties-preserved',
  'sep-2106-client-composition-keywords-preserved',
  'sep-2106-client-conditional-keywords-preserved',
  'sep-2106-client-anchor-keyword-preserved',
  'wire-schema-valid',
];

const RUNS: readonly ClientScenarioRun[] = [
  { scenario: 'initialize', success: ['mcp-client-initialization'] },
  { scenario: 'initialize', version: '2025-06-18', success: ['mcp-client-initialization'] },
  { scenario: 'tools_call', success: ['tool-add-numbers', 'wire-schema-valid'] },
  { scenario: 'tools_call', version: '2025-06-18', success: ['tool-add-numbers', 'wire-schema-valid'] },
  { scenario: 'tools_call', version: '2026-07-28', success: ['tool-add-numbers', 'wire-schema-valid'] },
  {
    scenario: 'elicitation-sep1034-client-defaults',
    success: ['string', 'integer', 'number', 'enum', 'boolean'].map(
      (t) => `client-elicitation-sep1034-${t}-default`,
    ),
  },
  {
    scenario: 'sse-retry',
    success: ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id'],
  },
  { scenario: 'request-metadata', success: REQUEST_METADATA },
  {
    scenario: 'sep-2322-client-request-state',
    success: [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-no-state-omitted',
      'sep-2322-client-parallel-isolation',
      'sep-2322-default-result-type-complete',
    ],
  },
  // 6 Mcp-Method checks (every method a modern client sends) and 3 Mcp-Name checks.
  { scenario: 'http-standard-headers', success: [['sep-2243-client-includes-standard-headers', 9]] },
  {
    scenario: 'http-custom-headers',
    success: [
      'sep-2243-client-supports-custom-headers',
      ['sep-2243-client-mirrors-designated-params', 5],
      ['sep-2243-client-encode-values', 3],
      ['sep-2243-client-base64-unsafe', 7],
      'sep-2243-client-omit-null',
    ],
  },
  {
    scenario: 'http-invalid-tool-headers',
    success: [
      'sep-2243-client-reject-invalid-tool',
      'sep-2243-x-mcp-header-not-empty',
      ['sep-2243-x-mcp-header-primitive-only', 4],
      ['sep-2243-x-mcp-header-unique', 2],
      ['sep-2243-x-mcp-header-charset', 4],
    ],
  },
  { scenario: 'json-schema-ref-no-deref', success: ['sep-2106-no-network-ref-deref'] },
  { scenario: 'json-schema-2020-12-preservation', success: PRESERVATION },
  { scenario: 'json-schema-2020-12-preservation', version: '2026-07-28', success: PRESERVATION },
  { scenario: 'sep-2640-client-no-prefetch', success: ['sep-2640-host-no-prefetch'] },
  { scenario: 'sep-2640-client-verify-digest', success: ['sep-2640-host-verify-digest'] },
  { scenario: 'sep-2640-client-verify-size', success: ['sep-2640-host-size-mismatch-failure'] },
  { scenario: 'sep-2640-client-verify-frontmatter', success: ['sep-2640-host-frontmatter-comparison'] },
  // The skills scenarios resolve to 2025-11-25 (legacy); at 2026-07-28 the same flows run stateless.
  {
    scenario: 'sep-2640-client-no-prefetch',
    version: '2026-07-28',
    force: true,
    success: ['sep-2640-host-no-prefetch'],
  },
  {
    scenario: 'sep-2640-client-verify-digest',
    version: '2026-07-28',
    force: true,
    success: ['sep-2640-host-verify-digest'],
  },
  {
    scenario: 'sep-2640-client-verify-size',
    version: '2026-07-28',
    force: true,
    success: ['sep-2640-host-size-mismatch-failure'],
  },
  {
    scenario: 'sep-2640-client-verify-frontmatter',
    version: '2026-07-28',
    force: true,
    success: ['sep-2640-host-frontmatter-comparison'],
  },
];

beforeAll(() => requireFiles(CLIENT_SCENARIO_FILES));
const outputRoot = scratchFolder('mcpengine-conformance-client-');

describe('the suite lists no client scenario we do not run', () => {
  it('covers every non-auth client scenario', async () => {
    const names = await listClientScenarios();
    const nonAuth = names.filter((name) => !name.startsWith('auth/')).sort();
    const covered = [...new Set(RUNS.map((r) => r.scenario))].sort();
    expect(covered).toEqual(nonAuth);
  });
});

describe.concurrent('conformance client scenarios (single-scenario mode)', () => {
  for (const scenarioRun of RUNS) {
    it(scenarioLabel(scenarioRun), { timeout: 90_000 }, async () => {
      expectClientScenarioPassed(await runClientScenario(scenarioRun, outputRoot()), scenarioRun);
    });
  }
});

describe('the everything client itself', () => {
  it('exits 1 with a clear message on an unknown scenario', async () => {
    const outcome = await runProcess(process.execPath, [CONFORMANCE_CLIENT, 'http://localhost:1/mcp'], {
      ...process.env,
      MCP_CONFORMANCE_SCENARIO: 'no-such-scenario',
      MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25',
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('conformance-client: unknown scenario "no-such-scenario"');
  });
});
