/**
 * The file reports: JSON (the whole report), JUnit XML (one test case per requirement, failures and warnings
 * as failures of their level), and one self-contained HTML page.
 */
import type { Evidence } from '../outcomes.js';
import { findingsOf, notRunOf, type Finding } from './findings.js';
import type { RequirementVerdict, RevisionReport, ValidationReport } from './model.js';
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

/** The label a finding carries in the reports: MUST, SHOULD, or ROBUST (a robustness warning, see --strict). */
function severityOf(finding: Finding): 'MUST' | 'SHOULD' | 'ROBUST' {
  return finding.severity === 'MUST' ? 'MUST' : finding.robustness ? 'ROBUST' : 'SHOULD';
}

/** The attributes the page's filters read (severity, transport, revisions); the text search reads the text. */
function filterAttributes(severity: string, transport: string, revisions: readonly string[]): string {
  return `data-severity="${html(severity)}" data-transport="${html(transport)}" data-revisions="${html(revisions.join(' '))}"`;
}

function findingHtml(finding: Finding, transport: string, all: number): string {
  const severity = severityOf(finding);
  const statements =
    finding.statements.length === 0
      ? '<p class="sec">No statement of these revisions names it: it fails the run because the checks that needed those connections did not run.</p>'
      : `<ul class="stmts">${finding.statements
          .map(
            (s) =>
              `<li><span class="lvl">${html(s.level)}</span> <a href="${html(s.url)}">${html(s.id)}</a> <span class="sec">(${html(revisionList(s.revisions, all))})</span><br>“${html(s.sentence)}”</li>`,
          )
          .join('')}</ul>`;
  const evidence =
    finding.evidence.length === 0
      ? ''
      : `<details><summary>evidence (${finding.evidence.length})</summary>${evidenceHtml(finding.evidence)}</details>`;
  return `<article class="item finding ${severity}" ${filterAttributes(severity, transport, finding.revisions)}>
<h3><span class="sev">${severity}</span> <code>${html(finding.check)}</code> <span class="sec">${html(revisionList(finding.revisions, all))}</span></h3>
<p class="title">${html(finding.title)}</p>
<p class="msg">${html(finding.message)}</p>
${statements}${evidence}
</article>`;
}

function revisionList(revisions: readonly string[], all: number): string {
  return revisions.length === all && all > 1 ? `all ${all} revisions` : revisions.join(', ');
}

/** The same findings seen from the rules: each statement once, with the root causes that break it. */
function rulesHtml(findings: readonly Finding[], transport: string, all: number): string {
  const rules = new Map<
    string,
    { statement: Finding['statements'][number]; causes: Finding[]; revisions: Set<string> }
  >();
  for (const finding of findings) {
    for (const statement of finding.statements) {
      const rule = rules.get(statement.id) ?? { statement, causes: [], revisions: new Set<string>() };
      rule.causes.push(finding);
      for (const revision of statement.revisions) rule.revisions.add(revision);
      rules.set(statement.id, rule);
    }
  }
  const rank = (rule: { causes: Finding[] }): number =>
    Math.min(...rule.causes.map((f) => ['MUST', 'SHOULD', 'ROBUST'].indexOf(severityOf(f))));
  return [...rules.values()]
    .sort((a, b) => rank(a) - rank(b) || a.statement.id.localeCompare(b.statement.id))
    .map((rule) => {
      const severity = ['MUST', 'SHOULD', 'ROBUST'][rank(rule)]!;
      return `<article class="item rule ${severity}" ${filterAttributes(severity, transport, [...rule.revisions])}>
<h3><span class="sev">${severity}</span> <span class="lvl">${html(rule.statement.level)}</span> <a href="${html(rule.statement.url)}">${html(rule.statement.id)}</a> <span class="sec">${html(revisionList([...rule.revisions], all))}</span></h3>
<p>“${html(rule.statement.sentence)}”</p>
<p class="sec">broken by: ${rule.causes.map((f) => `<code>${html(f.check)}</code> — ${html(f.message)}`).join('<br>')}</p>
</article>`;
    })
    .join('\n');
}

function requirementsHtml(revision: RevisionReport, transport: string): string {
  const order = ['fail', 'warning', 'not-run', 'pass', 'not-applicable', 'not-testable'];
  const rows = [...revision.requirements]
    .sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict))
    .map(row)
    .join('\n');
  return `<details class="item revision" ${filterAttributes('any', transport, [revision.revision])}><summary><b>${revision.revision}</b> <small>${revision.era}</small> — MUST ${revision.must.passed} passed, ${revision.must.failed} failed, ${revision.must.notRun} not run (${percent(revision.must)}) · SHOULD ${revision.should.passed} met, ${revision.should.failed} warnings (${percent(revision.should)}) · catalog coverage ${revision.coverage.covered}/${revision.coverage.testable} (${percent(revision.coverage)})</summary>
<label><input type="checkbox" class="toggle" checked> hide passes, not applicable and not testable</label>
<table class="reqs hide-quiet"><thead><tr><th>verdict</th><th>requirement</th><th>statement</th><th>check</th><th>finding</th></tr></thead><tbody>
${rows}
</tbody></table>
</details>`;
}

/**
 * One self-contained page: the verdict, the defects grouped by root cause (under MUST, SHOULD and robustness
 * headings) or by rule, filterable in the page by severity, transport, revision and text; what did not run and
 * how to run it; the advisory lints; every statement per revision. Plain DOM, no remote assets, every value
 * escaped.
 */
export function renderHtml(report: ValidationReport): string {
  const findings = findingsOf(report);
  const notRun = notRunOf(report);
  const all = report.revisions.length;
  const transport = report.transport;
  const revisions = report.revisions.map((r) => r.revision);
  const bySeverity = (['MUST', 'SHOULD', 'ROBUST'] as const)
    .map((severity) => {
      const mine = findings.filter((f) => severityOf(f) === severity);
      if (mine.length === 0) return '';
      const heading = {
        MUST: 'MUST defects (they fail the run)',
        SHOULD: 'SHOULD warnings',
        ROBUST: 'Robustness (replies to garbage input; they fail the run only with --strict)',
      }[severity];
      return `<section class="group" data-group="${severity}"><h2>${heading} <small>${mine.length}</small></h2>\n${mine.map((f) => findingHtml(f, transport, all)).join('\n')}</section>`;
    })
    .join('\n');
  const notRunHtml =
    notRun.length === 0
      ? ''
      : `<section><h2>Did not run <small>${notRun.reduce((n, g) => n + g.must, 0)} MUST statement(s)</small></h2><ul>${notRun
          .map(
            (g) =>
              `<li class="item" ${filterAttributes('not-run', transport, g.revisions)}>${g.must} × ${html(g.reason)} <span class="sec">(${html(g.revisions.join(', '))})</span>${g.hint === undefined ? '' : `<br>→ ${html(g.hint)}`}</li>`,
          )
          .join('')}</ul></section>`;
  const advisories = report.revisions.flatMap((revision) =>
    revision.advisory
      .filter((a) => a.verdict === 'warning')
      .map(
        (a) =>
          `<li class="item" ${filterAttributes('advisory', transport, [revision.revision])}><code>${html(a.check.id)}</code> (${revision.revision}) ${html(a.check.title)}: ${html(a.message)}</li>`,
      ),
  );
  const failed = report.exitCode !== 0;
  const must = findings.filter((f) => f.severity === 'MUST').length;
  const options = (values: readonly string[]): string =>
    values
      .map((v) => `<label><input type="checkbox" value="${html(v)}" checked> ${html(v)}</label>`)
      .join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP validation: ${html(report.target)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f;max-width:1400px}
h1{font-size:1.4rem}h2{margin-top:1.6rem;border-bottom:1px solid #ddd;font-size:1.15rem}h3{font-size:1rem;margin:.2rem 0}small{color:#777;font-weight:normal}
.banner{padding:.6rem 1rem;border-radius:6px;font-weight:600}.banner.ok{background:#e6f6ea;color:#176b2c}.banner.bad{background:#fde8e8;color:#9b1c1c}
.filters{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd;z-index:1}.filters fieldset{display:inline-block;border:1px solid #ddd;border-radius:4px;margin:.1rem .3rem .1rem 0;padding:.1rem .5rem}
.filters input[type=search]{width:18rem}
article.item{border:1px solid #e5e5e5;border-left:4px solid #999;border-radius:4px;padding:.5rem .8rem;margin:.6rem 0}
article.MUST{border-left-color:#b91c1c}article.SHOULD{border-left-color:#b45309}article.ROBUST{border-left-color:#6b7280}
.sev{font-weight:700}.MUST .sev{color:#b91c1c}.SHOULD .sev{color:#b45309}.ROBUST .sev{color:#6b7280}
.title{margin:.1rem 0;color:#444}.msg{margin:.3rem 0;font-weight:500}ul.stmts{margin:.3rem 0;padding-left:1.2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #eee;padding:.35rem .5rem;vertical-align:top;text-align:left}
td.v{font-weight:600;white-space:nowrap}.fail td.v{color:#b91c1c}.warning td.v{color:#b45309}.pass td.v{color:#15803d}.not-run td.v{color:#6b7280}
.lvl{font-size:.8em;color:#555}.sec{font-size:.85em;color:#777}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f8;padding:.4rem;margin:.2rem 0;font-size:12px;max-height:20em;overflow:auto}
pre.sent{border-left:3px solid #60a5fa}pre.recv{border-left:3px solid #a78bfa}.evl{font-size:.85em;color:#555;margin-top:.4rem}
.hide-quiet tr.pass,.hide-quiet tr.not-applicable,.hide-quiet tr.not-testable{display:none}
.hidden{display:none!important}
</style></head><body>
<h1>MCP validation of ${html(report.target)} <small>(${html(transport)})</small></h1>
<p>${html(report.tool.name)} ${html(report.tool.version)} · ${html(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.server ? ` · server ${html(report.server.name ?? '?')} ${html(report.server.version ?? '')}` : ''} · revisions ${html(revisions.join(', ') || 'none')}</p>
<div class="banner ${failed ? 'bad' : 'ok'}">${failed ? `FAIL: ${must} defect(s) fail the run` : 'PASS: every applicable MUST requirement passed'} · ${findings.length} finding(s), one per root cause</div>
${report.notes.map((note) => `<p class="sec">note: ${html(note)}</p>`).join('\n')}
<form class="filters" id="filters" onsubmit="return false">
<fieldset id="f-view"><legend>group by</legend><label><input type="radio" name="view" value="cause" checked> root cause</label> <label><input type="radio" name="view" value="rule"> rule</label></fieldset>
<fieldset id="f-severity"><legend>severity</legend>${options(['MUST', 'SHOULD', 'ROBUST'])}</fieldset>
<fieldset id="f-transport"><legend>transport</legend>${options([transport])}</fieldset>
<fieldset id="f-revision"><legend>revision</legend>${options(revisions)}</fieldset>
<fieldset><legend>search</legend><input type="search" id="f-text" placeholder="check, statement, message…"></fieldset>
<span class="sec" id="f-count"></span>
</form>
<div id="view-cause">
${findings.length === 0 ? '<p>No findings.</p>' : bySeverity}
</div>
<div id="view-rule" class="hidden">
<h2>Rules broken <small>each statement once, with its root causes</small></h2>
${rulesHtml(findings, transport, all)}
</div>
${notRunHtml}
${advisories.length === 0 ? '' : `<section><h2>Security lints (advisory)</h2><ul>${advisories.join('')}</ul></section>`}
<section><h2>Every statement, per revision</h2>
${report.revisions.map((revision) => requirementsHtml(revision, transport)).join('\n')}
</section>
<script>
(function () {
  var form = document.getElementById('filters');
  function checked(id) {
    return Array.prototype.map.call(document.querySelectorAll('#' + id + ' input:checked'), function (i) { return i.value; });
  }
  function apply() {
    var severities = checked('f-severity'), transports = checked('f-transport'), revisions = checked('f-revision');
    var text = document.getElementById('f-text').value.trim().toLowerCase();
    var view = document.querySelector('input[name=view]:checked').value;
    document.getElementById('view-cause').classList.toggle('hidden', view !== 'cause');
    document.getElementById('view-rule').classList.toggle('hidden', view !== 'rule');
    var shown = 0;
    Array.prototype.forEach.call(document.querySelectorAll('.item'), function (item) {
      var severity = item.getAttribute('data-severity');
      var ok = (severity === 'any' || severity === 'not-run' || severity === 'advisory' || severities.indexOf(severity) !== -1) &&
        transports.indexOf(item.getAttribute('data-transport')) !== -1 &&
        item.getAttribute('data-revisions').split(' ').some(function (r) { return revisions.indexOf(r) !== -1; }) &&
        (text === '' || item.textContent.toLowerCase().indexOf(text) !== -1);
      item.classList.toggle('hidden', !ok);
      if (ok && item.classList.contains('finding')) shown++;
    });
    Array.prototype.forEach.call(document.querySelectorAll('section.group'), function (group) {
      group.classList.toggle('hidden', group.querySelectorAll('.finding:not(.hidden)').length === 0);
    });
    document.getElementById('f-count').textContent = shown + ' finding(s) shown';
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  Array.prototype.forEach.call(document.querySelectorAll('input.toggle'), function (box) {
    box.addEventListener('change', function () { box.parentElement.nextElementSibling.classList.toggle('hide-quiet', box.checked); });
  });
  apply();
})();
</script>
</body></html>
`;
}
