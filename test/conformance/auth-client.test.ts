/**
 * The official conformance suite's `auth/*` client scenarios, one at a time (single-scenario mode: warnings,
 * timeouts and a non-zero client exit fail a scenario), against the everything client
 * (`clients/conformance/dist/client.js`; build first).
 *
 * Each run also names the checks that must be SUCCESS (the "must decline" scenarios are green for any client
 * that stops after reaching the step, conformance notes §6.2.5; the client itself exits 0 only when it stopped
 * for the expected reason), and the client validates every message of the conversation with the WireTap
 * (`MCPENGINE_WIRE_TAP=1`): the auth mocks do not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_SCENARIO_FILES,
  expectClientScenarioPassed,
  listClientScenarios,
  requireFiles,
  runClientScenario,
  scenarioLabel,
  scratchFolder,
  type ClientScenarioRun,
} from './runner.js';

/** Scenarios we do not implement, with the reason. Everything else the suite lists must be run below. */
const NOT_SUPPORTED: Readonly<Record<string, string>> = {};

interface AuthRun extends ClientScenarioRun {
  /** The client must have stopped on purpose (it logs why). */
  declines?: boolean;
}

const RESOURCE_CHECKS = [
  'resource-parameter-in-authorization',
  'resource-parameter-in-token',
  'resource-parameter-valid-uri',
  'resource-parameter-consistency',
  'resource-parameter-matches-prm',
];
const FLOW = [
  'authorization-server-metadata',
  'client-registration',
  'authorization-request',
  'token-request',
  'pkce-code-challenge-sent',
  'pkce-s256-method-used',
  'pkce-verifier-matches-challenge',
  'valid-bearer-token',
];

/** Scenarios of both 2025-11-25 and 2026-07-28, with the checks that must pass at each. */
const BOTH: readonly [string, readonly string[], readonly string[]][] = [
  [
    'auth/metadata-default',
    [...FLOW, 'prm-pathbased-requested', ...RESOURCE_CHECKS],
    ['sep-837-application-type-present'],
  ],
  [
    'auth/metadata-var1',
    [...FLOW, 'prm-pathbased-requested', ...RESOURCE_CHECKS],
    ['sep-837-application-type-present'],
  ],
  ['auth/metadata-var2', [...FLOW, ...RESOURCE_CHECKS], ['sep-837-application-type-present']],
  [
    'auth/metadata-var3',
    [...FLOW, 'prm-pathbased-requested', ...RESOURCE_CHECKS],
    ['sep-837-application-type-present'],
  ],
  ['auth/basic-cimd', ['cimd-client-id-used', 'token-request', 'valid-bearer-token'], []],
  ['auth/scope-from-www-authenticate', ['scope-from-www-authenticate', 'valid-bearer-token'], []],
  ['auth/scope-from-scopes-supported', ['scope-from-scopes-supported', 'valid-bearer-token'], []],
  ['auth/scope-omitted-when-undefined', ['scope-omitted-when-undefined', 'valid-bearer-token'], []],
  [
    'auth/scope-step-up',
    ['scope-step-up-initial', 'scope-step-up-escalation', 'valid-bearer-token'],
    ['sep-2350-scope-union-on-reauth'],
  ],
  ['auth/scope-retry-limit', ['scope-retry-limit'], []],
  [
    'auth/token-endpoint-auth-basic',
    ['token-endpoint-auth-method', ...RESOURCE_CHECKS, 'valid-bearer-token'],
    ['sep-837-application-type-present'],
  ],
  [
    'auth/token-endpoint-auth-post',
    ['token-endpoint-auth-method', ...RESOURCE_CHECKS, 'valid-bearer-token'],
    ['sep-837-application-type-present'],
  ],
  [
    'auth/token-endpoint-auth-none',
    ['token-endpoint-auth-method', ...RESOURCE_CHECKS, 'valid-bearer-token'],
    ['sep-837-application-type-present'],
  ],
  ['auth/pre-registration', ['pre-registration-auth', 'valid-bearer-token'], []],
];

const RUNS: readonly AuthRun[] = [
  ...BOTH.flatMap(([scenario, success, modern]): AuthRun[] => {
    const declines = scenario === 'auth/scope-retry-limit';
    return [
      { scenario, success, declines },
      { scenario, version: '2026-07-28', success: [...success, ...modern], declines },
    ];
  }),
  ...['auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none'].map(
    (scenario): AuthRun => ({
      scenario,
      version: '2025-06-18',
      success: ['token-endpoint-auth-method', ...RESOURCE_CHECKS],
    }),
  ),
  ...[undefined, '2025-03-26'].flatMap((version): AuthRun[] => [
    {
      scenario: 'auth/2025-03-26-oauth-metadata-backcompat',
      ...(version && { version }),
      success: [
        'authorization-server-metadata',
        'client-registration',
        'authorization-request',
        'token-request',
        'valid-bearer-token',
      ],
    },
    {
      scenario: 'auth/2025-03-26-oauth-endpoint-fallback',
      ...(version && { version }),
      success: ['client-registration', 'authorization-request', 'token-request', 'valid-bearer-token'],
    },
  ]),
  // 2026-07-28 only.
  { scenario: 'auth/resource-mismatch', success: ['resource-mismatch-rejected'], declines: true },
  {
    scenario: 'auth/offline-access-scope',
    success: ['sep-2207-offline-access-requested', 'valid-bearer-token'],
  },
  {
    scenario: 'auth/offline-access-not-supported',
    success: ['sep-2207-offline-access-not-requested', 'valid-bearer-token'],
  },
  {
    scenario: 'auth/authorization-server-migration',
    success: [
      'sep-2352-reregister-on-as-change',
      'sep-2352-no-reuse-on-as-change',
      'sep-2352-no-cross-as-credential-reuse',
    ],
  },
  {
    scenario: 'auth/iss-supported',
    success: ['sep-2468-client-compare-iss-supported', 'valid-bearer-token'],
  },
  { scenario: 'auth/iss-not-advertised', success: ['sep-2468-client-proceed-no-iss', 'valid-bearer-token'] },
  { scenario: 'auth/iss-supported-missing', success: ['sep-2468-client-reject-missing-iss'], declines: true },
  { scenario: 'auth/iss-wrong-issuer', success: ['sep-2468-client-compare-iss-supported'], declines: true },
  { scenario: 'auth/iss-unexpected', success: ['sep-2468-client-compare-iss-unadvertised'], declines: true },
  { scenario: 'auth/iss-normalized', success: ['sep-2468-client-no-normalization'], declines: true },
  {
    scenario: 'auth/metadata-issuer-mismatch',
    success: ['sep-2468-client-validate-metadata-issuer'],
    declines: true,
  },
  // Extensions.
  {
    scenario: 'auth/client-credentials-jwt',
    success: ['client-credentials-jwt-verified', 'valid-bearer-token'],
  },
  {
    scenario: 'auth/client-credentials-basic',
    success: ['client-credentials-basic-auth', 'valid-bearer-token'],
  },
  {
    scenario: 'auth/enterprise-managed-authorization',
    success: ['complete-flow-token-exchange', 'complete-flow-jwt-bearer', 'valid-bearer-token'],
  },
  { scenario: 'auth/wif-jwt-bearer', success: ['wif-assertion-verified', 'valid-bearer-token'] },
  {
    scenario: 'auth/dpop',
    success: [
      'sep-1932-client-token-request-proof',
      'sep-1932-client-dpop-auth-scheme',
      'sep-1932-client-fresh-proof',
    ],
  },
  {
    scenario: 'auth/dpop-nonce',
    success: [
      'sep-1932-client-token-request-proof',
      'sep-1932-client-dpop-auth-scheme',
      'sep-1932-client-fresh-proof',
      'sep-1932-client-as-nonce',
      'sep-1932-client-rs-nonce',
    ],
  },
];

beforeAll(() => requireFiles(CLIENT_SCENARIO_FILES));
const outputRoot = scratchFolder('mcpengine-conformance-auth-');

describe('the suite lists no auth client scenario we do not run', () => {
  it('covers every auth scenario but the documented ones', async () => {
    const names = (await listClientScenarios()).filter((name) => name.startsWith('auth/'));
    const expected = names.filter((name) => !(name in NOT_SUPPORTED)).sort();
    expect([...new Set(RUNS.map((r) => r.scenario))].sort()).toEqual(expected);
    for (const name of Object.keys(NOT_SUPPORTED)) expect(names).toContain(name);
  });
});

describe.concurrent('conformance auth client scenarios (single-scenario mode)', () => {
  for (const authRun of RUNS) {
    it(scenarioLabel(authRun), { timeout: 90_000 }, async () => {
      const result = await runClientScenario(authRun, outputRoot(), {
        ...process.env,
        MCPENGINE_WIRE_TAP: '1',
      });
      expectClientScenarioPassed(result, authRun);
      // The client's own verdicts: every message schema-valid, and a decline for the right reason.
      const { clientStderr, context } = result;
      expect(clientStderr, context).toContain('wire tap: every message is schema-valid');
      expect(clientStderr, context).not.toContain('failed at');
      if (authRun.declines) expect(clientStderr, context).toContain('declined as required');
    });
  }
});
