/**
 * The mock run's own parts: the arguments it sends (every tool of the six mock-tested APIs, checked with the
 * validator the project uses for tool arguments), how it reads Prism's violation header, and how it sorts
 * failures by cause.
 */
import { compileSchema, type JsonSchema } from 'mcpengine/schema';
import { describe, expect, it } from 'vitest';
import { loadDescription } from '../load/load.js';
import { buildApiModel } from '../map/build.js';
import { mockArguments, SAMPLER_BUG } from './mock-check.js';
import { parseViolations } from './prism.js';
import { mockFailureCause, renderMockTable } from './report.js';
import { apiDescription } from './sources.js';

const APIS = ['twilio', 'searchconsole', 'stripe', 'github', 'slack', 'n8n'] as const;

describe('mock arguments', () => {
  it.each(APIS)(
    '%s: every tool gets arguments valid against its own input schema',
    async (name) => {
      const { api } = buildApiModel(await loadDescription(apiDescription(name)), {});
      const invalid: string[] = [];
      for (const tool of api.tools) {
        const result = compileSchema(tool.inputSchema as JsonSchema).validate(mockArguments(tool));
        if (!result.valid)
          invalid.push(`${tool.name}: ${result.issues[0]!.instancePath} ${result.issues[0]!.message}`);
      }
      expect(invalid).toEqual([]);
      if (name === 'github') {
        const byName = (tool: string) => api.tools.find((t) => t.name === tool)!;
        // anyOf bodies whose variants only add `required` (these were sent without the base's required fields)
        expect(mockArguments(byName('campaigns_create-campaign'))['body']).toMatchObject({
          name: expect.any(String),
          description: expect.any(String),
        });
        // a top-level alternation in a pattern
        expect(mockArguments(byName('users_create-public-ssh-key-for-authenticated-user'))['key']).toMatch(
          /^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) /,
        );
        // `oneOf: [integer, string]` path parameters: a string Prism can tell from a number
        expect(mockArguments(byName('actions_get-workflow'))['workflow_id']).toBe('sample');
      }
    },
    120_000, // a hang guard: GitHub's description takes seconds to load on a loaded machine
  );
});

describe("Prism's sl-violations header", () => {
  const entry = (where: 'request' | 'response', n: number) =>
    `{"location":["${where}","body","${n}"],"severity":"Error","code":"required","message":"property ${n} \\"x\\" missing"}`;

  it('reads a whole list', () => {
    expect(parseViolations(`[${entry('request', 1)}]`)).toEqual([
      {
        location: ['request', 'body', '1'],
        severity: 'Error',
        code: 'required',
        message: 'property 1 "x" missing',
      },
    ]);
  });

  it('reads the entries left whole in a list Prism cut at 8 KB', () => {
    // Only the answer's violations: no request violation
    const answerOnly = `Too many violations! [${entry('response', 1)},${entry('response', 2)},{"location":["resp`;
    expect(parseViolations(answerOnly).map((v) => v.location?.[0])).toEqual(['response', 'response']);
    // The request's come first: they are all kept
    const both = `Too many violations! [${entry('request', 1)},${entry('response', 2)},{"loc`;
    expect(parseViolations(both).filter((v) => v.location?.[0] === 'request')).toHaveLength(1);
    // Cut among the request's violations: the unknown rest counts as one more
    const cut = parseViolations(`Too many violations! [${entry('request', 1)},{"location":["requ`);
    expect(cut.filter((v) => v.location?.[0] === 'request')).toHaveLength(2);
  });

  it('counts an unreadable header as a request violation', () => {
    expect(parseViolations('garbage')).toEqual([{ location: ['request'], message: 'garbage' }]);
  });
});

describe('mock failures by cause', () => {
  it('tells a sampler bug from what Prism or the API did', () => {
    expect(mockFailureCause(`${SAMPLER_BUG}: /body must have required property "name"`)).toBe('sampler');
    expect(mockFailureCause('{"a":1} → HTTP 422 Unprocessable Entity from GET /x {…}')).toBe('refused');
    expect(mockFailureCause('Prism: GET http://127.0.0.1:1/x: request.query.a: must be integer')).toBe(
      'violation',
    );
    expect(
      mockFailureCause(
        "{} → The API's answer from GET /meta does not match the response schema of its description (at /a: …)",
      ),
    ).toBe('answer');
    expect(
      mockFailureCause('{} → t: GET http://127.0.0.1:1/logs failed: fetch failed (getaddrinfo ENOTFOUND x)'),
    ).toBe('network');
    expect(
      mockFailureCause(
        '{} → The answer from GET /emojis is larger than 100000 bytes and cannot be shortened',
      ),
    ).toBe('size');
  });

  it('counts failures by cause in the table', () => {
    const table = renderMockTable([
      {
        api: 'GitHub',
        tools: 4,
        called: 4,
        failures: [
          {
            tool: 'emojis_get',
            ok: false,
            detail: '{} → The answer from GET /emojis is larger than 100000 bytes and cannot be shortened',
          },
          { tool: 'meta_get', ok: false, detail: '{} → HTTP 404 Not Found from GET /meta' },
          { tool: 'b', ok: false, detail: `${SAMPLER_BUG}: /x must be integer` },
        ],
        violations: [],
        wireViolations: 0,
        listedTools: 4,
        ranAt: '2026-11-26T14:00:00.000Z',
        ms: 120_000,
      },
    ]);
    expect(table).toContain(
      '| GitHub | 4 | 1 / 4 | sampler 1, refused 1, size 1 | 1 | 2 | 0 | 0 | 2026-11-26, 2 min |',
    );
    expect(table).toContain('| GitHub | b | sampler | not explained |');
    expect(table).toContain('| GitHub | emojis_get | size | an object over the 100,000-byte cap');
    // a known tool failing another way is not explained by its known limit
    expect(table).toContain('| GitHub | meta_get | refused | not explained |');
  });
});
