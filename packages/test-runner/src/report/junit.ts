/** JUnit XML: one testsuite per file, failures and warnings in the elements CI systems display. */
import { formatViolation } from '@mcpengine/oracle';
import { formatLocation, type RunSummary } from '../model.js';

// eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

const escape = (text: string) =>
  text
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(CONTROL_CHARACTERS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function junitReport(summary: RunSummary): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="mcpengine test" tests="${summary.passed + summary.failed + summary.warned + summary.skipped}" failures="${summary.failed}" skipped="${summary.skipped}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
  );
  for (const suite of summary.suites) {
    const failures = suite.tests.filter((t) => t.status === 'failed').length;
    const skipped = suite.tests.filter((t) => t.status === 'skipped').length;
    out.push(
      `  <testsuite name="${escape(suite.name)}" file="${escape(suite.file)}" tests="${suite.tests.length}" failures="${failures}" errors="${suite.fileError === undefined ? 0 : 1}" skipped="${skipped}" time="${(suite.durationMs / 1000).toFixed(3)}">`,
    );
    if (suite.fileError !== undefined)
      out.push(
        `    <testcase name="(file)" classname="${escape(suite.name)}"><error message="malformed test file">${escape(suite.fileError)}</error></testcase>`,
      );
    for (const test of suite.tests) {
      const attrs = `name="${escape(test.name)}" classname="${escape(suite.name)}" time="${(test.durationMs / 1000).toFixed(3)}"${test.location === undefined ? '' : ` file="${escape(formatLocation(test.location))}"`}`;
      const body: string[] = [];
      if (test.status === 'failed') {
        const detail = [
          ...test.failures,
          ...(test.evidence?.request === undefined ? [] : [`sent: ${JSON.stringify(test.evidence.request)}`]),
          ...(test.evidence?.response === undefined
            ? []
            : [`got: ${JSON.stringify(test.evidence.response)}`]),
          ...(test.evidence?.violations ?? []).map(formatViolation),
        ].join('\n');
        body.push(`<failure message="${escape(test.failures[0] ?? 'failed')}">${escape(detail)}</failure>`);
      }
      if (test.status === 'skipped')
        body.push(`<skipped message="${escape(test.warnings[0] ?? 'skipped')}"/>`);
      if (test.status !== 'skipped' && test.warnings.length > 0)
        body.push(`<system-out>${escape(test.warnings.map((w) => `warning: ${w}`).join('\n'))}</system-out>`);
      if (test.evidence?.stderr !== undefined)
        body.push(`<system-err>${escape(test.evidence.stderr)}</system-err>`);
      out.push(
        body.length === 0 ? `    <testcase ${attrs}/>` : `    <testcase ${attrs}>${body.join('')}</testcase>`,
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** The JSON report: the summary as data, with a format version. */
export function jsonReport(summary: RunSummary): string {
  return `${JSON.stringify({ format: 'mcpengine-test-report', version: 1, ...summary }, null, 2)}\n`;
}
