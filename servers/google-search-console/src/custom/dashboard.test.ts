import { describe, expect, it } from 'vitest';
import { dailySeries } from './dashboard.js';

describe('the dashboard series', () => {
  it('puts one point a day in date order, whatever order the API answered in', () => {
    expect(
      dailySeries([
        { keys: ['2026-10-02'], clicks: 5, impressions: 50, ctr: 0.1, position: 3 },
        { keys: ['2026-10-01'], clicks: 2, impressions: 40, ctr: 0.05, position: 4.5 },
      ]),
    ).toEqual([
      { date: '2026-10-01', clicks: 2, impressions: 40, ctr: 0.05, position: 4.5 },
      { date: '2026-10-02', clicks: 5, impressions: 50, ctr: 0.1, position: 3 },
    ]);
  });

  it('counts impossible metrics as 0, as the other insight tools do', () => {
    expect(
      dailySeries([{ keys: ['2026-10-01'], clicks: -1.7976931348623157e308, impressions: null }]),
    ).toEqual([{ date: '2026-10-01', clicks: 0, impressions: 0, ctr: 0, position: 0 }]);
  });
});
