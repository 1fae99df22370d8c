/**
 * The corpus script's timing judgement: a late ping is excused only when it is the sole cause of every failure
 * and within the 2 s limit scaled by the machine's load; anything else stands.
 */
import { describe, expect, it } from 'vitest';
import { judgeTimingUnderLoad, timingOnly } from './serve-check.js';

const late = (ms: number) => ({
  causes: ['lifecycle.ping'],
  checks: { 'lifecycle.ping': { status: 'fail', message: `answered after ${ms} ms` } },
});

describe('timing judged against the load', () => {
  it('excuses a ping late by less than the load factor', () => {
    expect(judgeTimingUnderLoad([late(5_000)], 3)).toMatch(
      /^ping answered after 5000 ms at load 3\.0 per core: .*6000 ms/,
    );
    expect(judgeTimingUnderLoad([late(2_400), late(5_900)], 3)).toMatch(/after 5900 ms/);
  });

  it('keeps the failure on an idle machine, beyond the scaled limit, or with any other cause', () => {
    expect(judgeTimingUnderLoad([late(2_400)], 0.5)).toBeUndefined();
    expect(judgeTimingUnderLoad([late(7_000)], 3)).toBeUndefined();
    expect(
      judgeTimingUnderLoad([late(3_000), { ...late(3_000), causes: ['lifecycle.ping', 'tools.list'] }], 3),
    ).toBeUndefined();
    expect(
      judgeTimingUnderLoad(
        [
          {
            causes: ['lifecycle.ping'],
            checks: { 'lifecycle.ping': { status: 'fail', message: 'non-empty result {"a":1}' } },
          },
        ],
        3,
      ),
    ).toBeUndefined();
    expect(judgeTimingUnderLoad([], 3)).toBeUndefined();
  });
});

describe('failures that are only missed time limits', () => {
  const failure = (message: string, cause = 'http.get-stream') => ({
    causes: [cause],
    checks: { [cause]: { status: 'fail', message } },
  });
  it('recognises late answers and unanswered requests', () => {
    expect(timingOnly([failure('GET answered HTTP 0 '), late(9_000)])).toBe(true);
    expect(
      timingOnly([failure('expected error -32022, got no response within 11152 ms', 'versioning.x')]),
    ).toBe(true);
  });
  it('does not take a wrong answer for a slow one', () => {
    expect(timingOnly([failure('GET answered HTTP 200 text/html'), late(9_000)])).toBe(false);
    expect(timingOnly([{ causes: [], checks: {} }])).toBe(false);
    expect(timingOnly([])).toBe(false);
  });
});
