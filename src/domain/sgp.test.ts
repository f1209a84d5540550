import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEAGUES, type LeagueKey, type Period } from './markets.ts';
import { normalCdf, normalQuantile } from './mvn.ts';
import type { PropStatKey } from './props.ts';
import { seededRandom } from './random.ts';
import {
  bookSgpDecimal,
  calibrateSgp,
  jointProbability,
  MAX_SGP_MODEL_LEGS,
  priceSgp,
  SGP_DRAW_TOTAL_CORRELATION,
  SGP_GAME_PRIORS,
  SGP_MARGIN_TOTAL_BANDS,
  SGP_PLAYER_CORRELATIONS,
  SGP_STAT_PRIORS,
  sgpConflicts,
  sgpCorrelation,
  sgpMargin,
  type SgpCalibration,
  type SgpCorrelationBand,
  type SgpMarginSchedule,
  type SgpModelLeg,
  type SgpSide,
  type SgpVariable,
} from './sgp.ts';

// The same-game-parlay model of decision 127: the exact cases (one leg, independence, one outcome twice, nested and
// bracketing lines), the direction and size of the structural correlations, the bounds over random leg sets, a Monte
// Carlo of the structural model written here from its description (not from the correlation code), the conflicts,
// and the book prices' margin and anti-arbitrage rules.

/**
 * A typical SGP schedule (decision 127): 4.5 % a leg and a 5 % SGP premium, so 2 legs ≈ 14.7 %, 4 legs ≈ 25.2 %,
 * 8 legs ≈ 49.3 % over the fair joint. Sources: a standard parlay of −110 legs compounds 4.76 % a leg (2 legs pay
 * +264 against a fair +300); regulators that report parlays separately show parlay holds of ~16–17 % (Illinois,
 * March 2021: 17.3 %; New Jersey, first half of 2022: 16 %), and a hold h is a margin h / (1 − h) ≈ 20 %, the
 * margin of a 3–4 leg SGP here; the premium is what same-game correlation costs the bettor on top (a prior). Each
 * simulated book has its own (`SGP_BOOKS`, src/engine/sources/simulation/models.ts).
 */
const TYPICAL_SGP_MARGIN: SgpMarginSchedule = { perLeg: 0.045, premium: 0.05 };

const margin = (period: Period = 'full'): SgpVariable => ({ kind: 'margin', period });
const total = (period: Period = 'full'): SgpVariable => ({ kind: 'total', period });
const draw = (period: Period = 'full'): SgpVariable => ({ kind: 'draw', period });
const player = (
  playerId: string,
  team: 'home' | 'away' | null,
  stat: PropStatKey,
  period: Period = 'full',
): SgpVariable => ({ kind: 'player', playerId, team, stat, period });
const leg = (
  variable: SgpVariable,
  side: SgpSide,
  line: number | null,
  probability: number,
): SgpModelLeg => ({
  variable,
  side,
  line,
  probability,
});

describe('calibrateSgp', () => {
  it('couples margin and total by Φ⁻¹(p)·(σM² + σT²)/(2 μT σT) where no published bands exist: zero for an even game, signed by the favourite', () => {
    const derived = (Object.keys(LEAGUES) as LeagueKey[]).filter((league) => !SGP_MARGIN_TOTAL_BANDS[league]);
    expect(derived).toEqual(['ncaab', 'nhl', 'epl', 'mls']);
    for (const league of derived) {
      const prior = SGP_GAME_PRIORS[league];
      expect(calibrateSgp(league, 0.5).marginTotalCorrelation).toBe(0);
      const expected =
        (normalQuantile(0.6) * (prior.sigmaMargin ** 2 + prior.sigmaTotal ** 2)) /
        (2 * prior.meanTotal * prior.sigmaTotal);
      expect(calibrateSgp(league, 0.6).marginTotalCorrelation).toBeCloseTo(expected, 12);
      expect(calibrateSgp(league, 0.4).marginTotalCorrelation).toBeCloseTo(-expected, 12);
      expect(Math.abs(calibrateSgp(league, 0.999).marginTotalCorrelation)).toBeLessThanOrEqual(0.5);
    }
  });

  it("takes the banded leagues' ρ from their table at the expected margin σM·Φ⁻¹(p): 0 at a pick'em, linear between points, held beyond the last, signed by the favourite", () => {
    for (const [league, bands] of Object.entries(SGP_MARGIN_TOTAL_BANDS) as [
      LeagueKey,
      SgpCorrelationBand[],
    ][]) {
      const sigma = SGP_GAME_PRIORS[league].sigmaMargin;
      const pAt = (spread: number) => normalCdf(spread / sigma);
      expect(calibrateSgp(league, 0.5).marginTotalCorrelation).toBe(0);
      for (const band of bands) {
        expect(calibrateSgp(league, pAt(band.spread)).marginTotalCorrelation).toBeCloseTo(band.rho, 10);
        expect(calibrateSgp(league, 1 - pAt(band.spread)).marginTotalCorrelation).toBeCloseTo(-band.rho, 10);
      }
      const first = bands[0]!;
      expect(calibrateSgp(league, pAt(first.spread / 2)).marginTotalCorrelation).toBeCloseTo(
        first.rho / 2,
        10,
      );
      const last = bands[bands.length - 1]!;
      expect(calibrateSgp(league, pAt(last.spread + 5)).marginTotalCorrelation).toBeCloseTo(last.rho, 10);
      if (bands.length > 1) {
        const [a, b] = [bands[0]!, bands[1]!];
        expect(calibrateSgp(league, pAt((a.spread + b.spread) / 2)).marginTotalCorrelation).toBeCloseTo(
          (a.rho + b.rho) / 2,
          10,
        );
      }
    }
  });

  it('refuses probabilities outside (0, 1)', () => {
    expect(() => calibrateSgp('nba', 0)).toThrow(RangeError);
    expect(() => calibrateSgp('nba', 1)).toThrow(RangeError);
    expect(() => calibrateSgp('nba', Number.NaN)).toThrow(RangeError);
  });
});

describe('sgpCorrelation', () => {
  const nba = calibrateSgp('nba', 0.5);

  it('splits the game into segments like Brownian increments: √0.5 for a half in the game, 0 for disjoint periods', () => {
    const matrix = sgpCorrelation(nba, [
      margin('h1'),
      margin('full'),
      margin('q1'),
      margin('h2'),
      total('q3'),
    ]);
    expect(matrix[0]![1]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(matrix[2]![1]).toBeCloseTo(0.5, 15);
    expect(matrix[2]![3]).toBe(0);
    expect(matrix[2]![4]).toBe(0);
  });

  it('gives corr(margin, total) = ρ of the calibration in every period', () => {
    // An NBA away favourite of ~10 points: its cover goes with the under, so the home margin with the over.
    const favourite = calibrateSgp('nba', 0.2);
    const rho = favourite.marginTotalCorrelation;
    expect(rho).toBeGreaterThan(0.15);
    expect(sgpCorrelation(favourite, [margin(), total()])[0]![1]).toBeCloseTo(rho, 15);
    expect(sgpCorrelation(favourite, [margin('q2'), total('q2')])[0]![1]).toBeCloseTo(rho, 15);
    expect(sgpCorrelation(favourite, [margin('h1'), total()])[0]![1]).toBeCloseTo(rho * Math.SQRT1_2, 15);
  });

  it("ties a player's stat to his team's score by λ, and one player's stat in a quarter to the game by √0.25", () => {
    const [points, score] = [player('a', 'home', 'player_points'), margin()];
    const matrix = sgpCorrelation(nba, [points, score, total(), player('a', 'home', 'player_points', 'q1')]);
    const { sigmaMargin: m, sigmaTotal: t } = SGP_GAME_PRIORS.nba;
    const teamScoreSd = Math.sqrt(m * m + t * t); // of 2 × the home score, at ρ = 0
    expect(matrix[0]![1]).toBeCloseTo(0.45 * (m / teamScoreSd), 12);
    expect(matrix[0]![2]).toBeCloseTo(0.45 * (t / teamScoreSd), 12);
    expect(matrix[0]![3]).toBeCloseTo(0.5, 15);
    // An away player goes against the home margin; a pitcher's strikeouts against the other side's score.
    expect(sgpCorrelation(nba, [player('b', 'away', 'player_points'), score])[0]![1]).toBeLessThan(0);
    const mlb = calibrateSgp('mlb', 0.5);
    const strikeouts = sgpCorrelation(mlb, [player('p', 'home', 'pitcher_strikeouts'), total(), margin()]);
    expect(strikeouts[0]![1]).toBeLessThan(0);
    expect(strikeouts[0]![2]).toBeGreaterThan(0);
  });

  it("correlates one player's stats through his own table, and two players only through the game", () => {
    const matrix = sgpCorrelation(nba, [
      player('a', 'home', 'player_points'),
      player('a', 'home', 'player_points_rebounds_assists'),
      player('b', 'home', 'player_points'),
    ]);
    const lambda = 0.45;
    expect(matrix[0]![1]).toBeCloseTo(lambda * lambda + (1 - lambda * lambda) * 0.9, 12);
    expect(matrix[0]![2]).toBeCloseTo(lambda * lambda, 12);
  });

  it('is positive semi-definite for any set of variables (Cholesky with a 1e-10 tolerance succeeds)', () => {
    const variables = (league: LeagueKey): SgpVariable[] => {
      const cal = calibrateSgp(league, 0.5);
      const periods = Object.keys(cal.periodMasks) as Period[];
      const stats = SGP_PLAYER_CORRELATIONS[cal.sport].stats;
      const out: SgpVariable[] = [];
      for (const period of periods) {
        out.push(margin(period), total(period));
        if (LEAGUES[league].hasDraws) out.push(draw(period));
        for (const stat of stats) {
          out.push(
            player('x', 'home', stat, period),
            player('y', 'away', stat, period),
            player('z', null, stat, period),
          );
        }
      }
      return out;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(LEAGUES) as LeagueKey[])),
        fc.double({ min: 0.02, max: 0.98, noNaN: true }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (league, p, seed) => {
          const random = seededRandom(seed);
          const pool = variables(league);
          const chosen = Array.from({ length: 10 }, () => pool[Math.floor(random() * pool.length)]!);
          const matrix = sgpCorrelation(calibrateSgp(league, p), chosen);
          const n = matrix.length;
          const l = matrix.map(() => new Array<number>(n).fill(0));
          for (let i = 0; i < n; i += 1) {
            for (let j = 0; j <= i; j += 1) {
              let s = matrix[i]![j]!;
              for (let k = 0; k < j; k += 1) s -= l[i]![k]! * l[j]![k]!;
              if (i === j) {
                expect(s).toBeGreaterThan(-1e-10);
                l[i]![i] = Math.sqrt(Math.max(s, 0));
              } else l[i]![j] = l[j]![j]! > 1e-7 ? s / l[j]![j]! : 0;
            }
          }
          for (const row of matrix)
            for (const value of row) expect(Math.abs(value)).toBeLessThanOrEqual(1 + 1e-12);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a period the league does not play and a prop its sport has no prior for', () => {
    expect(() => sgpCorrelation(calibrateSgp('epl', 0.5), [margin('q1')])).toThrow(RangeError);
    expect(() => sgpCorrelation(calibrateSgp('ncaab', 0.5), [total('q3')])).toThrow(RangeError);
    expect(() => sgpCorrelation(nba, [player('a', 'home', 'batter_hits')])).toThrow(RangeError);
    expect(() => sgpCorrelation(nba, [draw()])).toThrow(RangeError);
  });
});

describe('jointProbability: exact cases', () => {
  const nfl = calibrateSgp('nfl', 0.7);

  it('gives one leg its own probability, whatever the variable', () => {
    for (const single of [
      leg(margin(), 'high', 0, 0.7),
      leg(total('h1'), 'low', 23.5, 0.48),
      leg(player('qb', 'home', 'player_pass_yds'), 'high', 250.5, 0.53),
      leg(player('rb', 'away', 'player_anytime_td'), 'high', null, 0.31),
    ]) {
      expect(jointProbability(nfl, [single])).toBeCloseTo(single.probability, 14);
    }
  });

  it('multiplies legs whose variables the structure makes independent (disjoint periods; opposing players when σM = σT and p = 0.5)', () => {
    const nba = calibrateSgp('nba', 0.8);
    const legs = [
      leg(margin('q1'), 'high', 1.5, 0.55),
      leg(total('q2'), 'high', 56.5, 0.5),
      leg(margin('q3'), 'low', -0.5, 0.42),
      leg(total('q4'), 'low', 55.5, 0.47),
    ];
    expect(jointProbability(nba, legs)).toBeCloseTo(0.55 * 0.5 * 0.42 * 0.47, 15);
    const nhl = calibrateSgp('nhl', 0.5);
    const opposing = [
      leg(player('h', 'home', 'player_shots_on_goal'), 'high', 2.5, 0.56),
      leg(player('a', 'away', 'player_points'), 'high', 0.5, 0.44),
    ];
    expect(sgpCorrelation(nhl, [opposing[0]!.variable, opposing[1]!.variable])[0]![1]).toBeCloseTo(0, 15);
    expect(jointProbability(nhl, opposing)).toBeCloseTo(0.56 * 0.44, 14);
  });

  it('gives the same outcome twice (or three times) that outcome', () => {
    const over = leg(total(), 'high', 44.5, 0.52);
    expect(jointProbability(nfl, [over, over])).toBeCloseTo(0.52, 14);
    const td = leg(player('te', 'home', 'player_anytime_td'), 'high', null, 0.38);
    expect(jointProbability(nfl, [td, td, td])).toBeCloseTo(0.38, 14);
  });

  it("gives home moneyline + home −3.5 the spread's probability (nested lines on one variable)", () => {
    const moneyline = leg(margin(), 'high', 0, 0.7);
    const spread = leg(margin(), 'high', 3.5, 0.56);
    expect(jointProbability(nfl, [moneyline, spread])).toBeCloseTo(0.56, 14);
    // With a third leg, the pair still counts once: the same as the spread alone with that leg.
    const over = leg(total(), 'high', 44.5, 0.5);
    expect(jointProbability(nfl, [moneyline, spread, over])).toBe(jointProbability(nfl, [spread, over]));
  });

  it('gives home moneyline + away +3.5 p₁ + p₂ − 1 (a bracket on one variable)', () => {
    const moneyline = leg(margin(), 'high', 0, 0.7);
    const awayPlus = leg(margin(), 'low', 3.5, 0.44);
    // On the NFL's score distributions (decision 287) each leg keeps its own probability: the same, but for a tie,
    // where the moneyline pushes and the ticket is repriced (a few 1e-9 here).
    expect(jointProbability(nfl, [moneyline, awayPlus])).toBeCloseTo(0.7 + 0.44 - 1, 8);
  });

  it('treats a draw as implying a margin leg that holds at 0 (draw + home +0.5 is the draw)', () => {
    const epl = calibrateSgp('epl', 0.6);
    const drawLeg = leg(draw(), 'high', null, 0.27);
    const homeOrDraw = leg(margin(), 'high', -0.5, 0.71);
    expect(jointProbability(epl, [drawLeg, homeOrDraw])).toBeCloseTo(0.27, 14);
    // A home win implies "no draw": the no-draw leg adds nothing.
    const home = leg(margin(), 'high', 0, 0.44);
    expect(jointProbability(epl, [home, leg(draw(), 'low', null, 0.73)])).toBeCloseTo(0.44, 14);
  });
});

describe('jointProbability: the structure', () => {
  it('puts a favourite with the over above the product, mildly (ratio in (1, 1.1)), and an underdog with it below', () => {
    // Not the NBA: its published outcomes put a favourite's cover with the under (decision 165; tested below).
    for (const [league, p, line] of [
      ['nfl', 0.7, 44.5],
      ['nhl', 0.62, 6.5],
      ['mlb', 0.6, 8.5],
      ['ncaab', 0.8, 145.5],
    ] as const) {
      const cal = calibrateSgp(league, p);
      const over = leg(total(), 'high', line, 0.5);
      const favourite = jointProbability(cal, [leg(margin(), 'high', 0, p), over]) / (p * 0.5);
      expect(favourite).toBeGreaterThan(1);
      expect(favourite).toBeLessThan(1.1);
      const underdog = jointProbability(cal, [leg(margin(), 'low', 0, 1 - p), over]) / ((1 - p) * 0.5);
      expect(underdog).toBeLessThan(1);
    }
    // An away favourite and the over go together too.
    const away = calibrateSgp('nfl', 0.3);
    const ratio =
      jointProbability(away, [leg(margin(), 'low', 0, 0.7), leg(total(), 'high', 44.5, 0.5)]) / (0.7 * 0.5);
    expect(ratio).toBeGreaterThan(1);
  });

  it("puts a player's points over with the game total's over and his team's win above the product", () => {
    const cal = calibrateSgp('nba', 0.6);
    const points = leg(player('a', 'home', 'player_points'), 'high', 27.5, 0.48);
    const over = leg(total(), 'high', 224.5, 0.5);
    const homeWin = leg(margin(), 'high', 0, 0.6);
    expect(jointProbability(cal, [points, over])).toBeGreaterThan(0.48 * 0.5 * 1.05);
    expect(jointProbability(cal, [points, homeWin])).toBeGreaterThan(0.48 * 0.6 * 1.05);
    // The other team's player goes against the home win.
    const rival = leg(player('b', 'away', 'player_points'), 'high', 24.5, 0.5);
    expect(jointProbability(cal, [rival, homeWin])).toBeLessThan(0.5 * 0.6);
    // Unknown team: only the total, at half strength.
    const unknown = leg(player('c', null, 'player_points'), 'high', 20.5, 0.5);
    const withOver = jointProbability(cal, [unknown, over]) / 0.25;
    expect(withOver).toBeGreaterThan(1);
    expect(withOver).toBeLessThan(jointProbability(cal, [points, over]) / (0.48 * 0.5));
  });

  it('puts a draw with the under of its period', () => {
    const epl = calibrateSgp('epl', 0.5);
    const drawUnder = jointProbability(epl, [
      leg(draw(), 'high', null, 0.28),
      leg(total(), 'low', 2.5, 0.52),
    ]);
    expect(drawUnder).toBeGreaterThan(0.28 * 0.52);
  });
});

/** A random leg set of 2–10 legs the model accepts (no conflicts), with its calibration. */
const legSets = fc
  .record({
    league: fc.constantFrom(...(Object.keys(LEAGUES) as LeagueKey[])),
    p: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    seed: fc.integer({ min: 0, max: 2 ** 31 }),
    count: fc.integer({ min: 2, max: MAX_SGP_MODEL_LEGS }),
  })
  .map(({ league, p, seed, count }) => {
    const cal = calibrateSgp(league, p);
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const periods = Object.keys(cal.periodMasks) as Period[];
    const stats = SGP_PLAYER_CORRELATIONS[cal.sport].stats;
    const legs: SgpModelLeg[] = [];
    for (let attempt = 0; legs.length < count && attempt < 200; attempt += 1) {
      const kind = random();
      const period = random() < 0.6 ? 'full' : pick(periods);
      const probability = 0.03 + 0.94 * random();
      const side: SgpSide = random() < 0.5 ? 'high' : 'low';
      let candidate: SgpModelLeg;
      if (kind < 0.25)
        candidate = leg(margin(period), side, Math.round(random() * 16 - 8) + 0.5, probability);
      else if (kind < 0.45)
        candidate = leg(total(period), side, Math.round(random() * 40) + 0.5, probability);
      else if (kind < 0.55 && LEAGUES[league].hasDraws)
        candidate = leg(draw(period), 'high', null, probability);
      else {
        const id = pick(['a', 'b', 'c', 'd']);
        const team = ({ a: 'home', b: 'home', c: 'away', d: null } as const)[id as 'a' | 'b' | 'c' | 'd'];
        const line = random() < 0.2 ? null : Math.round(random() * 30) + 0.5;
        candidate = leg(player(id, team, pick(stats), period), side, line, probability);
      }
      if (sgpConflicts([...legs, candidate]).length === 0) legs.push(candidate);
    }
    return { cal, legs };
  })
  .filter(({ legs }) => legs.length >= 2);

describe('jointProbability: bounds over random leg sets', () => {
  it('stays in (0, 1), never above the smallest leg, never below Σp − (n − 1), and repeats itself', () => {
    fc.assert(
      fc.property(legSets, ({ cal, legs }) => {
        const joint = jointProbability(cal, legs);
        expect(joint).toBeGreaterThan(0);
        expect(joint).toBeLessThan(1);
        expect(joint).toBeLessThanOrEqual(Math.min(...legs.map((l) => l.probability)));
        // Fréchet's lower bound, to the last bits of a double (Φ(Φ⁻¹(p)) returns p within 1e-16, not exactly).
        expect(joint).toBeGreaterThanOrEqual(
          legs.reduce((sum, l) => sum + l.probability, 0) - (legs.length - 1) - 1e-12,
        );
        expect(jointProbability(cal, legs)).toBe(joint);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses invalid input: no legs, more than 10, probabilities outside (0, 1), conflicts, unknown periods or props, a player on two teams', () => {
    const cal = calibrateSgp('nba', 0.6);
    const over = leg(total(), 'high', 224.5, 0.5);
    expect(() => jointProbability(cal, [])).toThrow(RangeError);
    expect(() => jointProbability(cal, new Array(11).fill(over))).toThrow(RangeError);
    expect(() => jointProbability(cal, [{ ...over, probability: 0 }])).toThrow(RangeError);
    expect(() => jointProbability(cal, [{ ...over, probability: 1 }])).toThrow(RangeError);
    expect(() => jointProbability(cal, [over, leg(total(), 'low', 224.5, 0.5)])).toThrow(/cannot both win/);
    expect(() => jointProbability(cal, [leg(total('p1'), 'high', 50.5, 0.5)])).toThrow(RangeError);
    expect(() => jointProbability(cal, [leg(margin(), 'high', null, 0.5)])).toThrow(RangeError);
    expect(() =>
      jointProbability(cal, [leg(player('a', 'home', 'player_pass_yds'), 'high', 1.5, 0.5)]),
    ).toThrow(RangeError);
    expect(() =>
      jointProbability(cal, [
        leg(player('a', 'home', 'player_points'), 'high', 20.5, 0.5),
        leg(player('a', 'away', 'player_rebounds'), 'high', 5.5, 0.5),
      ]),
    ).toThrow(/two teams/);
  });
});

/**
 * The structural model simulated directly from its description in decision 127: each segment's margin and total
 * in points with corr ρ; team scores (T ± M)/2; a player's stat λ × his team's standardised score (λ/2 × the total's
 * when his team is unknown) plus his own part, drawn per segment from his sport's table; a draw −0.35 × its period's
 * standardised total plus its own noise. A leg wins when its variable, standardised, is beyond Φ⁻¹ of its probability.
 */
function simulate(cal: SgpCalibration, legs: readonly SgpModelLeg[], samples: number, seed: number): number {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const { sigmaMargin: sm, sigmaTotal: st } = SGP_GAME_PRIORS[cal.league];
  const rho = cal.marginTotalCorrelation;
  const segments = cal.segments;
  const table = SGP_PLAYER_CORRELATIONS[cal.sport];
  // Cholesky factor of the player table, to draw a player's own parts in one segment.
  const n = table.stats.length;
  const chol = table.matrix.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let s = table.matrix[i]![j]!;
      for (let k = 0; k < j; k += 1) s -= chol[i]![k]! * chol[j]![k]!;
      chol[i]![j] = i === j ? Math.sqrt(s) : s / chol[j]![j]!;
    }
  }
  const players = [
    ...new Set(legs.flatMap((l) => (l.variable.kind === 'player' ? [l.variable.playerId] : []))),
  ];
  const drawPeriods = [
    ...new Set(legs.flatMap((l) => (l.variable.kind === 'draw' ? [l.variable.period] : []))),
  ];
  // Each leg: the segments of its period, their total share, and its threshold.
  const plan = legs.map((l) => {
    const inside = segments.map((_, s) => ((cal.periodMasks[l.variable.period]! >> s) & 1) === 1);
    const share = segments.reduce((sum, seg, s) => sum + (inside[s] ? seg.share : 0), 0);
    const threshold = l.side === 'high' ? -normalQuantile(l.probability) : normalQuantile(l.probability);
    return { leg: l, inside, share, threshold };
  });
  const m = new Float64Array(segments.length);
  const t = new Float64Array(segments.length);
  let hits = 0;
  for (let sample = 0; sample < samples; sample += 1) {
    segments.forEach((seg, s) => {
      const u = normal();
      const v = normal();
      m[s] = sm * Math.sqrt(seg.share) * u;
      t[s] = st * Math.sqrt(seg.share) * (rho * u + Math.sqrt(1 - rho * rho) * v);
    });
    // own[player][segment][stat]: a player's own parts, correlated across his stats by the table.
    const own = new Map<string, number[][]>();
    for (const id of players) {
      own.set(
        id,
        segments.map(() => {
          const e = table.stats.map(() => normal());
          return chol.map((row) => row.reduce((sum, c, k) => sum + c * e[k]!, 0));
        }),
      );
    }
    const drawNoise = new Map(drawPeriods.map((period) => [period, normal()]));
    let all = true;
    for (const { leg: l, inside, share, threshold } of plan) {
      let mp = 0;
      let tp = 0;
      inside.forEach((yes, s) => {
        if (yes) {
          mp += m[s]!;
          tp += t[s]!;
        }
      });
      const standardTotal = tp / (st * Math.sqrt(share));
      const v = l.variable;
      let value: number;
      if (v.kind === 'margin') value = mp / (sm * Math.sqrt(share));
      else if (v.kind === 'total') value = standardTotal;
      else if (v.kind === 'draw') {
        const k = SGP_DRAW_TOTAL_CORRELATION;
        value = k * standardTotal + Math.sqrt(1 - k * k) * drawNoise.get(v.period)!;
      } else {
        const stat = SGP_STAT_PRIORS[cal.sport][v.stat]!;
        const index = table.stats.indexOf(v.stat);
        let ownPart = 0;
        own.get(v.playerId)!.forEach((parts, s) => {
          if (inside[s]) ownPart += parts[index]! * Math.sqrt(segments[s]!.share / share);
        });
        if (v.team === null) {
          const lambda = stat.loading / 2;
          value = lambda * standardTotal + Math.sqrt(1 - lambda * lambda) * ownPart;
        } else {
          const side = stat.on === 'team' ? v.team : v.team === 'home' ? 'away' : 'home';
          const sign = side === 'home' ? 1 : -1;
          // The side's score (T ± M)/2 over the period, standardised by its deviation.
          const sd = Math.sqrt((share * (st * st + sm * sm + sign * 2 * rho * st * sm)) / 4);
          value = stat.loading * ((tp + sign * mp) / 2 / sd) + Math.sqrt(1 - stat.loading ** 2) * ownPart;
        }
      }
      if (l.side === 'high' ? !(value > threshold) : !(value < threshold)) {
        all = false;
        break;
      }
    }
    if (all) hits += 1;
  }
  return hits / samples;
}

describe('jointProbability against a Monte Carlo of the structural model', () => {
  const SAMPLES = 200_000;
  // Within 4 standard errors of the simulation plus 2e-4 for the quasi-Monte Carlo integration (decision 127).
  const agrees = (cal: SgpCalibration, legs: SgpModelLeg[], seed: number) => {
    const model = jointProbability(cal, legs);
    const sampled = simulate(cal, legs, SAMPLES, seed);
    const standardError = Math.sqrt((model * (1 - model)) / SAMPLES);
    expect(Math.abs(model - sampled), `model ${model}, simulated ${sampled}`).toBeLessThan(
      4 * standardError + 2e-4,
    );
    return model;
  };

  it('NFL favourite moneyline + over (2 legs)', () => {
    const cal = calibrateSgp('nfl', 0.72);
    agrees(cal, [leg(margin(), 'high', 0, 0.72), leg(total(), 'high', 46.5, 0.5)], 1);
  });

  it('NBA spread + over + a home player over and an away player under (4 legs, two in one quarter)', () => {
    const cal = calibrateSgp('nba', 0.66);
    agrees(
      cal,
      [
        leg(margin(), 'high', 4.5, 0.55),
        leg(total(), 'high', 221.5, 0.5),
        leg(player('tatum', 'home', 'player_points'), 'high', 27.5, 0.47),
        leg(player('james', 'away', 'player_rebounds', 'q1'), 'low', 2.5, 0.58),
      ],
      2,
    );
  });

  it('NFL six legs: moneyline, first-half total, a quarterback twice, a receiver, an unknown-team scorer', () => {
    const cal = calibrateSgp('nfl', 0.62);
    agrees(
      cal,
      [
        leg(margin(), 'high', 0, 0.62),
        leg(total('h1'), 'high', 22.5, 0.5),
        leg(player('qb', 'home', 'player_pass_yds'), 'high', 245.5, 0.52),
        leg(player('qb', 'home', 'player_pass_tds'), 'high', 1.5, 0.45),
        leg(player('wr', 'away', 'player_receptions'), 'low', 5.5, 0.55),
        leg(player('rb', null, 'player_anytime_td'), 'high', null, 0.4),
      ],
      3,
    );
  });

  it('soccer draw + under 2.5 + a first-half under', () => {
    const cal = calibrateSgp('epl', 0.55);
    agrees(
      cal,
      [leg(draw(), 'high', null, 0.27), leg(total(), 'low', 2.5, 0.52), leg(total('h1'), 'low', 1.5, 0.7)],
      4,
    );
  });

  it("MLB pitcher's strikeouts + first-five under + the other side's hitter", () => {
    const cal = calibrateSgp('mlb', 0.58);
    agrees(
      cal,
      [
        leg(player('ace', 'home', 'pitcher_strikeouts'), 'high', 6.5, 0.5),
        leg(total('f5'), 'low', 4.5, 0.53),
        leg(player('slugger', 'away', 'batter_total_bases'), 'low', 1.5, 0.56),
      ],
      5,
    );
  });

  it('NBA moneyline with both halves won (singular: the game is the sum of its halves)', () => {
    const cal = calibrateSgp('nba', 0.5);
    const joint = agrees(
      cal,
      [
        leg(margin(), 'high', 0, 0.5),
        leg(margin('h1'), 'high', 0.5, 0.5),
        leg(margin('h2'), 'high', 0.5, 0.5),
      ],
      6,
    );
    // At even thresholds, both halves won imply the game won: exactly 1/4.
    expect(joint).toBeCloseTo(0.25, 6);
  });
});

/**
 * Decision 165: the model's conditional figures against published samples, computed by the model's own maths at
 * representative fair lines of each band. A favourite of `spread` points has the home win probability
 * Φ(spread / σM) the model itself implies; its spread leg and the over at a fair line are 0.5 each. Within 1.5 pp.
 */
describe('calibration to published samples (within 1.5 pp)', () => {
  const TOLERANCE = 0.015;
  /** The model's P(favourite covers −spread and over), home favourite or away favourite. */
  const coverAndOver = (league: LeagueKey, spread: number, totalLine: number, home: boolean) => {
    const p = normalCdf(spread / SGP_GAME_PRIORS[league].sigmaMargin);
    const cal = calibrateSgp(league, home ? p : 1 - p);
    const cover = home ? leg(margin(), 'high', spread, 0.5) : leg(margin(), 'low', -spread, 0.5);
    return jointProbability(cal, [cover, leg(total(), 'high', totalLine, 0.5)]);
  };

  it('NFL: P(over | favourite covers) 51.1 % at −3, 52.1 % at −7, 50.7 % at −10 (total 44.5)', () => {
    for (const [spread, published] of [
      [3, 0.511],
      [7, 0.521],
      [10, 0.507],
    ] as const) {
      for (const home of [true, false]) {
        const conditional = coverAndOver('nfl', spread, 44.5, home) / 0.5;
        expect(Math.abs(conditional - published), `spread ${spread}: ${conditional}`).toBeLessThan(TOLERANCE);
      }
    }
  });

  it('NBA: favourite covers and over 23.9 % at −6, 18.0 % at −13 (total 225)', () => {
    for (const [spread, published] of [
      [6, 0.239],
      [13, 0.18],
    ] as const) {
      for (const home of [true, false]) {
        const joint = coverAndOver('nba', spread, 225, home);
        expect(Math.abs(joint - published), `spread ${spread}: ${joint}`).toBeLessThan(TOLERANCE);
      }
    }
  });

  it('MLB: the over rate 1.9 pp higher when a −150 favourite wins than when the underdog does (total 8.5)', () => {
    const p = 0.6; // −150, fair
    for (const home of [true, false]) {
      const cal = calibrateSgp('mlb', home ? p : 1 - p);
      const over = leg(total(), 'high', 8.5, 0.5);
      const favourite = leg(margin(), home ? 'high' : 'low', 0, p);
      const underdog = leg(margin(), home ? 'low' : 'high', 0, 1 - p);
      const difference =
        jointProbability(cal, [favourite, over]) / p - jointProbability(cal, [underdog, over]) / (1 - p);
      expect(Math.abs(difference - 0.019), `difference ${difference}`).toBeLessThan(TOLERANCE);
    }
  });
});

describe('priceSgp: the model named', () => {
  const market = { home: 0.2, draw: 0.25, away: 0.55, total: { line: 2.5, over: 0.56 } };
  const awayWin: SgpModelLeg = {
    variable: { kind: 'margin', period: 'full' },
    side: 'low',
    line: 0,
    probability: market.away,
  };
  const over: SgpModelLeg = {
    variable: { kind: 'total', period: 'full' },
    side: 'high',
    line: 2.5,
    probability: market.total.over,
  };

  it('is the goals grid for full-game soccer legs, and the same probability jointProbability gives', () => {
    const calibration = calibrateSgp('epl', market.home / (market.home + market.away), market);
    const priced = priceSgp(calibration, [awayWin, over]);
    expect(priced.model).toBe('goals');
    expect(priced.probability).toBe(jointProbability(calibration, [awayWin, over]));
  });

  it('falls back to the correlation model for a leg the grid does not cover (a half), and without a fitted match', () => {
    const calibration = calibrateSgp('epl', market.home / (market.home + market.away), market);
    const firstHalfOver: SgpModelLeg = {
      variable: { kind: 'total', period: 'h1' },
      side: 'high',
      line: 1.5,
      probability: 0.3,
    };
    expect(priceSgp(calibration, [awayWin, firstHalfOver]).model).toBe('correlation');
    expect(priceSgp(calibrateSgp('epl', 0.27), [awayWin, over]).model).toBe('correlation');
    // NBA: two full-game legs are the score distributions' (decision 287), and so is one with a first-half leg
    // (decision 296: the half is the game split); one with a quarter's leg (no distribution of its own) the copula's.
    expect(priceSgp(calibrateSgp('nba', 0.6), [awayWin, over]).model).toBe('scores');
    expect(priceSgp(calibrateSgp('nba', 0.6), [awayWin, firstHalfOver]).model).toBe('scores');
    const thirdQuarterOver: SgpModelLeg = { ...firstHalfOver, variable: { kind: 'total', period: 'q3' } };
    expect(priceSgp(calibrateSgp('nba', 0.6), [awayWin, thirdQuarterOver]).model).toBe('correlation');
  });
});

describe('sgpConflicts', () => {
  it('finds both sides of one market, non-overlapping over/under lines, both moneylines, and a draw with a win', () => {
    const reasons = (legs: SgpModelLeg[]) => sgpConflicts(legs).map((conflict) => conflict.legs);
    expect(reasons([leg(total(), 'high', 44.5, 0.5), leg(total(), 'low', 44.5, 0.5)])).toEqual([[0, 1]]);
    const points = player('a', 'home', 'player_points');
    expect(
      reasons([leg(points, 'high', 27.5, 0.5), leg(margin(), 'high', 0, 0.6), leg(points, 'low', 25.5, 0.5)]),
    ).toEqual([[0, 2]]);
    expect(reasons([leg(margin(), 'high', 0, 0.6), leg(margin(), 'low', 0, 0.4)])).toEqual([[0, 1]]);
    expect(reasons([leg(draw(), 'high', null, 0.27), leg(margin(), 'high', 0, 0.45)])).toEqual([[0, 1]]);
    expect(reasons([leg(margin(), 'low', 0, 0.28), leg(draw(), 'high', null, 0.27)])).toEqual([[0, 1]]);
    const td = player('rb', 'home', 'player_anytime_td');
    expect(reasons([leg(td, 'high', null, 0.4), leg(td, 'low', null, 0.6)])).toEqual([[0, 1]]);
    // A first half above a line the full game is below.
    expect(reasons([leg(total('h1'), 'high', 24.5, 0.5), leg(total(), 'low', 23.5, 0.1)])).toEqual([[0, 1]]);
    expect(
      sgpConflicts([leg(total('h1'), 'high', 24.5, 0.5), leg(total(), 'low', 23.5, 0.1)])[0]!.reason,
    ).toMatch(/part/);
  });

  it('finds nothing in compatible legs: over 25.5 + under 27.5, a draw with home +0.5, a draw of another period', () => {
    const points = player('a', 'home', 'player_points');
    expect(sgpConflicts([leg(points, 'high', 25.5, 0.55), leg(points, 'low', 27.5, 0.55)])).toEqual([]);
    expect(sgpConflicts([leg(draw(), 'high', null, 0.27), leg(margin(), 'high', -0.5, 0.7)])).toEqual([]);
    expect(sgpConflicts([leg(draw('h1'), 'high', null, 0.42), leg(margin(), 'high', 0, 0.45)])).toEqual([]);
    expect(sgpConflicts([leg(total(), 'high', 24.5, 0.5), leg(total('h1'), 'low', 23.5, 0.9)])).toEqual([]);
  });
});

describe('book prices', () => {
  const single = 1 + 100 / 110;

  it('sgpMargin compounds per leg and adds the premium: ~14.7 % for 2 legs, ~25.2 % for 4, ~49.3 % for 8', () => {
    expect(sgpMargin(TYPICAL_SGP_MARGIN, 2)).toBeCloseTo(1.045 ** 2 * 1.05 - 1, 15);
    expect(sgpMargin(TYPICAL_SGP_MARGIN, 4)).toBeCloseTo(0.252, 3);
    expect(sgpMargin(TYPICAL_SGP_MARGIN, 8)).toBeCloseTo(0.493, 3);
    for (let k = 1; k < 10; k += 1) {
      expect(sgpMargin(TYPICAL_SGP_MARGIN, k + 1)).toBeGreaterThan(sgpMargin(TYPICAL_SGP_MARGIN, k));
    }
    expect(() => sgpMargin(TYPICAL_SGP_MARGIN, 0)).toThrow(RangeError);
  });

  it("a book's margin over the fair joint grows with the number of legs", () => {
    const joint = 0.2;
    const price = (legs: number) =>
      bookSgpDecimal(
        joint,
        legs,
        TYPICAL_SGP_MARGIN,
        { legDecimals: new Array(legs).fill(3), oppositeDecimals: new Array(legs).fill(undefined) },
        0.1,
      );
    const margins = [2, 3, 4, 6, 8].map((legs) => 1 / (joint * price(legs)) - 1);
    for (let i = 1; i < margins.length; i += 1) expect(margins[i]!).toBeGreaterThan(margins[i - 1]!);
  });

  it("is never above the product of the book's singles when the legs correlate positively", () => {
    // Fair 0.5 legs at −110: a model joint above the product would otherwise pay more than the singles parlayed.
    const decimal = bookSgpDecimal(
      0.13,
      3,
      { perLeg: 0, premium: 0 },
      { legDecimals: [single, single, single], oppositeDecimals: [single, single, single] },
      0.125,
    );
    expect(decimal).toBeLessThanOrEqual(single ** 3);
    expect(decimal).toBe(Math.floor(single ** 3 * 100) / 100);
    // Negatively correlated legs may pay more than the singles parlayed.
    const negative = bookSgpDecimal(
      0.1,
      3,
      { perLeg: 0, premium: 0 },
      { legDecimals: [single, single, single], oppositeDecimals: [single, single, single] },
      0.125,
    );
    expect(negative).toBeGreaterThan(single ** 3);
  });

  it('keeps the parlay above the cover bound: 1/decimal ≥ 1 − Σ 1/opposite + 0.01, only when every leg has an opposite', () => {
    // A joint the model puts very low (two nearly exclusive legs) at a book whose opposites are generous.
    // The book's singles say the two legs win together at least 1 − 1/2.6 − 1/2.4 ≈ 20 % of the time.
    const covered = bookSgpDecimal(
      0.001,
      2,
      TYPICAL_SGP_MARGIN,
      { legDecimals: [1.5, 1.6], oppositeDecimals: [2.6, 2.4] },
      0.4,
    );
    const bound = 1 - (1 / 2.6 + 1 / 2.4) + 0.01;
    expect(covered).toBe(Math.floor(100 / bound) / 100);
    expect(1 / covered).toBeGreaterThanOrEqual(bound);
    expect(covered).toBeLessThan(1 / (0.001 * (1 + sgpMargin(TYPICAL_SGP_MARGIN, 2))));
    // One leg without an opposite: nothing covers "only that leg loses", so the model's price stands.
    const uncovered = bookSgpDecimal(
      0.01,
      2,
      TYPICAL_SGP_MARGIN,
      { legDecimals: [2.6, 2.4], oppositeDecimals: [1.5, undefined] },
      0.2,
    );
    expect(uncovered).toBe(
      Math.floor((100 / (0.01 * (1 + sgpMargin(TYPICAL_SGP_MARGIN, 2)))) * (1 + 1e-12)) / 100,
    );
  });

  it('rounds down to two places and never quotes below 1.01', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 0.95, noNaN: true }),
        fc.double({ min: 0.001, max: 0.95, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.option(fc.double({ min: 1.01, max: 20, noNaN: true }), { nil: undefined }), {
          minLength: 10,
          maxLength: 10,
        }),
        (joint, naive, legs, opposites) => {
          const legDecimals = new Array(legs).fill(1.9);
          const oppositeDecimals = opposites.slice(0, legs);
          const decimal = bookSgpDecimal(
            joint,
            legs,
            TYPICAL_SGP_MARGIN,
            { legDecimals, oppositeDecimals },
            naive,
          );
          const modelPrice = 1 / (joint * (1 + sgpMargin(TYPICAL_SGP_MARGIN, legs)));
          expect(decimal).toBeGreaterThanOrEqual(1.01);
          expect(Math.abs(decimal * 100 - Math.round(decimal * 100))).toBeLessThan(1e-9);
          if (decimal > 1.01) {
            expect(decimal).toBeLessThanOrEqual(modelPrice);
            if (joint >= naive) expect(decimal).toBeLessThanOrEqual(1.9 ** legs);
            if (oppositeDecimals.every((d) => d !== undefined)) {
              const bound = 1 - oppositeDecimals.reduce((sum, d) => sum + 1 / d!, 0) + 0.01;
              expect(1 / decimal).toBeGreaterThanOrEqual(bound);
            }
          }
        },
      ),
    );
    expect(
      bookSgpDecimal(
        0.95,
        1,
        TYPICAL_SGP_MARGIN,
        { legDecimals: [1.05], oppositeDecimals: [undefined] },
        0.95,
      ),
    ).toBe(1.01);
  });

  it('refuses mismatched legs and invalid odds', () => {
    const book = { legDecimals: [1.9, 1.9], oppositeDecimals: [1.9, 1.9] };
    expect(() => bookSgpDecimal(0.3, 3, TYPICAL_SGP_MARGIN, book, 0.25)).toThrow(RangeError);
    expect(() => bookSgpDecimal(0, 2, TYPICAL_SGP_MARGIN, book, 0.25)).toThrow(RangeError);
    expect(() =>
      bookSgpDecimal(0.3, 2, TYPICAL_SGP_MARGIN, { ...book, legDecimals: [1, 1.9] }, 0.25),
    ).toThrow(RangeError);
  });
});
