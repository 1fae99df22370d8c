/**
 * The terminal view of a run: a live progress line on a terminal (files done, tests done, the test running),
 * then per file what failed or warned with its evidence, and a summary line.
 */
import { formatLocation, type RunSummary, type SuiteResult, type TestResult } from '../model.js';
import type { RunEvent } from '../run/run-suite.js';

export interface TerminalOptions {
  readonly write: (text: string) => void;
  readonly isTTY: boolean;
  readonly color: boolean;
  /** List passing tests too. */
  readonly verbose: boolean;
  readonly cwd: string;
}

const paint = (on: boolean, code: number) => (text: string) =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

function relative(cwd: string, file: string): string {
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');
}

export class TerminalReporter {
  readonly #options: TerminalOptions;
  readonly #red;
  readonly #green;
  readonly #yellow;
  readonly #dim;
  #total = 0;
  #done = 0;
  #files = 0;
  #filesDone = 0;
  #line = false;

  constructor(options: TerminalOptions) {
    this.#options = options;
    this.#red = paint(options.color, 31);
    this.#green = paint(options.color, 32);
    this.#yellow = paint(options.color, 33);
    this.#dim = paint(options.color, 2);
  }

  start(files: number): void {
    this.#files = files;
  }

  onEvent = (event: RunEvent): void => {
    if (event.type === 'suite-start') this.#total += event.total;
    else if (event.type === 'test') {
      this.#done++;
      this.#progress(`${relative(this.#options.cwd, event.suite.file)} › ${event.result.name}`);
    } else {
      this.#filesDone++;
      this.#clear();
      this.#options.write(this.suite(event.result));
    }
  };

  #progress(what: string): void {
    if (!this.#options.isTTY) return;
    const head = `▶ ${this.#filesDone}/${this.#files} files, ${this.#done}/${this.#total} tests  `;
    const width = (process.stdout.columns ?? 100) - 1;
    const line = `${head}${what}`;
    this.#options.write(
      `\r\u001b[2K${this.#dim(line.length > width ? `${line.slice(0, width - 1)}…` : line)}`,
    );
    this.#line = true;
  }

  #clear(): void {
    if (!this.#line) return;
    this.#options.write('\r\u001b[2K');
    this.#line = false;
  }

  #mark(test: TestResult): string {
    switch (test.status) {
      case 'passed':
        return this.#green('✓');
      case 'failed':
        return this.#red('✗');
      case 'warned':
        return this.#yellow('!');
      default:
        return this.#dim('-');
    }
  }

  test(test: TestResult): string {
    const where =
      test.location === undefined
        ? ''
        : this.#dim(`  ${relative(this.#options.cwd, formatLocation(test.location))}`);
    const out = [`  ${this.#mark(test)} ${test.name}${this.#dim(` (${test.durationMs} ms)`)}${where}`];
    for (const failure of test.failures) out.push(indent(this.#red(failure), '      '));
    for (const warning of test.warnings) out.push(indent(this.#yellow(warning), '      '));
    for (const note of test.notes ?? []) out.push(indent(this.#dim(note), '      '));
    if (test.status === 'failed' && test.evidence !== undefined) {
      const e = test.evidence;
      if (e.request !== undefined)
        out.push(this.#dim(`      sent: ${JSON.stringify(e.request).slice(0, 400)}`));
      if (e.response !== undefined)
        out.push(this.#dim(`      got:  ${JSON.stringify(e.response).slice(0, 400)}`));
      if (e.exit !== undefined) out.push(this.#dim(`      exit: ${e.exit}`));
      if (e.stderr !== undefined)
        out.push(this.#dim(`      stderr:\n${indent(e.stderr.slice(-1500), '        ')}`));
    }
    return out.join('\n');
  }

  suite(result: SuiteResult): string {
    const failed = result.tests.filter((t) => t.status === 'failed').length;
    const head = `${failed > 0 || result.fileError ? this.#red('FAIL') : this.#green('PASS')} ${relative(this.#options.cwd, result.file)}${this.#dim(` (${result.tests.length} tests, ${result.durationMs} ms)`)}`;
    const lines = [head];
    if (result.fileError !== undefined) lines.push(indent(this.#red(result.fileError), '  '));
    for (const notice of result.notices) lines.push(this.#dim(`  note: ${notice}`));
    const shown = this.#options.verbose
      ? result.tests
      : result.tests.filter(
          (t) => t.status === 'failed' || t.status === 'warned' || (t.notes?.length ?? 0) > 0,
        );
    for (const test of shown) lines.push(this.test(test));
    const hidden = result.tests.length - shown.length;
    if (hidden > 0 && !this.#options.verbose)
      lines.push(this.#dim(`  … ${hidden} more passed or skipped (--verbose lists them)`));
    return `${lines.join('\n')}\n`;
  }

  summary(summary: RunSummary): string {
    this.#clear();
    const parts = [
      `${summary.passed} passed`,
      `${summary.failed} failed`,
      ...(summary.warned > 0 ? [`${summary.warned} warned`] : []),
      ...(summary.skipped > 0 ? [`${summary.skipped} skipped`] : []),
    ];
    const files = summary.suites.length;
    const broken = summary.suites.filter(
      (s) => s.connectionError !== undefined || s.fileError !== undefined,
    ).length;
    const line = parts.join(', ');
    return `\nTests: ${summary.failed > 0 || broken > 0 ? this.#red(line) : this.#green(line)} (${files} file${files === 1 ? '' : 's'}${broken > 0 ? `, ${broken} could not run` : ''}) in ${(summary.durationMs / 1000).toFixed(1)} s\n`;
  }
}
