/**
 * `validate --apps`: every rule's sentence is in the vendored Apps spec text; each broken app server of the
 * corpus (corpus/apps/app-*.mjs) is caught by exactly the rule its header names; the correct corpus app and the
 * official example app servers pass (no MUST failed; the official ones do not negotiate, which is a SHOULD).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StdioTarget, StreamableHttpTarget } from '../target.js';
import { runAppsValidation, type AppsReport } from './run.js';
import { APPS_RULES } from './rules.js';

const PACKAGE = resolve(import.meta.dirname, '../..');
const ROOT = resolve(PACKAGE, '../..');
const CORPUS = join(PACKAGE, 'corpus/apps');
const SPEC = readFileSync(join(PACKAGE, 'catalog/apps/apps-2026-01-26.md'), 'utf8');

function validate(args: string[], callAll = false): Promise<AppsReport> {
  return runAppsValidation({
    target: new StdioTarget({ command: process.execPath, args, env: {} }, 15_000, args.join(' ')),
    timeoutMs: 15_000,
    callTools: new Set(),
    callAll,
  });
}

/** Runs `tasks` at most `limit` at a time (the machine is shared). */
async function limited<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

const flagged = (report: AppsReport): string[] =>
  report.rules.filter((rule) => rule.verdict === 'fail' || rule.verdict === 'warn').map((rule) => rule.id);

describe('the --apps rules', () => {
  it('cite sentences of the Apps specification, word for word', () => {
    for (const rule of APPS_RULES) expect(SPEC, rule.id).toContain(rule.sentence);
    expect(new Set(APPS_RULES.map((rule) => rule.id)).size).toBe(APPS_RULES.length);
  });

  it('catch each broken app server with the right rule, and pass the correct one', async () => {
    const entries = readdirSync(CORPUS).filter((name) => /^app-.*\.mjs$/.test(name));
    expect(entries.length).toBeGreaterThanOrEqual(14);
    const reports = await limited(
      ['correct-app.mjs', ...entries].map((name) => () => validate([join(CORPUS, name)])),
      4,
    );
    const correct = reports[0]!;
    expect(flagged(correct)).toEqual([]);
    expect(correct.exitCode).toBe(0);
    expect(correct.eras).toHaveLength(2);
    for (const [index, name] of entries.entries()) {
      const expected = /^\/\/ expect: (.+)$/m
        .exec(readFileSync(join(CORPUS, name), 'utf8'))![1]!
        .split(/,\s*/);
      const report = reports[index + 1]!;
      expect(flagged(report), name).toEqual(expected);
      const must = APPS_RULES.find((rule) => rule.id === expected[0])!.level === 'MUST';
      expect(report.exitCode, name).toBe(must ? 1 : 0);
    }
  }, 120_000);

  it('negotiate over Streamable HTTP too (legacy sessions and modern per-request capabilities)', async () => {
    const server = spawn(process.execPath, [join(CORPUS, 'correct-app.mjs'), '--http', '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((ready, reject) => {
        let banner = '';
        server.once('exit', (code) => reject(new Error(`the app server exited (${code}): ${banner}`)));
        server.stderr!.on('data', (chunk: Buffer) => {
          banner += chunk.toString();
          const found = /corpus server on (\S+)/.exec(banner);
          if (found) ready(found[1]!);
        });
      });
      const report = await runAppsValidation({
        target: new StreamableHttpTarget({ url, headers: {}, timeoutMs: 15_000 }),
        timeoutMs: 15_000,
        callTools: new Set(),
        callAll: false,
      });
      expect(flagged(report)).toEqual([]);
      expect(report.appTools).toEqual(['show_view', 'app_refresh']);
      expect(report.rules.find((rule) => rule.id === 'apps.negotiation')?.outcomes).toHaveLength(2);
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);

  it('pass the official example app servers', async () => {
    const official = ['server-basic-vanillajs', 'server-budget-allocator', 'server-basic-preact'];
    const reports = await limited(
      official.map(
        (name) => () =>
          validate(
            [join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js'), '--stdio'],
            true,
          ),
      ),
      3,
    );
    for (const [index, report] of reports.entries()) {
      expect(report.exitCode, official[index]).toBe(0);
      expect(report.appTools.length, official[index]).toBeGreaterThan(0);
      const byId = new Map<string, AppsReport['rules'][number]>(report.rules.map((rule) => [rule.id, rule]));
      for (const id of [
        'apps.ui-scheme',
        'apps.link-resolves',
        'apps.mime-type',
        'apps.html5',
        'apps.text-fallback',
      ])
        expect(byId.get(id)?.verdict, `${official[index]} ${id}`).toBe('pass');
    }
  }, 120_000);
});

describe('mcpengine validate --apps (the command line)', () => {
  const bin = join(ROOT, 'packages/cli/bin/mcpengine.js');
  const run = (server: string) =>
    spawnSync(process.execPath, [bin, 'validate', '--apps', '--stdio', `node ${join(CORPUS, server)}`], {
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits 1 with the rule and its sentence for a broken app, 0 for a correct one', () => {
    if (!existsSync(join(ROOT, 'packages/cli/dist'))) throw new Error('build first: npm run build');
    const broken = run('app-not-html5.mjs');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/FAIL apps\.html5 \(MUST\)/);
    expect(broken.stdout).toContain('Content MUST be valid HTML5 document');
    const correct = run('correct-app.mjs');
    expect(correct.status).toBe(0);
    expect(correct.stdout).toMatch(/^PASS: MCP Apps rules/);
  }, 60_000);
});
