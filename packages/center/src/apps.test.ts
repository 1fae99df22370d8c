/**
 * The sample a preview is fed with: a recorded test's arguments when one calls the tool successfully and fits its
 * schema, else arguments built from the input schema (checked against it). And the Apps review check reads the
 * tools as a host that advertises MCP Apps sees them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleCall, sampleOf } from './apps.js';
import type { ServerEntry } from './fleet.js';
import { reviewChecks } from './review/checks.js';

const CHART = {
  name: 'show_chart',
  inputSchema: {
    type: 'object',
    properties: {
      title: { type: 'string', maxLength: 200 },
      values: { type: 'array', items: { type: 'number', minimum: -5 }, minItems: 2, maxItems: 50 },
    },
    required: ['values'],
    additionalProperties: false,
  },
};

describe('sampleOf', () => {
  it('builds the smallest instance that fits: required properties, bounds, enums, defaults', () => {
    expect(sampleOf(CHART.inputSchema)).toEqual({ values: [-5, -5] });
    expect(
      sampleOf({
        type: 'object',
        properties: {
          mode: { enum: ['fast', 'slow'] },
          name: { type: 'string', minLength: 3 },
          when: { type: 'string', format: 'date-time' },
          count: { type: 'integer', default: 7 },
          flag: { type: 'boolean' },
          optional: { type: 'string' },
        },
        required: ['mode', 'name', 'when', 'count', 'flag'],
      }),
    ).toEqual({ mode: 'fast', name: 'xxx', when: '2026-01-01T00:00:00Z', count: 7, flag: true });
    expect(sampleOf({ type: 'object', properties: { x: {} }, required: ['x'] })).toBeUndefined();
  });
});

describe('sampleCall', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpengine-center-sample-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const entry = (tests?: string): ServerEntry => ({
    name: 'charts',
    kind: 'fleet',
    dir: root,
    manifest: { name: 'charts', stdio: 'node main.js', ...(tests === undefined ? {} : { tests }) },
  });

  it('takes the first recorded successful call whose arguments fit the schema', async () => {
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(
      join(root, 'test', 'a.mcp.yaml'),
      [
        'name: a',
        'server:',
        '  stdio: node main.js',
        'tests:',
        '  - name: refused',
        '    tool: show_chart',
        '    arguments: { values: [1, 2] }',
        '    expect: { isError: true }',
        '  - name: does not fit the schema',
        '    tool: show_chart',
        '    arguments: { values: [1] }',
        '  - name: good',
        '    tool: show_chart',
        '    arguments: { title: T, values: [4, 2] }',
        '',
      ].join('\n'),
    );
    expect(await sampleCall(entry('test'), CHART)).toEqual({
      tool: 'show_chart',
      arguments: { title: 'T', values: [4, 2] },
      source: 'test test/a.mcp.yaml: good',
    });
  });

  it('builds arguments from the schema without a recorded call, and says why when it cannot', async () => {
    expect(await sampleCall(entry(), CHART)).toEqual({
      tool: 'show_chart',
      arguments: { values: [-5, -5] },
      source: 'input schema',
    });
    const impossible = await sampleCall(entry(), {
      name: 'odd',
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer', multipleOf: 7, minimum: 1 } },
        required: ['n'],
      },
    });
    expect(impossible).toMatch(
      /^no recorded test calls odd and arguments built from its input schema do not fit it: \/n must be multiple of 7/,
    );
  });
});

describe('the Apps review check', () => {
  const linked = { name: 'show_chart', _meta: { ui: { resourceUri: 'ui://x/chart.html' } } };
  const base = {
    tools: [{ name: 'show_chart' }],
    resources: [],
    apps: true,
    otherTools: [],
    listTokens: 10,
    toolTokens: [],
  };

  it('reads what a host advertising MCP Apps is shown', () => {
    const plain = reviewChecks(base).find((check) => check.id === 'mcp-apps')!;
    expect(plain.earned).toBe(0);
    const seen = reviewChecks({
      ...base,
      appsSeen: { tools: [linked], resources: [{ uri: 'ui://x/chart.html', name: 'chart' }] },
    }).find((check) => check.id === 'mcp-apps')!;
    expect(seen.earned).toBe(10);
    expect(seen.evidence).toContain('show_chart → ui://x/chart.html');
    const unlisted = reviewChecks({ ...base, appsSeen: { tools: [linked], resources: [] } }).find(
      (check) => check.id === 'mcp-apps',
    )!;
    expect(unlisted.earned).toBe(0);
    expect(unlisted.evidence).toContain('show_chart: its view is not listed');
  });

  it('scores the validator’s Apps rules: passes count, SHOULD warnings half, failures nothing', () => {
    const rules = reviewChecks({
      ...base,
      appsRules: [
        { id: 'apps.a', level: 'MUST', verdict: 'pass', detail: 'ok' },
        { id: 'apps.b', level: 'SHOULD', verdict: 'warn', detail: 'no prefersBorder' },
        { id: 'apps.c', level: 'MUST', verdict: 'fail', detail: 'wrong mimeType' },
        { id: 'apps.d', level: 'MUST', verdict: 'pass', detail: 'ok' },
        { id: 'apps.e', level: 'MUST', verdict: 'not-applicable', detail: '' },
      ],
    }).find((check) => check.id === 'mcp-apps-rules')!;
    expect(rules.earned).toBe(6.25);
    expect(rules.evidence).toEqual([
      '2 of 4 applicable rules passed, 1 warned, 1 failed',
      'apps.b (SHOULD) warn: no prefersBorder',
      'apps.c (MUST) fail: wrong mimeType',
    ]);
  });
});
