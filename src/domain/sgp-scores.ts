import type { LeagueKey } from './markets.ts';
import { distributionCentre } from './middles.ts';
import { bivariateNormalCdf, normalQuantile } from './mvn.ts';
import {
  CENTRE_STEP,
  gameDistributions,
  scoreModelName,
  type IntegerDistribution,
  type MarketCentre,
} from './score-distributions.ts';
import { SGP_GAME_PRIORS, type SgpModelLeg } from './sgp.ts';

// Same-game-parlay legs on a game's full-game margin, total and moneyline, priced on the league's fitted score
// distributions (issue 57, decision 287): the ones the simulator draws results from and middles read their chances
// off (score-distributions.ts, docs/calibration.md). Leagues with a fitted non-soccer distribution: NFL, NBA, NCAAB,
// NHL, MLB (soccer has its own goals grid, soccer-goals.ts).
//
// - The cells: the final margin M and total T are whole numbers with the league's distributions at the game's centre.
//   They are coupled by a Gaussian copula on their discrete distributions: P(M ≤ m, T ≤ t) = C_ρ(F_M(m), F_T(t)), ρ the
//   calibration's margin–total correlation (published outcomes where decision 165 has them), so the correlation model
//   that prices a mix with player and period legs uses the same ρ. The distributions' own total given the margin is
//   not the coupling: for basketball it has none (the total is smooth about its mean whatever the margin), against
//   a published corr of −0.43 at 13-point NBA spreads (decision 287 has the figures).
// - The legs: a margin or total leg wins on whole scores strictly beyond its line, and a whole line pushes on it. A
//   leg's fair probability leaves its push out (the two-way de-vig of its prices); a parlay's pushed leg is dropped
//   and the ticket repriced by that leg's own price (docs/grading.md, as books settle SGPs). The joint is the price at
//   which that ticket breaks even on the cells (`scoresJoint`); one leg alone is its fair two-way probability.
// - The centre: each variable's mean is fitted (`distributionCentre`, as middles fit theirs) to the legs that bound
//   its winning scores (the highest 'high' line, the lowest 'low' line: a moneyline under a −4.5 adds nothing), the
//   mean of the two estimates for a bracket; a variable without legs takes the market's (the moneyline's margin, the
//   total line nearest even) or, without one, the league's typical total. The total is fitted with the margin held at
//   its normal estimate, then the margin at the fitted total (middles' order), and both once more. The distributions come in centre steps
//   of 0.05: the joint is the mixture of the four neighbouring steps, weighted as the fit reads between them, so a
//   lone binding leg keeps its fair probability to ~1e-6 (the basketball and NFL margins exactly).

/** The leagues whose full-game legs the score distributions price (soccer has its goals grid). */
export function hasScoreDistribution(league: LeagueKey): boolean {
  return scoreModelName(league) !== 'soccer-dixon-coles';
}

/** A full-game margin (spread, moneyline) or total leg on a half or whole line: the legs the cells price. */
export function isScoresLeg(leg: SgpModelLeg): boolean {
  const v = leg.variable;
  return (
    (v.kind === 'margin' || v.kind === 'total') &&
    v.period === 'full' &&
    leg.line !== null &&
    Number.isInteger(leg.line * 2)
  );
}

/** The market's view of the game that a variable without legs is centred on. */
export interface ScoresMarket {
  /** The fair home win probability (a two-way moneyline's, ties left out). */
  homeWin: number;
  /** The fair over of the full-game total nearest even, or null when none is priced. */
  total: { line: number; over: number } | null;
}

type Variable = 'margin' | 'total';

/** The legs of one variable that bound its winning scores: the highest 'high' line and the lowest 'low' line. */
function bindingLegs(legs: readonly SgpModelLeg[]): SgpModelLeg[] {
  let high: SgpModelLeg | null = null;
  let low: SgpModelLeg | null = null;
  for (const leg of legs) {
    if (leg.side === 'high' && (!high || leg.line! > high.line!)) high = leg;
    if (leg.side === 'low' && (!low || leg.line! < low.line!)) low = leg;
  }
  return [high, low].filter((leg) => leg !== null);
}

/**
 * Where one variable's legs leave the ticket alive: scores lo..hi where every leg wins (factor 1), and each whole line
 * where some legs push and none loses (factor: the pushed legs' own fair probabilities, as the ticket is repriced
 * without them), `allPush` when every leg of the variable pushes there. A variable without legs is one piece,
 * everything, with `allPush` (it stops nothing from all the legs pushing).
 */
interface Piece {
  lo: number;
  hi: number;
  factor: number;
  allPush: boolean;
}

/** What a leg does at a whole score x: 1 won, 0 pushed, −1 lost. */
const outcomeAt = (leg: SgpModelLeg, x: number) =>
  leg.side === 'high' ? Math.sign(x - leg.line!) : Math.sign(leg.line! - x);

function piecesOf(legs: readonly SgpModelLeg[]): Piece[] {
  if (legs.length === 0)
    return [{ lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY, factor: 1, allPush: true }];
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  for (const leg of legs) {
    if (leg.side === 'high') lo = Math.max(lo, Math.floor(leg.line!) + 1);
    else hi = Math.min(hi, Math.ceil(leg.line!) - 1);
  }
  const pieces: Piece[] = lo <= hi ? [{ lo, hi, factor: 1, allPush: false }] : [];
  const wholeLines = new Set(legs.map((leg) => leg.line!).filter((line) => Number.isInteger(line)));
  for (const x of wholeLines) {
    const outcomes = legs.map((leg) => outcomeAt(leg, x));
    if (outcomes.includes(-1)) continue;
    let factor = 1;
    legs.forEach((leg, i) => {
      if (outcomes[i] === 0) factor *= leg.probability;
    });
    pieces.push({ lo: x, hi: x, factor, allPush: outcomes.every((o) => o === 0) });
  }
  return pieces;
}

/** The probability of the high side of a leg, on its variable's line. */
const highProbability = (leg: SgpModelLeg) => (leg.side === 'high' ? leg.probability : 1 - leg.probability);

/**
 * The game's centre for these legs (see the module's notes): the total, then the margin, each fitted to its binding
 * legs or taken from the market.
 */
export function scoresCentre(
  league: LeagueKey,
  market: ScoresMarket,
  legs: readonly SgpModelLeg[],
): MarketCentre {
  const prior = SGP_GAME_PRIORS[league];
  const normalMargin = prior.sigmaMargin * normalQuantile(market.homeWin);
  const fit = (variable: Variable, binding: readonly SgpModelLeg[], other: number) => {
    const estimates = binding.map((leg) =>
      distributionCentre(league, variable, leg.line!, highProbability(leg), other),
    );
    return estimates.reduce((sum, x) => sum + x, 0) / estimates.length;
  };
  const marginBinding = bindingLegs(legs.filter((leg) => leg.variable.kind === 'margin'));
  const totalBinding = bindingLegs(legs.filter((leg) => leg.variable.kind === 'total'));
  const fitTotal = (heldMargin: number) =>
    totalBinding.length > 0
      ? fit('total', totalBinding, heldMargin)
      : market.total
        ? distributionCentre(league, 'total', market.total.line, market.total.over, heldMargin)
        : prior.meanTotal;
  const fitMargin = (heldTotal: number) =>
    marginBinding.length > 0
      ? fit('margin', marginBinding, heldTotal)
      : distributionCentre(league, 'margin', 0, market.homeWin, heldTotal);
  // Middles' order, then once more: the total again at the fitted margin, and the margin at that total (the
  // distributions of one variable move a little with the other's centre).
  let total = fitTotal(normalMargin);
  let margin = fitMargin(total);
  total = fitTotal(margin);
  margin = fitMargin(total);
  return { margin, total };
}

/** Cumulative sums of a distribution: at(x) = P(X ≤ x). */
function cumulative(distribution: IntegerDistribution): (x: number) => number {
  const sums = new Float64Array(distribution.probabilities.length);
  let sum = 0;
  distribution.probabilities.forEach((p, i) => (sums[i] = sum += p));
  const last = sums.length - 1;
  return (x) => {
    if (x === Number.POSITIVE_INFINITY) return 1;
    const i = Math.floor(x) - distribution.min;
    return i < 0 ? 0 : i >= last ? 1 : Math.min(1, sums[i]!);
  };
}

/** The copula's normal score of a cumulative probability. */
const score = (u: number) =>
  u <= 0 ? Number.NEGATIVE_INFINITY : u >= 1 ? Number.POSITIVE_INFINITY : normalQuantile(u);

/** P(M and T in boxes) at one centre: the cells of the copula over the two distributions. */
function boxProbability(
  marginCdf: (x: number) => number,
  totalCdf: (x: number) => number,
  rho: number,
): (m0: number, m1: number, t0: number, t1: number) => number {
  return (m0, m1, t0, t1) => {
    if (m0 > m1 || t0 > t1) return 0;
    const a0 = score(marginCdf(m0 - 1));
    const a1 = score(marginCdf(m1));
    const b0 = score(totalCdf(t0 - 1));
    const b1 = score(totalCdf(t1));
    const c = (h: number, k: number) =>
      h === Number.NEGATIVE_INFINITY || k === Number.NEGATIVE_INFINITY ? 0 : bivariateNormalCdf(h, k, rho);
    return Math.max(0, c(a1, b1) - c(a0, b1) - c(a1, b0) + c(a0, b0));
  };
}

/**
 * At one centre: what the ticket returns per unit of its fair price, summed over the cells where no leg loses
 * (`alive`: 1 where every leg wins, the pushed legs' probabilities where some push), leaving out the cells where every
 * leg pushes, and the chance of those (`allPushed`: the stake comes back).
 */
function cellsAt(
  league: LeagueKey,
  centre: MarketCentre,
  rho: number,
  margin: readonly Piece[],
  total: readonly Piece[],
): { alive: number; allPushed: number } {
  const game = gameDistributions(league, centre);
  const box = boxProbability(cumulative(game.margin), cumulative(game.total), rho);
  let alive = 0;
  let allPushed = 0;
  for (const m of margin)
    for (const t of total) {
      const p = box(m.lo, m.hi, t.lo, t.hi);
      if (m.allPush && t.allPush) allPushed += p;
      else alive += p * m.factor * t.factor;
    }
  return { alive, allPushed };
}

/**
 * The fair joint probability of full-game margin and total legs (`isScoresLeg`) of a league with a score distribution,
 * at the centre `scoresCentre` fits, with margin–total copula correlation `rho`: J with
 * J = Σ over the cells where no leg loses of P(cell) × (the product of the pushed legs' probabilities), over
 * 1 − P(every leg pushes). Priced at J, the parlay breaks even when a pushed leg is dropped and the ticket repriced
 * by its price (docs/grading.md); without whole lines J is the cells' mass where every leg wins; one leg alone is its
 * fair two-way probability. Legs are assumed valid and free of conflicts (`priceSgp` checks first). RangeError for a
 * league without a distribution or a leg it does not price.
 */
export function scoresJoint(
  league: LeagueKey,
  market: ScoresMarket,
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  if (!hasScoreDistribution(league)) throw new RangeError(`${league} has no score distribution for SGPs`);
  if (!legs.every(isScoresLeg))
    throw new RangeError('Only full-game margin and total legs on half or whole lines');
  const margin = piecesOf(legs.filter((leg) => leg.variable.kind === 'margin'));
  const total = piecesOf(legs.filter((leg) => leg.variable.kind === 'total'));
  const centre = scoresCentre(league, market, legs);
  // The four centre steps around the fitted centre, weighted by where it lies between them.
  const m0 = Math.floor(centre.margin / CENTRE_STEP + 1e-9);
  const t0 = Math.floor(centre.total / CENTRE_STEP + 1e-9);
  const wm = Math.max(0, centre.margin / CENTRE_STEP - m0);
  const wt = Math.max(0, centre.total / CENTRE_STEP - t0);
  let alive = 0;
  let allPushed = 0;
  for (const [dm, weightM] of [
    [0, 1 - wm],
    [1, wm],
  ] as const) {
    for (const [dt, weightT] of [
      [0, 1 - wt],
      [1, wt],
    ] as const) {
      const weight = weightM * weightT;
      if (weight < 1e-12) continue;
      const at = cellsAt(
        league,
        { margin: (m0 + dm) * CENTRE_STEP, total: (t0 + dt) * CENTRE_STEP },
        rho,
        margin,
        total,
      );
      alive += weight * at.alive;
      allPushed += weight * at.allPushed;
    }
  }
  return allPushed < 1 ? Math.min(1, alive / (1 - allPushed)) : 0;
}
