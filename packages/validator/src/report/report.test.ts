/**
 * Verdicts from outcomes (facets, levels, applicability, never a pass on a skip) and the file reports.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import '../checks/index.js';
import { foldOutcomes, type Outcome } from '../outcomes.js';
import { renderHtml, renderJson, renderJunit } from './files.js';
import { findingsOf } from './findings.js';
import { revisionReport, type ValidationReport } from './model.js';
import { renderTerminal } from './terminal.js';

const fail = (check: string, message: string, facets?: string[]): Outcome => ({
  check,
  status: 'fail',
  message,
  evidence: [
    {
      label: 'exchange',
      sent: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      received: '<script>alert(1)</script> & "quotes"',
    },
  ],
  ...(facets === undefined ? {} : { facets }),
});
const pass = (check: string): Outcome => ({ check, status: 'pass', message: 'ok', evidence: [] });

function verdict(report: ReturnType<typeof revisionReport>, id: string): string {
  return report.requirements.find((v) => v.requirement.id === id)!.verdict;
}

describe('verdicts', () => {
  it('charge a faceted failure only to the statements of its facet', () => {
    const outcomes = [
      fail('tools.x-mcp-header', 'scale: factor: x-mcp-header on a parameter of type "number"', [
        'primitive',
      ]),
    ];
    const report = revisionReport('2026-07-28', outcomes, { transport: 'stdio', capabilities: () => true });
    expect(verdict(report, 'tools-0e2906ee')).toBe('fail'); // MUST only be applied to parameters with primitive types
    expect(verdict(report, 'tools-5fd9c5b2')).toBe('pass'); // MUST NOT be empty
    expect(report.requirements.find((v) => v.requirement.id === 'tools-5fd9c5b2')!.message).toBe(
      'no empty problem (the check’s failure concerns: primitive)',
    );
  });

  it('fail a MUST, warn a SHOULD, and never pass what did not run', () => {
    const report = revisionReport(
      '2025-11-25',
      [
        fail('pagination.invalid-cursor', 'accepted'),
        fail('lifecycle.initialize-result', 'no result'),
        { check: 'lifecycle.ping', status: 'not-run', message: 'no session', evidence: [] },
      ],
      { transport: 'stdio', capabilities: () => true },
    );
    expect(verdict(report, 'pagination-890268c2')).toBe('warning');
    expect(verdict(report, 'lifecycle-f65a1a0e')).toBe('fail');
    expect(verdict(report, 'ping-18d7f410')).toBe('not-run');
    expect(report.must.failed).toBeGreaterThan(0);
  });

  it('charge an id: null error response to the error-response statement, not the result one', () => {
    const report = revisionReport('2025-11-25', [fail('schema.envelope', 'id is null', ['id-null'])], {
      transport: 'stdio',
      capabilities: () => true,
    });
    expect(verdict(report, 'basic-5ea031ce')).toBe('fail'); // Error responses MUST include the same ID…
    expect(verdict(report, 'basic-18c36ef3')).not.toBe('fail'); // Result responses MUST include the same ID
  });

  it('charge "Respect the negotiated protocol version" only with a message another revision allows', () => {
    const everywhere = revisionReport('2025-11-25', [fail('schema.response', 'bad', ['structure'])], {
      transport: 'stdio',
      capabilities: () => true,
    });
    expect(verdict(everywhere, 'lifecycle-ca965cfc')).not.toBe('fail');
    const elsewhere = revisionReport(
      '2025-11-25',
      [fail('schema.response', 'bad', ['structure', 'revision'])],
      { transport: 'stdio', capabilities: () => true },
    );
    expect(verdict(elsewhere, 'lifecycle-ca965cfc')).toBe('fail');
  });

  it('warn, not fail, on robustness failures (replies to garbage) unless strict', () => {
    const outcomes = [fail('jsonrpc.parse-error', 'no error response')];
    const lenient = revisionReport('2025-11-25', outcomes, { transport: 'stdio', capabilities: () => true });
    expect(verdict(lenient, 'basic-af3136fb')).toBe('warning'); // MUST follow the JSON-RPC 2.0 specification
    expect(lenient.must.failed).toBe(0);
    const strict = revisionReport('2025-11-25', outcomes, {
      transport: 'stdio',
      capabilities: () => true,
      strict: true,
    });
    expect(verdict(strict, 'basic-af3136fb')).toBe('fail');
    // A robustness failure beside another failure of the same statement still fails it.
    const both = revisionReport('2025-11-25', [...outcomes, fail('jsonrpc.method-not-found', 'wrong code')], {
      transport: 'stdio',
      capabilities: () => true,
    });
    expect(verdict(both, 'basic-af3136fb')).toBe('fail');
    const findings = findingsOf({
      tool: { name: 'mcpengine validate', version: '0.1.0' },
      target: 'x',
      transport: 'stdio',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      revisions: [both],
      notes: [],
      exitCode: 1,
    });
    expect(findings.find((f) => f.check === 'jsonrpc.method-not-found')!.severity).toBe('MUST');
    expect(findings.find((f) => f.check === 'jsonrpc.parse-error')!.severity).toBe('SHOULD');
    expect(findings.find((f) => f.check === 'jsonrpc.parse-error')!.robustness).toBe(true);
  });

  it('leave out statements of another transport or an unadvertised capability', () => {
    const outcomes = [fail('http.origin', 'served'), fail('prompts.unknown', 'wrong code')];
    const stdio = revisionReport('2025-11-25', outcomes, {
      transport: 'stdio',
      capabilities: (c) => c !== 'prompts',
    });
    expect(verdict(stdio, 'transports-18a3f30d')).toBe('not-applicable');
    expect(stdio.requirements.find((v) => v.requirement.id === 'transports-18a3f30d')!.message).toBe(
      'concerns the Streamable HTTP transport',
    );
    expect(verdict(stdio, 'prompts-762c6b61')).toBe('not-applicable');
    // 2025-11-25's HTTP statements are about Streamable HTTP; an HTTP+SSE server answers to 2024-11-05's.
    expect(
      verdict(
        revisionReport('2025-11-25', outcomes, { transport: 'sse', capabilities: () => true }),
        'transports-18a3f30d',
      ),
    ).toBe('not-applicable');
    expect(
      verdict(
        revisionReport('2024-11-05', outcomes, { transport: 'sse', capabilities: () => true }),
        'transports-c56ce342',
      ),
    ).toBe('fail');
  });

  it('fold several outcomes of one check: any failure, else any pass', () => {
    expect(foldOutcomes('x', [pass('x'), fail('x', 'bad'), pass('x')])!.status).toBe('fail');
    expect(
      foldOutcomes('x', [{ check: 'x', status: 'not-run', message: 'later', evidence: [] }, pass('x')])!
        .status,
    ).toBe('pass');
    expect(foldOutcomes('x', [fail('x', 'bad', ['a'])], 'b')).toEqual({
      check: 'x',
      status: 'pass',
      message: 'no b problem (the check’s failure concerns: a)',
      evidence: [],
    });
    expect(foldOutcomes('x', [fail('x', 'bad', ['a'])], 'a')!.status).toBe('fail');
  });
});

describe('reports', () => {
  const revision = revisionReport(
    '2025-11-25',
    [fail('lifecycle.initialize-result', 'no result'), pass('lifecycle.ping')],
    {
      transport: 'stdio',
      capabilities: () => true,
    },
  );
  const report: ValidationReport = {
    tool: { name: 'mcpengine validate', version: '0.1.0' },
    target: 'node server.js',
    transport: 'stdio',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1234,
    server: { name: 'srv', version: '1' },
    revisions: [revision],
    notes: [],
    exitCode: 1,
  };

  it('JSON is the whole report', () => {
    expect(JSON.parse(renderJson(report))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('JUnit has one test case per applicable requirement, failures for fails, escaped evidence', () => {
    const xml = renderJunit(report);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('lifecycle-f65a1a0e');
    expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(xml).not.toContain('<script>');
    const failures = xml.match(/<failure /g) ?? [];
    expect(failures.length).toBe(
      revision.requirements.filter((v) => v.verdict === 'fail' || v.verdict === 'warning').length,
    );
  });

  it('HTML is one self-contained page', () => {
    const html = renderHtml(report);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // Inline only: no script, style sheet or image fetched from elsewhere.
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<img /);
    expect(html).not.toMatch(/<link[^>]+stylesheet/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain(
      loadCatalog('2025-11-25').statements.find((s) => s.id === 'lifecycle-f65a1a0e')!.url,
    );
  });

  it('HTML groups the findings by root cause (under their severity) and by rule, with filters in the page', () => {
    const outcomes = [
      fail('jsonrpc.parse-error', 'no error response'),
      fail('lifecycle.initialize-result', 'x'),
    ];
    const revisions = (['2025-11-25', '2025-06-18'] as const).map((r) =>
      revisionReport(r, outcomes, { transport: 'stdio', capabilities: () => true }),
    );
    const page = renderHtml({ ...report, revisions });
    // One article per root cause, whatever the revisions and statements it breaks.
    expect(page.match(/<article class="item finding /g)?.length).toBe(
      findingsOf({ ...report, revisions }).length,
    );
    expect(page).toContain('<article class="item finding MUST" data-severity="MUST" data-transport="stdio"');
    expect(page).toContain('data-severity="ROBUST"');
    expect(page).toMatch(/<h2>MUST defects[^<]*<small>1<\/small>/);
    expect(page).toMatch(/<h2>Robustness[^<]*<small>1<\/small>/);
    // By rule: the JSON-RPC statement appears once, broken by the robustness cause.
    const rules = page.slice(page.indexOf('id="view-rule"'));
    expect(rules).toContain('basic-af3136fb');
    // The filters: severity, transport, revision, text.
    for (const id of ['f-severity', 'f-transport', 'f-revision', 'f-text', 'f-view'])
      expect(page).toContain(`id="${id}"`);
    expect(page).toContain('value="2025-06-18" checked');
    expect(page).toContain('data-revisions="2025-11-25 2025-06-18"');
    expect(page).not.toContain('<script>alert(1)');
  });

  it('a refused connection is a finding of its own, even where no statement names it', () => {
    const refused = revisionReport(
      '2025-11-25',
      [
        pass('lifecycle.initialize-result'),
        {
          check: 'transport.connections',
          status: 'fail',
          message: 'the server refused 1 connection: HTTP 500 Already connected to a transport',
          evidence: [
            { label: 'connection for a probe', received: 'HTTP 500 Already connected to a transport' },
          ],
        },
      ],
      { transport: 'sse', capabilities: () => true },
    );
    const failing: ValidationReport = { ...report, transport: 'sse', revisions: [refused], exitCode: 1 };
    const [finding] = findingsOf(failing);
    expect(finding!.check).toBe('transport.connections');
    expect(finding!.severity).toBe('MUST');
    expect(finding!.statements).toEqual([]);
    expect(finding!.message).toContain('Already connected to a transport');
    const text = renderTerminal(failing, { color: false, verbose: true });
    expect(text).toMatch(/^FAIL: 1 defect\(s\) fail the run/m);
    expect(text).toContain('✗ MUST   transport.connections (2025-11-25)');
    expect(text).toContain('← HTTP 500 Already connected to a transport');
    expect(text).not.toContain('note:');
    expect(renderHtml(failing)).toContain('<code>transport.connections</code>');
  });

  it('the terminal leads with the verdict and one line per defect; --verbose adds link and exchange', () => {
    const text = renderTerminal(report, { color: false, verbose: false });
    const lines = text.split('\n');
    expect(lines.findIndex((line) => line.startsWith('FAIL:'))).toBeLessThan(
      lines.findIndex((line) => line.includes('lifecycle.initialize-result')),
    );
    expect(text).toContain('✗ MUST   lifecycle.initialize-result (2025-11-25)');
    const [finding] = findingsOf(report);
    expect(text).toContain(`“${finding!.statements[0]!.sentence}”`);
    expect(text).not.toContain('→ {"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const verbose = renderTerminal(report, { color: false, verbose: true });
    expect(verbose).toContain('“The server MUST respond with its own capabilities and information:”');
    expect(verbose).toContain(
      'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization',
    );
    expect(verbose).toContain('→ {"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  });

  it('the summary counts passed, failed and not run apart, and says how to run what did not', () => {
    const passing = revisionReport(
      '2025-11-25',
      [
        pass('lifecycle.initialize-result'),
        {
          check: 'tools.call',
          status: 'not-run',
          message: 'no tool is annotated readOnlyHint: true (2 not called; use --call <tool> or --call-all)',
          evidence: [],
        },
      ],
      { transport: 'stdio', capabilities: () => true },
    );
    const text = renderTerminal(
      { ...report, revisions: [passing], exitCode: 0 },
      { color: false, verbose: false },
    );
    const { passed, failed, notRun } = passing.must;
    expect(notRun).toBeGreaterThan(0);
    expect(text).toContain(`MUST ${passed} passed, ${failed} failed, ${notRun} not run`);
    expect(text).toMatch(/^PASS: no MUST failed in 1 revision\(s\) — \d+ MUST statement\(s\) did not run/m);
    expect(text).toContain('--call <tool> (or --call-all)');
    expect(text).not.toMatch(/MUST \d+\/\d+ passed/);
  });

  it('one defect is one finding, whatever the statements and revisions it breaks', () => {
    const outcomes = [fail('jsonrpc.parse-error', 'no error response')];
    const revisions = (['2025-11-25', '2025-06-18'] as const).map((r) =>
      revisionReport(r, outcomes, { transport: 'stdio', capabilities: () => true }),
    );
    const findings = findingsOf({ ...report, revisions });
    expect(findings.map((f) => f.check)).toEqual(['jsonrpc.parse-error']);
    expect(findings[0]!.revisions).toEqual(['2025-11-25', '2025-06-18']);
    expect(findings[0]!.statements.length).toBeGreaterThan(0);
    expect(findings[0]!.message).toBe('no error response');
  });

  it('clips big payloads in the terminal with a pointer to the full reports', () => {
    const big = revisionReport(
      '2025-11-25',
      [{ ...fail('lifecycle.initialize-result', 'no result'), evidence: [{ received: 'x'.repeat(5000) }] }],
      { transport: 'stdio', capabilities: () => true },
    );
    const text = renderTerminal({ ...report, revisions: [big] }, { color: false, verbose: true });
    expect(text).not.toContain('x'.repeat(1000));
    expect(text).toContain('more characters: see the --json or --html report');
  });
});
