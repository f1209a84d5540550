import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeagueKey } from './markets.ts';
import {
  centreFitsKept,
  discretisedNormal,
  distributionCentre,
  distributionCentreUncached,
  FITS_KEPT,
  highSideChance,
  isMiddle,
  marketCentre,
  marketCentreBy,
  MIDDLE_CENTRE_DEFAULT,
  middleChances,
  normalMiddleChances,
  middleEv,
  middleGap,
  middleReturns,
  middleStakesCents,
  publishedChances,
  publishedPct,
  scoreDistribution,
  type IntegerDistribution,
} from './middles.ts';
import { normalQuantile } from './mvn.ts';
import { seededRandom } from './random.ts';
import { fairHighProbability, gameDistributions } from './score-distributions.ts';
import { SGP_GAME_PRIORS } from './sgp.ts';

// The middles maths (decision 167): the gap and pushes by hand, the distributions against seeded Monte Carlo draws of
// the models they state, and the published EV recomputed from the published figures.

/** Monte Carlo estimate of P(X in [from, to]) and its standard error. */
function estimate(draws: number[], from: number, to: number) {
  const hits = draws.filter((x) => x >= from && x <= to).length;
  const p = hits / draws.length;
  return { p, se: Math.sqrt((p * (1 - p)) / draws.length) };
}

describe('middleGap and isMiddle', () => {
  it('finds the whole numbers strictly between the lines', () => {
    expect(middleGap(2.5, 3.5)).toEqual([3]);
    expect(middleGap(44.5, 47.5)).toEqual([45, 46, 47]);
    expect(middleGap(44, 47)).toEqual([45, 46]);
    expect(middleGap(-3.5, -1)).toEqual([-3, -2]);
    expect(isMiddle(2.5, 3)).toBe(false);
    expect(isMiddle(3, 3.5)).toBe(false);
    expect(isMiddle(3, 3)).toBe(false);
    expect(isMiddle(3.5, 2.5)).toBe(false);
    expect(isMiddle(2.25, 3.5)).toBe(false);
  });
});

describe('middleChances: pushes on whole-number lines, by hand', () => {
  // Totals 43 to 48, each 1/6.
  const uniform: IntegerDistribution = { min: 43, probabilities: new Array<number>(6).fill(1 / 6) };

  it('over 44 and under 47: both win on 45 and 46, the over pushes on 44, the under on 47', () => {
    const chances = middleChances(44, 47, uniform);
    expect(chances.middle).toBeCloseTo(2 / 6, 12);
    expect(chances.pushHigh).toBeCloseTo(1 / 6, 12);
    expect(chances.pushLow).toBeCloseTo(1 / 6, 12);
    expect(chances.miss).toBeCloseTo(2 / 6, 12);
  });

  it('over 44.5 and under 47.5: no push, both win on 45 to 47', () => {
    const chances = middleChances(44.5, 47.5, uniform);
    expect(chances).toMatchObject({ pushHigh: 0, pushLow: 0 });
    expect(chances.middle).toBeCloseTo(3 / 6, 12);
    expect(chances.miss).toBeCloseTo(3 / 6, 12);
  });

  it('pays a push its own stake back plus the other side, worked out at even money', () => {
    // At 2.0 / 2.0, 50 each of 100: a miss returns 100 (0 %), a hit 200 (+100 %), a push 50 + 100 (+50 %).
    const returns = middleReturns(2, 2);
    expect(returns).toMatchObject({ hit: 1, miss: 0, pushHigh: 0.5, pushLow: 0.5, stakeShareHigh: 0.5 });
    // 2/6 × 100 % + 1/6 × 50 % + 1/6 × 50 % + 2/6 × 0 % = 50 %.
    expect(middleEv(2, 2, middleChances(44, 47, uniform))).toBeCloseTo(0.5, 12);
    // At −110 both ways (1.9091) a miss loses 4.55 % of the total.
    expect(publishedPct(middleReturns(1.9091, 1.9091).miss)).toBe(-4.545);
  });

  it('refuses a pair that cannot both win', () => {
    expect(() => middleChances(3, 3.5, uniform)).toThrow(RangeError);
  });
});

describe('middleStakesCents', () => {
  it('splits a total so that either side alone pays the same, to within half a cent of each stake', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 10_000_000 }),
        fc.double({ min: 1.05, max: 6, noNaN: true }),
        fc.double({ min: 1.05, max: 6, noNaN: true }),
        (total, dh, dl) => {
          const [high, low] = middleStakesCents(total, dh, dl);
          expect(high + low).toBe(total);
          // Each stake is at most half a cent off its exact share: the payouts differ by at most (dh + dl) / 2 cents.
          expect(Math.abs(high * dh - low * dl)).toBeLessThanOrEqual((dh + dl) / 2 + 1e-6);
        },
      ),
    );
  });
});

describe('middleChances over the league distributions (score-distributions.ts) against seeded draws', () => {
  for (const [league, variable, centre, high, low] of [
    ['nfl', 'margin', { margin: 3, total: 44.5 }, 2.5, 7.5],
    ['nfl', 'total', { margin: -2, total: 44.5 }, 42, 46],
    ['nba', 'margin', { margin: 4.5, total: 228 }, 3.5, 6],
    ['nhl', 'total', { margin: 0.3, total: 5.8 }, 5, 7],
    ['epl', 'total', { margin: 0.4, total: 2.7 }, 1.5, 3],
  ] as const) {
    it(`${league} ${variable} ${high}/${low}: the middle and pushes are the sampled frequencies`, () => {
      const distribution = scoreDistribution(league as LeagueKey, variable, centre);
      const random = seededRandom(7);
      const draws: number[] = [];
      // Inverse-CDF draws of the distribution (an independent walk over its probabilities).
      const cumulative: number[] = [];
      distribution.probabilities.reduce((sum, p) => (cumulative.push(sum + p), sum + p), 0);
      for (let i = 0; i < 100_000; i += 1) {
        const u = random();
        const index = cumulative.findIndex((c) => c >= u);
        draws.push(distribution.min + (index < 0 ? cumulative.length - 1 : index));
      }
      const chances = middleChances(high, low, distribution);
      const gap = estimate(draws, Math.floor(high) + 1, Math.ceil(low) - 1);
      expect(Math.abs(chances.middle - gap.p)).toBeLessThanOrEqual(3 * gap.se + 1e-9);
      if (Number.isInteger(high)) {
        const push = estimate(draws, high, high);
        expect(Math.abs(chances.pushHigh - push.p)).toBeLessThanOrEqual(3 * push.se + 1e-9);
      } else expect(chances.pushHigh).toBe(0);
      if (Number.isInteger(low)) {
        const push = estimate(draws, low, low);
        expect(Math.abs(chances.pushLow - push.p)).toBeLessThanOrEqual(3 * push.se + 1e-9);
      } else expect(chances.pushLow).toBe(0);
      expect(chances.middle + chances.pushHigh + chances.pushLow + chances.miss).toBeCloseTo(1, 12);
    });
  }

  it('discretisedNormal sums to 1 and keeps its mean', () => {
    const d = discretisedNormal(3.3, 12);
    const sum = d.probabilities.reduce((a, b) => a + b, 0);
    const mean = d.probabilities.reduce((a, p, i) => a + p * (d.min + i), 0);
    expect(sum).toBeCloseTo(1, 12);
    expect(mean).toBeCloseTo(3.3, 6);
  });
});

describe('marketCentre', () => {
  it('reads the expected value from de-vigged lines: the mean whose chance of the line is the books’, their median', () => {
    const quotes = [
      { book: 'a', line: 44.5, high: 1.9091, low: 1.9091 },
      { book: 'b', line: 44.5, high: 1.9091, low: 1.9091 },
      { book: 'c', line: 44.5, high: 1.9091, low: 1.9091 },
    ];
    const centre = marketCentre('nfl', 'total', quotes, 3, -3)!;
    // A 50/50 line: the distribution centred there gives the over half (within the centre's 0.05 steps).
    expect(
      fairHighProbability(gameDistributions('nfl', { margin: -3, total: centre }).total, 44.5),
    ).toBeCloseTo(0.5, 2);
    expect(marketCentre('nfl', 'total', quotes.slice(0, 2))).toBeUndefined();
    // One book leaning over moves nothing: the median.
    expect(
      marketCentre('nfl', 'total', [...quotes, { book: 'd', line: 44.5, high: 1.5, low: 2.6 }], 3, -3),
    ).toBe(centre);
  });
});

// Issue 57 (decision 284): a centre is the mean under the league's distributions whose fair chance of the line is the
// de-vigged price's, on every line shape a book hangs: the chance of a known centre read back gives the centre.
describe('distributionCentre', () => {
  const cases: [LeagueKey, 'margin' | 'total', number, number, number][] = [
    // league, variable, line, true centre, the other variable's centre
    ['nfl', 'total', 44.5, 46.3, -3],
    ['nfl', 'total', 44, 42.85, 2.5],
    ['nfl', 'margin', 3, 2.2, 45],
    ['nfl', 'margin', -2.5, -4.1, 47],
    ['nba', 'total', 226, 229.4, 4],
    ['nba', 'margin', 6.5, 5.35, 228],
    ['nhl', 'total', 5.5, 6.1, 0.3],
    ['nhl', 'total', 6, 6.35, 0.3],
    ['nhl', 'margin', 1.5, 0.65, 6],
    ['mlb', 'total', 8.5, 8.9, -0.2],
    ['mlb', 'total', 9, 8.65, 0.4],
    ['mlb', 'margin', -1.5, -0.55, 8.5],
    ['epl', 'total', 2.5, 2.85, 0.4],
    ['epl', 'total', 2.25, 2.45, 0.4],
    ['epl', 'total', 2.75, 3.05, -0.6],
    ['epl', 'total', 3, 2.6, 0],
    ['epl', 'margin', 0.25, 0.35, 2.7],
    ['epl', 'margin', -0.75, -0.9, 2.6],
    ['mls', 'margin', 0, 0.45, 3],
  ];

  it.each(cases)(
    '%s %s at %d: the chance of centre %d read back gives it',
    (league, variable, line, centre, other) => {
      const distributions = gameDistributions(
        league,
        variable === 'margin' ? { margin: centre, total: other } : { margin: other, total: centre },
      );
      const p = fairHighProbability(distributions[variable], line);
      expect(p).toBeGreaterThan(0.02);
      expect(p).toBeLessThan(0.98);
      // On the distributions' 0.05 steps the centre comes back exactly; between them, linearly.
      expect(distributionCentre(league, variable, line, p, other)).toBeCloseTo(centre, 6);
      const between = distributionCentre(league, variable, line, p + 0.001, other);
      expect(between).toBeGreaterThan(centre);
      expect(between).toBeLessThan(centre + 0.25);
    },
  );

  it('differs from the old normal estimate where the distribution is not a normal (low totals, whole lines)', () => {
    const sigma = SGP_GAME_PRIORS.epl.sigmaTotal;
    // Over 2.5 at 55 %: Poisson goals need about 2.8, more than the normal's 2.5 + σ · Φ⁻¹(0.55).
    const normal = 2.5 + sigma * normalQuantile(0.55);
    const fitted = distributionCentre('epl', 'total', 2.5, 0.55, 0.3);
    expect(Math.abs(fitted - normal)).toBeGreaterThan(0.05);
    const p = fairHighProbability(gameDistributions('epl', { margin: 0.3, total: fitted }).total, 2.5);
    expect(p).toBeCloseTo(0.55, 2);
    // A line not in quarter points keeps the normal estimate; a chance beyond the distributions' reach, their end.
    expect(distributionCentre('epl', 'total', 2.6, 0.55, 0.3)).toBeCloseTo(
      2.6 + sigma * normalQuantile(0.55),
      12,
    );
    expect(distributionCentre('nhl', 'margin', 1.5, 0.999999, 5)).toBeCloseTo(5, 9);
  });
});

// Issue 59: what distributionCentre keeps (each line's chances by centre step, its fits by price) only saves work: on
// random fits with repeats (the same line and other centre, prices on a grid, so the kept curves and fits answer) every
// centre is the one fitted from scratch with no cache at all, to the last bit, and the fits a line keeps stay bounded.
describe('distributionCentre keeps its curves and fits', () => {
  const pools: [LeagueKey, 'margin' | 'total', number[], number[]][] = [
    // league, variable, lines, the other centre's values (whole steps and between them)
    ['nfl', 'total', [44.5, 45, 47.5], [-3, -2.95, -2.97, 3.5]],
    ['nfl', 'margin', [-3, 2.5, 6.5], [44.5, 44.52, 47]],
    ['nba', 'margin', [-5.5, 4], [226, 226.01]],
    ['nhl', 'total', [5.5, 6], [0.3, 0.32, -0.25]],
    ['mlb', 'margin', [-1.5, 1.5], [8.5, 8.53, 9]],
    ['epl', 'total', [2.25, 2.5, 2.75, 3], [0.4, 0.41, -0.6]],
    ['epl', 'margin', [-0.75, 0, 0.25], [2.6, 2.62, 3]],
  ];
  const fit = fc.tuple(
    fc.integer({ min: 0, max: pools.length - 1 }),
    fc.nat(),
    fc.nat(),
    fc.integer({ min: 20, max: 80 }),
  );

  it('answers as a fit from scratch does, on random fits with repeats', () => {
    fc.assert(
      fc.property(fc.array(fit, { minLength: 20, maxLength: 40 }), (fits) => {
        for (const [pool, lineAt, otherAt, percent] of fits) {
          const [league, variable, lines, others] = pools[pool]!;
          const line = lines[lineAt % lines.length]!;
          const other = others[otherAt % others.length]!;
          const p = percent / 100;
          const kept = distributionCentre(league, variable, line, p, other);
          expect(kept).toBe(distributionCentreUncached(league, variable, line, p, other));
          // Asked again: the kept fit.
          expect(distributionCentre(league, variable, line, p, other)).toBe(kept);
        }
      }),
      { numRuns: 6, seed: 59 },
    );
  });

  // Decision 285: a fit from a centre near its answer (the book's fit before its price moved) brackets p from there,
  // and must end where the search from the normal estimate ends, wherever the centre it is given lies.
  it('fitted from a centre near the answer, or far from it, is the fit from scratch', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fit, fc.double({ min: -40, max: 260, noNaN: true }), fc.integer({ min: -3, max: 3 })),
          {
            minLength: 20,
            maxLength: 40,
          },
        ),
        (fits) => {
          for (const [[pool, lineAt, otherAt, percent], far, steps] of fits) {
            const [league, variable, lines, others] = pools[pool]!;
            const line = lines[lineAt % lines.length]!;
            const other = others[otherAt % others.length]!;
            // A price of its own (no fit kept for it): the fit runs.
            const p = percent / 100 + Math.abs(far % 1) * 1e-4;
            const scratch = distributionCentreUncached(league, variable, line, p, other);
            // Near: a few steps off the answer (as a moved price's); far: anywhere, even outside the range.
            const near = scratch + steps * 0.05 + (percent % 7) * 0.003;
            expect(distributionCentre(league, variable, line, p, other, near)).toBe(scratch);
            expect(distributionCentre(league, variable, line, p + 0.004, other, far)).toBe(
              distributionCentreUncached(league, variable, line, p + 0.004, other),
            );
          }
        },
      ),
      { numRuns: 8, seed: 285 },
    );
  });

  // What the fit from a near centre rests on: a line's fair chance never falls as its variable's centre rises, in
  // every league's model (checked step by step over ±2σ of the line, a margin within ± the total).
  it.each(pools)(
    '%s %s: the chance of each line grows with the centre',
    (league, variable, lines, others) => {
      const prior = SGP_GAME_PRIORS[league];
      const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
      for (const line of lines.slice(0, 2)) {
        const other = others[0]!;
        const reach = Math.min(2 * sigma, variable === 'margin' ? Math.abs(other) : Infinity);
        let before = -1;
        for (let k = Math.ceil((line - reach) / 0.05); k <= Math.floor((line + reach) / 0.05); k += 1) {
          const centre =
            variable === 'margin' ? { margin: k * 0.05, total: other } : { margin: other, total: k * 0.05 };
          const chance = fairHighProbability(gameDistributions(league, centre)[variable], line);
          expect(chance).toBeGreaterThanOrEqual(before);
          before = chance;
        }
      }
    },
  );

  it(`keeps at most ${FITS_KEPT} fits a line, the dropped ones fitted again the same`, () => {
    const prices = Array.from({ length: FITS_KEPT * 3 }, (_, i) => 0.2 + i * 0.01);
    const first = prices.map((p) => distributionCentre('epl', 'total', 2.5, p, 0.15));
    expect(centreFitsKept().mostFits).toBeLessThanOrEqual(FITS_KEPT);
    expect(centreFitsKept().mostFits).toBeGreaterThan(0);
    prices.forEach((p, i) => {
      expect(distributionCentre('epl', 'total', 2.5, p, 0.15)).toBe(first[i]);
      expect(first[i]).toBe(distributionCentreUncached('epl', 'total', 2.5, p, 0.15));
    });
    expect(centreFitsKept().mostFits).toBeLessThanOrEqual(FITS_KEPT);
  });
});

describe('marketCentreBy (issue 55)', () => {
  const quote = fc.record({
    book: fc.constantFrom('fanduel', 'draftkings', 'caesars', 'betmgm', 'circa'),
    line: fc.integer({ min: 80, max: 100 }).map((half) => half / 2),
    high: fc.double({ min: 1.3, max: 3.5, noNaN: true }),
    low: fc.double({ min: 1.3, max: 3.5, noNaN: true }),
  });

  it('by the default choice is marketCentre to the last bit, and names the consensus', () => {
    fc.assert(
      fc.property(fc.array(quote, { maxLength: 12 }), (quotes) => {
        const by = marketCentreBy('nba', 'total', quotes, MIDDLE_CENTRE_DEFAULT);
        expect(by?.centre).toBe(marketCentre('nba', 'total', quotes));
        if (by)
          expect(by.source).toEqual({ method: 'multiplicative', reference: 'consensus', fallback: null });
      }),
    );
  });

  it("de-vigs each book's line by the method, and takes the median of the reference's estimates", () => {
    // Over −130 / under +110: the methods disagree on the over's chance.
    const [high, low] = [1 + 100 / 130, 2.1];
    expect(highSideChance(high, low, 'multiplicative')).toBeCloseTo(1 / high / (1 / high + 1 / low), 15);
    expect(highSideChance(high, low, 'additive')).toBeCloseTo((1 + 1 / high - 1 / low) / 2, 12);
    expect(highSideChance(high, low, 'shin')).toBeCloseTo((1 + 1 / high - 1 / low) / 2, 12);
    const power = highSideChance(high, low, 'power')!;
    const k = Math.log(power) / Math.log(1 / high);
    expect((1 / high) ** k + (1 / low) ** k).toBeCloseTo(1, 9);
    const quotes = ['fanduel', 'draftkings', 'caesars'].map((book) => ({ book, line: 220.5, high, low }));
    quotes.push({ book: 'circa', line: 217.5, high: 1.9091, low: 1.9091 });
    const additive = highSideChance(high, low, 'additive')!;
    expect(
      marketCentreBy('nba', 'total', quotes, { method: 'additive', reference: 'consensus' })!.centre,
    ).toBeCloseTo(distributionCentre('nba', 'total', 220.5, additive, 0), 9);
    // circa is a sharp book: its estimate alone.
    expect(marketCentreBy('nba', 'total', quotes, { method: 'power', reference: 'sharp' })).toEqual({
      centre: distributionCentre('nba', 'total', 217.5, highSideChance(1.9091, 1.9091, 'power')!, 0),
      source: { method: 'power', reference: 'sharp', fallback: null },
    });
    expect(marketCentreBy('nba', 'total', quotes, { method: 'power', reference: 'betmgm' })!.source).toEqual({
      method: 'power',
      reference: 'consensus',
      fallback: 'book_missing_outcomes',
    });
    // Fewer than three books with both sides: no centre, whatever the reference.
    expect(
      marketCentreBy('nba', 'total', quotes.slice(2), { method: 'power', reference: 'circa' }),
    ).toBeUndefined();
  });
});

describe('the published figures', () => {
  it('recompute the published EV: Σ published probability × published return, within rounding', () => {
    const leagues: LeagueKey[] = ['nfl', 'nba', 'mlb', 'nhl', 'epl'];
    fc.assert(
      fc.property(
        fc.constantFrom(...leagues),
        fc.constantFrom('margin' as const, 'total' as const),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 1.4, max: 3, noNaN: true }),
        fc.double({ min: 1.4, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        (league, variable, halfLine, width, dh, dl, offset) => {
          const typical = SGP_GAME_PRIORS[league].meanTotal;
          const base = variable === 'total' ? Math.round(typical) : 0;
          const high = base + halfLine / 2;
          const low = high + width / 2 + 0.5;
          fc.pre(isMiddle(high, low) && (variable === 'margin' || high > 0));
          const centre = { margin: variable === 'margin' ? high + offset : 0, total: typical + offset };
          if (variable === 'total') centre.total = high + offset + 1;
          const chances = middleChances(high, low, scoreDistribution(league, variable, centre));
          const ev = publishedPct(middleEv(dh, dl, chances));
          const p = publishedChances(chances);
          const r = middleReturns(dh, dl);
          const recomputed =
            p.middle * publishedPct(r.hit) +
            p.pushHigh * publishedPct(r.pushHigh) +
            p.pushLow * publishedPct(r.pushLow) +
            p.miss * publishedPct(r.miss);
          expect(p.middle + p.pushHigh + p.pushLow + p.miss).toBeCloseTo(1, 6);
          expect(ev).toBeLessThanOrEqual(middleEv(dh, dl, chances) * 100);
          expect(Math.abs(recomputed - ev)).toBeLessThanOrEqual(0.003);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('normalMiddleChances: the discretised normal in closed form', () => {
  it('gives the chances of middleChances over discretisedNormal, for gaps, pushes, a lost 0 and a floor', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -30, max: 260, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.integer({ min: -60, max: 520 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.boolean(),
        (mean, sigma, halfHigh, halfWidth, noZero, floored) => {
          const high = halfHigh / 2;
          const low = high + halfWidth / 2 + 0.5;
          fc.pre(isMiddle(high, low) && (!floored || mean > 0));
          const options = floored ? { floor: 0 } : { noZero };
          const expected = middleChances(high, low, discretisedNormal(mean, sigma, options));
          const got = normalMiddleChances(high, low, mean, sigma, options);
          for (const key of ['middle', 'pushHigh', 'pushLow', 'miss'] as const)
            expect(Math.abs(got[key] - expected[key]), key).toBeLessThanOrEqual(1e-12);
        },
      ),
      { numRuns: 500 },
    );
  });
});
