/**
 * The file reports: JSON (the whole report), JUnit XML (one test case per requirement, failures and warnings
 * as failures of their level), and one self-contained HTML page.
 */
import type { Evidence } from '../outcomes.js';
import type { RequirementVerdict, ValidationReport } from './model.js';
import { percent } from './terminal.js';

export function renderJson(report: ValidationReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing the control characters XML 1.0 cannot carry
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function evidenceText(evidence: readonly Evidence[]): string {
  return evidence
    .map((e) =>
      [
        e.label && `# ${e.label}`,
        e.sent && `--> ${e.sent}`,
        e.received && `<-- ${e.received}`,
        e.note && `(${e.note})`,
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

export function renderJunit(report: ValidationReport): string {
  const suites = report.revisions.map((revision) => {
    const cases = revision.requirements.map((entry) => {
      const { requirement } = entry;
      const name = xml(`${requirement.id} ${requirement.level}: ${requirement.sentence.slice(0, 160)}`);
      const open = `    <testcase classname="${xml(`mcp.${revision.revision}.${entry.area ?? 'catalog'}`)}" name="${name}">`;
      const detail = xml(`${entry.message}\n${requirement.url}\n\n${evidenceText(entry.evidence)}`);
      let body = '';
      if (entry.verdict === 'fail')
        body = `\n      <failure type="MUST" message="${xml(entry.message)}">${detail}</failure>\n    `;
      else if (entry.verdict === 'warning')
        body = `\n      <failure type="SHOULD" message="${xml(entry.message)}">${detail}</failure>\n    `;
      else if (entry.verdict !== 'pass')
        body = `\n      <skipped message="${xml(`${entry.verdict}: ${entry.message}`)}"/>\n    `;
      return `${open}${body}</testcase>`;
    });
    const failures = revision.requirements.filter(
      (r) => r.verdict === 'fail' || r.verdict === 'warning',
    ).length;
    const skipped = revision.requirements.filter(
      (r) => r.verdict !== 'pass' && r.verdict !== 'fail' && r.verdict !== 'warning',
    ).length;
    return `  <testsuite name="MCP ${revision.revision}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`${report.tool.name}: ${report.target}`)}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function evidenceHtml(evidence: readonly Evidence[]): string {
  if (evidence.length === 0) return '';
  return evidence
    .map(
      (e) =>
        `<div class="ev">${e.label ? `<div class="evl">${html(e.label)}</div>` : ''}${e.sent ? `<pre class="sent">${html(e.sent)}</pre>` : ''}${e.received ? `<pre class="recv">${html(e.received)}</pre>` : ''}${e.note ? `<pre class="note">${html(e.note)}</pre>` : ''}</div>`,
    )
    .join('');
}

function row(entry: RequirementVerdict): string {
  const r = entry.requirement;
  const details =
    entry.evidence.length > 0
      ? `<details><summary>evidence</summary>${evidenceHtml(entry.evidence)}</details>`
      : '';
  return `<tr class="${entry.verdict}"><td class="v">${entry.verdict}</td><td><a href="${html(r.url)}">${html(r.id)}</a><br><span class="lvl">${r.level}</span></td><td>${html(r.sentence)}<div class="sec">${html(r.page)} › ${html(r.section)}</div></td><td><code>${html((r.checks ?? []).join(' '))}</code></td><td>${html(entry.message)}${details}</td></tr>`;
}

export function renderHtml(report: ValidationReport): string {
  const sections = report.revisions.map((revision) => {
    const order = ['fail', 'warning', 'not-run', 'pass', 'not-applicable', 'not-testable'];
    const rows = [...revision.requirements]
      .sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict))
      .map(row)
      .join('\n');
    const advisory = revision.advisory
      .map(
        (a) =>
          `<tr class="${a.verdict}"><td class="v">${a.verdict}</td><td colspan="2">${html(a.check.title)}</td><td><code>${html(a.check.id)}</code></td><td>${html(a.message)}</td></tr>`,
      )
      .join('\n');
    return `<section><h2>${revision.revision} <small>${revision.era}</small></h2>
<p class="scores">MUST ${revision.must.passed} passed, ${revision.must.failed} failed, ${revision.must.notRun} not run (${percent(revision.must)}) · SHOULD ${revision.should.passed} met, ${revision.should.failed} warnings (${percent(revision.should)}) · catalog coverage ${revision.coverage.covered}/${revision.coverage.testable} (${percent(revision.coverage)})</p>
<label><input type="checkbox" class="toggle" checked> hide passes, not applicable and not testable</label>
<table class="reqs hide-quiet"><thead><tr><th>verdict</th><th>requirement</th><th>statement</th><th>check</th><th>finding</th></tr></thead><tbody>
${rows}
</tbody></table>
${advisory === '' ? '' : `<h3>Security lints (advisory)</h3><table class="reqs"><tbody>${advisory}</tbody></table>`}
</section>`;
  });
  const failed = report.exitCode !== 0;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP validation: ${html(report.target)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f;max-width:1400px}
h1{font-size:1.4rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}small{color:#777;font-weight:normal}
.banner{padding:.6rem 1rem;border-radius:6px;font-weight:600}.banner.ok{background:#e6f6ea;color:#176b2c}.banner.bad{background:#fde8e8;color:#9b1c1c}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #eee;padding:.35rem .5rem;vertical-align:top;text-align:left}
td.v{font-weight:600;white-space:nowrap}.fail td.v{color:#b91c1c}.warning td.v{color:#b45309}.pass td.v{color:#15803d}.not-run td.v{color:#6b7280}
.lvl{font-size:.8em;color:#555}.sec{font-size:.8em;color:#777}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f8;padding:.4rem;margin:.2rem 0;font-size:12px}
pre.sent{border-left:3px solid #60a5fa}pre.recv{border-left:3px solid #a78bfa}.evl{font-size:.85em;color:#555;margin-top:.4rem}
.hide-quiet tr.pass,.hide-quiet tr.not-applicable,.hide-quiet tr.not-testable{display:none}
</style></head><body>
<h1>MCP validation of ${html(report.target)} <small>(${report.transport})</small></h1>
<p>${html(report.tool.name)} ${html(report.tool.version)} · ${html(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.server ? ` · server ${html(report.server.name ?? '?')} ${html(report.server.version ?? '')}` : ''}</p>
<div class="banner ${failed ? 'bad' : 'ok'}">${failed ? 'A MUST requirement failed' : 'Every applicable MUST requirement passed'}</div>
${report.notes.map((note) => `<p class="sec">note: ${html(note)}</p>`).join('\n')}
${sections.join('\n')}
<script>
for (const box of document.querySelectorAll('input.toggle')) box.addEventListener('change', () => box.parentElement.nextElementSibling.classList.toggle('hide-quiet', box.checked));
</script>
</body></html>
`;
}
