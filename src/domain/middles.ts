import { floorTo, PROB_PLACES } from './arbitrage.ts';
import { devigImplied, type DevigMethod } from './devig.ts';
import type { FairFallback, FairReference } from './history.ts';
import type { LeagueKey } from './markets.ts';
import { normalCdf, normalQuantile } from './mvn.ts';
import { roundTo, type Cents } from './odds.ts';
import {
  CENTRE_STEP,
  discretisedNormalWeights,
  fairHighProbability,
  gameDistributions,
  gameDistributionsUncached,
  gameMarginDistribution,
  normalise,
  probabilityOf,
  scoreModelName,
  type IntegerDistribution,
  type ScoreModelName,
} from './score-distributions.ts';
import { SGP_GAME_PRIORS } from './sgp.ts';
import { isSportsbookKey, SHARP_BOOKS } from './sportsbooks.ts';
import { defaultSplit } from './wagers.ts';

// Middles (issue 36, the middles half; docs/product.md §10, decision 167). A middle is two opposite sides of one
// game's spread or total at different lines, at two books, such that both can win: home −2.5 at one book and away
// +3.5 at another both win when the home side wins by exactly 3; over 44.5 and under 47.5 both win on totals 45–47.
// Each side is a condition on an integer score variable X (the full-game margin home − away, or the total):
//
//   the high side wins when X > its line (home −2.5 → margin > 2.5; over 44.5 → total > 44.5),
//   the low side wins when X < its line (away +3.5 → margin < 3.5; under 47.5 → total < 47.5),
//
// and a side pushes (the stake comes back) when X equals a whole-number line. A middle needs high line < low line.
// Staked at the equal-payout split, either side alone pays the same; if X lands strictly between the lines both pay.
// Most middles miss and lose a little: the EV is the expectation over X under the sport's score distribution,
// centred on the market (`marketCentre`), and is an average over many such bets, never a promise.

/** EV of a middle is published in percent to 3 places, rounded down (as /v1/ev and /v1/arbs). */
export const MIDDLE_EV_PLACES = 3;
/** The fewest books pricing both sides of some line of a game's spread or total for its centre to be estimated. */
export const MIDDLE_MIN_BOOKS = 3;

export type { IntegerDistribution } from './score-distributions.ts';
export { probabilityOf } from './score-distributions.ts';

/**
 * A normal N(mean, sigma²) discretised to the integers with the continuity correction: P(X = k) = Φ((k + ½ − μ)/σ) −
 * Φ((k − ½ − μ)/σ), cut at 8 σ. `floor`: the least possible value (0 for a total); mass below it is dropped and the
 * rest renormalised. `noZero`: a margin that cannot be 0: P(0) is spread over the other values in proportion.
 */
export function discretisedNormal(
  mean: number,
  sigma: number,
  options: { floor?: number; noZero?: boolean } = {},
): IntegerDistribution {
  if (!Number.isFinite(mean) || !(sigma > 0)) throw new RangeError(`Bad normal (${mean}, ${sigma})`);
  const { min, weights } = discretisedNormalWeights(mean, sigma, options.floor);
  if (options.noZero && min <= 0 && -min < weights.length) weights[-min] = 0;
  return normalise(min, weights);
}

export type MiddleVariable = 'margin' | 'total';

/** The model behind each league's distributions, as answers name it (score-distributions.ts, decision 264). */
export function middleModel(league: LeagueKey): ScoreModelName {
  return scoreModelName(league);
}

/**
 * The full-game distribution of `variable` in `league` centred on the market: the league's distributions fitted to
 * published historical frequencies (src/domain/score-distributions.ts, docs/calibration.md).
 */
export function scoreDistribution(
  league: LeagueKey,
  variable: MiddleVariable,
  centre: { margin: number; total: number },
): IntegerDistribution {
  return gameDistributions(league, centre)[variable];
}

/** A middle's chances under the league's distributions (`distribution`: the game's, when the caller keeps it). */
export function modelMiddleChances(
  league: LeagueKey,
  variable: MiddleVariable,
  centre: { margin: number; total: number },
  high: number,
  low: number,
  distribution?: IntegerDistribution,
): MiddleChances {
  return middleChances(high, low, distribution ?? scoreDistribution(league, variable, centre));
}

/**
 * `middleChances` over `discretisedNormal(mean, sigma, options)` without building the distribution: the continuity
 * correction makes the mass of whole numbers a..b one difference of Φ (Φ at b + ½ less Φ at a − ½), so a middle needs
 * Φ at its gap's and pushes' ends and the normaliser's (the same cut at 8 σ, floor and lost 0): a handful of Φ instead
 * of one per whole number in ±8 σ. The same figures up to the last bits of a double (the sums are taken in another
 * order; middles.test.ts compares them).
 */
export function normalMiddleChances(
  high: number,
  low: number,
  mean: number,
  sigma: number,
  options: { floor?: number | undefined; noZero?: boolean } = {},
): MiddleChances {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  if (!Number.isFinite(mean) || !(sigma > 0)) throw new RangeError(`Bad normal (${mean}, ${sigma})`);
  let min = Math.floor(mean - 8 * sigma);
  if (options.floor !== undefined) min = Math.max(min, options.floor);
  const max = Math.max(min, Math.ceil(mean + 8 * sigma));
  const zero =
    options.noZero && min <= 0 && max >= 0 ? upperCdf(0, mean, sigma) - upperCdf(-1, mean, sigma) : 0;
  const sum = upperCdf(max, mean, sigma) - upperCdf(min - 1, mean, sigma) - zero;
  if (!(sum > 0)) throw new RangeError('A distribution needs some mass');
  const middle = normalMass(Math.floor(high) + 1, Math.ceil(low) - 1, mean, sigma, min, max, zero) / sum;
  const pushHigh = Number.isInteger(high) ? normalMass(high, high, mean, sigma, min, max, zero) / sum : 0;
  const pushLow = Number.isInteger(low) ? normalMass(low, low, mean, sigma, min, max, zero) / sum : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}

/** Φ at k + ½ (the upper end of whole number k) of N(mean, sigma²). */
function upperCdf(k: number, mean: number, sigma: number): number {
  return normalCdf((k + 0.5 - mean) / sigma);
}

/** The unnormalised mass of whole numbers from..to within min..max, less the lost 0's `zero`. */
function normalMass(
  from: number,
  to: number,
  mean: number,
  sigma: number,
  min: number,
  max: number,
  zero: number,
): number {
  const a = Math.max(from, min);
  const b = Math.min(to, max);
  if (a > b) return 0;
  return Math.max(0, upperCdf(b, mean, sigma) - upperCdf(a - 1, mean, sigma) - (a <= 0 && b >= 0 ? zero : 0));
}

/**
 * One book's two prices on one line, as the centre's estimate reads it: `line` on the variable (a spread's home point
 * p reads margin > −p), `high`/`low` the decimal odds of the side winning above / below it.
 */
export interface LineQuote {
  book: string;
  line: number;
  high: number;
  low: number;
}

/**
 * How a centre is estimated (issue 55, decision 206): `method`, how each book's two prices of a line are de-vigged
 * into the chance of the high side; `reference`, whose estimates the median is taken over (every book's, the sharp
 * books', or one book's), as the fair probabilities of /v1/events/{eventId}/lines are chosen.
 */
export interface CentreChoice {
  method: DevigMethod;
  reference: FairReference;
}

/** The centre's default: each book's two sides divided by their sum, every book's estimates (as since decision 167). */
export const MIDDLE_CENTRE_DEFAULT = {
  method: 'multiplicative',
  reference: 'consensus',
} as const satisfies CentreChoice;

/** What a centre was estimated from: the method, and the reference it came from and why not the one asked for. */
export interface CentreSource {
  method: DevigMethod;
  /** A book's key, `sharp` or `consensus`. */
  reference: string;
  fallback: FairFallback | null;
}

export const DEFAULT_CENTRE_SOURCE: CentreSource = {
  method: 'multiplicative',
  reference: 'consensus',
  fallback: null,
};

/**
 * The chance that the high side (home, over) wins, from one book's two prices of a line de-vigged by `method`:
 * multiplicative (1/dh) / (1/dh + 1/dl); additive and Shin's (equal on two outcomes) (1 + 1/dh − 1/dl) / 2; power
 * (1/dh)^k with (1/dh)^k + (1/dl)^k = 1. Undefined when it is not strictly between 0 and 1 (the additive method can
 * give 0 to a side priced far below its share of the margin).
 */
export function highSideChance(high: number, low: number, method: DevigMethod): number | undefined {
  const p =
    method === 'multiplicative'
      ? 1 / high / (1 / high + 1 / low)
      : devigImplied([1 / high, 1 / low], method)[0]!;
  return p > 0 && p < 1 ? p : undefined;
}

/**
 * The median of the estimates of `reference`'s books (`consensus`: every book's; `sharp`: SHARP_BOOKS'; else one
 * book's), with the reference they came from. When the reference has none, the consensus's, and `fallback` says
 * why (as `referenceFair` in history.ts). Undefined when there is no estimate at all.
 */
export function referenceMedian(
  estimates: readonly { book: string; value: number }[],
  choice: CentreChoice,
  sharpBooks: readonly string[] = SHARP_BOOKS,
): { centre: number; source: CentreSource } | undefined {
  const { reference, method } = choice;
  const median = (used: readonly { value: number }[], name: string, fallback: FairFallback | null) => {
    if (used.length === 0) return undefined;
    const values = used.map((estimate) => estimate.value).sort((a, b) => a - b);
    const mid = values.length >> 1;
    const centre = values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
    return { centre, source: { method, reference: name, fallback } };
  };
  if (reference === 'consensus') return median(estimates, 'consensus', null);
  if (reference === 'sharp') {
    const sharp = estimates.filter((estimate) => sharpBooks.includes(estimate.book));
    return sharp.length > 0 ? median(sharp, 'sharp', null) : median(estimates, 'consensus', 'no_sharp_book');
  }
  const own = estimates.filter((estimate) => estimate.book === reference);
  if (own.length > 0) return median(own, reference, null);
  return median(
    estimates,
    'consensus',
    isSportsbookKey(reference) ? 'book_missing_outcomes' : 'book_not_carried',
  );
}

/**
 * The mean of `variable` whose fair two-way chance of the high side at `line` under the league's distributions is
 * `p` (issue 57, decision 284): a whole line's push left out, a quarter line as its two halves, as de-vigged prices
 * read them (`fairHighProbability`); the other variable's centre held at `other`. The distributions are built at
 * centres in steps of `CENTRE_STEP`: the mean is bracketed from the normal estimate `line + σ · Φ⁻¹(p)` outwards,
 * bisected to one step and read between its two ends linearly in p. A line not in quarter points keeps the normal
 * estimate; a chance beyond what the distributions reach gives the end of their range.
 */
export function distributionCentre(
  league: LeagueKey,
  variable: MiddleVariable,
  line: number,
  p: number,
  other: number,
  near?: number,
): number {
  const prior = SGP_GAME_PRIORS[league];
  const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
  const normal = line + sigma * normalQuantile(p);
  if (!Number.isInteger(line * 4) || !(p > 0 && p < 1) || !Number.isFinite(other)) return normal;
  // The line's chances at the centres already tried and its fits by price, kept across calls: the same line's next
  // fit (another book's price of it, or the price moved) bisects over mostly the same centres, and a build costs up
  // to a millisecond. Keyed by the line and the other centre's step (a fit's key adds the price: no string made of it).
  const curveKey = `${league}|${variable}|${line}|${Math.round(other / CENTRE_STEP)}`;
  let curve = curves.get(curveKey);
  if (curve) {
    curves.delete(curveKey);
    curves.set(curveKey, curve);
    const found = curve.fits.get(p);
    if (found !== undefined) return found;
  } else {
    curve = { chances: new Map(), fits: new Map() };
    if (curves.size >= CURVES_KEPT) curves.delete(curves.keys().next().value!);
    curves.set(curveKey, curve);
  }
  const result = fitCentre(league, variable, line, p, other, sigma, normal, curve.chances, true, near);
  if (curve.fits.size >= FITS_KEPT) curve.fits.delete(curve.fits.keys().next().value!);
  curve.fits.set(p, result);
  return result;
}

/** `distributionCentre` without what it keeps: every chance built again (the tests compare the two). */
export function distributionCentreUncached(
  league: LeagueKey,
  variable: MiddleVariable,
  line: number,
  p: number,
  other: number,
): number {
  const prior = SGP_GAME_PRIORS[league];
  const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
  const normal = line + sigma * normalQuantile(p);
  if (!Number.isInteger(line * 4) || !(p > 0 && p < 1) || !Number.isFinite(other)) return normal;
  return fitCentre(league, variable, line, p, other, sigma, normal, new Map(), false);
}

/**
 * The bracketing and bisection of `distributionCentre`, the line's chance at each centre step read from `known` or
 * else computed (and kept in it); `cached: false` builds the distributions without the cache of `gameDistributions`.
 */
function fitCentre(
  league: LeagueKey,
  variable: MiddleVariable,
  line: number,
  p: number,
  other: number,
  sigma: number,
  normal: number,
  known: Map<number, number>,
  cached = true,
  near?: number,
): number {
  const total = Math.max(other, 0.2);
  // The range gameDistributions reads a centre in: a total from 0.2, a margin within ± the total.
  const lo = variable === 'margin' ? Math.ceil(-total / CENTRE_STEP) : Math.ceil(0.2 / CENTRE_STEP);
  const hi =
    variable === 'margin' ? Math.floor(total / CENTRE_STEP) : Math.ceil((line + 12 * sigma) / CENTRE_STEP);
  // The line's chance at centre step k, chance(k), is `lineChanceAt` (a module function: no closure made per fit,
  // decision 309). The search starts from a centre `near` the answer when given (the same book's fit before its price or the other
  // centre moved: the two steps about it bracket p at once most of the time), else from the normal estimate. The
  // line's chance only grows with the centre, so the steps whose chance is below p come first and there is one bracket
  // of two neighbouring steps: the search ends in it from any start, with the same centre (decision 285; an exact tie,
  // p equal to a step's chance, gives that step from either side; a p beyond the range, the same end).
  const from = near !== undefined && Number.isFinite(near) ? near : normal;
  let result: number;
  const start = Math.min(Math.max(Math.round(from / CENTRE_STEP), lo), hi);
  const atStart = lineChanceAt(league, variable, line, other, known, cached, start);
  // A bracket [a, b] with chance(a) ≤ p ≤ chance(b), widened by doubling steps from the start.
  let a = start;
  let b = start;
  let fa = atStart;
  let fb = atStart;
  if (atStart < p) {
    let step = 1;
    while (fb < p && b < hi) {
      a = b;
      fa = fb;
      b = Math.min(hi, b + step);
      fb = lineChanceAt(league, variable, line, other, known, cached, b);
      step *= 2;
    }
  } else {
    let step = 1;
    while (fa > p && a > lo) {
      b = a;
      fb = fa;
      a = Math.max(lo, a - step);
      fa = lineChanceAt(league, variable, line, other, known, cached, a);
      step *= 2;
    }
  }
  if (fb < p) result = b * CENTRE_STEP;
  else if (fa > p) result = a * CENTRE_STEP;
  else {
    while (b - a > 1) {
      const mid = (a + b) >> 1;
      const fm = lineChanceAt(league, variable, line, other, known, cached, mid);
      if (fm < p) {
        a = mid;
        fa = fm;
      } else {
        b = mid;
        fb = fm;
      }
    }
    result = (a + (fb > fa ? (p - fa) / (fb - fa) : 0)) * CENTRE_STEP;
  }
  return result;
}

/**
 * The line's chance of the high side with `variable`'s centre at step k and the other held at `other`: read from
 * `known` or else computed (and kept in it); `cached: false` builds the distributions without the caches.
 */
function lineChanceAt(
  league: LeagueKey,
  variable: MiddleVariable,
  line: number,
  other: number,
  known: Map<number, number>,
  cached: boolean,
  k: number,
): number {
  let found = known.get(k);
  if (found !== undefined) return found;
  const centre =
    variable === 'margin'
      ? { margin: k * CENTRE_STEP, total: other }
      : { margin: other, total: k * CENTRE_STEP };
  // A margin needs the margin's distribution only (the NFL's and basketball's kept by margin step, no total fitted).
  const distribution = !cached
    ? gameDistributionsUncached(league, centre)[variable]
    : variable === 'margin'
      ? gameMarginDistribution(league, centre)
      : gameDistributions(league, centre).total;
  found = fairHighProbability(distribution, line);
  known.set(k, found);
  return found;
}

/** A line's chance of the high side by centre step, and the centres fitted on it by price (`distributionCentre`). */
interface Curve {
  chances: Map<number, number>;
  fits: Map<number, number>;
}

/**
 * Each line's curve by the other centre's step (`distributionCentre`), least recently used dropped first: a few numbers
 * a line and at most FITS_KEPT fits (the oldest dropped first), at most CURVES_KEPT lines.
 */
const curves = new Map<string, Curve>();
export const CURVES_KEPT = 5_000;
export const FITS_KEPT = 16;

/** How many lines' curves `distributionCentre` keeps, and the most fits one of them keeps. */
export function centreFitsKept(): { curves: number; mostFits: number } {
  let mostFits = 0;
  for (const curve of curves.values()) mostFits = Math.max(mostFits, curve.fits.size);
  return { curves: curves.size, mostFits };
}

/** The median of values (sorted in place). */
function medianOfValues(values: number[]): number {
  values.sort((x, y) => x - y);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/**
 * The old normal estimate of a centre, kept to hold the other variable while one is fitted: per book and line, the
 * multiplicatively de-vigged chance p of the high side gives line + σ · Φ⁻¹(p) (σ the SGP prior's); the median of
 * every book's. Undefined without a quote with both sides.
 */
export function normalMarketCentre(
  league: LeagueKey,
  variable: MiddleVariable,
  quotes: readonly LineQuote[],
): number | undefined {
  const prior = SGP_GAME_PRIORS[league];
  const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
  const estimates: number[] = [];
  for (const quote of quotes) {
    if (!(quote.high > 1 && quote.low > 1) || !Number.isFinite(quote.line)) continue;
    const p = highSideChance(quote.high, quote.low, 'multiplicative');
    if (p !== undefined) estimates.push(quote.line + sigma * normalQuantile(p));
  }
  return estimates.length === 0 ? undefined : medianOfValues(estimates);
}

/**
 * `marketCentre` by `choice`: per book and line, the high side's chance de-vigged by `choice.method`
 * (`highSideChance`), the mean under the league's distributions that gives it (`distributionCentre`, the other
 * variable's centre held at `other`); the centre is the median of `choice.reference`'s estimates (`referenceMedian`).
 * Undefined when fewer than `minBooks` books price both sides of some line, whatever the reference.
 */
export function marketCentreBy(
  league: LeagueKey,
  variable: MiddleVariable,
  quotes: readonly LineQuote[],
  choice: CentreChoice,
  minBooks: number = MIDDLE_MIN_BOOKS,
  other: number = defaultOther(league, variable),
): { centre: number; source: CentreSource } | undefined {
  const books = new Set<string>();
  const estimates: { book: string; value: number }[] = [];
  for (const quote of quotes) {
    if (!(quote.high > 1 && quote.low > 1) || !Number.isFinite(quote.line)) continue;
    books.add(quote.book);
    const p = highSideChance(quote.high, quote.low, choice.method);
    if (p !== undefined)
      estimates.push({ book: quote.book, value: distributionCentre(league, variable, quote.line, p, other) });
  }
  if (books.size < minBooks) return undefined;
  return referenceMedian(estimates, choice);
}

/** The other variable's centre when a caller has none: an even game, or the league's typical total. */
function defaultOther(league: LeagueKey, variable: MiddleVariable): number {
  return variable === 'margin' ? SGP_GAME_PRIORS[league].meanTotal : 0;
}

/**
 * The market's expected value of the variable: per book and line, the de-vigged chance of the high side p =
 * (1/dh) / (1/dh + 1/dl) gives the mean under the league's distributions whose fair chance at the line is p
 * (`distributionCentre`, the other variable's centre held at `other`); the centre is the median of those estimates.
 * Undefined when fewer than `minBooks` books price both sides of some line.
 */
export function marketCentre(
  league: LeagueKey,
  variable: MiddleVariable,
  quotes: readonly LineQuote[],
  minBooks: number = MIDDLE_MIN_BOOKS,
  other: number = defaultOther(league, variable),
): number | undefined {
  return marketCentreBy(league, variable, quotes, MIDDLE_CENTRE_DEFAULT, minBooks, other)?.centre;
}

/** A side of a middle: its line on the variable and its decimal odds. */
export interface MiddleSide {
  line: number;
  decimal: number;
}

/** Where X can land for a middle, with its probabilities. */
export interface MiddleChances {
  /** Both sides win: high.line < X < low.line. */
  middle: number;
  /** X = high.line (a whole number): the high side pushes, the low side wins. */
  pushHigh: number;
  /** X = low.line (a whole number): the low side pushes, the high side wins. */
  pushLow: number;
  /** Exactly one side wins, the other loses. */
  miss: number;
}

/** The integers landing both sides, high < X < low (empty when no whole number lies strictly between the lines). */
export function middleGap(high: number, low: number): number[] {
  if (!(Number.isInteger(high * 2) && Number.isInteger(low * 2))) return [];
  const gap: number[] = [];
  for (let x = Math.floor(high) + 1; x < low; x += 1) gap.push(x);
  return gap;
}

/**
 * Whether the pair is a middle: both lines in half points and some whole number strictly between them, so both sides
 * can win (home −3 with away +3.5 is not: on a 3 one side pushes and the other wins, never both).
 */
export function isMiddle(high: number, low: number): boolean {
  return isMiddleLines(high, low);
}

/** `isMiddle` without building the gap: both lines in half points and a whole number strictly between. */
export function isMiddleLines(high: number, low: number): boolean {
  return Number.isInteger(high * 2) && Number.isInteger(low * 2) && Math.floor(high) + 1 < low;
}

export function middleChances(high: number, low: number, distribution: IntegerDistribution): MiddleChances {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  let middle = 0;
  for (let x = Math.floor(high) + 1; x < low; x += 1) middle += probabilityOf(distribution, x);
  const pushHigh = Number.isInteger(high) ? probabilityOf(distribution, high) : 0;
  const pushLow = Number.isInteger(low) ? probabilityOf(distribution, low) : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}

/**
 * Returns per unit of total stake at the equal-payout split (stakes w_high = d_low / (d_high + d_low) and
 * w_low = d_high / (d_high + d_low), so either side alone pays h = d_high · d_low / (d_high + d_low)): the profit when
 * the middle hits (2h − 1), when exactly one side wins (h − 1, the worst case when it is below 0), and when a side
 * pushes (its stake back plus the other's payout: w + h − 1).
 */
export function middleReturns(highDecimal: number, lowDecimal: number) {
  if (!(highDecimal > 1 && lowDecimal > 1)) throw new RangeError('Decimal odds must be > 1');
  const h = (highDecimal * lowDecimal) / (highDecimal + lowDecimal);
  const wHigh = lowDecimal / (highDecimal + lowDecimal);
  return {
    hit: 2 * h - 1,
    miss: h - 1,
    pushHigh: wHigh + h - 1,
    pushLow: 1 - wHigh + h - 1,
    stakeShareHigh: wHigh,
  };
}

/** EV of the middle per unit of total stake, as a fraction: Σ over where X lands of its probability × profit. */
export function middleEv(highDecimal: number, lowDecimal: number, chances: MiddleChances): number {
  const r = middleReturns(highDecimal, lowDecimal);
  return (
    chances.middle * r.hit +
    chances.pushHigh * r.pushHigh +
    chances.pushLow * r.pushLow +
    chances.miss * r.miss
  );
}

/** Rounds published probabilities (6 places) and derives the miss from them, so the four sum to 1 as published. */
export function publishedChances(chances: MiddleChances): MiddleChances {
  const middle = roundTo(chances.middle, PROB_PLACES);
  const pushHigh = roundTo(chances.pushHigh, PROB_PLACES);
  const pushLow = roundTo(chances.pushLow, PROB_PLACES);
  return { middle, pushHigh, pushLow, miss: roundTo(1 - middle - pushHigh - pushLow, PROB_PLACES) };
}

/** A percentage as answers publish it: floored to 3 places, −0 normalised. */
export function publishedPct(fraction: number): number {
  return floorTo(fraction * 100, MIDDLE_EV_PLACES) + 0;
}

/** Equal-payout stakes in cents for a total: [high, low], summing exactly to the total (`defaultSplit`). */
export function middleStakesCents(
  totalCents: number,
  highDecimal: number,
  lowDecimal: number,
): [Cents, Cents] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0)
    throw new RangeError(`A total is a whole number of cents >= 0, got ${totalCents}`);
  const [high, low] = defaultSplit([highDecimal, lowDecimal], totalCents as Cents);
  return [high!, low!];
}
