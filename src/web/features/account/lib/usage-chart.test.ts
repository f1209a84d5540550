import { describe, expect, it } from 'vitest';
import { niceMax, usageChart } from './usage-chart.ts';

describe('usageChart', () => {
  it('scales to the smallest 1, 2 or 5 × 10ⁿ at or above the busiest day', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 310, 500, 501, 12_345].map(niceMax)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 500, 500, 1000, 20_000,
    ]);
  });

  it('gives each day a slot, heights in proportion, the total and the busiest day', () => {
    const chart = usageChart([
      { date: '2026-11-25', requests: 0 },
      { date: '2026-11-26', requests: 150 },
      { date: '2026-11-27', requests: 200 },
    ]);
    expect(chart.max).toBe(200);
    expect(chart.ticks).toEqual([0, 100, 200]);
    expect(chart.total).toBe(350);
    expect(chart.busiest).toEqual({ date: '2026-11-27', requests: 200 });
    expect(chart.width).toBe(30);
    expect(chart.bars.map((bar) => [bar.x, bar.height, bar.y])).toEqual([
      [1.5, 0, 100],
      [11.5, 75, 25],
      [21.5, 100, 0],
    ]);
  });

  it('shows a single request on a large scale as one unit tall, and an empty month without a busiest day', () => {
    const chart = usageChart([
      { date: '2026-11-26', requests: 1 },
      { date: '2026-11-27', requests: 9_000 },
    ]);
    expect(chart.bars[0]!.height).toBe(1);
    const empty = usageChart([{ date: '2026-11-27', requests: 0 }]);
    expect(empty).toMatchObject({ max: 1, ticks: [0, 1], total: 0, busiest: null });
    expect(usageChart([{ date: '2026-11-27', requests: 4 }]).ticks).toEqual([0, 5]);
  });
});
