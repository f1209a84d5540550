import fc from 'fast-check';
import { poissonDraw } from '#tests/support/sampling.ts';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.ts';
import { calibrateSgp, jointProbability, type SgpModelLeg, type SgpVariable } from './sgp.ts';
import {
  dixonColesRhoBounds,
  fitGoals,
  GOALS_GRID_MAX,
  goalsGrid,
  goalsJoint,
  scoreProbability,
  type GoalsMarket,
} from './soccer-goals.ts';

// The soccer goals model of decision 166: the Dixon–Coles grid, the fit to a match's fair 1X2 and total, joints of
// 1X2 / draw / spread / total / anytime-scorer legs summed over the grid, checked against a simulation of the same
// model written here from its definition (Poisson draws, accepted with probability τ / max τ; each team goal a
// listed player's with his share), and its use by `jointProbability`.

const margin: SgpVariable = { kind: 'margin', period: 'full' };
const total: SgpVariable = { kind: 'total', period: 'full' };
const draw: SgpVariable = { kind: 'draw', period: 'full' };
const scorer = (playerId: string, team: 'home' | 'away'): SgpVariable => ({
  kind: 'player',
  playerId,
  team,
  stat: 'player_goal_scorer_anytime',
  period: 'full',
});
const leg = (
  variable: SgpVariable,
  side: 'high' | 'low',
  line: number | null,
  probability: number,
): SgpModelLeg => ({
  variable,
  side,
  line,
  probability,
});

const poisson = (k: number, mean: number) => {
  let p = Math.exp(-mean);
  for (let i = 1; i <= k; i += 1) p *= mean / i;
  return p;
};

/** Sums P(x, y) over the scores where `holds`, from the model's own cells. */
const sum = (grid: Float64Array, holds: (x: number, y: number) => boolean) => {
  let s = 0;
  for (let x = 0; x <= GOALS_GRID_MAX; x += 1)
    for (let y = 0; y <= GOALS_GRID_MAX; y += 1) if (holds(x, y)) s += grid[x * (GOALS_GRID_MAX + 1) + y]!;
  return s;
};

/** Markets of the kind the board shows: a heavy home favourite (Arsenal–Burnley-like), an even match, an away favourite, a low total, a 3.5 main line. */
const MARKETS: GoalsMarket[] = [
  { home: 0.7, draw: 0.19, away: 0.11, total: { line: 2.5, over: 0.58 } },
  { home: 0.45, draw: 0.27, away: 0.28, total: { line: 2.5, over: 0.52 } },
  { home: 0.33, draw: 0.3, away: 0.37, total: { line: 2.5, over: 0.45 } },
  { home: 0.4, draw: 0.34, away: 0.26, total: { line: 2.5, over: 0.4 } },
  { home: 0.5, draw: 0.22, away: 0.28, total: { line: 3.5, over: 0.38 } },
  { home: 0.8, draw: 0.13, away: 0.07, total: { line: 1.5, over: 0.82 } },
];

describe('the Dixon–Coles grid', () => {
  it('multiplies 0–0 by 1 − λμρ, 1–1 by 1 − ρ, 1–0 by 1 + μρ, 0–1 by 1 + λρ and leaves the rest: with ρ < 0, more 0–0 and 1–1, fewer 1–0 and 0–1', () => {
    const [home, away, rho] = [1.5, 1.1, -0.13];
    const corrected = goalsGrid(home, away, rho);
    const independent = goalsGrid(home, away, 0);
    const cell = (grid: Float64Array, x: number, y: number) => grid[x * (GOALS_GRID_MAX + 1) + y]!;
    // Independent: the product of two Poisson laws (the grid's truncation at 15 goals a side moves a cell < 1e-10).
    for (const [x, y] of [
      [0, 0],
      [2, 1],
      [4, 0],
    ])
      expect(cell(independent, x!, y!)).toBeCloseTo(poisson(x!, home) * poisson(y!, away), 10);
    // The corrections cancel in total (−λμρ + μλρ + λμρ − λμρ over e^{−λ−μ}), so nothing is renormalised away.
    expect(cell(corrected, 0, 0) / cell(independent, 0, 0)).toBeCloseTo(1 - home * away * rho, 12);
    expect(cell(corrected, 1, 1) / cell(independent, 1, 1)).toBeCloseTo(1 - rho, 12);
    expect(cell(corrected, 1, 0) / cell(independent, 1, 0)).toBeCloseTo(1 + away * rho, 12);
    expect(cell(corrected, 0, 1) / cell(independent, 0, 1)).toBeCloseTo(1 + home * rho, 12);
    expect(cell(corrected, 0, 0)).toBeGreaterThan(cell(independent, 0, 0));
    expect(cell(corrected, 1, 1)).toBeGreaterThan(cell(independent, 1, 1));
    expect(cell(corrected, 1, 0)).toBeLessThan(cell(independent, 1, 0));
    expect(cell(corrected, 2, 2)).toBeCloseTo(cell(independent, 2, 2), 15);
    expect(sum(corrected, () => true)).toBeCloseTo(1, 14);
    // So draws rise: the correction's purpose (independent Poisson under-predicts low draws).
    expect(sum(corrected, (x, y) => x === y)).toBeGreaterThan(sum(independent, (x, y) => x === y));
  });

  it('refuses a ρ that would make a probability negative', () => {
    const [lower, upper] = dixonColesRhoBounds(2.5, 0.8);
    expect(lower).toBeCloseTo(-0.4, 12); // 1 + λρ ≥ 0
    expect(upper).toBeCloseTo(0.5, 12);
    expect(() => goalsGrid(2.5, 0.8, -0.41)).toThrow(RangeError);
    expect(() => goalsGrid(0, 1, 0)).toThrow(RangeError);
  });
});

describe('fitGoals', () => {
  it('reproduces the fair 1X2 and the total it is given within 1e-6', () => {
    for (const market of MARKETS) {
      const model = fitGoals(market);
      const grid = model.grid;
      expect(model.residual).toBeLessThan(1e-6);
      expect(Math.abs(sum(grid, (x, y) => x > y) - market.home)).toBeLessThan(1e-6);
      expect(Math.abs(sum(grid, (x, y) => x === y) - market.draw)).toBeLessThan(1e-6);
      expect(Math.abs(sum(grid, (x, y) => x < y) - market.away)).toBeLessThan(1e-6);
      expect(Math.abs(sum(grid, (x, y) => x + y > market.total!.line) - market.total!.over)).toBeLessThan(
        1e-6,
      );
      const [lower, upper] = dixonColesRhoBounds(model.home, model.away);
      expect(model.rho).toBeGreaterThanOrEqual(lower);
      expect(model.rho).toBeLessThanOrEqual(upper);
    }
  });

  it('fits the 1X2 alone with independent Poisson goals (ρ = 0) when no total is priced', () => {
    const model = fitGoals({ home: 0.5, draw: 0.25, away: 0.25, total: null });
    expect(model.rho).toBe(0);
    expect(Math.abs(sum(model.grid, (x, y) => x > y) - 0.5)).toBeLessThan(1e-6);
    expect(Math.abs(sum(model.grid, (x, y) => x < y) - 0.25)).toBeLessThan(1e-6);
    // A heavier favourite needs more home goals.
    expect(fitGoals({ home: 0.7, draw: 0.18, away: 0.12, total: null }).home).toBeGreaterThan(model.home);
  });

  it('fits a whole-number total with its push left out, and a quarter line as two halves (issue 57)', () => {
    // A game the books hang at 3 goals, not 2.5: the fair over is P(over) / (P(over) + P(under)), a total of
    // exactly 3 being a push. Read as P(total > 3) (the old fit) it would need far fewer goals.
    const market = { home: 0.45, draw: 0.27, away: 0.28, total: { line: 3, over: 0.4 } };
    const model = fitGoals(market);
    expect(model.residual).toBeLessThan(1e-9);
    const over = sum(model.grid, (x, y) => x + y > 3);
    const under = sum(model.grid, (x, y) => x + y < 3);
    expect(over / (over + under)).toBeCloseTo(0.4, 9);
    expect(over).toBeLessThan(0.4 - 0.05);
    // Over 2.75: won on 4+, half won on 3 (the 2.5 half wins, the 3 half pushes), lost below.
    const quarter = fitGoals({ ...market, total: { line: 2.75, over: 0.45 } });
    const g = (f: (x: number, y: number) => boolean) => sum(quarter.grid, f);
    const won = g((x, y) => x + y >= 4) + 0.5 * g((x, y) => x + y === 3);
    const lost = g((x, y) => x + y <= 2);
    const underWon = lost;
    const underLost = g((x, y) => x + y >= 4) + 0.5 * g((x, y) => x + y === 3);
    const impliedOver = won / (won + lost);
    const impliedUnder = underWon / (underWon + underLost);
    expect(impliedOver / (impliedOver + impliedUnder)).toBeCloseTo(0.45, 6);
    expect(() => fitGoals({ ...market, total: { line: 2.6, over: 0.5 } })).toThrow(RangeError);
  });

  it('fits the 1X2 after normalising it, and refuses probabilities outside (0, 1)', () => {
    const model = fitGoals({ home: 0.46, draw: 0.26, away: 0.3, total: { line: 2.5, over: 0.5 } });
    expect(Math.abs(sum(model.grid, (x, y) => x > y) - 0.46 / 1.02)).toBeLessThan(1e-6);
    expect(() => fitGoals({ home: 0, draw: 0.5, away: 0.5, total: null })).toThrow(RangeError);
    expect(() => fitGoals({ home: 0.5, draw: 0.25, away: 0.25, total: { line: 2.5, over: 1 } })).toThrow(
      RangeError,
    );
  });
});

/**
 * The model simulated from its definition: home and away goals drawn as Poisson counts (Knuth's method), the score
 * kept with probability τ(x, y) / max τ (rejection sampling of τ · Pois · Pois, which sums to 1), and each team goal
 * given to a listed player with his share. Returns the share of kept draws where every condition holds.
 */
function simulate(
  model: { home: number; away: number; rho: number },
  conditions: (x: number, y: number, scorers: Set<string>) => boolean,
  players: { id: string; team: 'home' | 'away'; share: number }[],
  samples: number,
  seed: number,
): number {
  const random = seededRandom(seed);
  const draw = (mean: number) => poissonDraw(mean, random);
  const { home, away, rho } = model;
  const tau = (x: number, y: number) =>
    x === 0 && y === 0
      ? 1 - home * away * rho
      : x === 0 && y === 1
        ? 1 + home * rho
        : x === 1 && y === 0
          ? 1 + away * rho
          : x === 1 && y === 1
            ? 1 - rho
            : 1;
  const maxTau = Math.max(1, tau(0, 0), tau(0, 1), tau(1, 0), tau(1, 1));
  let kept = 0;
  let hits = 0;
  while (kept < samples) {
    const x = draw(home);
    const y = draw(away);
    if (random() * maxTau >= tau(x, y)) continue;
    kept += 1;
    const scorers = new Set<string>();
    for (const team of ['home', 'away'] as const) {
      const mine = players.filter((p) => p.team === team);
      for (let goal = 0; goal < (team === 'home' ? x : y); goal += 1) {
        let u = random();
        for (const p of mine) {
          if (u < p.share) {
            scorers.add(p.id);
            break;
          }
          u -= p.share;
        }
      }
    }
    if (conditions(x, y, scorers)) hits += 1;
  }
  return hits / samples;
}

describe('goalsJoint against a simulation of the same model (200,000 draws, within 3 standard errors)', () => {
  const SAMPLES = 200_000;
  const agrees = (model: number, sampled: number) => {
    const standardError = Math.sqrt((model * (1 - model)) / SAMPLES);
    expect(Math.abs(model - sampled), `model ${model}, simulated ${sampled}`).toBeLessThan(3 * standardError);
  };

  it('underdog wins and over 2.5 (a heavy home favourite): an underdog win needs underdog goals', () => {
    const market = MARKETS[0]!;
    const model = fitGoals(market);
    const joint = goalsJoint(model, [leg(margin, 'low', 0, market.away), leg(total, 'high', 2.5, 0.58)])!;
    agrees(
      joint,
      simulate(model, (x, y) => y > x && x + y > 2.5, [], SAMPLES, 11),
    );
    // The Gaussian margin–total copula (decision 127) put this at about half of the product; on goals it is close to
    // the product (the underdog's goals make both legs), and far above the copula's figure.
    const gaussian = jointProbability(calibrateSgp('epl', market.home / (market.home + market.away)), [
      leg(margin, 'low', 0, market.away),
      leg(total, 'high', 2.5, 0.58),
    ]);
    expect(joint / gaussian).toBeGreaterThan(1.5);
    expect(joint / (market.away * 0.58)).toBeGreaterThan(0.85);
  });

  it('draw + under 2.5, and home −1.5 + over 3.5 (legs the fit did not use)', () => {
    const model = fitGoals(MARKETS[1]!);
    const drawUnder = goalsJoint(model, [leg(draw, 'high', null, 0.27), leg(total, 'low', 2.5, 0.48)])!;
    agrees(
      drawUnder,
      simulate(model, (x, y) => x === y && x + y < 2.5, [], SAMPLES, 12),
    );
    const bigWin = goalsJoint(model, [leg(margin, 'high', 1.5, 0.2), leg(total, 'high', 3.5, 0.28)])!;
    agrees(
      bigWin,
      simulate(model, (x, y) => x - y > 1.5 && x + y > 3.5, [], SAMPLES, 13),
    );
  });

  it('anytime scorers tied to their team: an away scorer with the away win and the over, a home scorer who does not score', () => {
    const market = MARKETS[2]!;
    const model = fitGoals(market);
    const legs = [
      leg(margin, 'low', 0, market.away),
      leg(total, 'high', 2.5, 0.45),
      leg(scorer('striker', 'away'), 'high', null, 0.38),
      leg(scorer('winger', 'away'), 'high', null, 0.22),
      leg(scorer('nine', 'home'), 'low', null, 0.66),
    ];
    const joint = goalsJoint(model, legs)!;
    // The shares the model fitted: each scorer leg alone has its own probability.
    const shareOf = (team: 'home' | 'away', p: number) => {
      const goals = (k: number) => sum(model.grid, (x, y) => (team === 'home' ? x : y) === k);
      let [lo, hi] = [0, 1];
      for (let i = 0; i < 60; i += 1) {
        const mid = (lo + hi) / 2;
        let scores = 0;
        for (let k = 0; k <= GOALS_GRID_MAX; k += 1) scores += goals(k) * (1 - (1 - mid) ** k);
        if (scores < p) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    const players = [
      { id: 'striker', team: 'away' as const, share: shareOf('away', 0.38) },
      { id: 'winger', team: 'away' as const, share: shareOf('away', 0.22) },
      { id: 'nine', team: 'home' as const, share: shareOf('home', 0.34) },
    ];
    agrees(
      joint,
      simulate(
        model,
        (x, y, s) => y > x && x + y > 2.5 && s.has('striker') && s.has('winger') && !s.has('nine'),
        players,
        SAMPLES,
        14,
      ),
    );
    for (const [single, p] of [
      [legs[2]!, 0.38],
      [legs[4]!, 0.66],
    ] as const)
      expect(goalsJoint(model, [single])).toBeCloseTo(p, 9);
    // His team's win goes with his goal; the other team's win against it.
    const striker = legs[2]!;
    expect(goalsJoint(model, [striker, leg(margin, 'low', 0, market.away)])!).toBeGreaterThan(
      0.38 * market.away,
    );
    expect(goalsJoint(model, [striker, leg(margin, 'high', 0, market.home)])!).toBeLessThan(
      0.38 * market.home,
    );
  });
});

describe('jointProbability with a goals model', () => {
  const market = MARKETS[0]!;
  const cal = calibrateSgp('epl', market.home / (market.home + market.away), market);

  it('prices 1X2 / draw / spread / total / scorer legs on the grid, within the legs’ Fréchet bounds', () => {
    const legs = [leg(margin, 'high', 0, market.home), leg(total, 'high', 2.5, 0.58)];
    expect(jointProbability(cal, legs)).toBeCloseTo(
      sum(cal.goals!.grid, (x, y) => x > y && x + y > 2.5),
      12,
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const random = seededRandom(seed);
        const pool = [
          leg(margin, 'high', 0, market.home),
          leg(margin, 'low', 0, market.away),
          leg(margin, 'high', 1.5, 0.42),
          leg(margin, 'low', 1.5, 0.58),
          leg(total, 'high', 1.5, 0.8),
          leg(total, 'low', 3.5, 0.66),
          leg(scorer('a', 'home'), 'high', null, 0.45),
          leg(scorer('b', 'away'), 'high', null, 0.2),
          leg(scorer('c', 'home'), 'low', null, 0.8),
        ];
        const legs = pool.filter(() => random() < 0.4);
        if (legs.length < 2) return;
        try {
          const joint = jointProbability(cal, legs);
          expect(joint).toBeGreaterThan(0);
          expect(joint).toBeLessThanOrEqual(Math.min(...legs.map((l) => l.probability)));
          expect(joint).toBeGreaterThanOrEqual(
            legs.reduce((s, l) => s + l.probability, 0) - (legs.length - 1),
          );
        } catch (error) {
          // Only conflicts (a home win with an away win) are refused.
          expect(String(error)).toMatch(/cannot both win/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('falls back to the Gaussian model for legs the grid does not price (a half, shots, a player of unknown team)', () => {
    const plain = calibrateSgp('epl', market.home / (market.home + market.away));
    for (const extra of [
      leg({ kind: 'total', period: 'h1' }, 'high', 0.5, 0.7),
      leg(
        { kind: 'player', playerId: 's', team: 'home', stat: 'player_shots', period: 'full' },
        'high',
        2.5,
        0.4,
      ),
      leg(
        { kind: 'player', playerId: 'g', team: null, stat: 'player_goal_scorer_anytime', period: 'full' },
        'high',
        null,
        0.3,
      ),
    ]) {
      const legs = [leg(margin, 'low', 0, market.away), leg(total, 'high', 2.5, 0.58), extra];
      expect(goalsJoint(cal.goals!, legs)).toBeNull();
      expect(jointProbability(cal, legs)).toBe(jointProbability(plain, legs));
    }
  });

  it('is only fitted for soccer', () => {
    expect(calibrateSgp('nhl', 0.6, market).goals).toBeNull();
    expect(scoreProbability(cal.goals!, 0, 0)).toBeGreaterThan(0);
    expect(scoreProbability(cal.goals!, 16, 0)).toBe(0);
  });
});
