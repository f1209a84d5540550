import type { LeagueKey, Period } from './markets.ts';
import { distributionCentre } from './middles.ts';
import { bivariateNormalCdf, mvnProbability, normalCdf, normalQuantile } from './mvn.ts';
import {
  CENTRE_STEP,
  HALF_TIME_SHARE,
  fairHighProbability,
  firstPartShare,
  gameDistributions,
  halfDistributions,
  halfShares,
  meanOf,
  normalise,
  periodDistributions,
  scoreModelName,
  type GameDistributions,
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
//   that prices a mix with player and period legs uses the same ρ. The distributions' own joint carries the same ρ
//   since decision 291 (fitted at the half lines nearest the centre), but is not read here: at other lines, and at
//   each leg's own centre, it differs from the copula by up to about 1e-3 (NFL key numbers), so the copula stays.
// - The legs: a margin or total leg wins on whole scores strictly beyond its line, and a whole line pushes on it. A
//   leg's fair probability leaves its push out (the two-way de-vig of its prices); a parlay's pushed leg is dropped
//   and the ticket repriced by that leg's own price (docs/grading.md, as books settle SGPs). The joint is the price at
//   which that ticket breaks even on the cells (`scoresJoint`); one leg alone is its fair two-way probability.
// - The centre: each leg that bounds its variable's winning scores (the highest 'high' line, the lowest 'low' line: a
//   moneyline under a −4.5 adds nothing) gets the mean whose distribution gives it its fair probability
//   (`distributionCentre`, as middles fit a line). Cumulative probabilities at or below the high binding line are read
//   on the distribution fitted to that leg, those above it on the one fitted to the low binding leg, so each binding
//   leg keeps its probability and a bracket (home moneyline and away +3.5) is p₁ + p₂ − 1, as in the correlation
//   model. A variable without legs takes the market's centre (the moneyline's margin, the total nearest even) or the
//   league's typical total. The totals are fitted with the margin held at its normal estimate, then the margins at
//   the fitted total (middles' order), and both once more. Distributions are built at centre steps of 0.05: a centre's
//   cumulative probabilities are the two steps either side mixed as the fit reads between them.
//
// With half lines the answer is the correlation model's to ~1e-6 (both keep every leg's probability and use the same
// ρ); what the cells add is the push of a whole line.

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
 * One variable's centres: the mean fitted to each binding leg (`high`, `low`), and `mean`, theirs (or the market's when
 * the variable has no legs), at which the other variable's distribution is built.
 */
interface Centres {
  high: number | null;
  low: number | null;
  mean: number;
}

/**
 * The game's centres for these legs (see the module's notes): the total's, then the margin's, each fitted to its
 * binding legs or taken from the market, and both once more.
 */
export function scoresCentres(
  league: LeagueKey,
  market: ScoresMarket,
  legs: readonly SgpModelLeg[],
): { margin: Centres; total: Centres } {
  const prior = SGP_GAME_PRIORS[league];
  const normalMargin = prior.sigmaMargin * normalQuantile(market.homeWin);
  const fit = (
    variable: Variable,
    legsOf: readonly SgpModelLeg[],
    other: number,
    none: () => number,
  ): Centres => {
    const binding = bindingLegs(legsOf);
    const centreOf = (side: 'high' | 'low'): number | null => {
      const leg = binding.find((one) => one.side === side);
      return leg ? distributionCentre(league, variable, leg.line!, highProbability(leg), other) : null;
    };
    const high = centreOf('high');
    const low = centreOf('low');
    const fitted = [high, low].filter((x): x is number => x !== null);
    const mean = fitted.length > 0 ? fitted.reduce((sum, x) => sum + x, 0) / fitted.length : none();
    return { high, low, mean };
  };
  const marginLegs = legs.filter((leg) => leg.variable.kind === 'margin');
  const totalLegs = legs.filter((leg) => leg.variable.kind === 'total');
  const fitTotal = (heldMargin: number) =>
    fit('total', totalLegs, heldMargin, () =>
      market.total
        ? distributionCentre(league, 'total', market.total.line, market.total.over, heldMargin)
        : prior.meanTotal,
    );
  const fitMargin = (heldTotal: number) =>
    fit('margin', marginLegs, heldTotal, () =>
      distributionCentre(league, 'margin', 0, market.homeWin, heldTotal),
    );
  // Middles' order, then once more: the total again at the fitted margin, and the margin at that total (the
  // distributions of one variable move a little with the other's centre).
  let total = fitTotal(normalMargin);
  let margin = fitMargin(total.mean);
  total = fitTotal(margin.mean);
  margin = fitMargin(total.mean);
  return { margin, total };
}

/** Each distribution's cumulative sums, made once (distributions are not changed once built, and builds are cached). */
const cumulatives = new WeakMap<IntegerDistribution, Float64Array>();

/** Cumulative sums of a distribution: at(x) = P(X ≤ x). */
function cumulative(distribution: IntegerDistribution): (x: number) => number {
  let sums = cumulatives.get(distribution);
  if (!sums) {
    const made = new Float64Array(distribution.probabilities.length);
    let sum = 0;
    for (let i = 0; i < made.length; i += 1) made[i] = sum += distribution.probabilities[i]!;
    cumulatives.set(distribution, (sums = made));
  }
  const found = sums;
  const last = found.length - 1;
  return (x) => {
    if (x === Number.POSITIVE_INFINITY) return 1;
    const i = Math.floor(x) - distribution.min;
    return i < 0 ? 0 : i >= last ? 1 : Math.min(1, found[i]!);
  };
}

/** The copula's normal score of a cumulative probability. */
const score = (u: number) =>
  u <= 0 ? Number.NEGATIVE_INFINITY : u >= 1 ? Number.POSITIVE_INFINITY : normalQuantile(u);

/**
 * P(X ≤ x) for one variable centred at `centre` (the other held at `other`): the distributions are built at centre
 * steps of 0.05, so the two steps either side, mixed as the centre lies between them (the fit reads linearly between
 * them, so a binding leg's own probability comes back).
 */
function mixedCdf(
  league: LeagueKey,
  variable: Variable,
  centre: number,
  other: number,
): (x: number) => number {
  const k = Math.floor(centre / CENTRE_STEP + 1e-9);
  const w = Math.min(1, Math.max(0, centre / CENTRE_STEP - k));
  const at = (step: number) =>
    cumulative(
      gameDistributions(
        league,
        variable === 'margin'
          ? { margin: step * CENTRE_STEP, total: other }
          : { margin: other, total: step * CENTRE_STEP },
      )[variable],
    );
  const below = at(k);
  if (w < 1e-12) return below;
  const above = at(k + 1);
  return (x) => (1 - w) * below(x) + w * above(x);
}

/**
 * The normal score of P(X ≤ x) for one variable's legs: at or below its high binding line, on the distribution fitted
 * to that leg; above it, on the one fitted to the low binding leg (each binding leg keeps its own probability, and a
 * bracket its p₁ + p₂ − 1); a variable without legs on the market's.
 */
function axisOf(
  league: LeagueKey,
  variable: Variable,
  legs: readonly SgpModelLeg[],
  centres: Centres,
  other: number,
): (x: number) => number {
  const highCdf = centres.high !== null ? mixedCdf(league, variable, centres.high, other) : null;
  const lowCdf = centres.low !== null ? mixedCdf(league, variable, centres.low, other) : null;
  return stitched(legs, highCdf, lowCdf, () => mixedCdf(league, variable, centres.mean, other));
}

/**
 * The normal score of a variable's cumulative probability from the cumulatives fitted to its binding legs: at or below
 * the high binding line on the high leg's, above it on the low leg's (`axisOf`); `none` when the variable has no legs.
 */
function stitched(
  legs: readonly SgpModelLeg[],
  highCdf: ((x: number) => number) | null,
  lowCdf: ((x: number) => number) | null,
  none: () => (x: number) => number,
): (x: number) => number {
  const high = bindingLegs(legs).find((leg) => leg.side === 'high');
  const meanCdf = highCdf ?? lowCdf ?? none();
  return (x) => {
    if (x === Number.NEGATIVE_INFINITY) return Number.NEGATIVE_INFINITY;
    if (x === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    const cdf = high && highCdf && (x <= Math.floor(high.line!) || !lowCdf) ? highCdf : (lowCdf ?? meanCdf);
    return score(cdf(x));
  };
}

/**
 * The fair joint probability of full-game margin and total legs (`isScoresLeg`) of a league with a score distribution,
 * with margin–total copula correlation `rho`: J with J = Σ over the cells where no leg loses of P(cell) × (the product
 * of the pushed legs' probabilities), over 1 − P(every leg pushes). Priced at J, the parlay breaks even when a pushed
 * leg is dropped and the ticket repriced by its price (docs/grading.md); without whole lines J is the cells' mass
 * where every leg wins; one leg alone is its fair two-way probability. Legs are assumed valid and free of conflicts
 * (`priceSgp` checks first). RangeError for a league without a distribution or a leg it does not price.
 */
export function scoresJoint(
  league: LeagueKey,
  market: ScoresMarket,
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  if (!hasScoreDistribution(league)) throw new RangeError(`${league} has no score distribution for SGPs`);
  // The same parlay at the same prices is the same number (decision 307): asked again, it is not integrated again.
  const key = jointKey(league, market, rho, legs);
  const known = joints.get(key);
  if (known !== undefined) return known;
  const joint = scoresJointUncached(league, market, rho, legs);
  if (joints.size >= JOINTS_KEPT) joints.clear();
  joints.set(key, joint);
  return joint;
}

/**
 * The joints already priced, by everything they are made of (`jointKey`): the same parlay at unchanged prices is
 * asked for many times a second (a parlay builder re-pricing, popular parlays), and a part's three or four variables
 * with whole lines take 8–16 quasi-Monte Carlo rectangles (decision 307). Dropped all at once when full (about a
 * megabyte of keys at most), as the tilts and the distributions' builds are.
 */
const joints = new Map<string, number>();
const JOINTS_KEPT = 4096;

/** Every input of a joint, exactly (a number's string gives the same double back), the legs in their order. */
function jointKey(
  league: LeagueKey,
  market: ScoresMarket,
  rho: number,
  legs: readonly SgpModelLeg[],
): string {
  let key = `${league}|${market.homeWin}|${market.total ? `${market.total.line}|${market.total.over}` : '-'}|${Object.is(rho, -0) ? '-0' : rho}`;
  for (const leg of legs)
    key += `|${leg.variable.kind}:${leg.variable.period}:${leg.side}:${leg.line}:${leg.probability}`;
  return key;
}

function scoresJointUncached(
  league: LeagueKey,
  market: ScoresMarket,
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  // Legs of the league's first part, alone or with full-game legs: the part's distributions (decision 296).
  if (legs.some((leg) => isPartLeg(league, leg))) return partsJoint(league, market, rho, legs);
  if (!legs.every(isScoresLeg))
    throw new RangeError('Only full-game margin and total legs on half or whole lines');
  const marginLegs = legs.filter((leg) => leg.variable.kind === 'margin');
  const totalLegs = legs.filter((leg) => leg.variable.kind === 'total');
  const centres = scoresCentres(league, market, legs);
  const mz = axisOf(league, 'margin', marginLegs, centres.margin, centres.total.mean);
  const tz = axisOf(league, 'total', totalLegs, centres.total, centres.margin.mean);
  const c = (h: number, k: number) =>
    h === Number.NEGATIVE_INFINITY || k === Number.NEGATIVE_INFINITY ? 0 : bivariateNormalCdf(h, k, rho);
  let alive = 0;
  let allPushed = 0;
  for (const m of piecesOf(marginLegs))
    for (const t of piecesOf(totalLegs)) {
      const [a0, a1, b0, b1] = [mz(m.lo - 1), mz(m.hi), tz(t.lo - 1), tz(t.hi)];
      const p = a0 >= a1 || b0 >= b1 ? 0 : Math.max(0, c(a1, b1) - c(a0, b1) - c(a1, b0) + c(a0, b0));
      if (m.allPush && t.allPush) allPushed += p;
      else alive += p * m.factor * t.factor;
    }
  return allPushed < 1 ? Math.min(1, alive / (1 - allPushed)) : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// The first part's legs (decision 296): the points leagues' first half (decision 288: the full game split by the
// segment model), the NHL's first period and MLB's first five innings (decision 284: the full game's part goals
// thinned). Other periods (quarters, second halves, the NHL's second and third periods) have no distributions of
// their own: their legs join by the correlation model's conditional chance, as players' do. (Soccer's half: its
// parlays are the goals grid's, decision 166, which covers the full game only.)
//
// - The part's margin and total are the part's distributions built at the full game's centre (the one the parlay's
//   full-game legs are fitted to, else the market's), each tilted (e^{θx}) so that its binding legs keep their own
//   fair two-way probabilities (a part's price is not always the full game's split: the tilt is the least change that
//   gives it). Cumulative probabilities are stitched as the full game's (`stitched`).
// - The dependence is a Gaussian copula over the variables that have legs, with the split's own correlations: the game
//   is the part P plus an independent rest R, each with corr(margin, total) = ρ (the calibration's); P has the share s
//   of the game's variance (the halves' time share ½, the bridge's; a thinned part's share of the goals or runs, 0.30
//   NHL, 0.58 MLB: under thinning of Poisson scores corr(part, game) = √s). So corr(P_X, F_X) = √s and
//   corr(P_M, F_T) = corr(P_T, F_M) = √s · ρ. With the game's scores normal this copula is the bridge itself
//   (H | F normal about s·μ + v(F − μ), decision 288); on the discrete distributions it keeps every leg's probability,
//   which the bridge's mixture would not (the part would be priced at the full game's split, not at its own price).
// - Pushes as the full game's: the ticket breaks even with a pushed leg dropped and repriced by its own price.

/** The first part whose distributions the league's model has (decisions 284 and 288), or null. */
export function scoresPart(league: LeagueKey): Period | null {
  switch (scoreModelName(league)) {
    case 'nfl-key-numbers':
    case 'basketball':
      return 'h1';
    case 'nhl-goals':
      return 'p1';
    case 'mlb-runs':
      return 'f5';
    default:
      return null;
  }
}

/** A margin or total leg of the league's first part (`scoresPart`) on a half or whole line. */
export function isPartLeg(league: LeagueKey, leg: SgpModelLeg): boolean {
  const v = leg.variable;
  return (
    (v.kind === 'margin' || v.kind === 'total') &&
    v.period === scoresPart(league) &&
    leg.line !== null &&
    Number.isInteger(leg.line * 2)
  );
}

/**
 * The part's share s of the game's variance in the split (the copula's part–game correlation is √s): a half's time
 * share (the bridge's v), a thinned part's share of the goals or runs.
 */
export function partShare(league: LeagueKey): number {
  if (halfShares(league)) return HALF_TIME_SHARE;
  const share = firstPartShare(league);
  if (share === undefined) throw new RangeError(`No first part model for ${league}`);
  return share;
}

/** The first part's distributions at a full-game centre (decision 288's halves, decision 284's thinned parts). */
export function partDistributions(league: LeagueKey, centre: MarketCentre): GameDistributions {
  return halfShares(league)
    ? halfDistributions(league, centre)
    : periodDistributions(league, centre, partShare(league));
}

/** A distribution tilted by e^{θx} (in logs about its mean: no overflow on wide supports). */
export function tiltedBy(distribution: IntegerDistribution, theta: number): IntegerDistribution {
  if (theta === 0) return distribution;
  const { min, probabilities } = distribution;
  const centre = meanOf(distribution);
  const logs = probabilities.map((p, i) =>
    p > 0 ? Math.log(p) + theta * (min + i - centre) : Number.NEGATIVE_INFINITY,
  );
  const top = Math.max(...logs);
  return normalise(
    min,
    logs.map((l) => Math.exp(l - top)),
  );
}

/**
 * The distribution tilted by e^{θx} so that its fair two-way chance of the high side of `line` (a whole line's push
 * left out, `fairHighProbability`) is `high`: θ bisected (the chance rises with θ) to 1e-13, or the bracket's end when
 * the support cannot give it.
 */
export function tiltToChance(
  distribution: IntegerDistribution,
  line: number,
  high: number,
): IntegerDistribution {
  let made = tilts.get(distribution);
  if (!made) tilts.set(distribution, (made = new Map()));
  const key = `${line}|${high}`;
  let found = made.get(key);
  if (!found) {
    // A few dozen lines and prices a part: dropped all at once beyond that (the part's builds are cached, as the
    // games', decision 278).
    if (made.size >= TILTS_KEPT) made.clear();
    made.set(key, (found = tiltUncached(distribution, line, high)));
  }
  return found;
}

/** The tilts made of each (cached) part distribution, by line and chance: a parlay's legs are asked for again. */
const tilts = new WeakMap<IntegerDistribution, Map<string, IntegerDistribution>>();
const TILTS_KEPT = 256;

/**
 * What every tilt of a distribution starts from (decision 307): the log of each probability and each value's distance
 * from the mean, as `tiltedBy` computes them, made once; and room for the tilted weights.
 */
interface TiltBase {
  logs: Float64Array;
  offsets: Float64Array;
  weights: Float64Array;
}

const tiltBases = new WeakMap<IntegerDistribution, TiltBase>();

function tiltBaseOf(distribution: IntegerDistribution): TiltBase {
  let base = tiltBases.get(distribution);
  if (!base) {
    const { min, probabilities } = distribution;
    const centre = meanOf(distribution);
    base = {
      logs: Float64Array.from(probabilities, (p) => (p > 0 ? Math.log(p) : Number.NEGATIVE_INFINITY)),
      offsets: Float64Array.from(probabilities, (_, i) => min + i - centre),
      weights: new Float64Array(probabilities.length),
    };
    tiltBases.set(distribution, base);
  }
  return base;
}

/**
 * `fairHighProbability(tiltedBy(distribution, theta), line)` for a half or whole line, the same number to the last bit
 * (the same operations in the same order: each log and offset as `tiltedBy` makes them, the weights' sum and the
 * cumulative sums over the same cells; the zero cells `normalise` trims add nothing), without making the distribution
 * or its cumulative sums: the bisection asks it up to a hundred times a tilt (decision 307).
 */
export function tiltedHighChance(distribution: IntegerDistribution, theta: number, line: number): number {
  if (theta === 0 || !Number.isInteger(line * 2))
    return fairHighProbability(tiltedBy(distribution, theta), line);
  const { logs, offsets, weights } = tiltBaseOf(distribution);
  const n = logs.length;
  let top = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i += 1) {
    const l = logs[i]! + theta * offsets[i]!;
    weights[i] = l;
    if (l > top) top = l;
  }
  // `normalise`'s trim: the first and last cells with weight; the sum over them.
  let sum = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i += 1) {
    const w = Math.exp(weights[i]! - top);
    weights[i] = w;
    if (w !== 0) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) first = last = n - 1;
  for (let i = first; i <= last; i += 1) sum += weights[i]!;
  // `fairHighProbability`'s cumulative sums of the normalised cells, read below and at the line.
  const min = distribution.min + first;
  const length = last - first + 1;
  const at = (x: number) => {
    const i = Math.min(x - min, length - 1);
    if (i < 0) return 0;
    let cumulative = 0;
    for (let k = 0; k <= i; k += 1) cumulative += weights[first + k]! / sum;
    return cumulative;
  };
  const below = at(Math.ceil(line) - 1);
  const above = 1 - at(Math.floor(line));
  const settled = above + below;
  return settled > 0 ? Math.min(1, Math.max(0, above / settled)) : 0.5;
}

function tiltUncached(distribution: IntegerDistribution, line: number, high: number): IntegerDistribution {
  const chance = (theta: number) => tiltedHighChance(distribution, theta, line);
  const at0 = chance(0);
  if (Math.abs(at0 - high) < 1e-13) return distribution;
  const mean = meanOf(distribution);
  let sd = 0;
  distribution.probabilities.forEach((p, i) => (sd += p * (distribution.min + i - mean) ** 2));
  sd = Math.sqrt(Math.max(sd, 1e-6));
  // Bracket θ: a step of 1/σ moves the mean about a deviation; widen until the chance is passed (or 2⁴⁰/σ).
  let lo = 0;
  let hi = 0;
  let step = 1 / sd;
  if (at0 < high) {
    hi = step;
    while (chance(hi) < high && step < 2 ** 40 / sd) [lo, hi, step] = [hi, hi + 2 * step, 2 * step];
  } else {
    lo = -step;
    while (chance(lo) > high && step < 2 ** 40 / sd) [hi, lo, step] = [lo, lo - 2 * step, 2 * step];
  }
  for (let i = 0; i < 200 && hi - lo > 1e-15 * Math.max(1, Math.abs(lo)); i += 1) {
    const mid = (lo + hi) / 2;
    const got = chance(mid);
    if (Math.abs(got - high) < 1e-13) return tiltedBy(distribution, mid);
    if (got < high) lo = mid;
    else hi = mid;
  }
  return tiltedBy(distribution, (lo + hi) / 2);
}

/** One variable of a parlay with part legs: its legs, its normal scores, which variable it is. */
interface Axis {
  kind: Variable;
  part: boolean;
  legs: SgpModelLeg[];
  z: (x: number) => number;
}

/** The copula's normal rectangle: exact in one and two dimensions, quasi-Monte Carlo (~1e-4) from three (mvn.ts). */
function rectangle(lower: number[], upper: number[], matrix: number[][]): number {
  if (lower.some((l, i) => l >= upper[i]!)) return 0;
  if (lower.length === 1) return normalCdf(upper[0]!) - normalCdf(lower[0]!);
  if (lower.length === 2) {
    const rho = matrix[0]![1]!;
    const c = (h: number, k: number) =>
      h === Number.NEGATIVE_INFINITY || k === Number.NEGATIVE_INFINITY ? 0 : bivariateNormalCdf(h, k, rho);
    const [a0, b0] = lower as [number, number];
    const [a1, b1] = upper as [number, number];
    return Math.max(0, c(a1, b1) - c(a0, b1) - c(a1, b0) + c(a0, b0));
  }
  return Math.max(0, mvnProbability(lower, upper, matrix));
}

/**
 * The fair joint of first-part margin and total legs (`isPartLeg`), alone or with full-game ones (`isScoresLeg`), of a
 * league with a first part model: the cells of the variables with legs (the game's and the part's margin and total,
 * see the notes above), each leg settled on them, the ticket's break-even with pushes as `scoresJoint`'s. One leg alone
 * is its fair two-way probability. RangeError for a league without a part model or a leg it does not price.
 */
export function partsJoint(
  league: LeagueKey,
  market: ScoresMarket,
  rho: number,
  legs: readonly SgpModelLeg[],
): number {
  if (!hasScoreDistribution(league) || scoresPart(league) === null)
    throw new RangeError(`${league} has no first part model for SGPs`);
  if (!legs.every((leg) => isScoresLeg(leg) || isPartLeg(league, leg)))
    throw new RangeError('Only full-game and first-part margin and total legs on half or whole lines');
  const full = legs.filter(isScoresLeg);
  const part = legs.filter((leg) => isPartLeg(league, leg));
  const centres = scoresCentres(league, market, full);
  const partGame = partDistributions(league, { margin: centres.margin.mean, total: centres.total.mean });
  const axes: Axis[] = [];
  for (const kind of ['margin', 'total'] as const) {
    const of = full.filter((leg) => leg.variable.kind === kind);
    if (of.length === 0) continue;
    const [own, other] =
      kind === 'margin' ? [centres.margin, centres.total.mean] : [centres.total, centres.margin.mean];
    axes.push({ kind, part: false, legs: of, z: axisOf(league, kind, of, own, other) });
  }
  for (const kind of ['margin', 'total'] as const) {
    const of = part.filter((leg) => leg.variable.kind === kind);
    if (of.length === 0) continue;
    const base = partGame[kind];
    const fitted = (side: 'high' | 'low') => {
      const leg = bindingLegs(of).find((one) => one.side === side);
      return leg ? cumulative(tiltToChance(base, leg.line!, highProbability(leg))) : null;
    };
    axes.push({
      kind,
      part: true,
      legs: of,
      z: stitched(of, fitted('high'), fitted('low'), () => cumulative(base)),
    });
  }
  const root = Math.sqrt(partShare(league));
  const matrix = axes.map((a) =>
    axes.map((b) => (a === b ? 1 : (a.kind === b.kind ? 1 : rho) * (a.part === b.part ? 1 : root))),
  );
  const pieces = axes.map((axis) => piecesOf(axis.legs));
  let alive = 0;
  let allPushed = 0;
  const chosen: Piece[] = [];
  const walk = (i: number): void => {
    if (i === axes.length) {
      const lower = chosen.map((piece, j) => axes[j]!.z(piece.lo - 1));
      const upper = chosen.map((piece, j) => axes[j]!.z(piece.hi));
      const p = rectangle(lower, upper, matrix);
      if (chosen.every((piece) => piece.allPush)) allPushed += p;
      else alive += p * chosen.reduce((product, piece) => product * piece.factor, 1);
      return;
    }
    for (const piece of pieces[i]!) {
      chosen[i] = piece;
      walk(i + 1);
    }
  };
  walk(0);
  return allPushed < 1 ? Math.min(1, alive / (1 - allPushed)) : 0;
}
