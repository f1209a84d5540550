import { floorTo, PROB_PLACES } from './arbitrage.ts';
import { devigImplied, type DevigMethod } from './devig.ts';
import type { FairFallback, FairReference } from './history.ts';
import { LEAGUES, type LeagueKey } from './markets.ts';
import { normalCdf, normalQuantile } from './mvn.ts';
import { roundTo, type Cents } from './odds.ts';
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
/** A market is priced only when its distribution is this sure of the variable's range (the tails cut off). */
const TAIL_SIGMAS = 8;

/** A distribution over the integers: `probabilities[i]` is P(X = min + i); they sum to 1. */
export interface IntegerDistribution {
  min: number;
  probabilities: number[];
}

export function probabilityOf(distribution: IntegerDistribution, x: number): number {
  return distribution.probabilities[x - distribution.min] ?? 0;
}

function normalise(min: number, weights: ArrayLike<number>): IntegerDistribution {
  let first = 0;
  while (first < weights.length - 1 && weights[first] === 0) first += 1;
  let last = weights.length - 1;
  while (last > first && weights[last] === 0) last -= 1;
  let sum = 0;
  for (let i = first; i <= last; i += 1) sum += weights[i]!;
  if (!(sum > 0)) throw new RangeError('A distribution needs some mass');
  const probabilities = new Array<number>(last - first + 1);
  for (let i = first; i <= last; i += 1) probabilities[i - first] = weights[i]! / sum;
  return { min: min + first, probabilities };
}

/**
 * A normal N(mean, sigma²) discretised to the integers with the continuity correction: P(X = k) = Φ((k + ½ − μ)/σ) −
 * Φ((k − ½ − μ)/σ), cut at 8 σ. `floor`: the least possible value (0 for a total); mass below it is dropped and the
 * rest renormalised. `noZero`: a margin that cannot be 0 (a tie goes to overtime): P(0) is spread over the other
 * values in proportion (a simplification: overtime margins are in truth small).
 */
export function discretisedNormal(
  mean: number,
  sigma: number,
  options: { floor?: number; noZero?: boolean } = {},
): IntegerDistribution {
  if (!Number.isFinite(mean) || !(sigma > 0)) throw new RangeError(`Bad normal (${mean}, ${sigma})`);
  let min = Math.floor(mean - TAIL_SIGMAS * sigma);
  if (options.floor !== undefined) min = Math.max(min, options.floor);
  const max = Math.max(min, Math.ceil(mean + TAIL_SIGMAS * sigma));
  const weights = new Array<number>(max - min + 1);
  // Φ at k + ½ is Φ at (k + 1) − ½ (the same double for an integer k): each boundary is computed once.
  let below = normalCdf((min - 0.5 - mean) / sigma);
  for (let k = min; k <= max; k += 1) {
    const above = normalCdf((k + 0.5 - mean) / sigma);
    weights[k - min] = options.noZero && k === 0 ? 0 : above - below;
    below = above;
  }
  return normalise(min, weights);
}

/**
 * The NFL drive model: a documented MODEL of NFL scoring, not a published table of final margins. Each team has
 * `NFL_DRIVE_MODEL.drives` possessions; each ends in a touchdown (worth 7, or 6 when the try fails, or 8 after a
 * two-point conversion), a field goal (3) or nothing, independently. Points come in 3s and 7s, so the margins cluster
 * at 3, 7, 10, 4, 6, 14 as real NFL margins do (the key numbers). A regulation tie goes to overtime: settled by a field
 * goal (margin 3) or a touchdown (margin 6, no try after a walk-off touchdown), or left a tie. The base rates are
 * priors of league-wide drive outcomes (about 11 possessions a team, a touchdown on ~22 % and a field goal on ~16 %
 * of drives; recent seasons), scaled per team to the market's expected score. The model's margin deviation (about
 * 13.4 points) is close to the 13.86 points measured about the spread (Stern 1991, quoted in src/domain/sgp.ts).
 */
export const NFL_DRIVE_MODEL = {
  drives: 11,
  touchdownRate: 0.22,
  fieldGoalRate: 0.16,
  /** A touchdown's points: 7 after a made kick, 6 after a failed try, 8 after a two-point conversion. */
  touchdownPoints: [
    { points: 7, share: 0.91 },
    { points: 6, share: 0.06 },
    { points: 8, share: 0.03 },
  ],
  /** How a regulation tie ends: a field goal (3), a touchdown (6), or still a tie. */
  overtime: { fieldGoal: 0.55, touchdown: 0.4, tie: 0.05 },
  /** The least expected score of a team (the scale is clamped). */
  minTeamMean: 3,
} as const;

const NFL_POINTS_PER_DRIVE =
  NFL_DRIVE_MODEL.touchdownRate *
    NFL_DRIVE_MODEL.touchdownPoints.reduce((sum, t) => sum + t.points * t.share, 0) +
  NFL_DRIVE_MODEL.fieldGoalRate * 3;

/** The points of a scoring drive (a field goal, then each touchdown's), in the order their chances are added. */
const NFL_SCORING_POINTS = [3, ...NFL_DRIVE_MODEL.touchdownPoints.map((t) => t.points)];
/** The chances of those drives (scratch, filled per team). */
const nflScoringChances = new Float64Array(NFL_SCORING_POINTS.length);
/** Two score buffers, swapped drive after drive. */
let nflScoreBuffer = new Float64Array(NFL_DRIVE_MODEL.drives * 8 + 1);

/** The margin and total sums of `nflScoreDistributions` (scratch, grown as needed). */
let nflSums = new Float64Array(0);

/**
 * One NFL team's score distribution for an expected score `mean` (weights indexed by points, from 0): the drives'
 * outcomes convolved one drive at a time, into two buffers that take turns (no array a drive; middles compute two of
 * these whenever a game's centres move).
 */
function nflTeamScore(mean: number): Float64Array {
  const m = NFL_DRIVE_MODEL;
  let scale = Math.max(m.minTeamMean, mean) / (m.drives * NFL_POINTS_PER_DRIVE);
  scale = Math.min(scale, 0.95 / (m.touchdownRate + m.fieldGoalRate));
  const td = m.touchdownRate * scale;
  const fg = m.fieldGoalRate * scale;
  // A drive's outcomes that score (points, chance); the rest is 1 − td − fg on 0 points.
  const chances = nflScoringChances;
  chances[0] = fg;
  for (let t = 0; t < m.touchdownPoints.length; t += 1) chances[t + 1] = td * m.touchdownPoints[t]!.share;
  const kinds = NFL_SCORING_POINTS.length;
  const blank = 1 - td - fg;
  let score = new Float64Array(m.drives * 8 + 1);
  let next = nflScoreBuffer;
  score[0] = 1;
  let top = 0;
  for (let i = 0; i < m.drives; i += 1) {
    next.fill(0, 0, top + 9);
    for (let a = 0; a <= top; a += 1) {
      const p = score[a]!;
      if (p === 0) continue;
      next[a]! += p * blank;
      for (let k = 0; k < kinds; k += 1) next[a + NFL_SCORING_POINTS[k]!]! += p * chances[k]!;
    }
    top += 8;
    const done = next;
    next = score;
    score = done;
  }
  // `score` is returned (the caller reads it before the next call); the other buffer is kept for the next call.
  nflScoreBuffer = next;
  return score;
}

/**
 * The NFL full-game margin (home − away) and total under the drive model, for the market's expected margin and
 * total: each team's expected score is (total ± margin) / 2. Overtime winners split by each team's share of the
 * expected points.
 */
export function nflScoreDistributions(
  expectedMargin: number,
  expectedTotal: number,
): { margin: IntegerDistribution; total: IntegerDistribution } {
  const homeMean = Math.max(NFL_DRIVE_MODEL.minTeamMean, (expectedTotal + expectedMargin) / 2);
  const awayMean = Math.max(NFL_DRIVE_MODEL.minTeamMean, (expectedTotal - expectedMargin) / 2);
  const home = nflTeamScore(homeMean);
  const away = nflTeamScore(awayMean);
  const homeShare = homeMean / (homeMean + awayMean);
  const top = home.length - 1 + 6;
  // Scratch sums (normalise copies them out): index margin + top, and total.
  if (nflSums.length < 2 * (2 * top + 1)) nflSums = new Float64Array(2 * (2 * top + 1));
  const margin = nflSums.subarray(0, 2 * top + 1).fill(0);
  const total = nflSums.subarray(2 * top + 1, 2 * (2 * top + 1)).fill(0);
  const ot = NFL_DRIVE_MODEL.overtime;
  // Row by row: the scores below h, the tie (overtime), the scores above h, each as two plain loops (the additions
  // into each entry happen in the same order as one pass over a would make them: the same doubles).
  const awayLength = away.length;
  for (let h = 0; h < home.length; h += 1) {
    const ph = home[h]!;
    if (ph === 0) continue;
    const below = Math.min(h, awayLength);
    for (let a = 0; a < below; a += 1) margin[h - a + top]! += ph * away[a]!;
    for (let a = 0; a < below; a += 1) total[h + a]! += ph * away[a]!;
    if (h < awayLength) {
      const p = ph * away[h]!;
      if (p !== 0) {
        margin[top]! += p * ot.tie;
        total[h + h]! += p * ot.tie;
        margin[top + 3]! += p * ot.fieldGoal * homeShare;
        margin[top - 3]! += p * ot.fieldGoal * (1 - homeShare);
        total[h + h + 3]! += p * ot.fieldGoal;
        margin[top + 6]! += p * ot.touchdown * homeShare;
        margin[top - 6]! += p * ot.touchdown * (1 - homeShare);
        total[h + h + 6]! += p * ot.touchdown;
      }
    }
    for (let a = h + 1; a < awayLength; a += 1) margin[h - a + top]! += ph * away[a]!;
    for (let a = h + 1; a < awayLength; a += 1) total[h + a]! += ph * away[a]!;
  }
  return { margin: normalise(-top, margin), total: normalise(0, total) };
}

/**
 * A published table of NFL final margins: the share of games won by exactly k points (either side), Sports Insights'
 * count of 2003–2013 games as Business Insider published it in July 2013 ("NFL margin of victory chart"): 3 in
 * 15.39 %, 7 in 9.55 %, 10 in 6.14 %, 6 in 5.58 %, 4 in 5.32 %, 14 in 4.79 % of games. A later tally of 7,276
 * games (1999–2025, nflverse data, nflanalytic.com 2026) agrees within about half a point: 15.1 %, 9.0 %, 6.0 %, 5.5 %
 * and 4.9 % on 3, 7, 6, 10 and 14.
 */
export const NFL_KEY_MARGINS: readonly { margin: number; share: number }[] = [
  { margin: 3, share: 0.1539 },
  { margin: 4, share: 0.0532 },
  { margin: 6, share: 0.0558 },
  { margin: 7, share: 0.0955 },
  { margin: 10, share: 0.0614 },
  { margin: 14, share: 0.0479 },
];

/**
 * The games the table counts, as the calibration reads them: expected margins (the closing spread) normal about 0
 * with this deviation, and a total of 44. An assumption, not a measured figure: NFL closing spreads are mostly within
 * ±10 (a deviation of about 6 points puts 90 % of them there).
 */
export const NFL_CALIBRATION_GAMES = { spreadSigma: 6, total: 44, step: 0.5, span: 18 } as const;

/** The share of the calibration's games won by exactly k points under `margins(expectedMargin)`. */
export function nflLeagueMarginShare(
  k: number,
  margins: (expectedMargin: number) => IntegerDistribution,
): number {
  const { spreadSigma, step, span } = NFL_CALIBRATION_GAMES;
  let weights = 0;
  let share = 0;
  for (let m = -span; m <= span; m += step) {
    const w = Math.exp(-((m / spreadSigma) ** 2) / 2);
    const d = margins(m);
    weights += w;
    share += w * (probabilityOf(d, k) + (k === 0 ? 0 : probabilityOf(d, -k)));
  }
  return share / weights;
}

/**
 * Per key margin k of the table, the factor on P(margin = ±k) of the drive model that brings the calibration games'
 * share of k to the table's: `fitNflKeyFactors()` to 4 places (middles.test.ts checks that these still fit).
 */
export const NFL_KEY_FACTORS: ReadonlyMap<number, number> = new Map([
  [3, 2.0336],
  [4, 0.9929],
  [6, 1.0043],
  [7, 1.666],
  [10, 1.253],
  [14, 1.2028],
]);

/** Fits the key factors: a few fixed-point steps, since each factor moves the normaliser (about a second of CPU). */
export function fitNflKeyFactors(steps = 8): Map<number, number> {
  const factors = new Map(NFL_KEY_MARGINS.map(({ margin }) => [margin, 1]));
  const raw = new Map<number, IntegerDistribution>();
  const rawAt = (m: number) => {
    let d = raw.get(m);
    if (!d) raw.set(m, (d = nflScoreDistributions(m, NFL_CALIBRATION_GAMES.total).margin));
    return d;
  };
  for (let step = 0; step < steps; step += 1) {
    const shares = NFL_KEY_MARGINS.map(({ margin }) =>
      nflLeagueMarginShare(margin, (m) => withKeyFactors(rawAt(m), factors)),
    );
    NFL_KEY_MARGINS.forEach(({ margin, share }, i) =>
      factors.set(margin, factors.get(margin)! * (share / shares[i]!)),
    );
  }
  return factors;
}

/** A margin distribution with P(±k) multiplied by each key factor, renormalised. */
export function withKeyFactors(
  margin: IntegerDistribution,
  factors: ReadonlyMap<number, number>,
): IntegerDistribution {
  const weights = margin.probabilities.slice();
  for (const [k, factor] of factors) {
    for (const x of k === 0 ? [0] : [k, -k]) {
      const i = x - margin.min;
      if (i >= 0 && i < weights.length) weights[i] = weights[i]! * factor;
    }
  }
  return normalise(margin.min, weights);
}

/**
 * The NFL distributions middles are priced on: the drive model's (`nflScoreDistributions`), with the margin calibrated
 * to the published table of final margins (`NFL_KEY_MARGINS`): P(margin = ±k) of each key margin k multiplied by one
 * league-wide factor (`NFL_KEY_FACTORS`), so that over the calibration's games the shares of 3, 4, 6, 7, 10 and 14
 * are the table's. The drive model alone puts about 9.6 % of even games on 3 and 7.2 % on 7; the table's 15.4 % and
 * 9.6 % are of every game, favourites included. The total is the drive model's.
 */
export function nflCalibratedDistributions(
  expectedMargin: number,
  expectedTotal: number,
): { margin: IntegerDistribution; total: IntegerDistribution } {
  const { margin, total } = nflScoreDistributions(expectedMargin, expectedTotal);
  return { margin: withKeyFactors(margin, NFL_KEY_FACTORS), total };
}

export type MiddleVariable = 'margin' | 'total';

/** The model behind each league's distributions, as answers name it. */
export function middleModel(league: LeagueKey): 'nfl-drives' | 'normal' {
  return league === 'nfl' ? 'nfl-drives' : 'normal';
}

/**
 * The full-game distribution of `variable` in `league` centred on the market: the NFL drive model, or elsewhere the
 * SGP model's normal (σ of src/domain/sgp.ts's `SGP_GAME_PRIORS`) discretised to the integers; a margin cannot be 0
 * in a league without draws, a total cannot be negative.
 */
export function scoreDistribution(
  league: LeagueKey,
  variable: MiddleVariable,
  centre: { margin: number; total: number },
): IntegerDistribution {
  if (league === 'nfl') return nflCalibratedDistributions(centre.margin, centre.total)[variable];
  const { mean, sigma, floor, noZero } = normalModel(league, variable, centre);
  return discretisedNormal(mean, sigma, floor === undefined ? { noZero } : { floor });
}

/** The normal behind a league's (not the NFL's) distribution of `variable`: its mean, σ, least value and whether it may be 0. */
export function normalModel(
  league: LeagueKey,
  variable: MiddleVariable,
  centre: { margin: number; total: number },
): { mean: number; sigma: number; floor: number | undefined; noZero: boolean } {
  const prior = SGP_GAME_PRIORS[league];
  return variable === 'margin'
    ? { mean: centre.margin, sigma: prior.sigmaMargin, floor: undefined, noZero: !LEAGUES[league].hasDraws }
    : { mean: centre.total, sigma: prior.sigmaTotal, floor: 0, noZero: false };
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
  let min = Math.floor(mean - TAIL_SIGMAS * sigma);
  if (options.floor !== undefined) min = Math.max(min, options.floor);
  const max = Math.max(min, Math.ceil(mean + TAIL_SIGMAS * sigma));
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

/** A middle's chances under the league's model: the NFL's from its drive model's distribution, the others' in closed form. */
export function modelMiddleChances(
  league: LeagueKey,
  variable: MiddleVariable,
  centre: { margin: number; total: number },
  high: number,
  low: number,
  nflDistribution?: IntegerDistribution,
): MiddleChances {
  if (league === 'nfl')
    return middleChances(high, low, nflDistribution ?? scoreDistribution(league, variable, centre));
  const { mean, sigma, floor, noZero } = normalModel(league, variable, centre);
  return normalMiddleChances(high, low, mean, sigma, { floor, noZero });
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
 * `marketCentre` by `choice`: per book and line, the high side's chance de-vigged by `choice.method`
 * (`highSideChance`), μ = line + σ · Φ⁻¹(p); the centre is the median of `choice.reference`'s estimates
 * (`referenceMedian`). Undefined when fewer than `minBooks` books price both sides of some line, whatever the reference.
 */
export function marketCentreBy(
  league: LeagueKey,
  variable: MiddleVariable,
  quotes: readonly LineQuote[],
  choice: CentreChoice,
  minBooks: number = MIDDLE_MIN_BOOKS,
): { centre: number; source: CentreSource } | undefined {
  const prior = SGP_GAME_PRIORS[league];
  const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
  const books = new Set<string>();
  const estimates: { book: string; value: number }[] = [];
  for (const quote of quotes) {
    if (!(quote.high > 1 && quote.low > 1) || !Number.isFinite(quote.line)) continue;
    books.add(quote.book);
    const p = highSideChance(quote.high, quote.low, choice.method);
    if (p !== undefined) estimates.push({ book: quote.book, value: quote.line + sigma * normalQuantile(p) });
  }
  if (books.size < minBooks) return undefined;
  return referenceMedian(estimates, choice);
}

/**
 * The market's expected value of the variable: per book and line, the de-vigged chance of the high side p =
 * (1/dh) / (1/dh + 1/dl) gives μ = line + σ · Φ⁻¹(p) under a normal of the SGP model's σ; the centre is the median of
 * those estimates. Undefined when fewer than `minBooks` books price both sides of some line.
 */
export function marketCentre(
  league: LeagueKey,
  variable: MiddleVariable,
  quotes: readonly LineQuote[],
  minBooks: number = MIDDLE_MIN_BOOKS,
): number | undefined {
  const prior = SGP_GAME_PRIORS[league];
  const sigma = variable === 'margin' ? prior.sigmaMargin : prior.sigmaTotal;
  const books = new Set<string>();
  const estimates: number[] = [];
  for (const quote of quotes) {
    if (!(quote.high > 1 && quote.low > 1) || !Number.isFinite(quote.line)) continue;
    const p = 1 / quote.high / (1 / quote.high + 1 / quote.low);
    books.add(quote.book);
    estimates.push(quote.line + sigma * normalQuantile(p));
  }
  if (books.size < minBooks) return undefined;
  estimates.sort((a, b) => a - b);
  const mid = estimates.length >> 1;
  return estimates.length % 2 ? estimates[mid]! : (estimates[mid - 1]! + estimates[mid]!) / 2;
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
