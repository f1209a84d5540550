import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeagueKey, Period } from './markets.ts';
import { bivariateNormalCdf, mvnProbability, normalCdf, normalQuantile } from './mvn.ts';
import {
  cdfAt,
  fairHighProbability,
  gameDistributions,
  halfDistributions,
  HALF_SHARES,
  HALF_TIME_SHARE,
  meanOf,
  type IntegerDistribution,
} from './score-distributions.ts';
import {
  calibrateSgp,
  priceSgp,
  sgpConflicts,
  sgpCorrelation,
  SGP_GAME_PRIORS,
  type SgpModelLeg,
} from './sgp.ts';
import {
  partDistributions,
  partShare,
  partsJoint,
  scoresJoint,
  scoresPart,
  tiltedBy,
  tiltedHighChance,
  type ScoresMarket,
} from './sgp-scores.ts';

// First-part legs (a points league's first half, the NHL's first period, MLB's first five) priced on the part's own
// distributions, alone or with full-game legs (decision 296). The reference is written from the definition, cell by
// cell over two variables: each variable's distribution (the game's or its part's at the centre), the Gaussian copula
// with the split's correlation (ρ between margin and total, √s between a part and its game, ρ√s across), each leg
// settled on the cell as grading settles it, pushes repriced by the pushed leg's own price.

const LEAGUES: readonly LeagueKey[] = ['nfl', 'nba', 'ncaab', 'nhl', 'mlb'];
type Kind = 'margin' | 'total';

const leg = (
  kind: Kind,
  period: Period,
  side: 'high' | 'low',
  line: number,
  probability: number,
): SgpModelLeg => ({ variable: { kind, period }, side, line, probability });

/** The distribution a leg is settled on at a centre: the full game's or its first part's. */
function distributionOf(
  league: LeagueKey,
  centre: { margin: number; total: number },
  kind: Kind,
  period: Period,
): IntegerDistribution {
  return (period === 'full' ? gameDistributions(league, centre) : partDistributions(league, centre))[kind];
}

/** A leg's fair two-way probability at a centre. */
function fairAt(league: LeagueKey, centre: { margin: number; total: number }, one: SgpModelLeg): number {
  const d = distributionOf(league, centre, one.variable.kind as Kind, one.variable.period);
  const high = fairHighProbability(d, one.line!);
  return one.side === 'high' ? high : 1 - high;
}

/** The market of a centre: its fair moneyline (ties left out) and the fair over of the total's half line below it. */
function marketAt(league: LeagueKey, centre: { margin: number; total: number }): ScoresMarket {
  const game = gameDistributions(league, centre);
  const line = Math.floor(centre.total) + 0.5;
  return {
    homeWin: fairHighProbability(game.margin, 0),
    total: { line, over: fairHighProbability(game.total, line) },
  };
}

/** The copula's correlation of two variables, from the definition of the split (P and an independent rest). */
function correlation(league: LeagueKey, rho: number, a: SgpModelLeg['variable'], b: SgpModelLeg['variable']) {
  if (a.kind === b.kind && a.period === b.period) return 1;
  return (a.kind === b.kind ? 1 : rho) * (a.period === b.period ? 1 : Math.sqrt(partShare(league)));
}

/** Every cell of two variables' distributions, every leg settled on it. */
function cellByCell(
  league: LeagueKey,
  centre: { margin: number; total: number },
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  const keyOf = (one: SgpModelLeg) => `${one.variable.kind}:${one.variable.period}`;
  const keys = [...new Set(legs.map(keyOf))];
  if (keys.length !== 2) throw new Error('two variables');
  const variables = keys.map((key) => legs.find((one) => keyOf(one) === key)!.variable);
  const [da, db] = variables.map((v) => distributionOf(league, centre, v.kind as Kind, v.period)) as [
    IntegerDistribution,
    IntegerDistribution,
  ];
  const r = correlation(league, rho, variables[0]!, variables[1]!);
  const z = (u: number) => (u <= 0 ? -Infinity : u >= 1 ? Infinity : normalQuantile(u));
  const cuts = (d: IntegerDistribution) => {
    const out = [-Infinity];
    let sum = 0;
    d.probabilities.forEach((p) => out.push(z((sum += p))));
    out[out.length - 1] = Infinity;
    return out;
  };
  const [ca, cb] = [cuts(da), cuts(db)];
  const cdf = (h: number, k: number) =>
    h === -Infinity || k === -Infinity ? 0 : bivariateNormalCdf(h, k, r);
  let back = 0;
  let stakeBack = 0;
  for (let i = 0; i < da.probabilities.length; i += 1) {
    if (da.probabilities[i]! < 1e-13) continue;
    for (let j = 0; j < db.probabilities.length; j += 1) {
      if (db.probabilities[j]! < 1e-13) continue;
      const p = Math.max(
        0,
        cdf(ca[i + 1]!, cb[j + 1]!) - cdf(ca[i]!, cb[j + 1]!) - cdf(ca[i + 1]!, cb[j]!) + cdf(ca[i]!, cb[j]!),
      );
      const values = [da.min + i, db.min + j];
      let factor = 1;
      let lost = false;
      let pushed = 0;
      for (const one of legs) {
        const x = values[keys.indexOf(keyOf(one))]!;
        const beyond = one.side === 'high' ? x - one.line! : one.line! - x;
        if (beyond < 0) lost = true;
        else if (beyond === 0) {
          pushed += 1;
          factor *= one.probability;
        }
      }
      if (lost) continue;
      if (pushed === legs.length) stakeBack += p;
      else back += p * factor;
    }
  }
  return back / (1 - stakeBack);
}

/** A league's typical game, and how far its part's lines stray (the part's expected total is about half the game's). */
const TYPICAL: Record<
  string,
  { total: number; marginSpread: number; totalSpread: number; lineSpread: number }
> = {
  nfl: { total: 44, marginSpread: 10, totalSpread: 6, lineSpread: 8 },
  nba: { total: 226, marginSpread: 12, totalSpread: 12, lineSpread: 8 },
  ncaab: { total: 145, marginSpread: 12, totalSpread: 10, lineSpread: 8 },
  nhl: { total: 6, marginSpread: 1, totalSpread: 0.8, lineSpread: 1.5 },
  mlb: { total: 8.8, marginSpread: 1.2, totalSpread: 1.5, lineSpread: 2 },
};

/** The two variables of a case: both of the part, or one of the part and one of the game. */
const PAIRS: readonly [[Kind, 'part' | 'full'], [Kind, 'part' | 'full']][] = [
  [
    ['margin', 'part'],
    ['total', 'part'],
  ],
  [
    ['margin', 'part'],
    ['margin', 'full'],
  ],
  [
    ['total', 'part'],
    ['total', 'full'],
  ],
  [
    ['margin', 'part'],
    ['total', 'full'],
  ],
  [
    ['total', 'part'],
    ['margin', 'full'],
  ],
];

const partCase = fc
  .record({
    league: fc.constantFrom(...LEAGUES),
    marginUnit: fc.double({ min: -1, max: 1, noNaN: true }),
    totalUnit: fc.double({ min: -1, max: 1, noNaN: true }),
    pair: fc.constantFrom(...PAIRS),
    lines: fc.array(
      fc.record({
        which: fc.constantFrom(0, 1),
        side: fc.constantFrom('high', 'low'),
        offset: fc.double({ min: -1, max: 1, noNaN: true }),
        whole: fc.boolean(),
      }),
      { minLength: 2, maxLength: 3 },
    ),
    rho: fc.double({ min: -0.45, max: 0.45, noNaN: true }),
  })
  .map(({ league, marginUnit, totalUnit, pair, lines, rho }) => {
    const typical = TYPICAL[league]!;
    const step = (x: number) => Math.round(x / 0.05) * 0.05;
    const centre = {
      margin: step(marginUnit * typical.marginSpread),
      total: step(typical.total + totalUnit * typical.totalSpread),
    };
    const part = scoresPart(league)!;
    // Each variable gets a leg; the rest of the lines go where they were drawn.
    const chosen = lines.map((line, i) => ({ ...line, which: i < 2 ? i : line.which }));
    const legs = chosen.map(({ which, side, offset, whole }) => {
      const [kind, of] = pair[which]!;
      const period = of === 'part' ? part : 'full';
      const d = distributionOf(league, centre, kind, period);
      const base = Math.floor(meanOf(d) + offset * typical.lineSpread);
      const line = Math.max(kind === 'total' ? 0.5 : -Infinity, whole ? base : base + 0.5);
      const one = leg(kind, period, side as 'high' | 'low', line, 0.5);
      return { ...one, probability: fairAt(league, centre, one) };
    });
    return { league, centre, legs, rho };
  })
  .filter(({ legs }) => {
    if (!legs.every((one) => one.probability > 0.03 && one.probability < 0.97)) return false;
    return sgpConflicts(legs).length === 0;
  });

describe('partsJoint: first-part legs on the part’s distributions', () => {
  it('equals the cell-by-cell sum: two legs of the part, or a part leg with a full-game leg, half and whole lines', () => {
    fc.assert(
      fc.property(partCase, ({ league, centre, legs, rho }) => {
        const joint = partsJoint(league, marketAt(league, centre), rho, legs);
        const reference = cellByCell(league, centre, rho, legs);
        // The game's legs are fitted back to the centre on the 0.05 grid (NHL and MLB: the margin's distribution
        // also moves with the total's centre, decision 287's 2e-3); the part's keep it exactly.
        expect(Math.abs(joint - reference)).toBeLessThan(league === 'nhl' || league === 'mlb' ? 2e-3 : 2e-4);
      }),
      { numRuns: 40, seed: 296 },
    );
  });

  it('gives one part leg alone its fair probability, wherever its price is (the part tilted to it)', () => {
    for (const league of LEAGUES) {
      const part = scoresPart(league)!;
      const centre = { margin: 2, total: TYPICAL[league]!.total };
      const mean = meanOf(partDistributions(league, centre).total);
      for (const [kind, line, p] of [
        ['total', Math.round(mean) + 0.5, 0.47],
        ['total', Math.round(mean), 0.62],
        ['margin', 0, 0.58],
        ['margin', -1.5, 0.31],
        ['margin', 3, 0.2],
      ] as const) {
        for (const side of ['high', 'low'] as const) {
          const one = leg(kind, part, side, line, p);
          expect(Math.abs(partsJoint(league, marketAt(league, centre), 0.1, [one]) - p)).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('a whole line of the part pushes: NFL first half −3 and under 21.5 is the won cells plus the push at 3 × the spread’s price', () => {
    const league = 'nfl';
    const centre = { margin: 3, total: 44.5 };
    const rho = calibrateSgp(league, 0.59).marginTotalCorrelation;
    const market = marketAt(league, centre);
    const spread = leg('margin', 'h1', 'high', 3, 0.5);
    const under = leg('total', 'h1', 'low', 21.5, 0.5);
    const legs = [spread, under].map((one) => ({ ...one, probability: fairAt(league, centre, one) }));
    const joint = partsJoint(league, market, rho, legs);
    const won = cellByCell(league, centre, rho, [leg('margin', 'h1', 'high', 3.5, 1), under]);
    const atThree = cellByCell(league, centre, rho, [
      leg('margin', 'h1', 'high', 2.5, 1),
      leg('margin', 'h1', 'low', 3.5, 1),
      under,
    ]);
    expect(atThree).toBeGreaterThan(0.03);
    expect(joint).toBeCloseTo(won + atThree * legs[0]!.probability, 6);
    // The push is a twelfth of the ticket: what a whole line adds to the copula on the latent normal.
    expect(joint - won).toBeGreaterThan(0.01);
  });

  it('is the split model’s own joint of a half and its game to within 3e-3 (NBA: the half’s margin bridged on the final’s)', () => {
    // The model's joint of the NBA first half's margin H and the game's margin F (decision 288): F from the game's
    // distribution, H | F the discretised normal about s·μ + v·(F − μ) with deviation σ·√(v(1 − v)). The copula keeps
    // each leg's own probability and approximates this joint; at legs priced on the model itself the two agree to
    // 2.3e-3 at most (measured: the pick'em's moneylines of the half and the game, where the game's margin has no ties
    // and the normal copula does not see the hole at 0), a few 1e-4 elsewhere.
    const league = 'nba';
    for (const centre of [
      { margin: 0, total: 226 },
      { margin: 6.5, total: 230 },
      { margin: -12, total: 220 },
    ]) {
      const game = gameDistributions(league, centre);
      const mu = meanOf(game.margin);
      const v = HALF_TIME_SHARE;
      const sd = SGP_GAME_PRIORS.nba.sigmaMargin * Math.sqrt(v * (1 - v));
      const halfAbove = (line: number, f: number) =>
        1 - normalCdf((Math.floor(line) + 0.5 - (HALF_SHARES.nba.margin * mu + v * (f - mu))) / sd);
      const exact = (halfLine: number, fullLine: number, fullSide: 'high' | 'low') => {
        let sum = 0;
        game.margin.probabilities.forEach((p, i) => {
          const f = game.margin.min + i;
          if (fullSide === 'high' ? f > fullLine : f < fullLine) sum += p * halfAbove(halfLine, f);
        });
        return sum;
      };
      // The half's own distribution is the mixture of the same kernels: its chances are the ones the legs carry.
      expect(fairHighProbability(halfDistributions(league, centre).margin, 2.5)).toBeCloseTo(
        exact(2.5, -Infinity, 'high'),
        6,
      );
      const rho = calibrateSgp(league, marketAt(league, centre).homeWin).marginTotalCorrelation;
      for (const [halfLine, fullLine, fullSide] of [
        [2.5, 5.5, 'high'],
        [-1.5, 5.5, 'low'],
        [0.5, -3.5, 'high'],
        [Math.round(mu / 2) + 0.5, Math.round(mu) + 0.5, 'high'],
      ] as const) {
        const legs = [
          leg('margin', 'h1', 'high', halfLine, 0.5),
          leg('margin', 'full', fullSide, fullLine, 0.5),
        ].map((one) => ({ ...one, probability: fairAt(league, centre, one) }));
        const joint = partsJoint(league, marketAt(league, centre), rho, legs);
        expect(Math.abs(joint - exact(halfLine, fullLine, fullSide))).toBeLessThan(3e-3);
      }
    }
  });
});

describe('partsJoint in three and four dimensions', () => {
  it('with half lines on the halves is the correlation model’s copula (its half–game correlation is also √½)', () => {
    const calibration = calibrateSgp('nba', 0.66);
    const rho = calibration.marginTotalCorrelation;
    const legs = [
      leg('margin', 'h1', 'high', 1.5, 0.56),
      leg('total', 'h1', 'low', 113.5, 0.47),
      leg('margin', 'full', 'high', 3.5, 0.58),
      leg('total', 'full', 'high', 225.5, 0.52),
    ];
    const market: ScoresMarket = { homeWin: 0.66, total: null };
    for (const count of [3, 4]) {
      const some = legs.slice(0, count);
      const bounds = some.map((one) => {
        const z = normalQuantile(one.probability);
        return one.side === 'high' ? [-z, Infinity] : [-Infinity, z];
      });
      const copula = mvnProbability(
        bounds.map((b) => b[0]!),
        bounds.map((b) => b[1]!),
        sgpCorrelation(
          calibration,
          some.map((one) => one.variable),
        ),
      );
      expect(Math.abs(partsJoint('nba', market, rho, some) - copula)).toBeLessThan(2e-6);
    }
  });

  it('with a whole line: NFL first half −3, first-half under 21.5 and the game’s −6.5 is the won box plus the push at 3 × the spread’s price', () => {
    const league = 'nfl';
    const centre = { margin: 3, total: 44.5 };
    const rho = calibrateSgp(league, 0.59).marginTotalCorrelation;
    const legs = [
      leg('margin', 'h1', 'high', 3, 0.5),
      leg('total', 'h1', 'low', 21.5, 0.5),
      leg('margin', 'full', 'high', 6.5, 0.5),
    ].map((one) => ({ ...one, probability: fairAt(league, centre, one) }));
    const joint = partsJoint(league, marketAt(league, centre), rho, legs);
    // From the definition: the three variables' cumulative probabilities at the centre, the split's correlations.
    const half = partDistributions(league, centre);
    const game = gameDistributions(league, centre);
    const z = (d: IntegerDistribution, x: number) => normalQuantile(cdfAt(d, x));
    const r = Math.sqrt(partShare(league));
    const matrix = [
      [1, rho, r],
      [rho, 1, rho * r],
      [r, rho * r, 1],
    ];
    const won = mvnProbability(
      [z(half.margin, 3), -Infinity, z(game.margin, 6)],
      [Infinity, z(half.total, 21), Infinity],
      matrix,
    );
    const atThree = mvnProbability(
      [z(half.margin, 2), -Infinity, z(game.margin, 6)],
      [z(half.margin, 3), z(half.total, 21), Infinity],
      matrix,
    );
    expect(atThree).toBeGreaterThan(0.01);
    expect(Math.abs(joint - (won + atThree * legs[0]!.probability))).toBeLessThan(2e-4);
  });
});

describe('the tilt bisection’s chance (decision 307)', () => {
  it('is the tilted distribution’s fair chance to the last bit, on half and whole lines of every part', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LEAGUES),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.integer({ min: -12, max: 12 }),
        fc.boolean(),
        (league, unit, theta, offset, whole) => {
          const typical = TYPICAL[league]!;
          const centre = {
            margin: Math.round(unit * typical.marginSpread * 20) / 20,
            total: typical.total,
          };
          const part = partDistributions(league, centre);
          for (const [kind, around] of [
            ['margin', 0],
            ['total', Math.round(meanOf(part.total))],
          ] as const) {
            const line = around + offset + (whole ? 0 : 0.5);
            const d = part[kind];
            expect(tiltedHighChance(d, theta, line)).toBe(fairHighProbability(tiltedBy(d, theta), line));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('scoresJoint asked again (decision 307)', () => {
  it('answers a parlay asked again with the same number, and any changed input with its own', () => {
    const league = 'nfl';
    const market: ScoresMarket = { homeWin: 0.66, total: { line: 44.5, over: 0.5 } };
    const rho = calibrateSgp(league, 0.66).marginTotalCorrelation;
    // Home −3, over 44, first-half −1, first-half over 21: four whole lines, 16 rectangles.
    const legs = [
      leg('margin', 'full', 'high', 3, 0.55),
      leg('total', 'full', 'high', 44, 0.5),
      leg('margin', 'h1', 'high', 1, 0.55),
      leg('total', 'h1', 'high', 21, 0.5),
    ];
    // The first half's legs alone are centred on the market's game: it moves them.
    const half = legs.slice(2);
    const changed: [string, ScoresMarket, number, SgpModelLeg[]][] = [
      ['as asked', market, rho, legs],
      ['a price', market, rho, legs.map((one, i) => (i === 2 ? { ...one, probability: 0.56 } : one))],
      ['a line', market, rho, legs.map((one, i) => (i === 3 ? { ...one, line: 20 } : one))],
      ['a side', market, rho, legs.map((one, i) => (i === 3 ? { ...one, side: 'low' as const } : one))],
      ['a period', market, rho, [legs[0]!, leg('total', 'h1', 'low', 23, 0.5), ...half]],
      ['ρ', market, rho + 0.01, legs],
      ['the half alone', market, rho, half],
      ['the home win', { ...market, homeWin: 0.64 }, rho, half],
      ['the market total', { ...market, total: { line: 44.5, over: 0.52 } }, rho, half],
      ['no market total', { ...market, total: null }, rho, half],
    ];
    // Each asked after the others were remembered: its own integration, never another's number.
    const integrated = changed.map(([, m, r, l]) => partsJoint(league, m, r, l));
    expect(new Set(integrated).size).toBe(changed.length);
    for (let round = 0; round < 2; round += 1)
      changed.forEach(([name, m, r, l], i) => expect(scoresJoint(league, m, r, l), name).toBe(integrated[i]));
    // The game's legs alone (decision 287's cells): asked again, the same number.
    const game = legs.slice(0, 2);
    const first = scoresJoint(league, market, rho, game);
    expect(scoresJoint(league, market, rho, game)).toBe(first);
    expect(scoresJoint(league, market, rho, [game[1]!, game[0]!])).toBeCloseTo(first, 12);
  });
});

describe('priceSgp with first-part legs', () => {
  it('prices two or more game and part legs on the scores model, alone giving each leg its probability', () => {
    const calibration = calibrateSgp('nfl', 0.62);
    const spread = leg('margin', 'h1', 'high', 1.5, 0.55);
    const under = leg('total', 'h1', 'low', 23, 0.48);
    expect(priceSgp(calibration, [spread]).probability).toBeCloseTo(0.55, 12);
    expect(priceSgp(calibration, [spread, under]).model).toBe('scores');
    expect(priceSgp(calibration, [spread, leg('total', 'full', 'high', 44.5, 0.5)]).model).toBe('scores');
    // A second half or a quarter has no distribution of its own: with one part leg, the correlation model.
    expect(priceSgp(calibration, [spread, leg('total', 'q3', 'high', 10.5, 0.5)]).model).toBe('correlation');
  });

  it('stays within the Fréchet bounds of the legs: part, game, other-period and player legs mixed', () => {
    const legArb = (league: LeagueKey) =>
      fc.oneof(
        fc
          .record({
            kind: fc.constantFrom<Kind>('margin', 'total'),
            period: fc.constantFrom<Period>('full', scoresPart(league)!),
            side: fc.constantFrom<'high' | 'low'>('high', 'low'),
            unit: fc.double({ min: -1, max: 1, noNaN: true }),
            whole: fc.boolean(),
            p: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          })
          .map(({ kind, period, side, unit, whole, p }) => {
            const typical = TYPICAL[league]!;
            const scale = period === 'full' ? 1 : 0.5;
            const around = kind === 'margin' ? 0 : typical.total * scale;
            const base = Math.floor(around + unit * typical.lineSpread);
            const line = Math.max(kind === 'total' ? 0.5 : -Infinity, whole ? base : base + 0.5);
            return leg(kind, period, side, line, p);
          }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((p): SgpModelLeg => ({
          variable: {
            kind: 'player',
            playerId: 'p-1',
            team: 'home',
            stat:
              league === 'nba'
                ? 'player_points'
                : league === 'nfl'
                  ? 'player_pass_yds'
                  : league === 'nhl'
                    ? 'player_shots_on_goal'
                    : league === 'mlb'
                      ? 'batter_hits'
                      : 'player_points',
            period: 'full',
          },
          side: 'high',
          line: 0.5,
          probability: p,
        })),
      );
    fc.assert(
      fc.property(
        fc
          .constantFrom(...LEAGUES)
          .chain((league) =>
            fc.tuple(
              fc.constant(league),
              fc.double({ min: 0.15, max: 0.85, noNaN: true }),
              fc.array(legArb(league), { minLength: 2, maxLength: 4 }),
            ),
          ),
        ([league, homeWin, legs]) => {
          if (sgpConflicts(legs).length > 0) return;
          const calibration = calibrateSgp(league, homeWin);
          const { probability } = priceSgp(calibration, legs);
          const smallest = Math.min(...legs.map((one) => one.probability));
          const lower = legs.reduce((sum, one) => sum + one.probability, 0) - (legs.length - 1);
          expect(probability).toBeLessThanOrEqual(smallest + 1e-12);
          expect(probability).toBeGreaterThanOrEqual(Math.max(1e-9, lower) - 1e-12);
        },
      ),
      { numRuns: 40, seed: 2960 },
    );
  });
});
