import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  additive,
  DEVIG_METHODS,
  devigImplied,
  multiplicative,
  power,
  shin,
  shinInto,
  shinProbabilities,
  solvePower,
  solveShin,
} from './devig.ts';

// The four de-vig methods of decision 164. Hand cases are built so the answer is known in closed form; the published
// worked example is the one of the `shin` Python package by Maurice Berk (its README: decimal odds 2.6, 2.4 and 4.3),
// which implements Shin (1993) by the iteration of Jullien & Salanié (1994).

const sumOf = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const closeTo = (actual: readonly number[], expected: readonly number[], digits = 12) => {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, index) => expect(actual[index]).toBeCloseTo(value, digits));
};

describe('multiplicative', () => {
  it('divides each implied probability by their sum', () => {
    closeTo(multiplicative([0.6, 0.5]), [6 / 11, 5 / 11]);
    // The brief's "Double-Double yes": 0.0812 / (0.0812 + 0.9841) = 0.0812 / 1.0653.
    closeTo(multiplicative([0.0812, 0.9841]), [0.0812 / 1.0653, 0.9841 / 1.0653]);
  });
});

describe('additive', () => {
  it('takes an equal share of the overround from each outcome', () => {
    closeTo(additive([0.6, 0.5]), [0.55, 0.45]);
    // Overround 0.1 in three parts of 1/30.
    closeTo(additive([0.5, 0.4, 0.2]), [0.5 - 1 / 30, 0.4 - 1 / 30, 0.2 - 1 / 30]);
    // An underround is shared out the same way: 0.05 each.
    closeTo(additive([0.45, 0.45]), [0.5, 0.5]);
    // The Double-Double yes: 0.0812 − 0.0653 / 2.
    closeTo(additive([0.0812, 0.9841]), [0.04855, 0.95145]);
  });

  it('gives 0 to an outcome priced below its share, and shares the overround among the others', () => {
    // Q = 1.12: a third is 0.04, more than the longshot's 0.02. Without it: (1.1 − 1) / 2 = 0.05 from each of the two.
    closeTo(additive([0.9, 0.2, 0.02]), [0.85, 0.15, 0]);
    closeTo(additive([0.02, 0.9, 0.2]), [0, 0.85, 0.15]);
  });
});

describe('power', () => {
  it('raises every implied probability to the k that makes them sum to 1', () => {
    // 0.8² + 0.6² = 0.64 + 0.36 = 1: k = 2.
    const two = solvePower([0.8, 0.6]);
    expect(two.k).toBeCloseTo(2, 12);
    closeTo(two.probabilities, [0.64, 0.36]);
    const three = solvePower([Math.sqrt(0.5), Math.sqrt(0.3), Math.sqrt(0.2)]);
    expect(three.k).toBeCloseTo(2, 12);
    closeTo(three.probabilities, [0.5, 0.3, 0.2]);
    // An underround: 0.25^k + 0.25^k = 1 at k = 1/2.
    const under = solvePower([0.25, 0.25]);
    expect(under.k).toBeCloseTo(0.5, 12);
    closeTo(under.probabilities, [0.5, 0.5]);
  });

  it('cuts a longshot hardest: the Double-Double yes at ~0.0236', () => {
    const { k, probabilities } = solvePower([0.0812, 0.9841]);
    expect(0.0812 ** k + 0.9841 ** k).toBeCloseTo(1, 12);
    expect(probabilities[0]).toBeCloseTo(0.0236, 4);
  });
});

describe('shin', () => {
  it('matches the published worked example (Berk, `shin`): odds 2.6, 2.4, 4.3', () => {
    const { z, probabilities } = solveShin([1 / 2.6, 1 / 2.4, 1 / 4.3]);
    closeTo(probabilities, [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], 9);
    expect(z).toBeCloseTo(0.01694251276407055, 9);
  });

  it("inverts Shin's model: prices built from p and z give p and z back", () => {
    // Shin (1993): the book's prices for true p and insider share z are q_i = y_i × Σ y_j, y_i = √(z p_i + (1−z) p_i²).
    for (const [p, z] of [
      [[0.5, 0.3, 0.2], 0.1],
      [[0.7, 0.2, 0.07, 0.03], 0.04],
      [[0.9, 0.1], 0.2],
    ] as const) {
      const y = p.map((pi) => Math.sqrt(z * pi + (1 - z) * pi * pi));
      const q = y.map((yi) => yi * sumOf(y));
      const solved = solveShin(q);
      expect(solved.z).toBeCloseTo(z, 10);
      closeTo(solved.probabilities, p, 10);
    }
  });

  it('equals the additive method on two outcomes (the Double-Double yes at 0.04855)', () => {
    closeTo(shin([0.0812, 0.9841]), [0.04855, 0.95145]);
    closeTo(shin([0.6, 0.5]), [0.55, 0.45]);
  });

  it("solves two outcomes in closed form: Shin's formula at the returned z gives the returned probabilities", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1.01, max: 200, noNaN: true }),
        fc.double({ min: 1.01, max: 200, noNaN: true }),
        (d1, d2) => {
          const implied = [1 / d1, 1 / d2];
          const { z, probabilities } = solveShin(implied);
          expect(probabilities[0]! + probabilities[1]!).toBeCloseTo(1, 12);
          if (implied[0]! + implied[1]! !== 1) closeTo(shinProbabilities(implied, z), probabilities, 9);
        },
      ),
    );
  });

  it('solves an underround with z below 0, where the same formula still sums to 1', () => {
    const { z, probabilities } = solveShin([0.45, 0.5]);
    expect(z).toBeLessThan(0);
    closeTo(shinProbabilities([0.45, 0.5], z), probabilities, 12);
    closeTo(probabilities, [0.475, 0.525]);
  });

  it('shinInto gives exactly the doubles of shin, without allocating (overrounds, underrounds, 2 to 12 outcomes)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1.01, max: 1000, noNaN: true }), { minLength: 2, maxLength: 12 }),
        (decimals) => {
          const implied = decimals.map((d) => 1 / d);
          const out = new Float64Array(12);
          shinInto(Float64Array.from(implied), implied.length, out);
          expect([...out.subarray(0, implied.length)]).toEqual(shin(implied));
        },
      ),
    );
    const out = new Float64Array(2);
    shinInto([0.5, 0.5], 2, out);
    expect([...out]).toEqual([0.5, 0.5]);
  });
});

describe('devigImplied', () => {
  it('refuses a market of one outcome and implied probabilities outside (0, 1)', () => {
    for (const method of DEVIG_METHODS) {
      expect(() => devigImplied([0.5], method)).toThrow(RangeError);
      expect(() => devigImplied([0.5, 0], method)).toThrow(RangeError);
      expect(() => devigImplied([0.5, 1], method)).toThrow(RangeError);
      expect(() => devigImplied([0.5, Number.NaN], method)).toThrow(RangeError);
    }
  });

  it('runs the named method', () => {
    closeTo(devigImplied([0.8, 0.6], 'power'), power([0.8, 0.6]));
    closeTo(devigImplied([0.9, 0.2, 0.02], 'additive'), [0.85, 0.15, 0]);
    closeTo(devigImplied([0.6, 0.5], 'multiplicative'), [6 / 11, 5 / 11]);
    closeTo(devigImplied([1 / 2.6, 1 / 2.4, 1 / 4.3], 'shin'), shin([1 / 2.6, 1 / 2.4, 1 / 4.3]));
  });

  // Markets as books price them: 2 to 12 outcomes at decimal odds 1.01 to 1000, overround or (for a median of books)
  // underround alike.
  const market = fc.array(fc.double({ min: 1.01, max: 1000, noNaN: true }), { minLength: 2, maxLength: 12 });

  it.each(DEVIG_METHODS)(
    '%s: probabilities in [0, 1] summing to 1 within 1e-9, in the order of the prices',
    (method) => {
      fc.assert(
        fc.property(market, (decimals) => {
          const implied = decimals.map((decimal) => 1 / decimal);
          const fair = devigImplied(implied, method);
          expect(Math.abs(sumOf(fair) - 1)).toBeLessThanOrEqual(1e-9);
          for (const p of fair) {
            expect(p).toBeGreaterThanOrEqual(0);
            expect(p).toBeLessThanOrEqual(1);
          }
          for (let i = 0; i < implied.length; i += 1) {
            for (let j = 0; j < implied.length; j += 1) {
              if (implied[i]! > implied[j]!) expect(fair[i]).toBeGreaterThanOrEqual(fair[j]!);
            }
          }
        }),
      );
    },
  );

  it.each(DEVIG_METHODS)('%s: a market without margin comes back unchanged', (method) => {
    const weights = fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 2, maxLength: 12 });
    fc.assert(
      fc.property(weights, (raw) => {
        const total = sumOf(raw);
        const fairInput = raw.map((w) => w / total);
        fc.pre(fairInput.every((p) => p > 0 && p < 1));
        closeTo(devigImplied(fairInput, method), fairInput, 12);
      }),
    );
  });

  it('shin and additive agree on every two-way market; power cuts a longshot most, multiplicative least', () => {
    fc.assert(
      fc.property(
        market.filter((d) => d.length === 2 && 1 / d[0]! + 1 / d[1]! > 1),
        (decimals) => {
          const implied = decimals.map((decimal) => 1 / decimal);
          const [shinLong] = [...shin(implied)].sort((a, b) => a - b);
          const [addLong] = [...additive(implied)].sort((a, b) => a - b);
          closeTo([shinLong!], [addLong!], 9);
          const [powLong] = [...power(implied)].sort((a, b) => a - b);
          const [mulLong] = [...multiplicative(implied)].sort((a, b) => a - b);
          expect(powLong!).toBeLessThanOrEqual(shinLong! + 1e-12);
          expect(shinLong!).toBeLessThanOrEqual(mulLong! + 1e-12);
        },
      ),
    );
  });
});
