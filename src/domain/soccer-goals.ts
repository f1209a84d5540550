import { fairHighProbability } from './integer-distribution.ts';
import type { SgpModelLeg } from './sgp.ts';

// Soccer same-game parlays from a goals model (issue 35, decision 166). One Gaussian margin–total correlation cannot
// say that an underdog win needs underdog goals (decision 127's model priced "underdog wins and over 2.5" at about half
// of what Poisson goals give), so a soccer match is a grid of scores instead: each side's goals Poisson (home λ, away
// μ) with the Dixon–Coles correction of the four low scores (Dixon & Coles 1997, Applied Statistics 46(2)):
//
//   P(x, y) = τ(x, y) · Pois(x; λ) · Pois(y; μ),   τ(0,0) = 1 − λμρ, τ(0,1) = 1 + λρ, τ(1,0) = 1 + μρ, τ(1,1) = 1 − ρ,
//
// τ = 1 elsewhere; the corrections cancel, so the grid still sums to 1 (ρ < 0: more 0–0 and 1–1, fewer 1–0 and 0–1).
// λ, μ and ρ are fitted to the match's fair 1X2 and its main total; every full-game 1X2, draw, spread and total leg is
// then a set of scores, and the joint of any of them is the grid's mass where all hold. An anytime scorer's leg is tied
// to his team's goals: each of them is his with probability s (his share), so P(he scores | his team scores k) =
// 1 − (1 − s)^k, with s fitted to his leg's fair probability.

/** The grid's largest score per side (P(a side scores more than 15) is below 1e-7 at 4 goals expected). */
export const GOALS_GRID_MAX = 15;
const SIZE = GOALS_GRID_MAX + 1;
/** |ρ| of the Dixon–Coles correction is kept within this (and within τ ≥ 0). */
export const GOALS_MAX_DC_RHO = 0.5;

/** The market a goals model is fitted to: fair 1X2 probabilities and, when priced, one full-game total. */
export interface GoalsMarket {
  home: number;
  draw: number;
  away: number;
  total: { line: number; over: number } | null;
}

export interface GoalsModel {
  /** Expected home goals (before the correction). */
  home: number;
  /** Expected away goals. */
  away: number;
  /** The Dixon–Coles correlation parameter (0 when the market has no total: independent Poisson). */
  rho: number;
  /** P(home x, away y) at index x · 16 + y, summing to 1 over the grid. */
  grid: Float64Array;
  /** The largest absolute difference between the fitted model and the market's fair 1X2 and total. */
  residual: number;
}

/** The Dixon–Coles factor of score (x, y). */
export function dixonColesTau(x: number, y: number, home: number, away: number, rho: number): number {
  if (x === 0 && y === 0) return 1 - home * away * rho;
  if (x === 0 && y === 1) return 1 + home * rho;
  if (x === 1 && y === 0) return 1 + away * rho;
  if (x === 1 && y === 1) return 1 - rho;
  return 1;
}

/** The range of ρ for which every τ is non-negative, within ±GOALS_MAX_DC_RHO. */
export function dixonColesRhoBounds(home: number, away: number): [number, number] {
  const lower = Math.max(-GOALS_MAX_DC_RHO, -1 / home, -1 / away);
  const upper = Math.min(GOALS_MAX_DC_RHO, 1, 1 / (home * away));
  return [lower, upper];
}

function poissonColumn(mean: number): Float64Array {
  const out = new Float64Array(SIZE);
  out[0] = Math.exp(-mean);
  for (let k = 1; k < SIZE; k += 1) out[k] = (out[k - 1]! * mean) / k;
  return out;
}

/** The score grid of λ (home), μ (away) and ρ, normalised over 0–15 goals a side. RangeError outside the bounds. */
export function goalsGrid(home: number, away: number, rho: number): Float64Array {
  if (!(home > 0 && away > 0 && Number.isFinite(home) && Number.isFinite(away)))
    throw new RangeError('Expected goals must be positive and finite');
  const [lower, upper] = dixonColesRhoBounds(home, away);
  if (!(rho >= lower - 1e-12 && rho <= upper + 1e-12))
    throw new RangeError(`ρ ${rho} is outside [${lower}, ${upper}]`);
  const h = poissonColumn(home);
  const a = poissonColumn(away);
  const grid = new Float64Array(SIZE * SIZE);
  let sum = 0;
  for (let x = 0; x < SIZE; x += 1) {
    for (let y = 0; y < SIZE; y += 1) {
      const p = dixonColesTau(x, y, home, away, rho) * h[x]! * a[y]!;
      grid[x * SIZE + y] = p;
      sum += p;
    }
  }
  for (let i = 0; i < grid.length; i += 1) grid[i] = grid[i]! / sum;
  return grid;
}

/**
 * P(home wins), P(away wins) and the fair two-way probability of the over at `line` of a grid: on a half line
 * P(total > line); on a whole line the push left out, P(over) / (P(over) + P(under)); a quarter line as its two halves
 * (`fairHighProbability`), as a book's de-vigged over at that line reads (issue 57: a whole line's push was ignored).
 */
function gridFigures(grid: Float64Array, line: number | null): [number, number, number] {
  let home = 0;
  let away = 0;
  const totals = new Array<number>(2 * SIZE - 1).fill(0);
  for (let x = 0; x < SIZE; x += 1) {
    for (let y = 0; y < SIZE; y += 1) {
      const p = grid[x * SIZE + y]!;
      if (x > y) home += p;
      else if (y > x) away += p;
      totals[x + y]! += p;
    }
  }
  const over = line === null ? 0 : fairHighProbability({ min: 0, probabilities: totals }, line);
  return [home, away, over];
}

/** Solves a small dense linear system (Gaussian elimination with partial pivoting); null when singular. */
function solveLinear(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c += 1) {
    let pivot = c;
    for (let r = c + 1; r < n; r += 1) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    if (Math.abs(m[pivot]![c]!) < 1e-14) return null;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r += 1) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k += 1) m[r]![k] = m[r]![k]! - f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r -= 1) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k += 1) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * Fits λ, μ and the Dixon–Coles ρ so that the grid's home and away win probabilities (so its draw) and the fair over
 * of the total's line (its push left out on a whole line, a quarter line as two halves) equal the market's fair ones (the 1X2 normalised to sum 1): damped Newton on (ln λ, ln μ, ρ) with a numerical
 * Jacobian, ρ kept within its bounds. Without a total, ρ = 0 and λ, μ fit the 1X2 alone. When the market cannot be
 * met within the bounds (a draw far from what Poisson goals allow), the closest fit found is returned and `residual`
 * says how far it is. RangeError for probabilities outside (0, 1).
 */
export function fitGoals(market: GoalsMarket): GoalsModel {
  const sum = market.home + market.draw + market.away;
  for (const p of [market.home, market.draw, market.away, market.total?.over ?? 0.5]) {
    if (!(p > 0 && p < 1)) throw new RangeError(`A fair probability must be in (0, 1), got ${p}`);
  }
  if (market.total && !(Number.isInteger(market.total.line * 4) && market.total.line > 0))
    throw new RangeError('A total line must be positive, in quarter goals');
  const target = [market.home / sum, market.away / sum, market.total?.over ?? 0];
  const line = market.total?.line ?? null;
  const withRho = line !== null;

  // Start: the mean of a Poisson total that meets the over, split by the 1X2.
  let mean = 2.6;
  if (line !== null) {
    let lo = 0.05;
    let hi = 12;
    for (let i = 0; i < 60; i += 1) {
      mean = (lo + hi) / 2;
      const col = poissonColumn(mean);
      if (fairHighProbability({ min: 0, probabilities: [...col] }, line) < target[2]!) lo = mean;
      else hi = mean;
    }
  }
  const lean = Math.max(-0.8, Math.min(0.8, target[0]! - target[1]!));
  let theta = [Math.log((mean / 2) * (1 + lean)), Math.log((mean / 2) * (1 - lean)), 0];

  const clampRho = (t: number[]) => {
    if (!withRho) return [t[0]!, t[1]!, 0];
    const [lower, upper] = dixonColesRhoBounds(Math.exp(t[0]!), Math.exp(t[1]!));
    return [t[0]!, t[1]!, Math.max(lower, Math.min(upper, t[2]!))];
  };
  const residuals = (t: number[]) => {
    const grid = goalsGrid(Math.exp(t[0]!), Math.exp(t[1]!), t[2]!);
    const f = gridFigures(grid, line);
    const r = [f[0] - target[0]!, f[1] - target[1]!];
    if (withRho) r.push(f[2] - target[2]!);
    return r;
  };
  const norm = (r: number[]) => Math.max(...r.map(Math.abs));
  let r = residuals(theta);
  const n = withRho ? 3 : 2;
  for (let iteration = 0; iteration < 60 && norm(r) > 1e-12; iteration += 1) {
    const jacobian = r.map(() => new Array<number>(n).fill(0));
    for (let j = 0; j < n; j += 1) {
      const step = 1e-6;
      const shifted = [...theta];
      shifted[j] = shifted[j]! + step;
      const rj = residuals(clampRho(shifted));
      for (let i = 0; i < r.length; i += 1) jacobian[i]![j] = (rj[i]! - r[i]!) / step;
    }
    const delta = solveLinear(
      jacobian,
      r.map((v) => -v),
    );
    if (!delta) break;
    let accepted = false;
    for (let scale = 1; scale > 1e-4; scale /= 2) {
      const candidate = clampRho(theta.map((v, j) => v + scale * (j < n ? delta[j]! : 0)));
      const rc = residuals(candidate);
      if (norm(rc) < norm(r)) {
        theta = candidate;
        r = rc;
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
  }
  const [home, away, rho] = [Math.exp(theta[0]!), Math.exp(theta[1]!), theta[2]!];
  return { home, away, rho, grid: goalsGrid(home, away, rho), residual: norm(r) };
}

/** The goals a player's goal share applies to, and his leg: scores ('high') or not ('low'). */
interface ScorerLeg {
  team: 'home' | 'away';
  share: number;
  scores: boolean;
}

/** The team's goals distribution from the grid. */
function teamGoals(grid: Float64Array, team: 'home' | 'away'): Float64Array {
  const out = new Float64Array(SIZE);
  for (let x = 0; x < SIZE; x += 1) {
    for (let y = 0; y < SIZE; y += 1) out[team === 'home' ? x : y]! += grid[x * SIZE + y]!;
  }
  return out;
}

/**
 * A player's share s of his team's goals such that 1 − E[(1 − s)^K] equals his fair probability of scoring (K his
 * team's goals): bisection. A probability above P(K ≥ 1) cannot be met: s = 1.
 */
export function scorerShare(goals: Float64Array, probability: number): number {
  if (!(probability > 0 && probability < 1)) throw new RangeError('A probability must be in (0, 1)');
  const scoring = (s: number) => 1 - goals.reduce((sum, p, k) => sum + p * (1 - s) ** k, 0);
  if (scoring(1) <= probability) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    if (scoring(mid) < probability) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * P(every scorer leg of one team holds | the team scores k), k = 0…15: each goal is one listed player's with his
 * share (shares of one team summing to at most 1), so by inclusion–exclusion over the players who must score,
 * Σ_{S ⊆ yes} (−1)^|S| (1 − Σ_no s − Σ_S s)^k. Null when the shares exceed 1.
 */
function scorerFactor(legs: readonly ScorerLeg[]): Float64Array | null {
  const out = new Float64Array(SIZE).fill(1);
  if (legs.length === 0) return out;
  const yes = legs.filter((l) => l.scores).map((l) => l.share);
  const noShare = legs.filter((l) => !l.scores).reduce((sum, l) => sum + l.share, 0);
  if (yes.reduce((a, b) => a + b, 0) + noShare > 1 + 1e-12) return null;
  for (let k = 0; k < SIZE; k += 1) {
    let total = 0;
    for (let subset = 0; subset < 1 << yes.length; subset += 1) {
      let share = noShare;
      let sign = 1;
      yes.forEach((s, i) => {
        if (subset & (1 << i)) {
          share += s;
          sign = -sign;
        }
      });
      total += sign * Math.max(0, 1 - share) ** k;
    }
    out[k] = total;
  }
  return out;
}

/** Whether a game leg holds at home x, away y; null for a leg the grid does not price. */
function gameLegHolds(leg: SgpModelLeg): ((x: number, y: number) => boolean) | null {
  const v = leg.variable;
  if (v.period !== 'full') return null;
  const high = leg.side === 'high';
  switch (v.kind) {
    case 'margin': {
      const line = leg.line!;
      return high ? (x, y) => x - y > line : (x, y) => x - y < line;
    }
    case 'total': {
      const line = leg.line!;
      return high ? (x, y) => x + y > line : (x, y) => x + y < line;
    }
    case 'draw':
      return high ? (x, y) => x === y : (x, y) => x !== y;
    default:
      return null;
  }
}

/**
 * The joint probability of the legs on the goals model: the grid's mass where every game leg holds, weighted by the
 * probability that every scorer leg holds given the teams' goals. Null when a leg is outside what the grid prices (a
 * half, a prop other than the anytime scorer, a player whose team is unknown, or scorer shares of one team above 1):
 * the caller prices the parlay with the Gaussian model instead. Legs are assumed valid and free of conflicts
 * (`jointProbability` checks both first).
 */
export function goalsJoint(model: GoalsModel, legs: readonly SgpModelLeg[]): number | null {
  const conditions: ((x: number, y: number) => boolean)[] = [];
  const scorers = new Map<string, ScorerLeg & { probability: number }>();
  for (const leg of legs) {
    const v = leg.variable;
    if (v.kind === 'player') {
      if (v.stat !== 'player_goal_scorer_anytime' || v.period !== 'full' || v.team === null) return null;
      const scores = leg.side === 'high';
      const probability = scores ? leg.probability : 1 - leg.probability;
      // The same selection twice is one condition (opposites are refused as conflicts before).
      scorers.set(v.playerId, { team: v.team, share: 0, scores, probability });
      continue;
    }
    const holds = gameLegHolds(leg);
    if (!holds) return null;
    conditions.push(holds);
  }
  const factors: Record<'home' | 'away', Float64Array | null> = { home: null, away: null };
  for (const team of ['home', 'away'] as const) {
    const mine = [...scorers.values()].filter((s) => s.team === team);
    const goals = teamGoals(model.grid, team);
    for (const s of mine) s.share = scorerShare(goals, s.probability);
    factors[team] = scorerFactor(mine);
    if (!factors[team]) return null;
  }
  let joint = 0;
  for (let x = 0; x < SIZE; x += 1) {
    for (let y = 0; y < SIZE; y += 1) {
      if (!conditions.every((holds) => holds(x, y))) continue;
      joint += model.grid[x * SIZE + y]! * factors.home![x]! * factors.away![y]!;
    }
  }
  return joint;
}

/** P(home x, away y) of a model. */
export function scoreProbability(model: GoalsModel, x: number, y: number): number {
  if (!(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0))
    throw new RangeError('Scores are counts');
  return x > GOALS_GRID_MAX || y > GOALS_GRID_MAX ? 0 : model.grid[x * SIZE + y]!;
}
