/**
 * The corpus suite, shared by the test files that split the corpus between them (vitest runs files in
 * parallel): every broken server is caught by exactly the checks its header names, its named requirements come
 * out failed or warned, and the correct servers draw no failure and no warning.
 *
 * Within a file, two entries are validated at a time: a validation spends most of its wall time waiting for its
 * servers (process start-up, answers), and validations share nothing but the process. Every process of every
 * entry is gone once the file is done (afterAll).
 */
import { afterAll, expect, it } from 'vitest';
import { checkDef } from '../checks/registry.js';
import '../checks/index.js';
import { trackedGroupCount } from '@mcpengine/wire';
import { corpusEntries, validateEntry, type CorpusEntry } from './corpus.js';
import { limiter } from './validation.js';

/** How many entries of one file are validated at once. */
const CONCURRENCY = 2;

export function corpusSuite(select: (entry: CorpusEntry, index: number) => boolean): void {
  const limited = limiter(CONCURRENCY);
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });
  for (const entry of corpusEntries().filter(select)) {
    // Concurrent tests assert with their own expect.
    it.concurrent(
      `${entry.file}: ${entry.breaks}`,
      async ({ expect }) => {
        const result = await limited(() => validateEntry(entry));
        expect(result.failing).toEqual(entry.expect);
        if (entry.expect.length === 0) {
          expect(result.report.exitCode).toBe(0);
          expect(result.warnings).toBe(0);
          expect([...result.broken]).toEqual([]);
        } else {
          // Exit 1 exactly when a MUST of the catalog failed (advisory lints and SHOULDs never fail a run).
          const mustFailed = result.report.revisions.some((r) =>
            r.requirements.some((v) => v.verdict === 'fail'),
          );
          expect(result.report.exitCode).toBe(mustFailed ? 1 : 0);
          if (entry.verdict !== undefined)
            expect(result.report.exitCode, `the run's verdict`).toBe(entry.verdict === 'pass' ? 0 : 1);
          // Every failing check is charged to a statement of the spec, or is an advisory lint.
          for (const check of result.failing) {
            const charged = result.report.revisions.some((r) =>
              r.requirements.some(
                (v) =>
                  (v.verdict === 'fail' || v.verdict === 'warning') &&
                  (v.requirement.checks ?? []).some((ref) => ref === check || ref.startsWith(`${check}#`)),
              ),
            );
            expect(
              charged || checkDef(check)?.advisory === true,
              `${check} is charged to a requirement`,
            ).toBe(true);
          }
        }
        for (const requirement of entry.requirements) expect([...result.broken]).toContain(requirement);
      },
      180_000,
    );
  }
}
