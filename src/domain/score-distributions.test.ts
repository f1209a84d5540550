import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { LeagueKey } from './markets.ts';
import {
  CENTRE_STEP,
  cdfAt,
  discretisedNormalWeights,
  distributionsCached,
  DISTRIBUTIONS_CACHED,
  fairHighProbability,
  FIRST_PART_SHARES,
  firstPartCoupling,
  firstPartResults,
  firstPartShare,
  firstPartSplitFit,
  gameDistributions,
  gameDistributionsUncached,
  gameMarginDistribution,
  HALF_SHARES,
  halfDistributions,
  leagueMarginShare,
  lineChances,
  lineOutcome,
  marginsCached,
  MARGINS_CACHED,
  meanOf,
  MLB_MODEL,
  NFL_MARGIN_SHARES,
  NFL_MARGIN_WEIGHTS,
  nflMargin,
  NHL_MODEL,
  nflHalfResults,
  nflHalfSplitFit,
  nflHalfSplitsFitted,
  normalise,
  periodDistributions,
  probabilityOf,
  quantileOf,
  splitFinalScore,
  splitHalf,
  type IntegerDistribution,
} from './score-distributions.ts';
import { bivariateNormalCdf, normalQuantile } from './mvn.ts';
import { seededRandom } from './random.ts';
import { SGP_GAME_PRIORS, SGP_MARGIN_TOTAL_BANDS } from './sgp.ts';

// Decision 264: each league's margin and total, fitted to published frequencies and centred on the market.

const LEAGUE_CENTRES: Record<LeagueKey, { margin: [number, number]; total: [number, number] }> = {
  nfl: { margin: [-14, 14], total: [35, 55] },
  nba: { margin: [-14, 14], total: [205, 245] },
  ncaab: { margin: [-20, 20], total: [125, 165] },
  nhl: { margin: [-1.5, 1.5], total: [5, 7] },
  mlb: { margin: [-2, 2], total: [6.5, 11] },
  epl: { margin: [-1.8, 1.8], total: [2, 3.6] },
  mls: { margin: [-1.8, 1.8], total: [2, 3.8] },
};

const both = (d: IntegerDistribution, k: number) =>
  probabilityOf(d, k) + (k === 0 ? 0 : probabilityOf(d, -k));

/** The league-wide share of some event over games whose expected margins are normal about 0 (σ `spread`). */
function leagueAverage(
  league: LeagueKey,
  spread: number,
  total: number,
  f: (g: ReturnType<typeof gameDistributions>) => number,
): number {
  let weights = 0;
  let sum = 0;
  for (let m = -3 * spread; m <= 3 * spread + 1e-9; m += spread / 10) {
    const w = Math.exp(-((m / spread) ** 2) / 2);
    weights += w;
    sum += w * f(gameDistributions(league, { margin: m, total }));
  }
  return sum / weights;
}

describe('every league: proper distributions centred on the market (property tests)', () => {
  for (const league of Object.keys(LEAGUE_CENTRES) as LeagueKey[]) {
    it(`${league}: sums to 1, non-negative, monotone cumulative, means are the market's`, () => {
      const { margin, total } = LEAGUE_CENTRES[league];
      fc.assert(
        fc.property(
          fc.double({ min: margin[0], max: margin[1], noNaN: true }),
          fc.double({ min: total[0], max: total[1], noNaN: true }),
          (m, t) => {
            const game = gameDistributions(league, { margin: m, total: t });
            for (const d of [game.margin, game.total, game.totalGiven(Math.round(m))]) {
              const sum = d.probabilities.reduce((a, b) => a + b, 0);
              expect(sum).toBeCloseTo(1, 10);
              expect(d.probabilities.every((p) => p >= 0)).toBe(true);
              let last = 0;
              for (let x = d.min; x < d.min + d.probabilities.length; x += 1) {
                const c = cdfAt(d, x);
                expect(c).toBeGreaterThanOrEqual(last - 1e-12);
                last = c;
              }
            }
            // The centre read to CENTRE_STEP (0.05) is what the distribution is centred on.
            expect(Math.abs(meanOf(game.margin) - m)).toBeLessThan(CENTRE_STEP / 2 + 0.005);
            expect(Math.abs(meanOf(game.total) - t)).toBeLessThan(CENTRE_STEP / 2 + 0.04);
            expect(game.total.min).toBeGreaterThanOrEqual(0);
          },
        ),
        { numRuns: 25 },
      );
    });

    // MLB is not: a home walk-off ends the game one run up.
    if (league !== 'mlb')
      it(`${league}: an even game's margin is symmetric`, () => {
        const { margin } = gameDistributions(league, {
          margin: 0,
          total: LEAGUE_CENTRES[league].total[0] + 1,
        });
        for (let k = 1; k <= 20; k += 1)
          expect(probabilityOf(margin, k)).toBeCloseTo(probabilityOf(margin, -k), 8);
      });
  }

  it('the total given a margin has its parity and is at least its size; the mixture is the total', () => {
    for (const league of ['nfl', 'nba', 'nhl', 'mlb', 'epl'] as const) {
      const centre = { margin: 2, total: LEAGUE_CENTRES[league].total[0] + 1 };
      const game = gameDistributions(league, centre);
      const mixture = new Map<number, number>();
      game.margin.probabilities.forEach((pm, i) => {
        const m = game.margin.min + i;
        if (pm < 1e-12) return;
        const given = game.totalGiven(m);
        given.probabilities.forEach((pt, j) => {
          const t = given.min + j;
          if (pt > 0) {
            expect(Math.abs(t - m) % 2, `${league} m ${m} t ${t}`).toBe(0);
            expect(t).toBeGreaterThanOrEqual(Math.abs(m));
          }
          mixture.set(t, (mixture.get(t) ?? 0) + pm * pt);
        });
      });
      for (const [t, p] of mixture) expect(Math.abs(p - probabilityOf(game.total, t))).toBeLessThan(1e-9);
    }
  });

  it('quantileOf inverts the cumulative: P(quantile(u) ≤ x) = P(X ≤ x)', () => {
    const d = normalise(-2, [0.1, 0.2, 0.3, 0.4]);
    expect(quantileOf(d, 0.05)).toBe(-2);
    expect(quantileOf(d, 0.1)).toBe(-2);
    expect(quantileOf(d, 0.1000001)).toBe(-1);
    expect(quantileOf(d, 0.99)).toBe(1);
  });
});

describe('NFL: key numbers from the published table, a smooth total', () => {
  it('the weights in the code give the fit games the table’s shares of 0, 3, 4, 6, 7, 10 and 14', () => {
    for (const { margin, share } of NFL_MARGIN_SHARES) {
      const model = leagueMarginShare(margin, (m) => nflMargin(m));
      expect(Math.abs(model - share), `margin ${margin}`).toBeLessThanOrEqual(0.0005);
    }
  });

  it('the weights are the fit (one more fixed-point step moves none by more than 0.1 %)', () => {
    for (const { margin, share } of NFL_MARGIN_SHARES) {
      const step = share / leagueMarginShare(margin, (m) => nflMargin(m, NFL_MARGIN_WEIGHTS));
      expect(Math.abs(step - 1), `margin ${margin}`).toBeLessThan(0.001);
    }
  });

  it('key numbers 3 and 7 stand out in a spread: 3 and 7 far above their neighbours', () => {
    for (const spread of [0, -3, 6.5]) {
      const { margin } = gameDistributions('nfl', { margin: spread, total: 44 });
      expect(both(margin, 3)).toBeGreaterThan(2 * both(margin, 2));
      expect(both(margin, 3)).toBeGreaterThan(2 * both(margin, 5));
      expect(both(margin, 7)).toBeGreaterThan(1.8 * both(margin, 8));
      expect(both(margin, 7)).toBeGreaterThan(1.8 * both(margin, 5));
      expect(both(margin, 0)).toBeLessThan(0.005);
    }
  });

  it('the issue’s check: P(total = 42) and P(total = 44) within 20 % of a smooth published-deviation model', () => {
    // The smooth reference: the total normal about the closing total with the published 13.4 points (nflverse).
    for (const [spread, closing] of [
      [-3, 44],
      [0, 43.5],
      [6.5, 47],
      [-1, 41],
    ] as const) {
      const { total } = gameDistributions('nfl', { margin: spread, total: closing });
      const smooth = discretisedNormalWeights(closing, SGP_GAME_PRIORS.nfl.sigmaTotal, 0);
      const reference = (t: number) => smooth.weights[t - smooth.min]!;
      for (const t of [42, 44, 43, 50]) {
        const off = probabilityOf(total, t) / reference(t) - 1;
        expect(Math.abs(off), `total ${t} about ${closing}: ${off}`).toBeLessThan(0.2);
      }
    }
  });

  it('whole lines push: P(margin = 3) is the push of −3, and half lines never push', () => {
    const { margin } = gameDistributions('nfl', { margin: 3, total: 44 });
    const minus3 = lineChances(margin, 'high', 3);
    expect(minus3.push).toBeCloseTo(probabilityOf(margin, 3), 12);
    expect(minus3.win + minus3.push + minus3.lose).toBeCloseTo(1, 12);
    expect(lineChances(margin, 'high', 3.5).push).toBe(0);
  });
});

describe('the other leagues against their published frequencies', () => {
  it('NHL: about 22.5 % of even games go to overtime (one-goal finals with the overtime goal)', () => {
    // The overtime share is built in: the regulation ties are all settled by one goal.
    const oneGoal = leagueAverage('nhl', 0.01, 6, (g) => both(g.margin, 1));
    expect(oneGoal).toBeGreaterThan(NHL_MODEL.overtimeShare);
    expect(probabilityOf(gameDistributions('nhl', { margin: 0, total: 6 }).margin, 0)).toBe(0);
    // One-goal games about 40 % and two-goal games common (empty-net goals): 20–30 %.
    const league = (k: number) => leagueAverage('nhl', 0.6, 6.1, (g) => both(g.margin, k));
    expect(league(1)).toBeGreaterThan(0.37);
    expect(league(1)).toBeLessThan(0.46);
    expect(league(2)).toBeGreaterThan(0.2);
    expect(league(2)).toBeLessThan(0.3);
  });

  it('MLB: one-run games are 27–31 % of games, never a tie', () => {
    const oneRun = leagueAverage('mlb', 0.7, 8.8, (g) => both(g.margin, 1));
    expect(oneRun).toBeGreaterThan(0.27);
    expect(oneRun).toBeLessThan(0.31);
    expect(probabilityOf(gameDistributions('mlb', { margin: 0.3, total: 8.5 }).margin, 0)).toBe(0);
    expect(MLB_MODEL.extraMargins.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('soccer: draws about a quarter of Premier League games, more 0–0 than independent Poisson gives', () => {
    const draws = leagueAverage('epl', 0.7, 2.8, (g) => probabilityOf(g.margin, 0));
    expect(draws).toBeGreaterThan(0.23);
    expect(draws).toBeLessThan(0.29);
    const game = gameDistributions('epl', { margin: 0, total: 2.6 });
    // Independent Poisson at 1.3 a side: P(0–0) = e^−2.6 ≈ 0.074; Dixon–Coles (ρ < 0) puts more there.
    expect(probabilityOf(game.total, 0)).toBeGreaterThan(Math.exp(-2.6));
  });

  it('basketball: near-continuous, no ties, the overtime margins add a little to 1–5', () => {
    const { margin } = gameDistributions('nba', { margin: 0, total: 226 });
    expect(probabilityOf(margin, 0)).toBe(0);
    for (let k = 1; k < 20; k += 1) expect(both(margin, k)).toBeLessThan(0.08);
    expect(both(margin, 1)).toBeGreaterThan(both(margin, 12));
  });
});

describe('lines: whole, half and quarter', () => {
  it('a quarter line is two halves: over 2.25 on 2 goals is half lost, on 3 won', () => {
    expect(lineOutcome('high', 2.25, 2)).toBe(-0.5);
    expect(lineOutcome('high', 2.25, 3)).toBe(1);
    expect(lineOutcome('high', 2.75, 3)).toBe(0.5);
    expect(lineOutcome('low', 2.75, 3)).toBe(-0.5);
    expect(lineOutcome('high', 2, 2)).toBe(0);
    expect(() => lineOutcome('high', 2.1, 2)).toThrow(RangeError);
  });

  it('the fair two-way probability: a half line is P(X > line), a whole one leaves the push out', () => {
    const d = normalise(0, [0.1, 0.2, 0.3, 0.25, 0.15]);
    expect(fairHighProbability(d, 2.5)).toBeCloseTo(0.4, 12);
    expect(fairHighProbability(d, 2)).toBeCloseTo(0.4 / 0.7, 12);
    // Over 2.25: wins on 3+ (0.4), loses half on 2 (0.3) and all below (0.3): break-even implied 0.4 / 0.85.
    const over = 0.4 / (0.4 + 0.15 + 0.3);
    // Under 2.25: wins on 0–1 (0.3) and half on 2 (0.15 won, 0.15 pushed), loses on 3+ (0.4).
    const under = 0.45 / (0.45 + 0.4);
    expect(fairHighProbability(d, 2.25)).toBeCloseTo(over / (over + under), 12);
    // A quarter line's fair probability lies between its two halves'.
    expect(fairHighProbability(d, 2.75)).toBeLessThan(fairHighProbability(d, 2.5));
    expect(fairHighProbability(d, 2.75)).toBeGreaterThan(fairHighProbability(d, 3.5));
  });
});

describe('the cache of built games stays bounded (issue 59)', () => {
  it('holds at most DISTRIBUTIONS_CACHED games and drops the least recently used first', () => {
    const kept = gameDistributions('nba', { margin: 40, total: 230 });
    const dropped = gameDistributions('nba', { margin: 41, total: 230 });
    // Twice the bound of new centres (40 margins × 100 totals, a twentieth of a goal apart), asking for `kept` again
    // now and then.
    for (let i = 0; i < 2 * DISTRIBUTIONS_CACHED; i += 1) {
      gameDistributions('nhl', {
        margin: (i % 40) * CENTRE_STEP,
        total: 3 + Math.floor(i / 40) * CENTRE_STEP,
      });
      if (i % 500 === 0) expect(gameDistributions('nba', { margin: 40, total: 230 })).toBe(kept);
      expect(distributionsCached()).toBeLessThanOrEqual(DISTRIBUTIONS_CACHED);
    }
    expect(distributionsCached()).toBe(DISTRIBUTIONS_CACHED);
    expect(gameDistributions('nba', { margin: 40, total: 230 })).toBe(kept);
    // Not asked for since: dropped, built again (the same numbers, a new object).
    const rebuilt = gameDistributions('nba', { margin: 41, total: 230 });
    expect(rebuilt).not.toBe(dropped);
    expect(rebuilt.total).toEqual(dropped.total);
  });

  it('a cached game keeps nothing per margin asked: the total given a margin is made again each time', () => {
    for (const league of ['nfl', 'nba', 'nhl', 'mlb', 'epl'] as const) {
      const game = gameDistributions(league, { margin: 1, total: league === 'nba' ? 220 : 6 });
      const first = game.totalGiven(1);
      const again = game.totalGiven(1);
      expect(again).toEqual(first);
      expect(again).not.toBe(first);
    }
  });
});

// Decision 284: a goal or run league's first part is its full game thinned: each of the game's part goals lands in
// the part with the published share, so the part's prices and the results drawn by splitting the final score agree.
describe('first parts: the full game thinned', () => {
  const parts: [LeagueKey, number, number][] = [
    ['epl', 0.4, 2.7],
    ['mls', -0.6, 3.1],
    ['nhl', 0.35, 6.1],
    ['mlb', -0.4, 8.7],
  ];

  it.each(parts)(
    '%s: proper distributions, the part holding its share of the part goals',
    (league, margin, total) => {
      const share = firstPartShare(league)!;
      const part = periodDistributions(league, { margin, total }, share);
      for (const d of [part.margin, part.total]) {
        expect(d.probabilities.reduce((a, p) => a + p, 0)).toBeCloseTo(1, 12);
        expect(d.probabilities.every((p) => p >= 0)).toBe(true);
      }
      // Soccer counts every goal; hockey leaves out overtime and empty-net goals, baseball extra innings.
      const fullTotal = meanOf(gameDistributions(league, { margin, total }).total);
      const partTotal = meanOf(part.total);
      if (league === 'epl' || league === 'mls') expect(partTotal).toBeCloseTo(share * fullTotal, 6);
      else {
        expect(partTotal).toBeLessThan(share * fullTotal);
        expect(partTotal).toBeGreaterThan(share * (fullTotal - 0.45));
      }
      // The favourite leads the part more often than it trails, by less than in the game.
      expect(Math.sign(meanOf(part.margin))).toBe(Math.sign(margin));
      expect(Math.abs(meanOf(part.margin))).toBeLessThan(Math.abs(margin));
    },
  );

  it('the published shares: a soccer first half 44 %, an NHL first period 30 %, five innings 58 %', () => {
    expect(FIRST_PART_SHARES).toEqual({ soccer: 0.44, nhl: 0.3, mlb: 0.58 });
    expect(firstPartShare('epl')).toBe(0.44);
    expect(firstPartShare('nhl')).toBe(0.3);
    expect(firstPartShare('mlb')).toBe(0.58);
    expect(firstPartShare('nfl')).toBeUndefined();
    expect(firstPartShare('nba')).toBeUndefined();
  });

  it('soccer: a goalless first half in about 29 % of Premier League games (2008–2011: just over 29 %)', () => {
    const half = periodDistributions('epl', { margin: 0.35, total: 2.7 }, FIRST_PART_SHARES.soccer);
    const goalless = probabilityOf(half.total, 0);
    expect(goalless).toBeGreaterThan(0.27);
    expect(goalless).toBeLessThan(0.33);
  });

  it.each(parts)(
    '%s: the final score split by splitFinalScore gives the part its distributions (10,000 draws)',
    (league, margin, total) => {
      const share = firstPartShare(league)!;
      const centre = { margin, total };
      const game = gameDistributions(league, centre);
      const part = periodDistributions(league, centre, share);
      const random = seededRandom(57);
      const draws = 10_000;
      const totals = new Map<number, number>();
      const margins = new Map<number, number>();
      for (let k = 0; k < draws; k += 1) {
        const m = quantileOf(game.margin, random());
        const t = quantileOf(game.totalGiven(m), random());
        const final = { home: (t + m) / 2, away: (t - m) / 2 };
        const split = splitFinalScore(league, centre, share, final, random);
        // The parts add up to the final score, none negative; an extra goal only where the model has one.
        expect(split.part.home + split.rest.home + split.extra.home).toBe(final.home);
        expect(split.part.away + split.rest.away + split.extra.away).toBe(final.away);
        for (const x of [split.part, split.rest, split.extra]) {
          expect(x.home).toBeGreaterThanOrEqual(0);
          expect(x.away).toBeGreaterThanOrEqual(0);
        }
        if (split.extra.when === 'none') expect(split.extra.home + split.extra.away).toBe(0);
        const pt = split.part.home + split.part.away;
        const pm = split.part.home - split.part.away;
        totals.set(pt, (totals.get(pt) ?? 0) + 1);
        margins.set(pm, (margins.get(pm) ?? 0) + 1);
      }
      for (const [counts, d] of [
        [totals, part.total],
        [margins, part.margin],
      ] as const)
        for (let x = d.min; x < d.min + d.probabilities.length; x += 1) {
          const p = probabilityOf(d, x);
          const se = Math.sqrt((p * (1 - p)) / draws);
          expect(Math.abs((counts.get(x) ?? 0) / draws - p), `${x}`).toBeLessThan(4 * se + 0.002);
        }
    },
  );

  it('refuses a league without a part model, a share outside (0, 1) and a score the model cannot give', () => {
    expect(() => periodDistributions('nfl', { margin: 0, total: 44 }, 0.5)).toThrow(RangeError);
    expect(() => periodDistributions('epl', { margin: 0, total: 2.7 }, 1)).toThrow(RangeError);
    expect(() =>
      splitFinalScore('nhl', { margin: 0, total: 6 }, 0.3, { home: 40, away: 0 }, Math.random),
    ).toThrow(RangeError);
  });
});

// Decision 291: the joint (margin, total) carries the published margin–total figures of decision 165, the same ones
// the SGP's ρ is calibrated to, with each marginal kept. Computed here cell by cell from margin × total given margin.
describe('the margin–total coupling of the joint (decision 291)', () => {
  /** The joint's cells: P(M = m) · P(T = t | m). */
  const cellsOf = (league: LeagueKey, margin: number, total: number) => {
    const game = gameDistributions(league, { margin, total });
    const cells: { m: number; t: number; p: number }[] = [];
    game.margin.probabilities.forEach((pm, i) => {
      if (pm < 1e-12) return;
      const m = game.margin.min + i;
      const given = game.totalGiven(m);
      given.probabilities.forEach((pt, j) => {
        if (pt > 0) cells.push({ m, t: given.min + j, p: pm * pt });
      });
    });
    return { game, cells };
  };
  const sumWhere = (cells: { m: number; t: number; p: number }[], keep: (m: number, t: number) => boolean) =>
    cells.reduce((sum, c) => sum + (keep(c.m, c.t) ? c.p : 0), 0);
  /** The Gaussian copula's P(X > a, Y > b) at these chances: Φ₂(Φ⁻¹(p₁), Φ⁻¹(p₂); ρ). */
  const copula = (p1: number, p2: number, rho: number) =>
    bivariateNormalCdf(normalQuantile(p1), normalQuantile(p2), rho);
  const band = (league: 'nfl' | 'nba' | 'mlb', spread: number) =>
    SGP_MARGIN_TOTAL_BANDS[league]!.find((b) => b.spread === spread)!.rho;
  /** The bands' ρ as the SGP reads them: at σM · Φ⁻¹(p) of the home win chance, linear from 0, held at the last. */
  const bandRho = (league: 'nfl' | 'nba' | 'mlb', margin: IntegerDistribution) => {
    const win = margin.probabilities.reduce((s, p, i) => s + (margin.min + i > 0 ? p : 0), 0);
    const loss = margin.probabilities.reduce((s, p, i) => s + (margin.min + i < 0 ? p : 0), 0);
    const spread = SGP_GAME_PRIORS[league].sigmaMargin * normalQuantile(win / (win + loss));
    const points = [{ spread: 0, rho: 0 }, ...SGP_MARGIN_TOTAL_BANDS[league]!];
    const x = Math.abs(spread);
    const i = points.findIndex((p) => p.spread >= x);
    if (i < 0) return Math.sign(spread) * points.at(-1)!.rho;
    const [a, b] = [points[i - 1]!, points[i]!];
    return Math.sign(spread) * (a.rho + ((x - a.spread) / (b.spread - a.spread)) * (b.rho - a.rho));
  };

  // Each published band at its spread: the favourite covering (the half line nearest the expected margin) and the
  // over (the half line nearest the expected total) together as often as the SGP's copula at the band's ρ says.
  it.each([
    ['nba', 13, 228, -0.426],
    ['nba', 6, 226, -0.069],
    ['nfl', 3, 44, 0.035],
    ['nfl', 7, 44, 0.066],
    ['nfl', 10, 47, 0.022],
  ] as const)(
    '%s: favourite covers and over at a %s-point spread as the band says',
    (league, margin, total, rho) => {
      expect(band(league, margin)).toBe(rho);
      const { game, cells } = cellsOf(league, margin, total);
      const a = Math.floor(meanOf(game.margin)) + 0.5;
      const b = Math.floor(meanOf(game.total)) + 0.5;
      const covers = sumWhere(cells, (m) => m > a);
      const over = sumWhere(cells, (_m, t) => t > b);
      const both = sumWhere(cells, (m, t) => m > a && t > b);
      // At the band's own spread the SGP's ρ is the band's (within the gap between the centre and σM · Φ⁻¹(p)).
      const rhoHere = bandRho(league, game.margin);
      expect(Math.abs(rhoHere - rho)).toBeLessThan(0.03);
      expect(Math.abs(both - copula(covers, over, rhoHere)), `${league} ${margin}`).toBeLessThan(2e-4);
    },
  );

  it('nba: "favourite covers and over in 18.0 % of games with spreads ≥ 12": about 18 % at fair lines, not a quarter', () => {
    const { cells } = cellsOf('nba', 13, 228);
    // At fair lines (a cover and an over of one half each) the band's ρ gives the published figure:
    // Φ₂(0, 0; ρ) = 1/4 + asin(ρ)/2π; the joint's cells have that ρ as their correlation.
    expect(copula(0.5, 0.5, band('nba', 13))).toBeCloseTo(0.18, 3);
    const mean = (f: (m: number, t: number) => number) => cells.reduce((s, c) => s + c.p * f(c.m, c.t), 0);
    const [mm, tt] = [mean((m) => m), mean((_m, t) => t)];
    const corr =
      (mean((m, t) => m * t) - mm * tt) /
      Math.sqrt((mean((m) => m * m) - mm ** 2) * (mean((_m, t) => t * t) - tt ** 2));
    expect(corr).toBeGreaterThan(-0.45);
    expect(corr).toBeLessThan(-0.4);
    // An away favourite is the mirror: its margin goes with the under as the home favourite's does.
    const { cells: away } = cellsOf('nba', -13, 228);
    const awayCorr = (() => {
      const e = (f: (m: number, t: number) => number) => away.reduce((s, c) => s + c.p * f(c.m, c.t), 0);
      const [m1, t1] = [e((m) => m), e((_m, t) => t)];
      return (
        (e((m, t) => m * t) - m1 * t1) /
        Math.sqrt((e((m) => m * m) - m1 ** 2) * (e((_m, t) => t * t) - t1 ** 2))
      );
    })();
    expect(awayCorr).toBeCloseTo(-corr, 2);
  });

  it('mlb: the over 1.9 pp likelier when a −150 favourite wins than when it loses (not 4.8 pp)', () => {
    // A −150 favourite: expected to win by 4.2 × Φ⁻¹(0.6) = 1.06 runs (the band's spread); a total of 8.5.
    const { game, cells } = cellsOf('mlb', 1.06, 8.6);
    const wins = sumWhere(cells, (m) => m > 0);
    const over = sumWhere(cells, (_m, t) => t > 8.5);
    const both = sumWhere(cells, (m, t) => m > 0 && t > 8.5);
    const gap = both / wins - (over - both) / (1 - wins);
    const copulaBoth = copula(wins, over, bandRho('mlb', game.margin));
    expect(Math.abs(both - copulaBoth)).toBeLessThan(2e-4);
    expect(Math.abs(wins - 0.6)).toBeLessThan(0.03);
    expect(Math.abs(over - 0.5)).toBeLessThan(0.05);
    expect(gap).toBeGreaterThan(0.014);
    expect(gap).toBeLessThan(0.024);
  });

  it('keeps both marginals: the margin is the market’s fit, the mixture of the totals given it is the total', () => {
    for (const [league, margin, total] of [
      ['nba', 13, 228],
      ['ncaab', -9, 141],
      ['nfl', 7, 44],
      ['mlb', -1.2, 8.5],
    ] as const) {
      const { game, cells } = cellsOf(league, margin, total);
      expect(meanOf(game.margin)).toBeCloseTo(margin, 3);
      expect(meanOf(game.total)).toBeCloseTo(total, 1);
      const mixture = new Map<number, number>();
      for (const c of cells) {
        // Parity and size: a total has its margin's parity and is at least its size.
        expect(Math.abs(c.t - c.m) % 2).toBe(0);
        expect(c.t).toBeGreaterThanOrEqual(Math.abs(c.m));
        mixture.set(c.t, (mixture.get(c.t) ?? 0) + c.p);
      }
      game.total.probabilities.forEach((p, j) =>
        expect(Math.abs((mixture.get(game.total.min + j) ?? 0) - p), `${league} t ${j}`).toBeLessThan(1e-9),
      );
    }
  });
});

// Decision 295: a coupled league's first part (MLB's first five innings). The finals are drawn coupled (decision 291);
// the part keeps its fitted marginals (its prices), its joint carries the coupling the split brings to it, and the
// split of the coupled finals gives the part exactly those: computed here cell by cell over the finals as the
// simulator draws them (the margin, then the coupled total given it).
describe('a coupled first part: MLB’s first five innings (decision 295)', () => {
  const share = FIRST_PART_SHARES.mlb;
  const centres: [number, number][] = [
    [1.06, 8.6],
    [-0.4, 8.7],
    [2, 7],
    [-1.5, 9.5],
    [0.3, 11],
  ];
  const largestGap = (a: IntegerDistribution, b: IntegerDistribution) => {
    let gap = 0;
    const lo = Math.min(a.min, b.min);
    const hi = Math.max(a.min + a.probabilities.length, b.min + b.probabilities.length);
    for (let x = lo; x < hi; x += 1) gap = Math.max(gap, Math.abs(probabilityOf(a, x) - probabilityOf(b, x)));
    return gap;
  };
  const winOver = (d: { margin: IntegerDistribution; total: IntegerDistribution }, line: number) => ({
    win: 1 - cdfAt(d.margin, 0),
    over: 1 - cdfAt(d.total, line),
  });

  // The part's prices are decision 284's: the part goals thinned. Pinned from before this decision (main at
  // decision 291), to 1e-9: the home side winning the five innings, a tie, and the over at the half line below
  // 0.58 × the total.
  it.each([
    [1.06, 8.6, 0.497902065975939, 0.16234631792929, 0.501538268944778],
    [-0.4, 8.7, 0.387334340411403, 0.162752327115244, 0.373368341045773],
    [2, 7, 0.580103261432323, 0.180085314593835, 0.360786628864846],
  ] as const)(
    'keeps the part’s marginals at %s, %s (its prices do not move)',
    (margin, total, win, tie, over) => {
      const part = periodDistributions('mlb', { margin, total }, share);
      const line = Math.floor(total * share) + 0.5;
      expect(Math.abs(1 - cdfAt(part.margin, 0) - win)).toBeLessThan(1e-9);
      expect(Math.abs(probabilityOf(part.margin, 0) - tie)).toBeLessThan(1e-9);
      expect(Math.abs(1 - cdfAt(part.total, line) - over)).toBeLessThan(1e-9);
    },
  );

  it.each(centres)(
    'at %s, %s: the coupled finals split give the part its distributions to 1e-9 (decision 291’s split did not)',
    (margin, total) => {
      const centre = { margin, total };
      const part = periodDistributions('mlb', centre, share);
      const fitted = firstPartResults('mlb', centre, share, 'fitted');
      expect(largestGap(fitted.margin, part.margin)).toBeLessThan(1e-9);
      expect(largestGap(fitted.total, part.total)).toBeLessThan(1e-9);
      const fit = firstPartSplitFit('mlb', centre, share);
      expect(fit.error).toBeLessThan(1e-11);
      // Decision 291's split (each part goal thinned from the coupled finals) drifted from the prices.
      const thinned = firstPartResults('mlb', centre, share, 'thinned');
      if (Math.abs(margin) >= 1) expect(largestGap(thinned.margin, part.margin)).toBeGreaterThan(2e-4);
    },
  );

  it('decision 291’s drift was real: a 2-run favourite’s five innings won 0.47 pp more often than priced', () => {
    const centre = { margin: 2, total: 7 };
    const line = 4.5;
    const priced = winOver(periodDistributions('mlb', centre, share), line);
    const before = winOver(firstPartResults('mlb', centre, share, 'thinned'), line);
    const after = winOver(firstPartResults('mlb', centre, share, 'fitted'), line);
    expect(before.win - priced.win).toBeGreaterThan(0.004);
    expect(Math.abs(after.win - priced.win)).toBeLessThan(1e-9);
    expect(Math.abs(after.over - priced.over)).toBeLessThan(1e-9);
  });

  it.each(centres)(
    'at %s, %s: the part’s joint carries the coupling the split brings to it, its marginals kept',
    (margin, total) => {
      const centre = { margin, total };
      const part = periodDistributions('mlb', centre, share);
      const coupling = firstPartCoupling('mlb', centre, share);
      const cells: { m: number; t: number; p: number }[] = [];
      part.margin.probabilities.forEach((pm, i) => {
        if (!(pm > 0)) return;
        const m = part.margin.min + i;
        const given = part.totalGiven(m);
        given.probabilities.forEach((pt, j) => {
          if (pt > 0) cells.push({ m, t: given.min + j, p: pm * pt });
        });
      });
      // The mixture of the totals given the margin is the part's total (its marginals are kept).
      const mixture = new Map<number, number>();
      for (const c of cells) {
        expect(Math.abs(c.t - c.m) % 2).toBe(0);
        expect(c.t).toBeGreaterThanOrEqual(Math.abs(c.m));
        mixture.set(c.t, (mixture.get(c.t) ?? 0) + c.p);
      }
      part.total.probabilities.forEach((p, j) =>
        expect(Math.abs((mixture.get(part.total.min + j) ?? 0) - p), `t ${j}`).toBeLessThan(1e-9),
      );
      // The figure (home wins the part and the over) is the copula's at the part's own chances and the split's ρ.
      const a = coupling.marginLine;
      const b = coupling.totalLine;
      const win = cells.reduce((s, c) => s + (c.m > a ? c.p : 0), 0);
      const over = cells.reduce((s, c) => s + (c.t > b ? c.p : 0), 0);
      const both = cells.reduce((s, c) => s + (c.m > a && c.t > b ? c.p : 0), 0);
      expect(
        Math.abs(both - bivariateNormalCdf(normalQuantile(win), normalQuantile(over), coupling.rho)),
      ).toBeLessThan(2e-4);
      // And near what decision 291's split of the coupled finals gave the part: its marginals were up to 0.5 pp off
      // the prices, so its figure is off by about as much (the copula's ρ above carries the coupling, not the figure).
      expect(Math.abs(both - coupling.figure)).toBeLessThan(5e-3);
    },
  );

  it('the goal leagues’ finals are their own grids’ (no coupling): their parts were and are the prices’', () => {
    for (const [league, margin, total] of [
      ['nhl', 0.35, 6.1],
      ['epl', 0.4, 2.7],
    ] as const) {
      const s = firstPartShare(league)!;
      const part = periodDistributions(league, { margin, total }, s);
      const results = firstPartResults(league, { margin, total }, s, 'thinned');
      expect(largestGap(results.margin, part.margin)).toBeLessThan(1e-12);
      expect(largestGap(results.total, part.total)).toBeLessThan(1e-12);
      expect(() => firstPartCoupling(league, { margin, total }, s)).toThrow(RangeError);
    }
  });
});

// Issue 57 (decision 304): the NFL's finals are drawn coupled (decision 291) while its first half is priced as the
// mixture of its split over the uncoupled finals. The half keeps its prices; the simulator's split of a coupled final
// is the model's times a factor per half margin and per half total, fitted once per game, so that over the coupled
// finals the half's results are its priced distributions.
describe('a coupled first part: the NFL’s first half (decision 304)', () => {
  const largestGap = (a: IntegerDistribution, b: IntegerDistribution) => {
    let gap = 0;
    const lo = Math.min(a.min, b.min);
    const hi = Math.max(a.min + a.probabilities.length, b.min + b.probabilities.length);
    for (let x = lo; x < hi; x += 1) gap = Math.max(gap, Math.abs(probabilityOf(a, x) - probabilityOf(b, x)));
    return gap;
  };

  // The half's prices are decision 288's, pinned from main before this decision to 1e-12: the home cover and the
  // over at the half lines nearest the half's means, a tied half, a half won by exactly 3, a half total of 20.
  it.each([
    [
      -3, 44, -1.5, 21.5, 0.477893828656429, 0.0291412604122056, 0.105862346665686, 0.498480725301573,
      0.0371990751091286,
    ],
    [
      6.5, 47, 2.5, 23.5, 0.567807582680604, 0.0271988741287962, 0.119047409166132, 0.479680101722348,
      0.0361789438491362,
    ],
    [
      -10, 41, -4.5, 20.5, 0.517960131412233, 0.0255884281554577, 0.0802318106384957, 0.47620997657571,
      0.040038930529131,
    ],
    [
      14, 50, 6.5, 24.5, 0.493321005863319, 0.0213406830550731, 0.106448848882138, 0.505801738788704,
      0.0358555389425499,
    ],
  ] as const)(
    'keeps the half’s prices at %s, %s (pinned to 1e-12)',
    (margin, total, spread, line, cover, tie, three, over, twenty) => {
      const half = halfDistributions('nfl', { margin, total });
      expect(Math.abs(1 - cdfAt(half.margin, spread) - cover)).toBeLessThan(1e-12);
      expect(Math.abs(probabilityOf(half.margin, 0) - tie)).toBeLessThan(1e-12);
      expect(Math.abs(probabilityOf(half.margin, 3) - three)).toBeLessThan(1e-12);
      expect(Math.abs(1 - cdfAt(half.total, line) - over)).toBeLessThan(1e-12);
      expect(Math.abs(probabilityOf(half.total, 20) - twenty)).toBeLessThan(1e-12);
    },
  );

  // `drifted`: the model's own split over the coupled finals was more than 1e-4 off a cell of the half's margin.
  it.each([
    [-3, 44, true],
    [3, 44, true],
    [6.5, 47, true],
    [-10, 41, true],
    [14, 50, true],
    [10, 40, true],
    [-7, 45.5, false],
    [0, 38, false],
  ] as const)(
    'at %s, %s: the coupled finals split give the half its distributions to 1e-9 (the model’s own split drifted: %s)',
    (margin, total, drifted) => {
      const centre = { margin, total };
      const half = halfDistributions('nfl', centre);
      const fitted = nflHalfResults(centre, 'fitted');
      expect(largestGap(fitted.margin, half.margin)).toBeLessThan(1e-9);
      expect(largestGap(fitted.total, half.total)).toBeLessThan(1e-9);
      const fit = nflHalfSplitFit(centre);
      expect(fit.error).toBeLessThan(1e-10);
      // The factors kept with the game: one per half margin and one per half total, about 3 KB.
      expect(fit.bytes).toBeLessThan(4096);
      const model = nflHalfResults(centre, 'model');
      if (drifted) expect(largestGap(model.margin, half.margin)).toBeGreaterThan(1e-4);
      else expect(largestGap(model.margin, half.margin)).toBeGreaterThan(1e-6);
    },
  );

  it('the drift was real: a 10-point favourite’s half covered 4.5 0.17 pp more often than priced', () => {
    const centre = { margin: 10, total: 40 };
    const half = halfDistributions('nfl', centre);
    const cover = (d: { margin: IntegerDistribution }) => 1 - cdfAt(d.margin, 4.5);
    const over = (d: { total: IntegerDistribution }) => 1 - cdfAt(d.total, 19.5);
    const before = nflHalfResults(centre, 'model');
    const after = nflHalfResults(centre, 'fitted');
    expect(cover(before) - cover(half)).toBeGreaterThan(0.0015);
    expect(over(before) - over(half)).toBeLessThan(-0.0005);
    expect(Math.abs(cover(after) - cover(half))).toBeLessThan(1e-9);
    expect(Math.abs(over(after) - over(half))).toBeLessThan(1e-9);
  });

  it('the fit is paid once per game when its result is drawn, never when the half is priced', () => {
    const centres = [
      { margin: 2.5, total: 43.5 },
      { margin: -4, total: 48 },
      { margin: 8, total: 39.5 },
    ];
    const before = nflHalfSplitsFitted();
    for (const centre of centres) halfDistributions('nfl', centre);
    expect(nflHalfSplitsFitted()).toBe(before);
    const random = seededRandom(304);
    for (let k = 0; k < 50; k += 1) {
      const h = splitHalf('nfl', centres[0]!, { home: 24 + (k % 7), away: 17 }, random);
      expect(h.home).toBeLessThanOrEqual(24 + (k % 7));
      expect(h.away).toBeLessThanOrEqual(17);
    }
    expect(nflHalfSplitsFitted()).toBe(before + 1);
    // A final the fit never saw (far beyond the finals above 1e-7) is still split within it.
    const far = splitHalf('nfl', centres[0]!, { home: 140, away: 0 }, random);
    expect(far.home).toBeLessThanOrEqual(140);
    expect(far.away).toBe(0);
    expect(nflHalfSplitsFitted()).toBe(before + 1);
  });
});

// Issue 59 (decision 285): the NFL's and basketball's margins kept by margin step are the margins their games are built
// with: on random centres (repeats among them), the margin alone and the margin of a game built anew with nothing kept
// are equal to the last bit, a game built with the cache holds the same, and at most MARGINS_CACHED margins are kept.
describe('margins kept by margin step', () => {
  const smooth: LeagueKey[] = ['nfl', 'nba', 'ncaab'];
  it('give what a game built from scratch gives, on random centres', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 2 }),
            fc.integer({ min: -300, max: 300 }),
            fc.double({ min: 30, max: 240, noNaN: true }),
          ),
          { minLength: 5, maxLength: 15 },
        ),
        (centres) => {
          for (const [at, marginSteps, total] of centres) {
            const league = smooth[at]!;
            const centre = { margin: (marginSteps * CENTRE_STEP) / 2, total };
            const fresh = gameDistributionsUncached(league, centre);
            expect(gameMarginDistribution(league, centre)).toEqual(fresh.margin);
            expect(gameDistributions(league, centre).margin).toEqual(fresh.margin);
            expect(gameDistributions(league, centre).total).toEqual(fresh.total);
          }
        },
      ),
      { numRuns: 5, seed: 285 },
    );
    // A grid league's margin is its game's.
    expect(gameMarginDistribution('nhl', { margin: 0.4, total: 6 })).toBe(
      gameDistributions('nhl', { margin: 0.4, total: 6 }).margin,
    );
  });

  it(`keep at most ${MARGINS_CACHED}`, () => {
    for (let step = 0; step < MARGINS_CACHED + 50; step += 1)
      gameMarginDistribution('nba', { margin: (step - 600) * CENTRE_STEP, total: 220 });
    expect(marginsCached()).toBe(MARGINS_CACHED);
  });
});

describe('halves of the points leagues: the segment model (decision 288)', () => {
  const variance = (d: IntegerDistribution) => {
    const mean = meanOf(d);
    return d.probabilities.reduce((a, p, i) => a + p * (d.min + i - mean) ** 2, 0);
  };

  it.each([
    ['nba', 3, 226],
    ['ncaab', -5, 140],
  ] as const)(
    '%s: the half has its published shares of the means and half the game’s variance',
    (league, m, t) => {
      const game = gameDistributions(league, { margin: m, total: t });
      const half = halfDistributions(league, { margin: m, total: t });
      expect(meanOf(half.total)).toBeCloseTo(HALF_SHARES[league].total * meanOf(game.total), 1);
      expect(meanOf(half.margin)).toBeCloseTo(HALF_SHARES[league].margin * meanOf(game.margin), 1);
      // Independent halves with variance in proportion to their time: the half's is half the game's (within 3 %).
      expect(variance(half.margin) / (variance(game.margin) / 2)).toBeGreaterThan(0.97);
      expect(variance(half.margin) / (variance(game.margin) / 2)).toBeLessThan(1.03);
      expect(variance(half.total) / (variance(game.total) / 2)).toBeGreaterThan(0.97);
      expect(variance(half.total) / (variance(game.total) / 2)).toBeLessThan(1.03);
    },
  );

  it('a basketball half built after others is the one a fresh module builds, to the bit (kept mixtures, decision 299)', async () => {
    const centres = [
      { margin: 3, total: 226 },
      { margin: -11.5, total: 205 },
      { margin: 0.4, total: 241.3 },
    ];
    // Several halves through this module's kept accumulators, one after the other …
    const built = centres.map((centre) => halfDistributions('nba', centre));
    built.push(halfDistributions('ncaab', { margin: -5, total: 140 }));
    // … each equal to the same half built first thing in a module of its own (nothing accumulated before it).
    for (const [index, centre] of [...centres, { margin: -5, total: 140 }].entries()) {
      vi.resetModules();
      const fresh = await import('./score-distributions.ts');
      const half = fresh.halfDistributions(index < centres.length ? 'nba' : 'ncaab', centre);
      expect(built[index]!.margin).toEqual(half.margin);
      expect(built[index]!.total).toEqual(half.total);
    }
  });

  it('games and halves built one after another through the kept scratch arrays are those a fresh module builds, to the bit (decision 309)', async () => {
    // Large before small and small before large, so that a scratch array grown by one build and not emptied before
    // the next (or read past its length) shows in the next one.
    const asks: [LeagueKey, { margin: number; total: number }][] = [
      ['nba', { margin: -14, total: 262 }],
      ['nfl', { margin: 2.5, total: 38 }],
      ['ncaab', { margin: 7, total: 151 }],
      ['nfl', { margin: -9, total: 55.5 }],
      ['nba', { margin: 0.35, total: 214.6 }],
      ['nfl', { margin: 0, total: 41 }],
    ];
    const built = asks.map(([league, centre]) => ({
      game: gameDistributions(league, centre),
      half: halfDistributions(league, centre),
    }));
    for (const [index, [league, centre]] of asks.entries()) {
      vi.resetModules();
      const fresh = await import('./score-distributions.ts');
      // The half first: its game is built on the way, before anything else in this module.
      const half = fresh.halfDistributions(league, centre);
      const game = fresh.gameDistributions(league, centre);
      expect(built[index]!.game.margin).toEqual(game.margin);
      expect(built[index]!.game.total).toEqual(game.total);
      expect(built[index]!.half.margin).toEqual(half.margin);
      expect(built[index]!.half.total).toEqual(half.total);
    }
  });

  it('asked again and again, the games and halves cached are those a least-recently-used cache keeps (decision 309)', async () => {
    vi.resetModules();
    const fresh = await import('./score-distributions.ts');
    const random = seededRandom(309);
    // A model of the cache: each key's object while kept, the least recently used first.
    const check = (ask: (key: number) => object, keys: number, asks: number, repeat: number) => {
      const model = new Map<number, object>();
      const returned = new Set<object>();
      let previous = 0;
      for (let n = 0; n < asks; n += 1) {
        // Often the key just asked (the simulator's books quoting one game in turn), else any.
        const key = n > 0 && random() < repeat ? previous : Math.floor(random() * keys);
        previous = key;
        const got = ask(key);
        const kept = model.get(key);
        if (kept) {
          expect(got).toBe(kept);
          model.delete(key);
        } else {
          // Built anew: none of the objects kept (nor one dropped) is returned.
          expect(returned.has(got)).toBe(false);
          returned.add(got);
          if (model.size >= fresh.DISTRIBUTIONS_CACHED) model.delete(model.keys().next().value!);
        }
        model.set(key, got);
      }
    };
    // Games (the NHL's: quick to build), the keys beyond what the cache holds.
    const nhl = (key: number) => ({
      margin: (key % 40) * CENTRE_STEP,
      total: 3 + Math.floor(key / 40) * CENTRE_STEP,
    });
    check((key) => fresh.gameDistributions('nhl', nhl(key)), 2_400, 6_000, 0.4);
    // The order a repeat leaves: the cache full, an old game asked (moved to the end), then the game built last
    // asked again (now after it); as many new games as the cache holds less one then drop the old one, not the last.
    vi.resetModules();
    const again = await import('./score-distributions.ts');
    const game = (key: number) => again.gameDistributions('nhl', nhl(key));
    const first = game(0);
    for (let key = 1; key < again.DISTRIBUTIONS_CACHED; key += 1) game(key);
    const last = game(again.DISTRIBUTIONS_CACHED - 1);
    expect(game(0)).toBe(first);
    expect(game(again.DISTRIBUTIONS_CACHED - 1)).toBe(last);
    for (let key = 0; key < again.DISTRIBUTIONS_CACHED - 1; key += 1) game(3_000 + key);
    expect(game(again.DISTRIBUTIONS_CACHED - 1)).toBe(last);
    expect(game(0)).not.toBe(first);
    // Halves: fewer keys (each builds its game and its half), asked in runs.
    check(
      (key) =>
        fresh.halfDistributions('nba', {
          margin: (key % 20) * CENTRE_STEP - 5,
          total: 220 + Math.floor(key / 20) * CENTRE_STEP,
        }),
      60,
      600,
      0.5,
    );
  });

  it('NFL: the half’s margins have the key numbers 3 and 7, and a half is within its final', () => {
    const centre = { margin: -3, total: 44 };
    const half = halfDistributions('nfl', centre);
    expect(meanOf(half.total)).toBeGreaterThan(21.5);
    expect(meanOf(half.total)).toBeLessThan(22.5);
    for (const key of [3, 7, -3, -7])
      expect(probabilityOf(half.margin, key)).toBeGreaterThan(
        1.5 * Math.max(probabilityOf(half.margin, key - 1), probabilityOf(half.margin, key + 1)),
      );
    const random = seededRandom(288);
    for (const final of [
      { home: 3, away: 0 },
      { home: 0, away: 0 },
      { home: 17, away: 24 },
      { home: 45, away: 3 },
    ])
      for (let k = 0; k < 200; k += 1) {
        const h = splitHalf('nfl', centre, final, random);
        expect(h.home).toBeGreaterThanOrEqual(0);
        expect(h.away).toBeGreaterThanOrEqual(0);
        expect(h.home).toBeLessThanOrEqual(final.home);
        expect(h.away).toBeLessThanOrEqual(final.away);
      }
  });

  it('splits finals drawn from the game into halves distributed as the half’s distributions', () => {
    for (const league of ['nba', 'nfl'] as const) {
      const centre = league === 'nba' ? { margin: 5, total: 230 } : { margin: 6.5, total: 47 };
      const game = gameDistributions(league, centre);
      const half = halfDistributions(league, centre);
      const random = seededRandom(7);
      const n = 10_000;
      let totalOver = 0;
      let homeCovers = 0;
      const totalLine = Math.floor(meanOf(half.total)) + 0.5;
      const spreadLine = Math.floor(meanOf(half.margin)) + 0.5;
      for (let k = 0; k < n; k += 1) {
        const m = quantileOf(game.margin, random());
        const t = quantileOf(game.totalGiven(m), random());
        const h = splitHalf(league, centre, { home: (t + m) / 2, away: (t - m) / 2 }, random);
        if (h.home + h.away > totalLine) totalOver += 1;
        if (h.home - h.away > spreadLine) homeCovers += 1;
      }
      const pOver = 1 - cdfAt(half.total, totalLine);
      const pCover = 1 - cdfAt(half.margin, spreadLine);
      const se = (p: number) => Math.sqrt((p * (1 - p)) / n);
      expect(Math.abs(totalOver / n - pOver), `${league} total`).toBeLessThan(4 * se(pOver));
      expect(Math.abs(homeCovers / n - pCover), `${league} margin`).toBeLessThan(4 * se(pCover));
    }
  });
});
