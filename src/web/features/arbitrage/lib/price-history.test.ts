import { describe, expect, it } from 'vitest';
import {
  americanTicks,
  americanToProbability,
  lineSummary,
  minutesAgo,
  pointAmerican,
  probabilityToAmerican,
  type PriceLine,
} from './price-history.ts';

describe('price history helpers', () => {
  it('converts American odds to implied probability and back, continuous through even money', () => {
    for (const american of [-1000, -150, -110, -101, 100, 101, 105, 150, 1000]) {
      expect(probabilityToAmerican(americanToProbability(american))).toBeCloseTo(american, 9);
    }
    expect(americanToProbability(-100)).toBe(0.5);
    expect(americanToProbability(100)).toBe(0.5);
  });

  it('puts the price axis ticks at round American odds within the range, at most five', () => {
    const ticks = americanTicks(americanToProbability(160), americanToProbability(-160));
    const labels = ticks.map((p) => Math.round(probabilityToAmerican(p)));
    expect(labels.length).toBeLessThanOrEqual(5);
    expect(labels).toEqual([150, 125, 100, -125, -150]);
    expect(americanTicks(0.5, 0.5)).toEqual([0.5]);
  });

  it('reads a point from its American price, else its decimal price, and a gap as null', () => {
    expect(pointAmerican([0, -110, 1.9091])).toBe(-110);
    expect(pointAmerican([0, null, 2.5])).toBeCloseTo(150, 9);
    expect(pointAmerican([0, null, null])).toBeNull();
  });

  it('words the time before the last minute', () => {
    expect([0, 60, 600, 3540, 3600].map(minutesAgo)).toEqual([
      'now',
      '1 minute ago',
      '10 minutes ago',
      '59 minutes ago',
      'an hour ago',
    ]);
  });

  it('sums up a side with a single price, and a side with none', () => {
    const line = (prices: PriceLine['prices']): PriceLine => ({
      sideId: 's',
      book: 'BetMGM',
      selection: 'Over 221.5',
      prices,
    });
    expect(
      lineSummary(
        line([
          [0, null],
          [60, -105],
        ]),
        60,
      ),
    ).toBe('BetMGM Over 221.5: -105 now (no price for 1 minute)');
    expect(
      lineSummary(
        line([
          [0, null],
          [60, null],
        ]),
        60,
      ),
    ).toBe('BetMGM Over 221.5: no price in the last hour');
  });
});
