/**
 * The review report of one server, in Markdown and in a self-contained HTML page. Both list every stage's
 * verdict with its summary, then every review check with its points, its rule and its evidence, so each point
 * of the score can be traced to what was measured.
 */
import type { StageResult } from '@mcpengine/store';
import type { ReviewCheck } from './checks.js';

export interface ReviewReport {
  readonly server: string;
  readonly runId: string;
  readonly stages: readonly StageResult[];
  readonly checks: readonly ReviewCheck[];
  readonly score: { readonly earned: number; readonly possible: number };
  readonly tools: readonly { readonly name: string; readonly tokens: number; readonly description: string }[];
  readonly listTokens: number;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(report: ReviewReport): string {
  const lines = [
    `# Review: ${report.server}`,
    '',
    `Run \`${report.runId}\`. Score: **${report.score.earned} / ${report.score.possible}** points, each traced to a check below.`,
    '',
    '## Stages',
    '',
    '| Stage | Verdict | Summary |',
    '| --- | --- | --- |',
    ...report.stages.map((stage) => `| ${stage.stage} | ${stage.verdict} | ${cell(stage.summary)} |`),
    '',
    '## Checks',
    '',
  ];
  for (const check of report.checks) {
    lines.push(`### ${check.title} — ${check.earned} / ${check.possible}`, '', `Rule: ${check.rule}.`, '');
    for (const item of check.evidence) lines.push(`- ${item}`);
    if (check.evidence.length === 0) lines.push('- nothing to report');
    lines.push('');
  }
  lines.push(
    '## Tools',
    '',
    `tools/list costs ${report.listTokens} tokens (o200k_base).`,
    '',
    '| Tool | Tokens | Description |',
    '| --- | ---: | --- |',
    ...report.tools.map(
      (tool) => `| ${cell(tool.name)} | ${tool.tokens} | ${cell(tool.description.slice(0, 120))} |`,
    ),
    '',
  );
  return lines.join('\n');
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function renderHtml(report: ReviewReport): string {
  const rows = report.stages
    .map(
      (stage) =>
        `<tr><td>${escapeHtml(stage.stage)}</td><td class="${stage.verdict}">${stage.verdict}</td><td>${escapeHtml(stage.summary)}</td></tr>`,
    )
    .join('');
  const checks = report.checks
    .map(
      (check) =>
        `<section><h3>${escapeHtml(check.title)} — ${check.earned} / ${check.possible}</h3><p>Rule: ${escapeHtml(check.rule)}.</p><ul>${(check.evidence.length === 0 ? ['nothing to report'] : check.evidence).map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul></section>`,
    )
    .join('');
  const tools = report.tools
    .map(
      (tool) =>
        `<tr><td>${escapeHtml(tool.name)}</td><td class="num">${tool.tokens}</td><td>${escapeHtml(tool.description.slice(0, 200))}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Review: ${escapeHtml(report.server)}</title>
<meta name="color-scheme" content="light dark">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #8884;padding:.3rem .5rem;text-align:left;vertical-align:top}.num{text-align:right}.pass{color:#1a7f37}.fail{color:#cf222e}.skip{color:#9a6700}@media (prefers-color-scheme:dark){.pass{color:#3fb950}.fail{color:#f85149}.skip{color:#d29922}}</style>
</head><body>
<h1>Review: ${escapeHtml(report.server)}</h1>
<p>Run <code>${escapeHtml(report.runId)}</code>. Score: <strong>${report.score.earned} / ${report.score.possible}</strong> points, each traced to a check below.</p>
<h2>Stages</h2><table><thead><tr><th>Stage</th><th>Verdict</th><th>Summary</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Checks</h2>${checks}
<h2>Tools</h2><p>tools/list costs ${report.listTokens} tokens (o200k_base).</p>
<table><thead><tr><th>Tool</th><th>Tokens</th><th>Description</th></tr></thead><tbody>${tools}</tbody></table>
</body></html>
`;
}
