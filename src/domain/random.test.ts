import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.ts';

describe('seededRandom', () => {
  it('gives the mulberry32 sequence of its seed', () => {
    const random = seededRandom(2024);
    expect([random(), random(), random()]).toEqual([
      0.811762373894453, 0.7108214949257672, 0.6505258858669549,
    ]);
    const zero = seededRandom(0);
    expect([zero(), zero()]).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it('repeats itself for a seed, stays in [0, 1) and differs across seeds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const a = seededRandom(seed);
        const b = seededRandom(seed);
        const c = seededRandom(seed + 1);
        const first = Array.from({ length: 20 }, () => a());
        expect(Array.from({ length: 20 }, () => b())).toEqual(first);
        expect(Array.from({ length: 20 }, () => c())).not.toEqual(first);
        for (const value of first) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThan(1);
        }
      }),
    );
  });
});
