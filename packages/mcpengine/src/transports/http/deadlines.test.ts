import { describe, expect, it } from 'vitest';
import { Deadlines } from './deadlines.js';

describe('Deadlines', () => {
  it('fires a deadline after its time has fully passed, never before', () => {
    const deadlines = new Deadlines(100);
    const fired: string[] = [];
    deadlines.add(250, () => fired.push('250'));
    deadlines.add(100, () => fired.push('100'));
    // 100 ms: one full tick plus the partial one it was added in.
    deadlines.tick();
    expect(fired).toEqual([]);
    deadlines.tick();
    expect(fired).toEqual(['100']);
    deadlines.tick();
    deadlines.tick();
    expect(fired).toEqual(['100', '250']);
    expect(deadlines.size).toBe(0);
  });

  it('forgets a removed deadline, wherever it is in the list, and tolerates removing twice', () => {
    const deadlines = new Deadlines(10);
    const fired: number[] = [];
    const entries = [0, 1, 2, 3].map((n) => deadlines.add(10, () => fired.push(n)));
    deadlines.remove(entries[1]!);
    deadlines.remove(entries[3]!);
    deadlines.remove(entries[3]!);
    expect(deadlines.size).toBe(2);
    deadlines.tick();
    deadlines.tick();
    expect(fired.sort()).toEqual([0, 2]);
    // Removing an expired deadline changes nothing.
    deadlines.remove(entries[0]!);
    expect(deadlines.size).toBe(0);
  });

  it('lets a deadline that fires add or remove others', () => {
    const deadlines = new Deadlines(10);
    const fired: string[] = [];
    const later = deadlines.add(10, () => fired.push('later'));
    deadlines.add(10, () => {
      fired.push('first');
      deadlines.remove(later);
      deadlines.add(10, () => fired.push('added'));
    });
    deadlines.tick();
    deadlines.tick();
    expect(fired).toEqual(['first']);
    deadlines.tick();
    deadlines.tick();
    expect(fired).toEqual(['first', 'added']);
  });
});
