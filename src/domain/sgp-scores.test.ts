import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeagueKey } from './markets.ts';
import { bivariateNormalCdf, normalQuantile } from './mvn.ts';
import { fairHighProbability, gameDistributions, probabilityOf } from './score-distributions.ts';
import { calibrateSgp, jointProbability, priceSgp, sgpConflicts, type SgpModelLeg } from './sgp.ts';
import { scoresJoint, type ScoresMarket } from './sgp-scores.ts';

// Full-game margin and total legs of the NFL, NBA, NCAAB, NHL and MLB priced on the score distributions (decision 287).
// The reference here is written from the definition, cell by cell: P(M = m, T = t) is the copula's rectangle over the
// two distributions' cumulative probabilities, each leg is settled on (m, t) as grading settles it (won beyond its
// line, pushed on a whole line), and the ticket's fair price is where it breaks even with a pushed leg dropped and
// the ticket repriced by that leg's fair price.

const LEAGUES: readonly LeagueKey[] = ['nfl', 'nba', 'ncaab', 'nhl', 'mlb'];

const margin = (side: 'high' | 'low', line: number, probability: number): SgpModelLeg => ({
  variable: { kind: 'margin', period: 'full' },
  side,
  line,
  probability,
});
const total = (side: 'high' | 'low', line: number, probability: number): SgpModelLeg => ({
  variable: { kind: 'total', period: 'full' },
  side,
  line,
  probability,
});

/** A leg's fair two-way probability at a centre: its line's fair high chance, or one less it. */
function fairAt(league: LeagueKey, centre: { margin: number; total: number }, leg: SgpModelLeg): number {
  const game = gameDistributions(league, centre);
  const high = fairHighProbability(game[leg.variable.kind as 'margin' | 'total'], leg.line!);
  return leg.side === 'high' ? high : 1 - high;
}

/** The plain computation: every cell of the two distributions, every leg settled on it. */
function cellByCell(
  league: LeagueKey,
  centre: { margin: number; total: number },
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  const game = gameDistributions(league, centre);
  const z = (u: number) => (u <= 0 ? -Infinity : u >= 1 ? Infinity : normalQuantile(u));
  const cuts = (d: { min: number; probabilities: number[] }) => {
    const out = [-Infinity];
    let sum = 0;
    d.probabilities.forEach((p) => out.push(z((sum += p))));
    out[out.length - 1] = Infinity;
    return out;
  };
  const mCuts = cuts(game.margin);
  const tCuts = cuts(game.total);
  const cdf = (h: number, k: number) =>
    h === -Infinity || k === -Infinity ? 0 : bivariateNormalCdf(h, k, rho);
  let back = 0;
  let stakeBack = 0;
  for (let i = 0; i < game.margin.probabilities.length; i += 1) {
    if (game.margin.probabilities[i]! < 1e-13) continue;
    const m = game.margin.min + i;
    for (let j = 0; j < game.total.probabilities.length; j += 1) {
      if (game.total.probabilities[j]! < 1e-13) continue;
      const t = game.total.min + j;
      const p = Math.max(
        0,
        cdf(mCuts[i + 1]!, tCuts[j + 1]!) -
          cdf(mCuts[i]!, tCuts[j + 1]!) -
          cdf(mCuts[i + 1]!, tCuts[j]!) +
          cdf(mCuts[i]!, tCuts[j]!),
      );
      let factor = 1;
      let lost = false;
      let pushed = 0;
      for (const leg of legs) {
        const x = leg.variable.kind === 'margin' ? m : t;
        const beyond = leg.side === 'high' ? x - leg.line! : leg.line! - x;
        if (beyond < 0) lost = true;
        else if (beyond === 0) {
          pushed += 1;
          factor *= leg.probability;
        }
      }
      if (lost) continue;
      if (pushed === legs.length) stakeBack += p;
      else back += p * factor;
    }
  }
  return back / (1 - stakeBack);
}

/** A centre on the 0.05 grid the distributions are built on, a league's typical game about it. */
const TYPICAL: Record<
  string,
  { total: number; marginSpread: number; totalSpread: number; lineSpread: number }
> = {
  nfl: { total: 44, marginSpread: 10, totalSpread: 6, lineSpread: 10 },
  nba: { total: 226, marginSpread: 12, totalSpread: 12, lineSpread: 12 },
  ncaab: { total: 145, marginSpread: 12, totalSpread: 10, lineSpread: 10 },
  nhl: { total: 6, marginSpread: 1, totalSpread: 0.8, lineSpread: 2 },
  mlb: { total: 8.8, marginSpread: 1.2, totalSpread: 1.5, lineSpread: 2.5 },
};

const gameCase = fc
  .record({
    league: fc.constantFrom(...LEAGUES),
    marginUnit: fc.double({ min: -1, max: 1, noNaN: true }),
    totalUnit: fc.double({ min: -1, max: 1, noNaN: true }),
    lines: fc.array(
      fc.record({
        kind: fc.constantFrom('margin', 'total'),
        side: fc.constantFrom('high', 'low'),
        offset: fc.double({ min: -1, max: 1, noNaN: true }),
        whole: fc.boolean(),
      }),
      { minLength: 2, maxLength: 4 },
    ),
    rho: fc.double({ min: -0.45, max: 0.45, noNaN: true }),
  })
  .map(({ league, marginUnit, totalUnit, lines, rho }) => {
    const typical = TYPICAL[league]!;
    const step = (x: number) => Math.round(x / 0.05) * 0.05;
    const centre = {
      margin: step(marginUnit * typical.marginSpread),
      total: step(typical.total + totalUnit * typical.totalSpread),
    };
    const legs = lines.map(({ kind, side, offset, whole }) => {
      const around = kind === 'margin' ? centre.margin : centre.total;
      const base = Math.floor(around + offset * typical.lineSpread);
      const line = Math.max(kind === 'total' ? 0.5 : -Infinity, whole ? base : base + 0.5);
      const leg = kind === 'margin' ? margin(side, line, 0.5) : total(side, line, 0.5);
      return { ...leg, probability: fairAt(league, centre, leg) };
    });
    return { league, centre, legs, rho };
  })
  .filter(({ legs }) => {
    if (!legs.every((leg) => leg.probability > 0.03 && leg.probability < 0.97)) return false;
    // Compatible: on each variable, a high line below every low line.
    for (const a of legs)
      for (const b of legs)
        if (
          a.variable.kind === b.variable.kind &&
          a.side === 'high' &&
          b.side === 'low' &&
          a.line! >= b.line!
        )
          return false;
    return true;
  });

describe('scoresJoint: the cells of the score distributions', () => {
  it('equals the cell-by-cell sum on random centres, lines (half and whole) and sides, with legs priced at that centre', () => {
    fc.assert(
      fc.property(gameCase, ({ league, centre, legs, rho }) => {
        const market: ScoresMarket = { homeWin: 0.5, total: null };
        const joint = scoresJoint(league, market, rho, legs);
        const reference = cellByCell(league, centre, rho, legs);
        expect(Math.abs(joint - reference)).toBeLessThan(2e-4);
      }),
      { numRuns: 25, seed: 287 },
    );
  });

  it('gives one leg alone its fair probability (the binding leg fits the centre): margin and total, every league', () => {
    for (const league of LEAGUES) {
      const typical = TYPICAL[league]!;
      for (const [line, p] of [
        [Math.round(typical.total) - 0.5, 0.47],
        [Math.round(typical.total), 0.55],
      ] as const) {
        expect(
          Math.abs(scoresJoint(league, { homeWin: 0.6, total: null }, 0.1, [total('high', line, p)]) - p),
        ).toBeLessThan(league === 'nhl' || league === 'mlb' ? 2e-3 : 1e-6);
      }
      expect(
        Math.abs(scoresJoint(league, { homeWin: 0.6, total: null }, 0.1, [margin('high', 1.5, 0.44)]) - 0.44),
      ).toBeLessThan(league === 'nhl' || league === 'mlb' ? 2e-3 : 1e-6);
    }
  });
});

describe('NFL key numbers in the joint', () => {
  it('home −2.5 and under 44.5 exceeds home −3.5 and under 44.5 by the cells at a margin of 3 (about 4× a margin of 5)', () => {
    const league = 'nfl';
    const centre = { margin: 3, total: 44.5 };
    const calibration = calibrateSgp(league, 0.59);
    const rho = calibration.marginTotalCorrelation;
    const under = total('low', 44.5, 0.5);
    const priced = (line: number) => {
      const legs = [margin('high', line, 0.5), under].map((leg) => ({
        ...leg,
        probability: fairAt(league, centre, leg),
      }));
      const result = priceSgp(calibration, legs);
      expect(result.model).toBe('scores');
      return { joint: result.probability, legs };
    };
    const at25 = priced(2.5);
    const at35 = priced(3.5);
    const at45 = priced(4.5);
    const at55 = priced(5.5);
    // The cells at margin 3 with the total under 44.5, cell by cell: the two tickets differ by exactly these.
    const three = cellByCell(league, centre, rho, [margin('high', 2.5, 1), margin('low', 3.5, 1), under]);
    expect(at25.joint - at35.joint).toBeCloseTo(three, 5);
    const five = at45.joint - at55.joint;
    expect(three / five).toBeGreaterThan(3);
    // The mass at 3 alone: about 8–9 % of games with a field-goal favourite land there, about half of them under.
    const game = gameDistributions(league, centre);
    expect(probabilityOf(game.margin, 3)).toBeGreaterThan(0.08);
    expect(three).toBeGreaterThan(0.04);
  });

  it('prices home −3 (a push on 3) and under 44.5 so that dropping the pushed leg breaks even', () => {
    const league = 'nfl';
    const centre = { margin: 3, total: 44.5 };
    const calibration = calibrateSgp(league, 0.59);
    const legs = [margin('high', 3, 0.5), total('low', 44.5, 0.5)].map((leg) => ({
      ...leg,
      probability: fairAt(league, centre, leg),
    }));
    const joint = jointProbability(calibration, legs);
    const game = gameDistributions(league, centre);
    // Win: margin above 3 and under; margin 3 and under: the spread pushes, the ticket pays 1 / p(under) per unit of
    // 1 / joint, so its share of the break-even is P(3, under) × p(spread).
    const rho = calibration.marginTotalCorrelation;
    const won = cellByCell(league, centre, rho, [margin('high', 3.5, 1), total('low', 44.5, 1)]);
    const pushedThree = cellByCell(league, centre, rho, [
      margin('high', 2.5, 1),
      margin('low', 3.5, 1),
      total('low', 44.5, 1),
    ]);
    expect(joint).toBeCloseTo(won + pushedThree * legs[0]!.probability, 5);
    expect(probabilityOf(game.margin, 3)).toBeGreaterThan(0.08);
  });
});

describe('priceSgp with the score distributions: bounds', () => {
  it('stays within the Fréchet bounds of the legs, mixes with player and period legs included', () => {
    const legArb = fc.oneof(
      fc
        .record({
          side: fc.constantFrom('high', 'low'),
          line: fc.integer({ min: -20, max: 20 }),
          p: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          half: fc.boolean(),
        })
        .map(({ side, line, p, half }) => margin(side as 'high' | 'low', half ? line + 0.5 : line, p)),
      fc
        .record({
          side: fc.constantFrom('high', 'low'),
          line: fc.integer({ min: 1, max: 240 }),
          p: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        })
        .map(({ side, line, p }) => total(side as 'high' | 'low', line + 0.5, p)),
      fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((p): SgpModelLeg => ({
        variable: { kind: 'total', period: 'h1' },
        side: 'high',
        line: 20.5,
        probability: p,
      })),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...LEAGUES),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.array(legArb, { minLength: 2, maxLength: 4 }),
        (league, homeWin, legs) => {
          const valid = sgpConflicts(legs).length === 0;
          const period = legs.some((leg) => leg.variable.period === 'h1');
          if (!valid || (period && (league === 'nhl' || league === 'mlb'))) return;
          const calibration = calibrateSgp(league, homeWin);
          const { probability } = priceSgp(calibration, legs);
          const smallest = Math.min(...legs.map((leg) => leg.probability));
          const lower = legs.reduce((sum, leg) => sum + leg.probability, 0) - (legs.length - 1);
          expect(probability).toBeLessThanOrEqual(smallest + 1e-12);
          expect(probability).toBeGreaterThanOrEqual(Math.max(1e-9, lower) - 1e-12);
        },
      ),
      { numRuns: 60, seed: 2870 },
    );
  });
});
