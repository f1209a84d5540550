import {
  meanOf,
  normalise,
  probabilityOf,
  quantileOf,
  type IntegerDistribution,
} from './integer-distribution.ts';
import type { LeagueKey } from './markets.ts';
import { bivariateNormalCdf, normalCdf, normalQuantile } from './mvn.ts';
import { SGP_GAME_PRIORS, sgpMarginTotalCorrelation } from './sgp.ts';
import { goalsGrid } from './soccer-goals.ts';

// Each league's final margin (home − away) and total, as whole-number distributions fitted to published historical
// frequencies and centred on the market (issue 57, decision 264, docs/calibration.md). One module, used by the
// simulator's results and prices and by middles (the chance of landing between two lines, with the pushes of whole
// lines); the soccer goals model's fit to a total line shares its line rules (integer-distribution.ts). Grading
// settles on real scores and needs no model:
//
// - NFL, NBA, NCAAB: a normal about the market (the SGP priors' σ: Stern's 13.86 points for the NFL) discretised to the
//   integers, times a weight per absolute margin (the NFL's key numbers 3, 7, 10, 6, 4 and 14 fitted to the published
//   table of final margins; a basketball tie moved to the small margins an overtime ends with), exponentially tilted
//   so its mean is the market's. The total is a smooth discretised normal (no bumps): a game's total has its margin's
//   parity and is at least its size, so the total is drawn given the margin (`totalGiven`) and its distribution is
//   the mixture over margins.
// - Margin and total together (NFL, NBA, NCAAB, MLB; decision 291): the total given the margin is tilted so the joint
//   carries the SGP's calibrated margin–total coupling (decision 165's published figures), its marginals kept
//   (`fitCoupling`): the simulator's results show the favourite–total figures the SGP is calibrated to.
// - NHL: regulation goals Poisson a side with the tie inflated to the published share of games that go to overtime,
//   a one-goal regulation lead turned into two by an empty-net goal with a fixed chance, an overtime or shootout won by
//   one goal (counted in the final score as the books grade it).
// - MLB: runs a side negative binomial (over-dispersed), a tie after nine settled in extra innings mostly by one run.
// - Soccer: Poisson goals with the Dixon–Coles low-score correction (soccer-goals.ts), ρ fixed per league.
//
// Every distribution is discrete, sums to 1, and is parametrised by the expected margin and total the market prices:
// the league's model parameters (the team means, or the tilt) are solved so the distribution's means are those.

/** The distribution tilted by e^{θx}, θ solved (Newton, bisection as a fallback) so its mean is `target` (within the support's range). */
export function tiltToMean(distribution: IntegerDistribution, target: number): IntegerDistribution {
  const { min, probabilities } = distribution;
  const max = min + probabilities.length - 1;
  const goal = Math.min(Math.max(target, min + 1e-6), max - 1e-6);
  const centre = meanOf(distribution);
  const tilted = (theta: number) => {
    // Exponents taken about the centre: no overflow for the wide supports of basketball.
    const weights = probabilities.map((p, i) => p * Math.exp(theta * (min + i - centre)));
    return normalise(min, weights);
  };
  if (Math.abs(centre - goal) < 1e-9) return distribution;
  // Newton on θ (the mean's derivative in θ is the variance), falling back to bisection when a step leaves the bracket.
  let lo = -4;
  let hi = 4;
  let theta = 0;
  let current = distribution;
  for (let i = 0; i < 60; i += 1) {
    const mean = meanOf(current);
    if (Math.abs(mean - goal) < 1e-10) break;
    if (mean < goal) lo = theta;
    else hi = theta;
    let variance = 0;
    current.probabilities.forEach((p, j) => (variance += p * (current.min + j - mean) ** 2));
    let next = theta + (goal - mean) / Math.max(variance, 1e-12);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    theta = next;
    current = tilted(theta);
  }
  return current;
}

/** N(mean, sigma²) discretised with the continuity correction, cut at 8 σ, no mass below `floor`. */
export function discretisedNormalWeights(
  mean: number,
  sigma: number,
  floor?: number,
): { min: number; weights: number[] } {
  let min = Math.floor(mean - 8 * sigma);
  if (floor !== undefined) min = Math.max(min, floor);
  const max = Math.max(min, Math.ceil(mean + 8 * sigma));
  // Made at its length (no growth by push: a few copies per call, on every game and half built; issue 59).
  const weights = new Array<number>(max - min + 1);
  let below = normalCdf((min - 0.5 - mean) / sigma);
  for (let k = min; k <= max; k += 1) {
    const above = normalCdf((k + 0.5 - mean) / sigma);
    weights[k - min] = above - below;
    below = above;
  }
  return { min, weights };
}

// ---------------------------------------------------------------------------------------------------------------
// Published frequencies (docs/calibration.md cites each).

/**
 * NFL final margins, share of all games won by exactly k points (either side): Sports Insights' count of 2003–2013
 * games as Business Insider published it (July 2013): 3 in 15.39 %, 7 in 9.55 %, 10 in 6.14 %, 6 in 5.58 %, 4 in
 * 5.32 %, 14 in 4.79 %; a tally of 7,276 games 1999–2025 (nflverse, nflanalytic.com) agrees within about half a point.
 * Ties (k = 0): about 0.3 % of games since overtime was shortened in 2017 (two or three a season of 272 games).
 */
export const NFL_MARGIN_SHARES: readonly { margin: number; share: number }[] = [
  { margin: 0, share: 0.003 },
  { margin: 3, share: 0.1539 },
  { margin: 4, share: 0.0532 },
  { margin: 6, share: 0.0558 },
  { margin: 7, share: 0.0955 },
  { margin: 10, share: 0.0614 },
  { margin: 14, share: 0.0479 },
];

/**
 * The games such a table counts, as the fit reads them: closing spreads normal about 0 with this deviation (an
 * assumption: NFL spreads are mostly within ±10) and a total of 44 (recent seasons' average).
 */
export const NFL_FIT_GAMES = { spreadSigma: 6, step: 0.5, span: 18 } as const;

/**
 * Weights on P(|margin| = k) of the NFL's smooth normal that bring the fit games' shares to `NFL_MARGIN_SHARES`:
 * `fitNflMarginWeights()` to 4 places (score-distributions.test.ts checks they still fit).
 */
export const NFL_MARGIN_WEIGHTS: ReadonlyMap<number, number> = new Map([
  [0, 0.1579],
  [3, 4.1237],
  [4, 1.4457],
  [6, 1.5786],
  [7, 2.7734],
  [10, 1.9761],
  [14, 1.8709],
]);

/**
 * NHL (decision 264): share of regular-season games decided in overtime or a shootout, about 22–23 % in the seasons
 * 2015–16 to 2022–23 (NHL.com standings: OT/SO losses over games); the share of one-goal regulation leads that end two
 * goals apart after an empty-net goal (an assumption: empty-net goals come in about one game in five since goalies
 * are pulled earlier, and most of them in one-goal games).
 */
export const NHL_MODEL = { overtimeShare: 0.225, emptyNetShare: 0.2 } as const;

/**
 * MLB: runs a side negative binomial with dispersion r (variance μ + μ²/r; about 2 × μ at 4.4 runs, as the SGP prior
 * says); a tie after nine innings (about 9–10 % of games) settled by these margins in extra innings (the placed runner
 * since 2020 makes most of them one run). One-run games come to about 28–30 % of all games, as published
 * (Baseball-Reference's one-run records, 2015–2023).
 */
export const MLB_MODEL = {
  dispersion: 4,
  /** Extra innings: the winner's margin 1, 2, 3, 4 runs; each also adds this many runs to the total. */
  extraMargins: [0.62, 0.2, 0.1, 0.08],
  /** Walk-offs in the ninth end a game the home side wins by one (its last inning cut short): the share of home wins by 2–3 turned into one. */
  walkOff: 0.12,
} as const;

/** Soccer's Dixon–Coles ρ (the four low scores; Dixon & Coles 1997 fitted about −0.13 to English league football). */
export const SOCCER_RHO: Readonly<Partial<Record<LeagueKey, number>>> = { epl: -0.13, mls: -0.1 };

/** Basketball: how a tie after regulation ends, |margin| 1, 2, … after overtime (an assumption, decision 264). */
export const BASKETBALL_OVERTIME_MARGINS = [0.12, 0.15, 0.15, 0.13, 0.11, 0.09, 0.08, 0.06, 0.05, 0.03, 0.03];

// ---------------------------------------------------------------------------------------------------------------

/** A game's margin and total distributions, and the total given a margin (the joint, as the simulator draws it). */
export {
  cdfAt,
  fairHighProbability,
  lineChances,
  lineOutcome,
  meanOf,
  normalise,
  probabilityOf,
  quantileOf,
  type IntegerDistribution,
} from './integer-distribution.ts';

export interface GameDistributions {
  margin: IntegerDistribution;
  total: IntegerDistribution;
  totalGiven(margin: number): IntegerDistribution;
}

export interface MarketCentre {
  margin: number;
  total: number;
}

/** The model behind a league's distributions, as answers name it. */
export type ScoreModelName =
  'nfl-key-numbers' | 'basketball' | 'nhl-goals' | 'mlb-runs' | 'soccer-dixon-coles';

export function scoreModelName(league: LeagueKey): ScoreModelName {
  switch (league) {
    case 'nfl':
      return 'nfl-key-numbers';
    case 'nba':
    case 'ncaab':
      return 'basketball';
    case 'nhl':
      return 'nhl-goals';
    case 'mlb':
      return 'mlb-runs';
    default:
      return 'soccer-dixon-coles';
  }
}

/**
 * The games built, least recently used first (a hit moves its game to the end). Counted, not timed: at most
 * `DISTRIBUTIONS_CACHED` games, the least recently used dropped first. An idle default server (the simulator's prices
 * and the value scan's middles) asks for about 900 different centres in 30 s, a few hundred of them new (issue 59's
 * report); a game holds its two distributions (1–5 KB), so the cache holds a few megabytes.
 */
const cache = new Map<string, GameDistributions>();
export const DISTRIBUTIONS_CACHED = 2000;

/** How many games the cache holds. */
export function distributionsCached(): number {
  return cache.size;
}

/** Centres are read to this step (a twentieth of a point, goal or run): one build serves a price's small moves. */
export const CENTRE_STEP = 0.05;

/** The largest expected total each grid league's model is built for (its grid holds the scores beyond it). */
const GRID_MAX_TOTAL: Partial<Record<ScoreModelName, number>> = {
  'nhl-goals': 12,
  'mlb-runs': 24,
  'soccer-dixon-coles': 8,
};

/**
 * The league's distributions centred on the market's expected margin and total, each read to `CENTRE_STEP` (the
 * builds are cached); a total is kept within 0.2 and, for the goal and run leagues, the largest their grid holds, and
 * the margin within the total. RangeError for a centre that is not finite.
 */
export function gameDistributions(league: LeagueKey, centre: MarketCentre): GameDistributions {
  // Whole steps (integers) in the key; the centre itself is step × CENTRE_STEP.
  const totalSteps = totalStepsOf(league, centre);
  const marginSteps = marginStepsOf(centre, totalSteps);
  // The game asked last is the cache's most recently used already: asked again (the simulator's books quoting one
  // game's markets one after another), it is returned without a key made or the cache touched (decision 309).
  const last = lastGame;
  if (
    last.found &&
    last.league === league &&
    last.marginSteps === marginSteps &&
    last.totalSteps === totalSteps
  )
    return last.found;
  const key = `${league}|${marginSteps}|${totalSteps}`;
  let found = cache.get(key);
  if (found) {
    cache.delete(key);
    cache.set(key, found);
  } else {
    found = build(league, marginSteps, totalSteps, true);
    if (cache.size >= DISTRIBUTIONS_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, found);
  }
  last.league = league;
  last.marginSteps = marginSteps;
  last.totalSteps = totalSteps;
  last.found = found;
  return found;
}

/** The game `gameDistributions` returned last (the end of its cache's order while it is there). */
const lastGame: {
  league: LeagueKey | null;
  marginSteps: number;
  totalSteps: number;
  found: GameDistributions | null;
} = { league: null, marginSteps: 0, totalSteps: 0, found: null };

/** `gameDistributions` built anew, the cache neither read nor filled (the tests compare what caches keep with it). */
export function gameDistributionsUncached(league: LeagueKey, centre: MarketCentre): GameDistributions {
  const totalSteps = totalStepsOf(league, centre);
  const marginSteps = marginStepsOf(centre, totalSteps);
  return build(league, marginSteps, totalSteps, false);
}

/**
 * The game's margin distribution alone, as `gameDistributions(league, centre).margin` gives it: for the NFL and
 * basketball it depends on the margin only (the total is drawn given it), so it is kept by margin step
 * (`smoothMarginAt`) and no total is fitted for it; a grid league's comes with its game.
 */
export function gameMarginDistribution(league: LeagueKey, centre: MarketCentre): IntegerDistribution {
  const totalSteps = totalStepsOf(league, centre);
  const marginSteps = marginStepsOf(centre, totalSteps);
  if (isSmooth(league)) return smoothMarginAt(league, marginSteps, true);
  return gameDistributions(league, centre).margin;
}

function isSmooth(league: LeagueKey): boolean {
  const name = scoreModelName(league);
  return name === 'nfl-key-numbers' || name === 'basketball';
}

/**
 * The smooth leagues' margins by step, least recently used dropped first (at most `MARGINS_CACHED`): every game built
 * at one margin and any total shares it, and a margin's fit needs nothing else (decision 285).
 */
const margins = new Map<string, IntegerDistribution>();
export const MARGINS_CACHED = 1000;

/** How many margins `smoothMarginAt` keeps. */
export function marginsCached(): number {
  return margins.size;
}

/** An NFL or basketball margin at `marginSteps` × CENTRE_STEP (`cached`: kept in and read from `margins`). */
function smoothMarginAt(league: LeagueKey, marginSteps: number, cached: boolean): IntegerDistribution {
  const key = cached ? `${league}|${marginSteps}` : '';
  let found = cached ? margins.get(key) : undefined;
  if (found) {
    margins.delete(key);
    margins.set(key, found);
    return found;
  }
  const margin = marginSteps * CENTRE_STEP;
  found = scoreModelName(league) === 'nfl-key-numbers' ? nflMargin(margin) : basketballMargin(league, margin);
  if (!cached) return found;
  if (margins.size >= MARGINS_CACHED) margins.delete(margins.keys().next().value!);
  margins.set(key, found);
  return found;
}

/** The centre's total in whole steps, within the league's range (RangeError for a centre that is not finite). */
function totalStepsOf(league: LeagueKey, centre: MarketCentre): number {
  if (!Number.isFinite(centre.margin) || !Number.isFinite(centre.total))
    throw new RangeError(`Bad centre (${centre.margin}, ${centre.total})`);
  return Math.min(
    Math.max(Math.round(centre.total / CENTRE_STEP), 4),
    Math.round((GRID_MAX_TOTAL[scoreModelName(league)] ?? Infinity) / CENTRE_STEP),
  );
}

/** The centre's margin in whole steps, within ± the total's. */
function marginStepsOf(centre: MarketCentre, totalSteps: number): number {
  return Math.min(Math.max(Math.round(centre.margin / CENTRE_STEP), -totalSteps), totalSteps);
}

function build(
  league: LeagueKey,
  marginSteps: number,
  totalSteps: number,
  cached: boolean,
): GameDistributions {
  const margin = marginSteps * CENTRE_STEP;
  const total = totalSteps * CENTRE_STEP;
  if (isSmooth(league)) return smoothGame(league, margin, total, smoothMarginAt(league, marginSteps, cached));
  return fittedGridGame(league, margin, total);
}

/** The NFL margin: the smooth normal times the key weights, tilted to the expected margin. */
export function nflMargin(
  margin: number,
  weights: ReadonlyMap<number, number> = NFL_MARGIN_WEIGHTS,
): IntegerDistribution {
  const sigma = SGP_GAME_PRIORS.nfl.sigmaMargin;
  const base = discretisedNormalWeights(margin, sigma);
  const weighted = base.weights.map((w, i) => w * (weights.get(Math.abs(base.min + i)) ?? 1));
  return tiltToMean(normalise(base.min, weighted), margin);
}

/** The share of the fit games won by exactly k points (either side) under `margins`. */
export function leagueMarginShare(k: number, margins: (expected: number) => IntegerDistribution): number {
  const { spreadSigma, step, span } = NFL_FIT_GAMES;
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

/** Fits `NFL_MARGIN_WEIGHTS`: fixed-point steps, each weight scaled by the table's share over the model's. */
export function fitNflMarginWeights(steps = 30): Map<number, number> {
  const weights = new Map(NFL_MARGIN_SHARES.map(({ margin }) => [margin, 1]));
  for (let step = 0; step < steps; step += 1) {
    const shares = NFL_MARGIN_SHARES.map(({ margin }) =>
      leagueMarginShare(margin, (m) => nflMargin(m, weights)),
    );
    NFL_MARGIN_SHARES.forEach(({ margin, share }, i) =>
      weights.set(margin, weights.get(margin)! * (share / shares[i]!)),
    );
  }
  return weights;
}

/** A basketball margin: the smooth normal, its tie moved to an overtime's small margins (split by the favourite). */
function basketballMargin(league: LeagueKey, margin: number): IntegerDistribution {
  const sigma = SGP_GAME_PRIORS[league].sigmaMargin;
  const base = discretisedNormalWeights(margin, sigma);
  const zero = -base.min;
  const tie = base.weights[zero] ?? 0;
  if (zero >= 0 && zero < base.weights.length) {
    base.weights[zero] = 0;
    // An overtime is about a tenth of a game: the favourite's edge in it is the game's scaled by √(its share).
    const home = normalCdf((margin / sigma) * Math.sqrt(league === 'nba' ? 5 / 48 : 5 / 40));
    BASKETBALL_OVERTIME_MARGINS.forEach((share, i) => {
      const k = i + 1;
      if (zero + k < base.weights.length) base.weights[zero + k]! += tie * share * home;
      if (zero - k >= 0) base.weights[zero - k]! += tie * share * (1 - home);
    });
  }
  return tiltToMean(normalise(base.min, base.weights), margin);
}

/**
 * A high-scoring game from its margin: the total a smooth normal (the SGP prior's σ), restricted given the margin to
 * its parity and at least its size; the total's distribution is the mixture, re-centred (a few steps) on the expected total.
 */
function smoothGame(
  league: LeagueKey,
  margin: number,
  total: number,
  marginDist: IntegerDistribution,
): GameDistributions {
  const sigma = SGP_GAME_PRIORS[league].sigmaTotal;
  let mean = total;
  // The fit's steps read the mean of the sums as normalised (the same figure `meanOf(normalise(0, sums))` gives, to the
  // bit) and only the last step's sums are made a distribution (decision 309: a distribution per step for nobody).
  let sums = smoothTotalSums(totalBase(mean, sigma), marginDist, TOTAL_SUMS[0]);
  let fittedMean = meanOfWeights(0, sums);
  for (let step = 0; step < 4 && Math.abs(fittedMean - total) > 0.01; step += 1) {
    mean += total - fittedMean;
    sums = smoothTotalSums(totalBase(mean, sigma), marginDist, TOTAL_SUMS[0]);
    fittedMean = meanOfWeights(0, sums);
  }
  const fitted = normalise(0, sums);
  const game = smoothDistributions(marginDist, fitted, mean, sigma, coupledLeague(league) ? league : null);
  smoothFits.set(game, { mean, sigma });
  return game;
}

/** A smooth game's total model (its total given a margin is the normal about `mean`, σ `sigma`, restricted): for its halves. */
const smoothFits = new WeakMap<GameDistributions, { mean: number; sigma: number }>();

/**
 * What the cache keeps of a smooth game: its two distributions and the two numbers its total given a margin is made
 * from again when asked (the simulator asks once a game), so a cached game holds no weights, sums or memo. Made
 * apart, so that its closure holds only these.
 */
function smoothDistributions(
  margin: IntegerDistribution,
  total: IntegerDistribution,
  mean: number,
  sigma: number,
  coupled: LeagueKey | null,
): GameDistributions {
  if (!coupled) return { margin, total, totalGiven: (m) => smoothTotalGiven(mean, sigma, m) };
  let coupling: Coupling | undefined;
  return {
    margin,
    total,
    totalGiven: (m) => {
      if (!coupling) {
        const base = discretisedNormalWeights(mean, sigma, 0);
        coupling = fitCoupling(coupled, margin, total, (k) => restrictedTotal(base, k));
      }
      return coupledTotalGiven(coupling, m, smoothTotalGiven(mean, sigma, m));
    },
  };
}

/** The smooth total about `mean` restricted to the margin's parity and at least its size. */
function smoothTotalGiven(mean: number, sigma: number, m: number): IntegerDistribution {
  return restrictedTotal(discretisedNormalWeights(mean, sigma, 0), m);
}

/** The smooth total's weights restricted to the margin m's parity and at least its size, normalised. */
function restrictedTotal(base: { min: number; weights: number[] }, m: number): IntegerDistribution {
  const w = base.weights.map((p, i) => {
    const t = base.min + i;
    return (t - m) % 2 === 0 && t >= Math.abs(m) ? p : 0;
  });
  return w.some((p) => p > 0) ? normalise(base.min, w) : { min: Math.abs(m), probabilities: [1] };
}

/**
 * `meanOf(normalise(min, weights))` without the distribution: the same sums and products in the same order, so the
 * same number to the bit (decision 309).
 */
function meanOfWeights(min: number, weights: ArrayLike<number>): number {
  let first = 0;
  while (first < weights.length - 1 && weights[first] === 0) first += 1;
  let last = weights.length - 1;
  while (last > first && weights[last] === 0) last -= 1;
  let sum = 0;
  for (let i = first; i <= last; i += 1) sum += weights[i]!;
  if (!(sum > 0)) throw new RangeError('A distribution needs some mass');
  let mean = 0;
  for (let i = first; i <= last; i += 1) mean += (weights[i]! / sum) * (min + i);
  return mean;
}

/**
 * The smooth total's base (the normal about `mean`, σ `sigma`, from 0) and its suffix sums by parity (`suffix[i]`: the
 * weights of index i, i + 2, …), read by `smoothTotalSums`: one base serves both of a basketball half's sums.
 */
interface TotalBase {
  min: number;
  weights: number[];
  suffix: Float64Array;
}

function totalBase(mean: number, sigma: number): TotalBase {
  const base = discretisedNormalWeights(mean, sigma, 0);
  const n = base.weights.length;
  const suffix = scratchOf(SUFFIX, n + 2);
  suffix.fill(0, 0, n + 2);
  for (let i = n - 1; i >= 0; i -= 1) suffix[i] = base.weights[i]! + suffix[i + 2]!;
  return { min: base.min, weights: base.weights, suffix };
}

/**
 * Scratch arrays of the smooth totals' sums (decision 309): kept and grown, never shrunk, zeroed where they are used.
 * A build takes them one at a time and copies what it keeps (`normalise`), so none is read after the next build.
 */
const SUFFIX: { array: Float64Array } = { array: new Float64Array(512) };
const COEFFICIENT: { array: Float64Array } = { array: new Float64Array(512) };
/** The sums themselves: two, for a basketball half's two at once (its finals' weights and their odd-margin share). */
const TOTAL_SUMS: [{ array: Float64Array }, { array: Float64Array }] = [
  { array: new Float64Array(512) },
  { array: new Float64Array(512) },
];

/** The scratch array, grown to at least `length`; a view of its first `length` values. */
function scratchOf(holder: { array: Float64Array }, length: number): Float64Array {
  if (holder.array.length < length)
    holder.array = new Float64Array(Math.max(length, holder.array.length * 2));
  return holder.array.subarray(0, length);
}

/**
 * The total's weights before normalising, the mixture over the margins of the smooth total about the base's mean given
 * each, in one pass: Σ over margins m of weight(m) · P(total = t | m), i.e. w(t) · Σ over margins m of t's parity with
 * |m| ≤ t of P(m) / Z(|m|), Z(k) the weight of the totals ≥ k of k's parity (the base's suffix sums). With the
 * margins' probabilities it is the total's distribution; with a part of them (the halves', decision 288) the joint's
 * share.
 * Written into `into`'s scratch array (a view of it is returned, valid until that scratch is next used): the same
 * sums in the same order as when each call made its own arrays (decision 309).
 */
function smoothTotalSums(
  base: TotalBase,
  marginDist: IntegerDistribution,
  into: { array: Float64Array },
): Float64Array {
  const n = base.weights.length;
  const { suffix } = base;
  const probabilities = marginDist.probabilities;
  const maxK = Math.max(-marginDist.min, marginDist.min + probabilities.length - 1);
  const top = Math.max(base.min + n - 1, maxK);
  const coefficient = scratchOf(COEFFICIENT, maxK + 1);
  coefficient.fill(0);
  const sums = scratchOf(into, top + 1);
  sums.fill(0);
  for (let i = 0; i < probabilities.length; i += 1) {
    const pm = probabilities[i]!;
    const k = Math.abs(marginDist.min + i);
    const first = k >= base.min ? k : base.min + ((base.min - k) % 2);
    const z = first - base.min < n ? suffix[first - base.min]! : 0;
    if (z > 0) coefficient[k]! += pm / z;
    else sums[k]! += pm; // no total left of its parity above it: the total is the margin's size
  }
  let even = 0;
  let odd = 0;
  for (let t = 0; t <= top; t += 1) {
    const parityOdd = t % 2 === 1;
    if (t <= maxK) {
      if (parityOdd) odd += coefficient[t]!;
      else even += coefficient[t]!;
    }
    if (t >= base.min && t - base.min < n) sums[t]! += base.weights[t - base.min]! * (parityOdd ? odd : even);
  }
  return sums;
}

// ---------------------------------------------------------------------------------------------------------------
// The margin–total coupling of the joint (decision 291).

/**
 * The leagues whose joint (margin, total) is coupled to published outcomes: those with the SGP's published bands
 * (NFL, NBA, MLB; decision 165) and NCAAB, which takes the SGP's derived ρ. The NHL and soccer keep their own grids.
 */
export function coupledLeague(league: LeagueKey): boolean {
  return league === 'nfl' || league === 'nba' || league === 'ncaab' || league === 'mlb';
}

/**
 * A game's coupling: the joint is the model's own, P₀(m) · P₀(t | m), times e^{γ · zₘ · zₜ} (zₘ, zₜ the margin and
 * total standardised), rescaled by a factor per margin and per total (`columns`, over totals from `min`) so that both
 * marginals are the game's again (iterative proportional fitting). γ is fitted so that the joint's chance of the
 * favourite covering and the over (`figure`) is the Gaussian copula's at the SGP's ρ (`target`).
 */
export interface Coupling {
  gamma: number;
  marginMean: number;
  marginSd: number;
  totalMean: number;
  totalSd: number;
  min: number;
  columns: Float64Array;
  rho: number;
  /** The lines the figure is read at: the favourite's margin above `marginLine`, the total above `totalLine`. */
  marginLine: number;
  totalLine: number;
  figure: number;
  target: number;
}

function momentsOf(d: IntegerDistribution): { mean: number; sd: number } {
  const mean = meanOf(d);
  let variance = 0;
  d.probabilities.forEach((p, i) => (variance += p * (d.min + i - mean) ** 2));
  return { mean, sd: Math.sqrt(Math.max(variance, 1e-12)) };
}

/** P(X > line) for a half or whole line (strictly above). */
function above(d: IntegerDistribution, line: number): number {
  let sum = 0;
  d.probabilities.forEach((p, i) => {
    if (d.min + i > line) sum += p;
  });
  return sum;
}

/**
 * The lines at which a coupled game's figure is read: the total's half line nearest its mean; the margin's half line
 * nearest its mean (a cover), or 0 for MLB (a moneyline: decision 165's MLB figure is about the favourite winning).
 */
export function couplingLines(
  league: LeagueKey,
  margin: IntegerDistribution,
  total: IntegerDistribution,
): { marginLine: number; totalLine: number } {
  const half = (x: number) => Math.floor(x) + 0.5;
  return { marginLine: league === 'mlb' ? 0 : half(meanOf(margin)), totalLine: half(meanOf(total)) };
}

/**
 * Fits a game's coupling (`Coupling`): `given(m)` is the model's own total given the margin m. The target is
 * P(M > a, T > b) = Φ₂(Φ⁻¹(P(M > a)), Φ⁻¹(P(T > b)); ρ), ρ the SGP's (`sgpMarginTotalCorrelation` at σM · Φ⁻¹(p), p
 * the margin's home win probability, ties left out, as `calibrateSgp` takes it), a and b the lines of `couplingLines`.
 */
export function fitCoupling(
  league: LeagueKey,
  margin: IntegerDistribution,
  total: IntegerDistribution,
  given: (m: number) => IntegerDistribution,
  partRho?: number,
): Coupling {
  const { mean: marginMean, sd: marginSd } = momentsOf(margin);
  const { mean: totalMean, sd: totalSd } = momentsOf(total);
  // The SGP's ρ, read as calibrateSgp reads it: at the expected margin σM · Φ⁻¹(p) of the home win probability p; a
  // first part's (decision 295) is given: the one the coupled full game's split carries to it.
  const homeWin = above(margin, 0) / (above(margin, 0) + (1 - above(margin, -1)));
  const rho =
    partRho ??
    sgpMarginTotalCorrelation(league, SGP_GAME_PRIORS[league].sigmaMargin * normalQuantile(homeWin));
  const { marginLine, totalLine } = couplingLines(league, margin, total);
  const pm = above(margin, marginLine);
  const pt = above(total, totalLine);
  const target = bivariateNormalCdf(normalQuantile(pm), normalQuantile(pt), rho);
  // The rows kept (margins with mass), each the model's total given it over the total's support [min, max].
  const tMin = total.min;
  const width = total.probabilities.length;
  const rows: { m: number; pm: number; base: Float64Array }[] = [];
  margin.probabilities.forEach((p, i) => {
    if (!(p > 1e-12)) return;
    const m = margin.min + i;
    const g = given(m);
    const base = new Float64Array(width);
    g.probabilities.forEach((q, j) => {
      const t = g.min + j - tMin;
      if (t >= 0 && t < width) base[t] = q;
    });
    rows.push({ m, pm: p, base });
  });
  const zt = Float64Array.from({ length: width }, (_, j) => (tMin + j - totalMean) / totalSd);
  const columns = new Float64Array(width).fill(1);
  const kernel = rows.map(() => new Float64Array(width));
  const rowScale = new Float64Array(rows.length);
  const current = new Float64Array(width);
  // The joint at γ: the kernel, then proportional fitting of the columns (the rows are exact by construction).
  const solve = (gamma: number): number => {
    rows.forEach((row, r) => {
      const zm = (row.m - marginMean) / marginSd;
      const k = kernel[r]!;
      // e^{γ·zₘ·zₜ} along the row: a geometric sequence in t (one exponential a row).
      const ratio = Math.exp((gamma * zm) / totalSd);
      let tilt = Math.exp(gamma * zm * zt[0]!);
      for (let j = 0; j < width; j += 1) {
        k[j] = row.base[j]! * tilt;
        tilt *= ratio;
      }
    });
    for (let step = 0; step < 200; step += 1) {
      current.fill(0);
      rows.forEach((row, r) => {
        const k = kernel[r]!;
        let z = 0;
        for (let j = 0; j < width; j += 1) z += k[j]! * columns[j]!;
        rowScale[r] = z > 0 ? row.pm / z : 0;
        const s = rowScale[r]!;
        for (let j = 0; j < width; j += 1) current[j]! += k[j]! * columns[j]! * s;
      });
      let worst = 0;
      for (let j = 0; j < width; j += 1) {
        const want = total.probabilities[j]!;
        worst = Math.max(worst, Math.abs(current[j]! - want));
        if (current[j]! > 0) columns[j]! *= want / current[j]!;
      }
      if (worst < 1e-11) break;
    }
    let figure = 0;
    rows.forEach((row, r) => {
      if (!(row.m > marginLine)) return;
      const k = kernel[r]!;
      const s = rowScale[r]!;
      for (let j = 0; j < width; j += 1) if (tMin + j > totalLine) figure += k[j]! * columns[j]! * s;
    });
    return figure;
  };
  // Secant steps on γ from 0 (the model's own joint) and a small step towards the target.
  let g0 = 0;
  let f0 = solve(g0) - target;
  // A tilt e^{γ·x·y} of two independent standard normals makes them correlated by γ: the first guess.
  let g1 = Math.abs(rho) > 0.02 ? rho : f0 > 0 ? -0.02 : 0.02;
  let f1 = solve(g1) - target;
  for (let i = 0; i < 12 && Math.abs(f1) > 2e-6 && f1 !== f0; i += 1) {
    const next = Math.max(-2, Math.min(2, g1 - (f1 * (g1 - g0)) / (f1 - f0)));
    [g0, f0] = [g1, f1];
    g1 = next;
    f1 = solve(g1) - target;
  }
  const figure = f1 + target;
  return {
    gamma: g1,
    marginMean,
    marginSd,
    totalMean,
    totalSd,
    min: tMin,
    columns: Float64Array.from(columns),
    rho,
    marginLine,
    totalLine,
    figure,
    target,
  };
}

/** The coupled total given the margin m: the model's own (`own`) times the coupling's tilt and column factors. */
export function coupledTotalGiven(
  coupling: Coupling,
  m: number,
  own: IntegerDistribution,
): IntegerDistribution {
  const { gamma, marginMean, marginSd, totalMean, totalSd, min, columns } = coupling;
  const zm = (m - marginMean) / marginSd;
  const w = own.probabilities.map((p, i) => {
    const t = own.min + i;
    const c = t - min >= 0 && t - min < columns.length ? columns[t - min]! : 0;
    return p > 0 ? p * c * Math.exp(gamma * zm * ((t - totalMean) / totalSd)) : 0;
  });
  return w.some((p) => p > 0) ? normalise(own.min, w) : own;
}

/** A joint of the final score: `weights[h][a]` (unnormalised). */
type Grid = number[][];

/**
 * Where a final score's goals or runs beyond its "part goals" were scored: none, after regulation (an overtime goal,
 * extra innings), or late in regulation (an empty-net goal). The part goals are those a first part (a first half,
 * period or five innings) can hold: each lands in the part independently with the part's share (`periodDistributions`).
 */
export type ExtraScoring = 'none' | 'overtime' | 'late';

/**
 * One way to a final score: its final (h, a), the part goals (ph, pa) within it, where the rest (h − ph, a − pa) came,
 * and its (unnormalised) weight. A grid league's model is a set of these (`GridBuilder`).
 */
type Emit = (h: number, a: number, ph: number, pa: number, extra: ExtraScoring, weight: number) => void;

/** A grid league's model at team means (home, away): every way to a final score, emitted once. */
type GridBuilder = (home: number, away: number, emit: Emit) => void;

/** The final-score grid a builder gives at team means (home, away). */
function gridOf(builder: GridBuilder, home: number, away: number, size: number): Grid {
  const grid: Grid = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  builder(home, away, (h, a, _ph, _pa, _extra, weight) => (grid[h]![a]! += weight));
  return grid;
}

/** Poisson weights 0..max. */
function poisson(mean: number, max: number): number[] {
  const out = [Math.exp(-mean)];
  for (let k = 1; k <= max; k += 1) out.push((out[k - 1]! * mean) / k);
  return out;
}

/** Negative binomial weights 0..max with mean μ and dispersion r. */
function negativeBinomial(mean: number, r: number, max: number): number[] {
  const p = r / (r + mean);
  const out = [p ** r];
  for (let k = 1; k <= max; k += 1) out.push((out[k - 1]! * (k - 1 + r) * (1 - p)) / k);
  return out;
}

const NHL_MAX = 14;
/** The NHL grid's size: regulation goals to NHL_MAX, an empty-net or overtime goal beyond. */
const NHL_SIZE = NHL_MAX + 3;

/**
 * NHL: regulation Poisson with the tie inflated to the overtime share, empty-net goals, overtime won by one. The part
 * goals are regulation's less an empty-net goal (scored late in the third period).
 */
function nhlGrid(home: number, away: number, emit: Emit): void {
  const h = poisson(home, NHL_MAX);
  const a = poisson(away, NHL_MAX);
  let tie = 0;
  for (let x = 0; x <= NHL_MAX; x += 1) tie += h[x]! * a[x]!;
  // Inflate the diagonal so regulation ties are the overtime share (kept when Poisson already gives more).
  const { overtimeShare, emptyNetShare } = NHL_MODEL;
  const boost = tie < overtimeShare ? (overtimeShare * (1 - tie)) / (tie * (1 - overtimeShare)) : 1;
  // The favourite's edge in a five-minute overtime and shootout: its regulation edge scaled down.
  const homeOt = normalCdf(((home - away) / Math.sqrt(home + away)) * Math.sqrt(5 / 60) * 2);
  for (let x = 0; x <= NHL_MAX; x += 1)
    for (let y = 0; y <= NHL_MAX; y += 1) {
      const p = h[x]! * a[y]!;
      if (x === y) {
        emit(x + 1, y, x, y, 'overtime', p * boost * homeOt);
        emit(x, y + 1, x, y, 'overtime', p * boost * (1 - homeOt));
      } else if (x - y === 1) {
        emit(x, y, x, y, 'none', p * (1 - emptyNetShare));
        emit(x + 1, y, x, y, 'late', p * emptyNetShare);
      } else if (y - x === 1) {
        emit(x, y, x, y, 'none', p * (1 - emptyNetShare));
        emit(x, y + 1, x, y, 'late', p * emptyNetShare);
      } else emit(x, y, x, y, 'none', p);
    }
}

const MLB_MAX = 30;
const MLB_SIZE = MLB_MAX + MLB_MODEL.extraMargins.length + 1;

/**
 * MLB: negative binomial runs a side; a tie after nine settled in extra innings; some home wins cut short to one run.
 * The part runs are the nine innings' (a walk-off's as it ended): extra innings' are not.
 */
function mlbGrid(home: number, away: number, emit: Emit): void {
  const h = negativeBinomial(home, MLB_MODEL.dispersion, MLB_MAX);
  const a = negativeBinomial(away, MLB_MODEL.dispersion, MLB_MAX);
  const homeExtra = normalCdf(((home - away) / Math.sqrt(2 * (home + away))) * 0.6);
  for (let x = 0; x <= MLB_MAX; x += 1)
    for (let y = 0; y <= MLB_MAX; y += 1) {
      const p = h[x]! * a[y]!;
      if (x === y) {
        MLB_MODEL.extraMargins.forEach((share, i) => {
          emit(x + i + 1, y, x, y, 'overtime', p * share * homeExtra);
          emit(x, y + i + 1, x, y, 'overtime', p * share * (1 - homeExtra));
        });
      } else if (x - y === 2 || x - y === 3) {
        // A walk-off: the home side stops scoring once ahead in the ninth, so its win is by one.
        emit(x, y, x, y, 'none', p * (1 - MLB_MODEL.walkOff));
        emit(y + 1, y, y + 1, y, 'none', p * MLB_MODEL.walkOff);
      } else emit(x, y, x, y, 'none', p);
    }
}

/** Soccer: the Dixon–Coles grid of soccer-goals.ts (0–15 goals a side), ρ within its bounds; every goal a part goal. */
function soccerGrid(rho: number): GridBuilder {
  return (home, away, emit) => {
    const lower = Math.max(-0.5, -1 / home, -1 / away);
    const upper = Math.min(0.5, 1, 1 / (home * away));
    const flat = goalsGrid(home, away, Math.min(upper, Math.max(lower, rho)));
    const size = Math.round(Math.sqrt(flat.length));
    for (let x = 0; x < size; x += 1)
      for (let y = 0; y < size; y += 1) emit(x, y, x, y, 'none', flat[x * size + y]!);
  };
}

const SOCCER_SIZE = 16;

function gridMeans(grid: Grid): [number, number] {
  let sum = 0;
  let margin = 0;
  let total = 0;
  grid.forEach((row, x) =>
    row.forEach((p, y) => {
      sum += p;
      margin += p * (x - y);
      total += p * (x + y);
    }),
  );
  return [margin / sum, total / sum];
}

/** The team means (home, away) whose grid's expected margin and total are the market's: fixed-point steps. */
function fitGrid(
  builder: GridBuilder,
  size: number,
  margin: number,
  total: number,
): { grid: Grid; home: number; away: number } {
  const floor = 0.05;
  let home = Math.max(floor, (total + margin) / 2);
  let away = Math.max(floor, (total - margin) / 2);
  let grid = gridOf(builder, home, away, size);
  for (let i = 0; i < 25; i += 1) {
    const [m, t] = gridMeans(grid);
    const dm = margin - m;
    const dt = total - t;
    if (Math.abs(dm) < 1e-4 && Math.abs(dt) < 1e-4) break;
    home = Math.max(floor, home + (dt + dm) / 2);
    away = Math.max(floor, away + (dt - dm) / 2);
    grid = gridOf(builder, home, away, size);
  }
  return { grid, home, away };
}

/**
 * Margin and total of a score grid, and its total given a margin made again from `remake` when asked (the simulator
 * asks once a game): a cached game holds its two distributions and no grid (decision 278).
 */
function gridGame(
  grid: Grid,
  remake: () => Grid,
  coupled: LeagueKey | null = null,
  partRho?: (margin: IntegerDistribution, total: IntegerDistribution) => number,
): GameDistributions {
  const { margin, total } = marginalsOf(grid);
  return gridDistributions(margin, total, remake, coupled, partRho);
}

/**
 * A coupled grid game's coupling, fitted on the first ask from the game's grid and kept with the game (decision 291):
 * the first part's split reads it (decision 295) as the simulator's `totalGiven` does.
 */
const gridCouplings = new WeakMap<GameDistributions, (grid: Grid) => Coupling>();

/**
 * What the cache keeps of a grid game (see `gridGame`): made apart, so that its closure holds only these. `partRho`
 * (a first part's, decision 295) is asked for when the coupling is first fitted.
 */
function gridDistributions(
  margin: IntegerDistribution,
  total: IntegerDistribution,
  remake: () => Grid,
  coupled: LeagueKey | null,
  partRho?: (margin: IntegerDistribution, total: IntegerDistribution) => number,
): GameDistributions {
  if (!coupled) return { margin, total, totalGiven: (m) => gridTotalGiven(remake(), m) };
  let coupling: Coupling | undefined;
  const couplingOf = (grid: Grid) =>
    (coupling ??= fitCoupling(
      coupled,
      margin,
      total,
      (k) => gridTotalGiven(grid, k),
      partRho?.(margin, total),
    ));
  const game: GameDistributions = {
    margin,
    total,
    totalGiven: (m) => {
      const grid = remake();
      return coupledTotalGiven(couplingOf(grid), m, gridTotalGiven(grid, m));
    },
  };
  gridCouplings.set(game, couplingOf);
  return game;
}

/** The total given the margin `m` of a score grid: its diagonal x − y = m. */
function gridTotalGiven(grid: Grid, m: number): IntegerDistribution {
  const size = grid.length;
  const w = new Array<number>(2 * size - 1).fill(0);
  for (let x = Math.max(0, m); x < size && x - m < size; x += 1) w[2 * x - m]! += grid[x]![x - m]!;
  return w.some((p) => p > 0) ? normalise(0, w) : { min: Math.abs(m), probabilities: [1] };
}

/** The ways to each final score of a fitted grid game, kept as flat arrays (`ScorePaths`). */
class ScorePaths {
  readonly final: number[] = [];
  readonly part: number[] = [];
  readonly extra: ExtraScoring[] = [];
  readonly weight: number[] = [];
  constructor(
    readonly size: number,
    builder: GridBuilder,
    home: number,
    away: number,
  ) {
    builder(home, away, (h, a, ph, pa, extra, weight) => {
      if (!(weight > 0)) return;
      this.final.push(h * size + a);
      this.part.push(ph * size + pa);
      this.extra.push(extra);
      this.weight.push(weight);
    });
  }

  /** The grid of the part goals (ph, pa) over every final score. */
  partGrid(): Grid {
    const grid: Grid = Array.from({ length: this.size }, () => new Array<number>(this.size).fill(0));
    this.part.forEach(
      (cell, i) => (grid[Math.floor(cell / this.size)]![cell % this.size]! += this.weight[i]!),
    );
    return grid;
  }
}

/**
 * A grid league's fitted game: its model and team means, from which the ways to each final score are made again when
 * asked (a part's prices, once per centre; a final's split, once a game), not kept (decision 278).
 */
interface GridFit {
  builder: GridBuilder;
  size: number;
  home: number;
  away: number;
}

const gridFits = new WeakMap<GameDistributions, GridFit>();

function gridModel(league: LeagueKey): { builder: GridBuilder; size: number } | undefined {
  switch (scoreModelName(league)) {
    case 'nhl-goals':
      return { builder: nhlGrid, size: NHL_SIZE };
    case 'mlb-runs':
      return { builder: mlbGrid, size: MLB_SIZE };
    case 'soccer-dixon-coles':
      return { builder: soccerGrid(SOCCER_RHO[league] ?? -0.1), size: SOCCER_SIZE };
    default:
      return undefined;
  }
}

function fittedGridGame(league: LeagueKey, margin: number, total: number): GameDistributions {
  const model = gridModel(league)!;
  const { grid, home, away } = fitGrid(model.builder, model.size, margin, total);
  const game = gridGame(
    grid,
    () => gridOf(model.builder, home, away, model.size),
    coupledLeague(league) ? league : null,
  );
  gridFits.set(game, { ...model, home, away });
  return game;
}

function pathsOf(game: GameDistributions): ScorePaths {
  const fit = gridFits.get(game);
  if (!fit) throw new RangeError('Not a grid league’s game');
  return new ScorePaths(fit.size, fit.builder, fit.home, fit.away);
}

// ---------------------------------------------------------------------------------------------------------------
// First parts: a first half (soccer), first period (NHL), first five innings (MLB).

/**
 * The share of a game's part goals (its goals or runs less overtime, extra innings and empty-net goals) scored in its
 * priced first part (docs/calibration.md cites each): soccer's first half 0.44 (Premier League 1992–2017: 11,413
 * first-half goals to 14,356 in the second, 44.3 %; 1.16 of 2.64 a game in 5,100 games, 43.9 %); the NHL's first
 * period 0.30 (NHL.com, 2008–09: 2,025 first-period goals of 6,808 in regulation, 29.7 %, the third's empty-net goals
 * included; about 30.5 % without them); MLB's first five innings 0.58 (Baseball-Reference, 2007: 13,356 of 22,918
 * runs in the first nine innings, 58.3 %: the first inning scores most, the ninth least).
 */
export const FIRST_PART_SHARES = { soccer: 0.44, nhl: 0.3, mlb: 0.58 } as const;

/** The share of the part goals in a league's priced first part, or undefined for a league without a part model. */
export function firstPartShare(league: LeagueKey): number | undefined {
  switch (scoreModelName(league)) {
    case 'nhl-goals':
      return FIRST_PART_SHARES.nhl;
    case 'mlb-runs':
      return FIRST_PART_SHARES.mlb;
    case 'soccer-dixon-coles':
      return FIRST_PART_SHARES.soccer;
    default:
      return undefined;
  }
}

/** P(k of n) with chance s each: row n of the binomial, as weights 0..n. */
function binomialRow(n: number, s: number): number[] {
  const row = [1];
  for (let k = 1; k <= n; k += 1) row.push((row[k - 1]! * (n - k + 1)) / k);
  return row.map((c, k) => c * s ** k * (1 - s) ** (n - k));
}

const periodCache = new Map<string, GameDistributions>();

/**
 * The first part's distributions of a grid league's game (NHL, MLB, soccer) centred on the full game's market: each
 * of the game's part goals (its final score's less overtime, extra innings and empty-net goals, as the full game's
 * model has them) lands in the part independently with chance `share` (`FIRST_PART_SHARES`). So the part is the full
 * game's own model thinned, not a second model: its expected total is `share` × the part goals', its draws and low
 * scores follow the full game's, and the score model draws the part's result from the final score (`splitFinalScore`):
 * the part's closing price is its result's chance. A coupled league's part (MLB, decision 295) has these marginals and
 * a joint (`totalGiven`) that carries the full game's margin–total coupling as the split brings it to the part
 * (`firstPartCoupling`). RangeError for a league without a grid model or a share not in (0, 1).
 */
export function periodDistributions(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
): GameDistributions {
  if (!(share > 0 && share < 1)) throw new RangeError(`A part's share is in (0, 1), got ${share}`);
  if (!gridModel(league)) throw new RangeError(`No part model for ${league}`);
  const key = `${league}|${Math.round(centre.margin / CENTRE_STEP)}|${Math.round(centre.total / CENTRE_STEP)}|${share}`;
  let found = periodCache.get(key);
  if (found) {
    periodCache.delete(key);
    periodCache.set(key, found);
    return found;
  }
  const coupled = coupledLeague(league) ? league : null;
  found = gridGame(
    thinnedPartGrid(league, centre, share),
    () => thinnedPartGrid(league, centre, share),
    coupled,
    // Asked for only when the part's joint is (the simulator's split, once a game): its prices read the marginals.
    coupled ? (margin, total) => firstPartCoupling(league, centre, share, { margin, total }).rho : undefined,
  );
  // Counted and least recently used first, as the games' cache (decision 278).
  if (periodCache.size >= DISTRIBUTIONS_CACHED) periodCache.delete(periodCache.keys().next().value!);
  periodCache.set(key, found);
  return found;
}

/** The first part's score grid (`periodDistributions`): the game's part goals, each kept with chance `share`. */
function thinnedPartGrid(league: LeagueKey, centre: MarketCentre, share: number): Grid {
  const paths = pathsOf(gameDistributions(league, centre));
  return thinGrid(paths.partGrid(), share);
}

/** A grid of part goals thinned: Σ over (x, y) of part[x][y] · B(x, i) · B(y, j), one axis at a time. */
function thinGrid(part: Grid, share: number): Grid {
  const n = part.length;
  const rows = Array.from({ length: n }, (_, x) => binomialRow(x, share));
  const half: Grid = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let x = 0; x < n; x += 1)
    for (let y = 0; y < n; y += 1) {
      const w = part[x]![y]!;
      if (w === 0) continue;
      const row = rows[y]!;
      for (let j = 0; j <= y; j += 1) half[x]![j]! += w * row[j]!;
    }
  const thinned: Grid = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let x = 0; x < n; x += 1) {
    const row = rows[x]!;
    for (let j = 0; j < n; j += 1) {
      const w = half[x]![j]!;
      if (w === 0) continue;
      for (let i = 0; i <= x; i += 1) thinned[i]![j]! += w * row[i]!;
    }
  }
  return thinned;
}

// ---------------------------------------------------------------------------------------------------------------
// A coupled league's first part (MLB's first five innings; decision 295).

/**
 * A coupled joint cell by cell, home × away scores on an n × n grid: P(m) · P(t | m) from the distributions' margin and
 * the coupling's total given each margin (cells off the grid or of the wrong parity get nothing).
 */
function coupledCells(dist: GameDistributions, grid: Grid, coupling: Coupling, n: number): Float64Array {
  const cells = new Float64Array(n * n);
  dist.margin.probabilities.forEach((pm, i) => {
    if (!(pm > 0)) return;
    const m = dist.margin.min + i;
    const given = coupledTotalGiven(coupling, m, gridTotalGiven(grid, m));
    given.probabilities.forEach((pt, j) => {
      const t = given.min + j;
      const h = (t + m) / 2;
      const a = (t - m) / 2;
      if (pt > 0 && h >= 0 && a >= 0 && h < n && a < n) cells[h * n + a]! += pm * pt;
    });
  });
  return cells;
}

/**
 * The coupled game's final scores as the simulator draws them (the margin, then the coupled total given it), flat by
 * h · size + a.
 */
function coupledFinals(game: GameDistributions): { grid: Grid; finals: Float64Array } {
  const fit = gridFits.get(game)!;
  const grid = gridOf(fit.builder, fit.home, fit.away, fit.size);
  const coupling = gridCouplings.get(game)!(grid);
  return { grid, finals: coupledCells(game, grid, coupling, fit.size) };
}

/**
 * The part goals' grid when the finals are the coupled game's and each final's ways are weighted as the model has
 * them: what the part was under decision 291 once thinned (each part goal in the part with the share).
 */
function coupledPartGoals(paths: ScorePaths, finals: Float64Array): Grid {
  const n = paths.size;
  const ways = new Float64Array(n * n);
  paths.final.forEach((cell, i) => (ways[cell]! += paths.weight[i]!));
  const grid: Grid = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  paths.part.forEach((cell, i) => {
    const f = paths.final[i]!;
    if (ways[f]! > 0) grid[Math.floor(cell / n)]![cell % n]! += (paths.weight[i]! / ways[f]!) * finals[f]!;
  });
  return grid;
}

/** The margin and total of a grid (normalised), as `gridGame` reads them. */
function marginalsOf(grid: Grid): { margin: IntegerDistribution; total: IntegerDistribution } {
  const size = grid.length;
  const margins = new Array<number>(2 * size - 1).fill(0);
  const totals = new Array<number>(2 * size - 1).fill(0);
  grid.forEach((row, x) =>
    row.forEach((p, y) => {
      margins[x - y + size - 1]! += p;
      totals[x + y]! += p;
    }),
  );
  return { margin: normalise(-(size - 1), margins), total: normalise(0, totals) };
}

/** P(M > a, T > b) of a score grid (normalised by its sum). */
function gridFigure(grid: Grid, marginLine: number, totalLine: number): number {
  let figure = 0;
  let sum = 0;
  grid.forEach((row, x) =>
    row.forEach((p, y) => {
      sum += p;
      if (x - y > marginLine && x + y > totalLine) figure += p;
    }),
  );
  return figure / sum;
}

/** The copula's ρ whose Φ₂(Φ⁻¹(pm), Φ⁻¹(pt); ρ) is `figure` (bisection, within ±0.95). */
function copulaRho(pm: number, pt: number, figure: number): number {
  const zm = normalQuantile(pm);
  const zt = normalQuantile(pt);
  let lo = -0.95;
  let hi = 0.95;
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    if (bivariateNormalCdf(zm, zt, mid) < figure) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The full game's margin–total coupling as its split brings it to a first part (decision 295): the coupled game's
 * finals split as decision 284 has it (each way to a final by its weight, each part goal in the part with `share`)
 * give the part a joint whose figure (the home side winning the part and the part's over, at the lines of the part's
 * coupling) is read as the Gaussian copula's ρ at that joint's own chances of the two lines. The part's coupling is
 * fitted to that ρ at its own (fitted) marginals, so its marginals, and its prices, are kept: the coupling of the
 * full game, scaled for the part as the thinning scales it. `part` is the part's margin and total.
 */
export function firstPartCoupling(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
  part?: { margin: IntegerDistribution; total: IntegerDistribution },
): { rho: number; figure: number; marginLine: number; totalLine: number } {
  if (!coupledLeague(league) || !gridModel(league)) throw new RangeError(`No coupled part for ${league}`);
  const game = gameDistributions(league, centre);
  const own = part ?? periodDistributions(league, centre, share);
  const { marginLine, totalLine } = couplingLines(league, own.margin, own.total);
  const thinned = thinGrid(coupledPartGoals(pathsOf(game), coupledFinals(game).finals), share);
  const { margin, total } = marginalsOf(thinned);
  const figure = gridFigure(thinned, marginLine, totalLine);
  return {
    rho: copulaRho(above(margin, marginLine), above(total, totalLine), figure),
    figure,
    marginLine,
    totalLine,
  };
}

const binomials = new Map<string, Float64Array>();

/** The binomial rows 0..n − 1 at `share`, flat: B[x · n + k] = P(k of x) (one per size and share, shared by the games). */
function binomialMatrix(n: number, share: number): Float64Array {
  const key = `${n}|${share}`;
  let out = binomials.get(key);
  if (out) return out;
  out = new Float64Array(n * n);
  for (let x = 0; x < n; x += 1) binomialRow(x, share).forEach((p, k) => (out![x * n + k] = p));
  // A few sizes and shares in use (MLB's at 0.58; the tests' others): kept, at most a handful of 10 KB arrays.
  if (binomials.size >= 16) binomials.delete(binomials.keys().next().value!);
  binomials.set(key, out);
  return out;
}

/**
 * How a coupled game's final is split (decision 295): the model's own split (a way to the final by its weight, each
 * part goal kept with chance `share`) reweighted by one factor per part score (`factors`), so that over the coupled
 * finals the part's score has the part's coupled joint (`periodDistributions`: its fitted marginals and the coupling
 * `firstPartCoupling` gives it). The factors are fitted by iterative proportional fitting between the finals (each
 * final's split normalised) and the part's cells: the split nearest the model's (in relative entropy) that gives both.
 */
interface PartSplit {
  n: number;
  binomial: Float64Array;
  factors: Float64Array;
  /** Proportional-fitting steps taken and the part cells' largest error left. */
  steps: number;
  error: number;
}

/** Each coupled game's part splits by share, kept with the game (a few KB: one factor per part score). */
const partSplits = new WeakMap<GameDistributions, Map<number, PartSplit>>();

/** The steps of the proportional fitting at most, and the part cells' error it stops at. */
const SPLIT_STEPS = 400;
const SPLIT_TOLERANCE = 1e-12;

function partSplitOf(league: LeagueKey, centre: MarketCentre, share: number): PartSplit {
  const game = gameDistributions(league, centre);
  let byShare = partSplits.get(game);
  if (!byShare) partSplits.set(game, (byShare = new Map()));
  let found = byShare.get(share);
  if (found) return found;
  const paths = pathsOf(game);
  const n = paths.size;
  const { finals } = coupledFinals(game);
  // The part's coupled joint, cell by cell: P(m) · P(t | m).
  const part = periodDistributions(league, centre, share);
  const partGrid = thinnedPartGrid(league, centre, share);
  const partCoupling = gridCouplings.get(part)!(partGrid);
  const target = coupledCells(part, partGrid, partCoupling, n);
  const binomial = binomialMatrix(n, share);
  const factors = new Float64Array(n * n);
  for (let c = 0; c < n * n; c += 1) factors[c] = target[c]! > 0 ? 1 : 0;
  const tmp = new Float64Array(n * n);
  const given = new Float64Array(n * n);
  const goals = new Float64Array(n * n);
  const thinned = new Float64Array(n * n);
  const sums = new Float64Array(n * n);
  let steps = 0;
  let error = Infinity;
  for (; steps < SPLIT_STEPS && error > SPLIT_TOLERANCE; steps += 1) {
    // Each final's split normalised: its ways' weights times Σ over their part scores of B · B · factor.
    splitWeights(n, binomial, factors, tmp, given);
    sums.fill(0);
    paths.final.forEach((f, i) => (sums[f]! += paths.weight[i]! * given[paths.part[i]!]!));
    // The part scores the finals give: Σ over ways of the final's chance / its sum · weight, thinned, times the factor.
    goals.fill(0);
    paths.part.forEach((cell, i) => {
      const f = paths.final[i]!;
      if (sums[f]! > 0) goals[cell]! += (paths.weight[i]! * finals[f]!) / sums[f]!;
    });
    thinFlat(n, binomial, goals, tmp, thinned);
    error = 0;
    for (let c = 0; c < n * n; c += 1) {
      const current = thinned[c]! * factors[c]!;
      error = Math.max(error, Math.abs(current - target[c]!));
      if (current > 0) factors[c]! *= target[c]! / current;
    }
  }
  found = { n, binomial, factors, steps, error };
  byShare.set(share, found);
  return found;
}

/** out[k · n + l] = Σ over x ≥ k, y ≥ l of B(x, k) · B(y, l) · grid[x · n + y]: `thinGrid` on flat arrays. */
function thinFlat(
  n: number,
  binomial: Float64Array,
  grid: Float64Array,
  tmp: Float64Array,
  out: Float64Array,
): void {
  for (let x = 0; x < n; x += 1)
    for (let l = 0; l < n; l += 1) {
      let sum = 0;
      for (let y = l; y < n; y += 1) sum += grid[x * n + y]! * binomial[y * n + l]!;
      tmp[x * n + l] = sum;
    }
  for (let k = 0; k < n; k += 1)
    for (let l = 0; l < n; l += 1) {
      let sum = 0;
      for (let x = k; x < n; x += 1) sum += binomial[x * n + k]! * tmp[x * n + l]!;
      out[k * n + l] = sum;
    }
}

/** given[x · n + y] = Σ over k ≤ x, l ≤ y of B(x, k) · B(y, l) · factors[k · n + l] (one axis at a time). */
function splitWeights(
  n: number,
  binomial: Float64Array,
  factors: Float64Array,
  tmp: Float64Array,
  given: Float64Array,
): void {
  for (let k = 0; k < n; k += 1)
    for (let y = 0; y < n; y += 1) {
      let sum = 0;
      for (let l = 0; l <= y; l += 1) sum += binomial[y * n + l]! * factors[k * n + l]!;
      tmp[k * n + y] = sum;
    }
  for (let x = 0; x < n; x += 1)
    for (let y = 0; y < n; y += 1) {
      let sum = 0;
      for (let k = 0; k <= x; k += 1) sum += binomial[x * n + k]! * tmp[k * n + y]!;
      given[x * n + y] = sum;
    }
}

/** What the part split of a coupled game was fitted to: its steps and the part cells' largest error left. */
export function firstPartSplitFit(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
): { steps: number; error: number } {
  const { steps, error } = partSplitOf(league, centre, share);
  return { steps, error };
}

/**
 * The first part's score over the finals the simulator draws from the game at `centre` (the coupled finals for MLB),
 * computed cell by cell: `split` 'fitted' as `splitFinalScore` draws it (decision 295), 'thinned' as decision 284's
 * split had it (each way by its weight, each part goal kept with chance `share`; what a coupled league's part results
 * were under decision 291). For a league whose finals are its own grid's (NHL, soccer) the two are the same.
 */
export function firstPartResults(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
  split: 'fitted' | 'thinned',
): { margin: IntegerDistribution; total: IntegerDistribution } {
  const game = gameDistributions(league, centre);
  const paths = pathsOf(game);
  const n = paths.size;
  if (!coupledLeague(league)) return marginalsOf(thinGrid(paths.partGrid(), share));
  const { finals } = coupledFinals(game);
  if (split === 'thinned') return marginalsOf(thinGrid(coupledPartGoals(paths, finals), share));
  const { binomial, factors } = partSplitOf(league, centre, share);
  // Each final's ways, each way's part scores: the final's chance × the way's weight × B · B · factor, normalised.
  const tmp = new Float64Array(n * n);
  const given = new Float64Array(n * n);
  splitWeights(n, binomial, factors, tmp, given);
  const sums = new Float64Array(n * n);
  paths.final.forEach((f, i) => (sums[f]! += paths.weight[i]! * given[paths.part[i]!]!));
  const cells: Grid = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  paths.part.forEach((cell, i) => {
    const f = paths.final[i]!;
    if (!(sums[f]! > 0) || !(finals[f]! > 0)) return;
    const scale = (paths.weight[i]! * finals[f]!) / sums[f]!;
    const x = Math.floor(cell / n);
    const y = cell % n;
    for (let k = 0; k <= x; k += 1)
      for (let l = 0; l <= y; l += 1)
        cells[k]![l]! += scale * binomial[x * n + k]! * binomial[y * n + l]! * factors[k * n + l]!;
  });
  return marginalsOf(cells);
}

/** A final score split as `periodDistributions` has it: the first part's, the rest of regulation's, and the extra. */
export interface ScoreSplit {
  part: { home: number; away: number };
  /** The part goals not in the part (the rest of regulation). */
  rest: { home: number; away: number };
  /** The goals beyond the part goals, and where they came (`none` when there are none). */
  extra: { home: number; away: number; when: ExtraScoring };
}

/**
 * Splits a final score drawn from the game's distributions (`gameDistributions` at `centre`) as the part's model has
 * it: one way to the score by its weight among the ways there (`random` a uniform draw), then each part goal into the
 * first part with chance `share`. Over draws of the final score from the game's distributions, the part's score has
 * `periodDistributions(league, centre, share)`. A coupled league's finals (MLB) are drawn coupled (decision 291), so
 * its split is the model's reweighted by the part score (`PartSplit`, decision 295): one draw picks the way and the
 * part's score together, and over the coupled finals the part has its distributions and its coupled joint. RangeError
 * for a score the model cannot give.
 */
export function splitFinalScore(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
  final: { home: number; away: number },
  random: () => number,
): ScoreSplit {
  const paths = pathsOf(gameDistributions(league, centre));
  const cell = final.home * paths.size + final.away;
  let sum = 0;
  for (let i = 0; i < paths.final.length; i += 1) if (paths.final[i] === cell) sum += paths.weight[i]!;
  if (!(sum > 0) || final.home >= paths.size || final.away >= paths.size)
    throw new RangeError(`No way to ${final.home}–${final.away} in ${league}`);
  if (coupledLeague(league)) return splitCoupled(league, centre, share, final, paths, random);
  let roll = random() * sum;
  let chosen = -1;
  for (let i = 0; i < paths.final.length; i += 1) {
    if (paths.final[i] !== cell) continue;
    chosen = i;
    roll -= paths.weight[i]!;
    if (roll < 0) break;
  }
  const ph = Math.floor(paths.part[chosen]! / paths.size);
  const pa = paths.part[chosen]! % paths.size;
  const thin = (n: number) => {
    let k = 0;
    for (let i = 0; i < n; i += 1) if (random() < share) k += 1;
    return k;
  };
  const part = { home: thin(ph), away: thin(pa) };
  return {
    part,
    rest: { home: ph - part.home, away: pa - part.away },
    extra: { home: final.home - ph, away: final.away - pa, when: paths.extra[chosen]! },
  };
}

/** `splitFinalScore` for a coupled league: the way and the part's score drawn together on the fitted split. */
function splitCoupled(
  league: LeagueKey,
  centre: MarketCentre,
  share: number,
  final: { home: number; away: number },
  paths: ScorePaths,
  random: () => number,
): ScoreSplit {
  const { n, binomial, factors } = partSplitOf(league, centre, share);
  const cell = final.home * n + final.away;
  const weightOf = (i: number, k: number, l: number) => {
    const x = Math.floor(paths.part[i]! / n);
    const y = paths.part[i]! % n;
    return paths.weight[i]! * binomial[x * n + k]! * binomial[y * n + l]! * factors[k * n + l]!;
  };
  let sum = 0;
  for (let i = 0; i < paths.final.length; i += 1) {
    if (paths.final[i] !== cell) continue;
    const x = Math.floor(paths.part[i]! / n);
    const y = paths.part[i]! % n;
    for (let k = 0; k <= x; k += 1) for (let l = 0; l <= y; l += 1) sum += weightOf(i, k, l);
  }
  let roll = random() * sum;
  let chosen = { i: -1, k: 0, l: 0 };
  search: for (let i = 0; i < paths.final.length; i += 1) {
    if (paths.final[i] !== cell) continue;
    const x = Math.floor(paths.part[i]! / n);
    const y = paths.part[i]! % n;
    for (let k = 0; k <= x; k += 1)
      for (let l = 0; l <= y; l += 1) {
        const w = weightOf(i, k, l);
        if (!(w > 0)) continue;
        chosen = { i, k, l };
        roll -= w;
        if (roll < 0) break search;
      }
  }
  const ph = Math.floor(paths.part[chosen.i]! / n);
  const pa = paths.part[chosen.i]! % n;
  return {
    part: { home: chosen.k, away: chosen.l },
    rest: { home: ph - chosen.k, away: pa - chosen.l },
    extra: { home: final.home - ph, away: final.away - pa, when: paths.extra[chosen.i]! },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Halves of the points leagues (NBA, NCAAB, NFL): the segment model split of the full game (decision 288).

/**
 * The share of a points league's expected total and expected margin scored in its first half (docs/calibration.md
 * cites each). NBA total 0.505 (an assumption: first halves a little above the second, whose fourth quarters slow
 * down; no published count was found); NCAAB total 0.47 (Division I, 2012–13: 62.5 first-half points a game against
 * 70.8 in the second, 46.9 %; a second sample, about 47 %: late fouling and free throws); NFL total 0.5 (7,023 games:
 * 21.4 first-half points against 20.8 after half-time, overtime included, 50.7 %; 50.1 % since 2010). Margins: 0.5,
 * an assumption (the NFL count gives the home side about 2 of its 2.8 points of edge in the first half, which the
 * model leaves out: at the time share its half kernels do not depend on the centre and are built once).
 */
export const HALF_SHARES: Readonly<Record<'nba' | 'ncaab' | 'nfl', { total: number; margin: number }>> = {
  nba: { total: 0.505, margin: 0.5 },
  ncaab: { total: 0.47, margin: 0.5 },
  nfl: { total: 0.5, margin: 0.5 },
};

/** A half's share of the playing time: the segment model's variance share (increments' variance ∝ time played). */
export const HALF_TIME_SHARE = 0.5;

/**
 * The NFL half's key numbers: a prior (no published table of half margins was found). The full game's weights on
 * 3, 4, 6, 7, 10 and 14 (NFL_MARGIN_WEIGHTS), no weight on a tie (a half has no overtime to break one).
 */
export const NFL_HALF_MARGIN_WEIGHTS: ReadonlyMap<number, number> = new Map(
  [...NFL_MARGIN_WEIGHTS].map(([k, w]) => [k, k === 0 ? 1 : w]),
);

/** The league's half shares, or undefined for a league whose first part is thinned (or has no half model). */
export function halfShares(league: LeagueKey): { total: number; margin: number } | undefined {
  return league === 'nba' || league === 'ncaab' || league === 'nfl' ? HALF_SHARES[league] : undefined;
}

/**
 * The segment model of a half given the full game's final: the first half H and the rest R are independent
 * increments with variances in proportion to their time (v and 1 − v of the game's), their means the half's published
 * shares of the game's. Given the final F = H + R, H is normal with mean s·μ + v·(F − μ) and deviation σ·√(v(1 − v))
 * (μ, σ the game's mean and deviation): the Brownian bridge. Over F drawn from the game's distribution, H's mean is
 * s·μ and its variance v·σ², as the segment model says.
 */
interface HalfBridge {
  /** The half's mean given a final of x: a + v·x. */
  a: number;
  v: number;
  sd: number;
}

/** The bridge of a half whose expected score is `halfMean` of the game's `mean` (deviation `sigma`). */
function bridge(halfMean: number, mean: number, sigma: number): HalfBridge {
  const v = HALF_TIME_SHARE;
  return { a: halfMean - v * mean, v, sd: sigma * Math.sqrt(v * (1 - v)) };
}

/**
 * A kernel's shape depends on its mean's fractional part only (with v = 1/2 there are two): built once per part and
 * moved. Keyed by the bridge, the part (to 1e-9) and the parity (-1: every whole number).
 */
const kernelShapes = new WeakMap<HalfBridge, Map<number, IntegerDistribution>>();

function kernelShape(b: HalfBridge, frac: number, parity: number): IntegerDistribution {
  let shapes = kernelShapes.get(b);
  if (!shapes) kernelShapes.set(b, (shapes = new Map()));
  // A number, not a string made per kernel asked (decision 309): the part to 1e-9 (below 1e9) and the parity (−1, 0, 1).
  const key = Math.round(frac * 1e9) * 3 + parity + 1;
  let found = shapes.get(key);
  if (found) return found;
  found = kernelShapeOf(b, frac, parity);
  shapes.set(key, found);
  return found;
}

/** A kernel's shape about a mean of `frac` (in [0, 1)): every whole number, or one parity in bins of width 2. */
function kernelShapeOf(b: HalfBridge, frac: number, parity: number): IntegerDistribution {
  const lo = Math.floor(frac - 8 * b.sd) - 1;
  const hi = Math.ceil(frac + 8 * b.sd) + 1;
  const weights: number[] = [];
  for (let h = lo; h <= hi; h += 1) {
    if (parity < 0) weights.push(normalCdf((h + 0.5 - frac) / b.sd) - normalCdf((h - 0.5 - frac) / b.sd));
    else
      weights.push(
        Math.abs(h % 2) === parity ? normalCdf((h + 1 - frac) / b.sd) - normalCdf((h - 1 - frac) / b.sd) : 0,
      );
  }
  return normalise(lo, weights);
}

/**
 * The kernel about `mean`: its shape moved by the mean's whole part (the parity taken relative to it). `kept`: the
 * shape read from and kept in the bridge's shapes (a half's build); a cached half's split makes its two afresh, so
 * that a cached half keeps no shapes (decision 292).
 */
function kernelAbout(b: HalfBridge, mean: number, parity: number, kept = true): IntegerDistribution {
  const whole = Math.floor(mean);
  const frac = mean - whole;
  const shapeParity = parity < 0 ? -1 : Math.abs((parity - whole) % 2);
  const shape = kept ? kernelShape(b, frac, shapeParity) : kernelShapeOf(b, frac, shapeParity);
  return { min: shape.min + whole, probabilities: shape.probabilities };
}

/** Basketball: the half's margin given the final margin f, a discretised normal (every whole number). */
function marginKernel(b: HalfBridge, f: number, kept = true): IntegerDistribution {
  return kernelAbout(b, b.a + b.v * f, -1, kept);
}

/**
 * Basketball: the half's total given the final total f, on the whole numbers of one parity (bins of width 2). Not
 * cut at 0: a basketball half's total is 8 σ above it.
 */
function totalKernel(b: HalfBridge, f: number, parity: number, kept = true): IntegerDistribution {
  return kernelAbout(b, b.a + b.v * f, parity, kept);
}

const oddShares = new WeakMap<number[], [number, number]>();

/** P(odd) of a kernel (memoised by its shape: a moved shape's is its own or 1 − it). */
function oddShare(d: IntegerDistribution): number {
  let found = oddShares.get(d.probabilities);
  if (!found) {
    let odd = 0;
    d.probabilities.forEach((p, i) => {
      if (i % 2 !== 0) odd += p;
    });
    oddShares.set(d.probabilities, (found = [odd, 1 - odd]));
  }
  // Index i is odd when min + i is, with min even; else the other way.
  return Math.abs(d.min % 2) === 0 ? found[0] : found[1];
}

/**
 * Sums weighted distributions over the integers into one (a mixture). Reusable: `distribution()` gives the mixture
 * and leaves the accumulator empty (its weights zeroed where they were used), so that a half's build takes the two
 * kept ones (`MIXTURES`) rather than allocate and zero 64 KB each (issue 59: external memory that drove collections).
 */
class Accumulator {
  private readonly offset = 4096;
  private readonly weights = new Float64Array(2 * 4096);
  private lo = Infinity;
  private hi = -Infinity;
  add(d: IntegerDistribution, weight: number): void {
    const base = d.min + this.offset;
    const { probabilities } = d;
    for (let j = 0; j < probabilities.length; j += 1) this.weights[base + j]! += weight * probabilities[j]!;
    this.lo = Math.min(this.lo, base);
    this.hi = Math.max(this.hi, base + probabilities.length - 1);
  }
  /** The mixture (normalised, a copy); the accumulator is then empty again. */
  distribution(): IntegerDistribution {
    try {
      return normalise(this.lo - this.offset, this.weights.subarray(this.lo, this.hi + 1));
    } finally {
      this.clear();
    }
  }
  /** Empties it (a build that threw midway may have left weights). Returns it. */
  clear(): this {
    if (this.lo <= this.hi) this.weights.fill(0, this.lo, this.hi + 1);
    this.lo = Infinity;
    this.hi = -Infinity;
    return this;
  }
}

/** The basketball half's two mixtures (margin, total): built one half at a time, never nested, and emptied by use. */
const MIXTURES = { margin: new Accumulator(), total: new Accumulator() };

/** A half's model at one centre: its distributions and how a final is split (`splitHalf`). */
interface HalfModel {
  distributions: GameDistributions;
  /** `fitted`: an NFL game's fitted factors (decision 304), read by the NFL's split only. */
  split(
    final: { home: number; away: number },
    random: () => number,
    fitted?: NflHalfSplit,
  ): { home: number; away: number };
}

const halfCache = new Map<string, HalfModel>();

/**
 * The first half's distributions of a points league's game (NBA, NCAAB, NFL) centred on the full game's market: the
 * full game's own distributions split by the segment model (decision 288). Basketball: the half's margin given the
 * final margin and its total given the final total are the bridges of the margin and the total (`HalfBridge`, the
 * game's σ of each), the total on the margin's parity; the half's distributions are their mixtures over the game's.
 * NFL: each team's half points given its final points are its bridge (the team's σ from the game's two, a team's
 * share of the half's means), within 0 and its final, and a half margin of 3, 7, … weighted by the half's key numbers
 * (`NFL_HALF_MARGIN_WEIGHTS`); the half's distributions are the mixture over the game's final scores. So the half is
 * the full game split, and `splitHalf` draws a final's half from the same kernels: the half's closing price is its
 * result's chance. The NFL's finals are drawn coupled (decision 291) while its half is the mixture over the uncoupled
 * ones: its split carries factors fitted once per game so that over the coupled finals the half's results are still
 * these distributions (`NflHalfSplit`, decision 304). RangeError for another league.
 */
export function halfDistributions(league: LeagueKey, centre: MarketCentre): GameDistributions {
  return halfModel(league, centre).distributions;
}

/**
 * The first half of a final score drawn from the game's distributions at `centre`, as `halfDistributions` has it
 * (`random` uniform draws): over finals drawn from the game, the half has the half's distributions. Its points are
 * within the final's (a second half never negative). An NFL game's split is fitted on its first call (decision 304:
 * a few hundred milliseconds of CPU at most, once per game, kept with the game); prices never call it.
 */
export function splitHalf(
  league: LeagueKey,
  centre: MarketCentre,
  final: { home: number; away: number },
  random: () => number,
): { home: number; away: number } {
  const model = halfModel(league, centre);
  // The NFL's finals are drawn coupled (decision 291): its split carries the game's fitted factors (decision 304).
  return model.split(final, random, league === 'nfl' ? nflHalfSplitOf(centre) : undefined);
}

function halfModel(league: LeagueKey, centre: MarketCentre): HalfModel {
  const shares = halfShares(league);
  if (!shares) throw new RangeError(`No half model for ${league}`);
  // Keyed as the game's centre is read (to CENTRE_STEP): one half per cached game.
  const marginSteps = Math.round(centre.margin / CENTRE_STEP);
  const totalSteps = Math.round(centre.total / CENTRE_STEP);
  // The half asked last, asked again: returned as it is, as `gameDistributions` does (decision 309).
  const last = lastHalf;
  if (
    last.found &&
    last.league === league &&
    last.marginSteps === marginSteps &&
    last.totalSteps === totalSteps
  )
    return last.found;
  const key = `${league}|${marginSteps}|${totalSteps}`;
  let found = halfCache.get(key);
  if (found) {
    halfCache.delete(key);
    halfCache.set(key, found);
  } else {
    const game = gameDistributions(league, centre);
    const fit = smoothFits.get(game)!;
    found = league === 'nfl' ? nflHalf(game, fit, shares) : basketballHalf(league, game, fit, shares);
    if (halfCache.size >= DISTRIBUTIONS_CACHED) halfCache.delete(halfCache.keys().next().value!);
    halfCache.set(key, found);
  }
  last.league = league;
  last.marginSteps = marginSteps;
  last.totalSteps = totalSteps;
  last.found = found;
  return found;
}

/** The half `halfModel` returned last (the end of its cache's order while it is there). */
const lastHalf: {
  league: LeagueKey | null;
  marginSteps: number;
  totalSteps: number;
  found: HalfModel | null;
} = { league: null, marginSteps: 0, totalSteps: 0, found: null };

function basketballHalf(
  league: LeagueKey,
  game: GameDistributions,
  fit: { mean: number; sigma: number },
  shares: { total: number; margin: number },
): HalfModel {
  const prior = SGP_GAME_PRIORS[league];
  const mu = { margin: meanOf(game.margin), total: meanOf(game.total) };
  const mb = bridge(shares.margin * mu.margin, mu.margin, prior.sigmaMargin);
  const tb = bridge(shares.total * mu.total, mu.total, prior.sigmaTotal);
  // The mixtures are made in a scope of their own: the closures below (kept with the cached half) must not keep what
  // building them took alive through a shared context.
  const { margin, total } = (() => {
    // The half's margin: the mixture over the final margins; the chance of an odd half margin given each.
    const marginWeights = MIXTURES.margin.clear();
    const odd: number[] = [];
    game.margin.probabilities.forEach((p, i) => {
      const kernel = marginKernel(mb, game.margin.min + i);
      odd.push(p * oddShare(kernel));
      if (p < 1e-13) return;
      marginWeights.add(kernel, p);
    });
    // The half's total: the final totals with an odd half margin (A) and an even one (all − A), each on its kernel.
    // One base for both sums, each in its own scratch array (decision 309; the same numbers as two calls made).
    const base = totalBase(fit.mean, fit.sigma);
    const all = smoothTotalSums(base, game.margin, TOTAL_SUMS[0]);
    const withOdd = smoothTotalSums(base, { min: game.margin.min, probabilities: odd }, TOTAL_SUMS[1]);
    let allSum = 0;
    for (let t = 0; t < all.length; t += 1) allSum += all[t]!;
    const totalWeights = MIXTURES.total.clear();
    for (let t = 0; t < all.length; t += 1) {
      const w = all[t]!;
      if (!(w > 0)) continue;
      const a = withOdd[t]! / allSum;
      const b = w / allSum - a;
      if (a > 1e-15) totalWeights.add(totalKernel(tb, t, 1), a);
      if (b > 1e-15) totalWeights.add(totalKernel(tb, t, 0), b);
    }
    return { margin: marginWeights.distribution(), total: totalWeights.distribution() };
  })();
  return cachedHalf(margin, total, basketballSplit({ mb, tb }));
}

/**
 * What the cache keeps of a half: its two distributions and its split (decision 292). Made apart, so that the
 * closures hold only these and not the build's context (the full game, its fit, the mixtures' weights): their shared
 * context kept each cached half's game alive after the games' cache dropped it.
 */
function cachedHalf(
  margin: IntegerDistribution,
  total: IntegerDistribution,
  split: HalfModel['split'],
): HalfModel {
  return { distributions: { margin, total, totalGiven: () => total }, split };
}

/**
 * Basketball: a final's half drawn from the bridges' kernels (made apart: the closure holds the two bridges; the
 * kernels' shapes made afresh, not kept with the bridges).
 */
function basketballSplit(built: { mb: HalfBridge; tb: HalfBridge }): HalfModel['split'] {
  // Copies: the build's bridges key their shapes in `kernelShapes`, which live as long as the bridges do.
  const mb = { ...built.mb };
  const tb = { ...built.tb };
  return (final, random) => {
    const fm = final.home - final.away;
    const ft = final.home + final.away;
    const hm = quantileOf(marginKernel(mb, fm, false), random());
    let ht = quantileOf(totalKernel(tb, ft, Math.abs(hm) % 2, false), random());
    // Both halves' scores whole and not negative: never binding at basketball's scores (a guard).
    const lo = Math.abs(hm);
    const hi = ft - Math.abs(fm - hm);
    if (lo <= hi) ht = Math.min(Math.max(ht, lo), hi);
    return clampHalf({ home: (ht + hm) / 2, away: (ht - hm) / 2 }, final);
  };
}

function clampHalf(
  half: { home: number; away: number },
  final: { home: number; away: number },
): { home: number; away: number } {
  return {
    home: Math.min(Math.max(half.home, 0), final.home),
    away: Math.min(Math.max(half.away, 0), final.away),
  };
}

/** NFL: the team's half points given its final f: normal weights on 0..f (cut at 4.5 σ) about a + v·f. */
function teamKernel(b: HalfBridge, f: number): { lo: number; weights: Float64Array } {
  const mean = b.a + b.v * f;
  const lo = Math.max(0, Math.floor(mean - 4.5 * b.sd));
  const hi = Math.min(f, Math.ceil(mean + 4.5 * b.sd));
  if (hi < lo) {
    // The whole kernel is beyond the final's range: the nearest end.
    const end = mean < 0 ? 0 : f;
    return { lo: end, weights: Float64Array.of(1) };
  }
  const weights = new Float64Array(hi - lo + 1);
  for (let h = lo; h <= hi; h += 1)
    weights[h - lo] = normalCdf((h + 0.5 - mean) / b.sd) - normalCdf((h - 0.5 - mean) / b.sd);
  if (!weights.some((w) => w > 0)) weights.fill(1);
  return { lo, weights };
}

/** One NFL final's half: its margins (from `marginLo`) and totals (from 0), normalised. */
interface HalfCell {
  marginLo: number;
  margin: Float64Array;
  total: Float64Array;
}

/**
 * The half of a final (fh, fa) from the teams' kernels and the key weights. `scratch`: its two arrays are views of
 * these, zeroed first, valid until the next cell made into them (a build's cells read once, decision 309); else its
 * own arrays (the shared cells kept).
 */
function halfCell(
  { kh, ka }: { kh: ReturnType<typeof teamKernel>; ka: ReturnType<typeof teamKernel> },
  keyWeights: Float64Array,
  scratch?: { margin: { array: Float64Array }; total: { array: Float64Array } },
): HalfCell {
  const marginLo = kh.lo - (ka.lo + ka.weights.length - 1);
  const marginLength = kh.weights.length + ka.weights.length - 1;
  const totalLength = kh.lo + kh.weights.length + ka.lo + ka.weights.length - 1;
  const margin = scratch ? scratchOf(scratch.margin, marginLength).fill(0) : new Float64Array(marginLength);
  const total = scratch ? scratchOf(scratch.total, totalLength).fill(0) : new Float64Array(totalLength);
  let z = 0;
  for (let x = 0; x < kh.weights.length; x += 1) {
    const wh = kh.weights[x]!;
    if (wh === 0) continue;
    const h = kh.lo + x;
    for (let y = 0; y < ka.weights.length; y += 1) {
      const a = ka.lo + y;
      const w = wh * ka.weights[y]! * keyWeights[h > a ? h - a : a - h]!;
      z += w;
      margin[h - a - marginLo]! += w;
      total[h + a]! += w;
    }
  }
  for (let k = 0; k < margin.length; k += 1) margin[k]! /= z;
  for (let k = 0; k < total.length; k += 1) total[k]! /= z;
  return { marginLo, margin, total };
}

/** The NFL half's key weights by |margin| (0–400): `NFL_HALF_MARGIN_WEIGHTS`, 1 elsewhere. Made once, for every half. */
const NFL_HALF_KEY_WEIGHTS = (() => {
  const weights = new Float64Array(401).fill(1);
  for (const [k, w] of NFL_HALF_MARGIN_WEIGHTS) weights[k] = w;
  return weights;
})();

/** The arrays an NFL half's build makes each final's cell in (read at once into its mixtures; decision 309). */
const NFL_CELL_SCRATCH = {
  margin: { array: new Float64Array(128) },
  total: { array: new Float64Array(256) },
};

/** Half cells at the time share (the kernels then the same for every centre), kept once made: finals to 200 a side. */
const sharedCells = new Map<number, HalfCell>();
const sharedKernels = new Map<number, ReturnType<typeof teamKernel>>();

function sharedCell(b: HalfBridge, fh: number, fa: number, keyWeights: Float64Array): HalfCell {
  const key = fh * 1024 + fa;
  let cell = sharedCells.get(key);
  if (!cell) {
    const kernel = (f: number) => {
      let k = sharedKernels.get(f);
      if (!k) sharedKernels.set(f, (k = teamKernel(b, f)));
      return k;
    };
    cell = halfCell({ kh: kernel(fh), ka: kernel(fa) }, keyWeights);
    sharedCells.set(key, cell);
  }
  return cell;
}

/** The NFL teams' half bridges of a game: each team's share of the half's expected total and margin, on its own final. */
function nflBridges(
  game: GameDistributions,
  shares: { total: number; margin: number },
): { home: HalfBridge; away: HalfBridge } {
  const prior = SGP_GAME_PRIORS.nfl;
  const mu = { margin: meanOf(game.margin), total: meanOf(game.total) };
  const teamSigma = Math.sqrt((prior.sigmaMargin ** 2 + prior.sigmaTotal ** 2) / 4);
  return {
    home: bridge(
      (shares.total * mu.total + shares.margin * mu.margin) / 2,
      (mu.total + mu.margin) / 2,
      teamSigma,
    ),
    away: bridge(
      (shares.total * mu.total - shares.margin * mu.margin) / 2,
      (mu.total - mu.margin) / 2,
      teamSigma,
    ),
  };
}

function nflHalf(
  game: GameDistributions,
  fit: { mean: number; sigma: number },
  shares: { total: number; margin: number },
): HalfModel {
  // Each team's half: its share of the half's expected total and margin, bridged on its own final.
  const { home, away } = nflBridges(game, shares);
  const kernels = {
    home: new Map<number, ReturnType<typeof teamKernel>>(),
    away: new Map<number, ReturnType<typeof teamKernel>>(),
  };
  const kernelOf = (side: 'home' | 'away', f: number) => {
    let k = kernels[side].get(f);
    if (!k) kernels[side].set(f, (k = teamKernel(side === 'home' ? home : away, f)));
    return k;
  };
  const keyWeights = NFL_HALF_KEY_WEIGHTS;
  /** The pairs (home, away) of a final's half with their weights, normalised. */
  const pairs = (fh: number, fa: number) => {
    const kh = kernelOf('home', fh);
    const ka = kernelOf('away', fa);
    return { kh, ka };
  };
  // The mixtures in a scope of their own, as the basketball half's (the split below keeps only what it reads).
  const { margin, total } = (() => {
    const size = 2 * 200 + 1;
    const marginW = new Float64Array(size);
    const totalW = new Float64Array(size);
    // A final's half contributions (normalised) depend on the final and the kernels only: when the kernels do not
    // depend on the centre (both teams' bridges at the time share), they are kept for every centre.
    const shared = home.a === 0 && away.a === 0 && home.sd === away.sd;
    // The total given a margin (`smoothTotalGiven`) from one base: its weights of the margin's parity from |m| on.
    const base = discretisedNormalWeights(fit.mean, fit.sigma, 0);
    const suffix = new Float64Array(base.weights.length + 2);
    for (let k = base.weights.length - 1; k >= 0; k -= 1) suffix[k] = base.weights[k]! + suffix[k + 2]!;
    game.margin.probabilities.forEach((pm, i) => {
      if (pm < 1e-7) return;
      const m = game.margin.min + i;
      let first = Math.abs(m);
      if (first < base.min) first = base.min + ((base.min - first) % 2);
      if (first - base.min >= base.weights.length) return;
      const z = suffix[first - base.min]!;
      if (!(z > 0)) return;
      for (let t = first; t - base.min < base.weights.length; t += 2) {
        const p = (pm * base.weights[t - base.min]!) / z;
        // Finals below 1e-7 (together a few in 100,000) are left out; the half's distributions are normalised.
        if (p < 1e-7) continue;
        const fh = (t + m) / 2;
        const fa = (t - m) / 2;
        const cell = shared
          ? sharedCell(home, fh, fa, keyWeights)
          : halfCell(pairs(fh, fa), keyWeights, NFL_CELL_SCRATCH);
        for (let k = 0; k < cell.margin.length; k += 1)
          marginW[cell.marginLo + 200 + k]! += p * cell.margin[k]!;
        for (let k = 0; k < cell.total.length; k += 1) totalW[k]! += p * cell.total[k]!;
      }
    });
    return { margin: normalise(-200, marginW), total: normalise(0, totalW) };
  })();
  return cachedHalf(margin, total, nflSplit(home, away));
}

/**
 * NFL: a final's half drawn from the teams' kernels, the key weights and the game's fitted factors (`NflHalfSplit`,
 * decision 304; made apart: the closure holds the two bridges; the kernels, two per split, are made again, as nothing
 * is kept per final asked). One uniform draw a split.
 */
function nflSplit(home: HalfBridge, away: HalfBridge): HalfModel['split'] {
  return (final, random, fitted) => {
    let roll = -1;
    let last = { home: 0, away: 0 };
    nflHalfCells(
      home,
      away,
      final,
      fitted,
      (z) => (roll = random() * z),
      (h, a, w) => {
        last = { home: h, away: a };
        roll -= w;
        return roll < 0;
      },
    );
    return last;
  };
}

/**
 * One final's half cells as the NFL's split weighs them (the draw and `nflHalfResults` alike): the teams' kernels
 * (`teamKernel`) times the half's key weights times, with `fitted`, the factor of the cell's half margin and half total
 * (a margin or total beyond the fitted ones takes the nearest one's). `start(z)` is told the cells' sum; `visit(h, a,
 * w)` then gets every cell of positive weight in order until it returns true. With the factors, a final whose cells
 * all have none (never among the fitted finals) is split as the model's own.
 */
function nflHalfCells(
  home: HalfBridge,
  away: HalfBridge,
  final: { home: number; away: number },
  fitted: NflHalfSplit | undefined,
  start: (z: number) => void,
  visit: (h: number, a: number, w: number) => boolean,
): void {
  const kh = teamKernel(home, final.home);
  const ka = teamKernel(away, final.away);
  const key = NFL_HALF_KEY_WEIGHTS;
  const weigh = (factors: NflHalfSplit | undefined) => {
    if (!factors) return (h: number, a: number) => key[h > a ? h - a : a - h]!;
    const { size, margin, total } = factors;
    const last = 2 * size - 2;
    return (h: number, a: number) => {
      const m = Math.min(Math.max(h - a + size - 1, 0), last);
      const t = Math.min(h + a, last);
      return key[h > a ? h - a : a - h]! * margin[m]! * total[t]!;
    };
  };
  let weightOf = weigh(fitted);
  const sum = () => {
    let z = 0;
    for (let x = 0; x < kh.weights.length; x += 1)
      for (let y = 0; y < ka.weights.length; y += 1)
        z += kh.weights[x]! * ka.weights[y]! * weightOf(kh.lo + x, ka.lo + y);
    return z;
  };
  let z = sum();
  if (!(z > 0) && fitted) {
    weightOf = weigh(undefined);
    z = sum();
  }
  start(z);
  for (let x = 0; x < kh.weights.length; x += 1)
    for (let y = 0; y < ka.weights.length; y += 1) {
      const w = kh.weights[x]! * ka.weights[y]! * weightOf(kh.lo + x, ka.lo + y);
      if (w === 0) continue;
      if (visit(kh.lo + x, ka.lo + y, w)) return;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The NFL half on the coupled finals (decision 304).

/**
 * How an NFL game's final is split (decision 304): the model's own split (the teams' kernels × the key weights, each
 * final's normalised) times one factor per half margin (`margin`, from −(size − 1)) and one per half total (`total`,
 * from 0), fitted by iterative proportional fitting so that over the coupled finals the simulator draws (decision 291)
 * the half's margin and total are the half's priced distributions (`halfDistributions`, the mixture over the uncoupled
 * finals: its prices do not move). The split nearest the model's (in relative entropy) with those two marginals: the
 * dependence the coupled finals bring to the half (its margin–total figure) is kept, not fitted away. Finals below
 * 1e-7 are left out of the fit, as out of the half's mixture. Kept with the game: 2 × (2 · size − 1) numbers.
 */
interface NflHalfSplit {
  size: number;
  margin: Float64Array;
  total: Float64Array;
  /** Proportional-fitting steps taken and the half marginals' largest error left. */
  steps: number;
  error: number;
}

/** Each NFL game's fitted half split, kept with the game (as decision 295's MLB part splits). */
const nflHalfSplits = new WeakMap<GameDistributions, NflHalfSplit>();

/** The steps of the NFL half's proportional fitting at most, and the marginals' error it stops at. */
const NFL_HALF_SPLIT_STEPS = 400;
const NFL_HALF_SPLIT_TOLERANCE = 1e-11;
/** Each step's ratio (priced over results) is taken to this power: over-relaxed, about a third fewer steps than 1. */
const NFL_HALF_SPLIT_RELAXATION = 1.35;
/** Finals below this chance are left out of the fit (and of the half's priced mixture). */
const NFL_FINALS_FLOOR = 1e-7;

/** The NFL game's fitted half split at `centre`: fitted on the first ask (the simulator's draw), then kept. */
function nflHalfSplitOf(centre: MarketCentre): NflHalfSplit {
  const game = gameDistributions('nfl', centre);
  let found = nflHalfSplits.get(game);
  if (found) return found;
  const half = halfModel('nfl', centre).distributions;
  found = fitNflHalfSplit(game, half, nflBridges(game, HALF_SHARES.nfl));
  nflHalfSplits.set(game, found);
  nflHalfFitsMade += 1;
  return found;
}

let nflHalfFitsMade = 0;

/** How many NFL half splits have been fitted (the tests check that prices and quotes fit none). */
export function nflHalfSplitsFitted(): number {
  return nflHalfFitsMade;
}

/** The coupled finals (fh, fa) of an NFL game as the simulator draws them (margin, then the total given it), ≥ the floor. */
function coupledNflFinals(game: GameDistributions): { home: number[]; away: number[]; p: number[] } {
  const out = { home: [] as number[], away: [] as number[], p: [] as number[] };
  game.margin.probabilities.forEach((pm, i) => {
    if (pm < NFL_FINALS_FLOOR) return;
    const m = game.margin.min + i;
    const given = game.totalGiven(m);
    given.probabilities.forEach((pt, j) => {
      const p = pm * pt;
      if (!(p >= NFL_FINALS_FLOOR)) return;
      const t = given.min + j;
      out.home.push((t + m) / 2);
      out.away.push((t - m) / 2);
      out.p.push(p);
    });
  });
  return out;
}

/**
 * Fits `NflHalfSplit`. Each step makes the half's results over the coupled finals in matrix form (half and final team
 * scores 0 … size − 1; Kh, Ka the teams' kernels by final, G(h, a) the key weight × the factors): each final's sum
 * Z(fh, fa) = Σ Kh(fh, h) · G(h, a) · Ka(fa, a), then R(h, a) = G(h, a) · Σ Kh(fh, h) · P(fh, fa) / Z(fh, fa) · Ka(fa, a),
 * each in two banded products (a kernel is at most 4.5 σ either side of its mean) over the scores the finals reach,
 * and rescales the margin factors (even steps) or the total factors (odd steps) by the priced half's over the
 * results', over-relaxed (the ratio to the power `NFL_HALF_SPLIT_RELAXATION`).
 */
function fitNflHalfSplit(
  game: GameDistributions,
  half: GameDistributions,
  bridges: { home: HalfBridge; away: HalfBridge },
): NflHalfSplit {
  const finals = coupledNflFinals(game);
  const count = finals.p.length;
  let top = half.total.min + half.total.probabilities.length - 1;
  for (let i = 0; i < count; i += 1) top = Math.max(top, finals.home[i]!, finals.away[i]!);
  const size = top + 1;
  const width = 2 * size - 1;
  const wantMargin = new Float64Array(width);
  const wantTotal = new Float64Array(width);
  for (let k = 0; k < width; k += 1) {
    wantMargin[k] = probabilityOf(half.margin, k - (size - 1));
    wantTotal[k] = probabilityOf(half.total, k);
  }
  const margin = new Float64Array(width).fill(1);
  const total = new Float64Array(width).fill(1);
  // The kernels of the finals' team scores (the draw makes the same with `teamKernel`), and for each home final the
  // away half scores its finals reach (`reachA`), for each away final the home half scores (`reachH`), [lo, hi).
  const kh: (ReturnType<typeof teamKernel> | undefined)[] = new Array(size);
  const ka: (ReturnType<typeof teamKernel> | undefined)[] = new Array(size);
  const reachA = new Int32Array(2 * size).fill(-1);
  const reachH = new Int32Array(2 * size).fill(-1);
  const widen = (reach: Int32Array, at: number, lo: number, hi: number) => {
    if (reach[2 * at]! < 0 || lo < reach[2 * at]!) reach[2 * at] = lo;
    if (hi > reach[2 * at + 1]!) reach[2 * at + 1] = hi;
  };
  let mass = 0;
  for (let i = 0; i < count; i += 1) {
    const fh = finals.home[i]!;
    const fa = finals.away[i]!;
    const h = (kh[fh] ??= teamKernel(bridges.home, fh));
    const a = (ka[fa] ??= teamKernel(bridges.away, fa));
    widen(reachA, fh, a.lo, a.lo + a.weights.length);
    widen(reachH, fa, h.lo, h.lo + h.weights.length);
    mass += finals.p[i]!;
  }
  const homeScores = kh.flatMap((k, f) => (k ? [f] : []));
  const awayScores = ka.flatMap((k, f) => (k ? [f] : []));
  const key = NFL_HALF_KEY_WEIGHTS;
  const g = new Float64Array(size * size);
  // v(fa, h) = Σ over a of G(h, a) · Ka(fa, a), by away final (each final's sum reads a row of it).
  const v = new Float64Array(size * size);
  const u = new Float64Array(size * size);
  const sums = new Float64Array(size * size);
  const gotMargin = new Float64Array(width);
  const gotTotal = new Float64Array(width);
  const results = () => {
    for (let h = 0; h < size; h += 1)
      for (let a = 0; a < size; a += 1)
        g[h * size + a] = key[h > a ? h - a : a - h]! * margin[h - a + size - 1]! * total[h + a]!;
    for (const fa of awayScores) {
      const { lo, weights } = ka[fa]!;
      for (let h = reachH[2 * fa]!; h < reachH[2 * fa + 1]!; h += 1) {
        let sum = 0;
        const row = h * size + lo;
        for (let y = 0; y < weights.length; y += 1) sum += g[row + y]! * weights[y]!;
        v[fa * size + h] = sum;
      }
    }
    // Each final's sum, and u(fh, a) = Σ over fa of P(fh, fa) / Z(fh, fa) · Ka(fa, a).
    u.fill(0);
    for (let i = 0; i < count; i += 1) {
      const fh = finals.home[i]!;
      const fa = finals.away[i]!;
      const k = kh[fh]!;
      let z = 0;
      const at = fa * size + k.lo;
      for (let x = 0; x < k.weights.length; x += 1) z += k.weights[x]! * v[at + x]!;
      if (!(z > 0)) continue;
      const scale = finals.p[i]! / z / mass;
      const { lo, weights } = ka[fa]!;
      const row = fh * size + lo;
      for (let y = 0; y < weights.length; y += 1) u[row + y]! += scale * weights[y]!;
    }
    // sums(h, a) = Σ over fh of Kh(fh, h) · u(fh, a); the results are G · sums.
    sums.fill(0);
    for (const fh of homeScores) {
      const { lo, weights } = kh[fh]!;
      const from = fh * size;
      const first = reachA[2 * fh]!;
      const end = reachA[2 * fh + 1]!;
      for (let x = 0; x < weights.length; x += 1) {
        const w = weights[x]!;
        const out = (lo + x) * size;
        for (let a = first; a < end; a += 1) sums[out + a]! += w * u[from + a]!;
      }
    }
    gotMargin.fill(0);
    gotTotal.fill(0);
    for (let h = 0; h < size; h += 1)
      for (let a = 0; a < size; a += 1) {
        const r = g[h * size + a]! * sums[h * size + a]!;
        gotMargin[h - a + size - 1]! += r;
        gotTotal[h + a]! += r;
      }
  };
  const relaxation = NFL_HALF_SPLIT_RELAXATION;
  let steps = 0;
  let error = Infinity;
  for (; steps < NFL_HALF_SPLIT_STEPS; steps += 1) {
    results();
    error = 0;
    for (let k = 0; k < width; k += 1)
      error = Math.max(
        error,
        Math.abs(gotMargin[k]! - wantMargin[k]!),
        Math.abs(gotTotal[k]! - wantTotal[k]!),
      );
    if (error <= NFL_HALF_SPLIT_TOLERANCE) break;
    const [factors, got, want] =
      steps % 2 === 0 ? [margin, gotMargin, wantMargin] : [total, gotTotal, wantTotal];
    for (let k = 0; k < width; k += 1)
      if (got[k]! > 0) factors[k]! *= want[k]! > 0 ? (want[k]! / got[k]!) ** relaxation : 0;
  }
  return { size, margin, total, steps, error };
}

/** What an NFL game's half split was fitted to (decision 304): its steps, error left, size and the bytes it keeps. */
export function nflHalfSplitFit(centre: MarketCentre): {
  steps: number;
  error: number;
  size: number;
  bytes: number;
} {
  const { steps, error, size, margin, total } = nflHalfSplitOf(centre);
  return { steps, error, size, bytes: margin.byteLength + total.byteLength };
}

/**
 * The NFL half's results over the finals the simulator draws from the game at `centre` (the coupled finals, those
 * below 1e-7 left out), cell by cell through the split's own weights (`nflHalfCells`, as the draw reads them):
 * `split` 'fitted' as `splitHalf` draws it (decision 304), 'model' the model's own split (decision 288's, what the
 * half's results were under decision 291).
 */
export function nflHalfResults(
  centre: MarketCentre,
  split: 'fitted' | 'model',
): { margin: IntegerDistribution; total: IntegerDistribution } {
  const game = gameDistributions('nfl', centre);
  const { home, away } = nflBridges(game, HALF_SHARES.nfl);
  const fitted = split === 'fitted' ? nflHalfSplitOf(centre) : undefined;
  const finals = coupledNflFinals(game);
  const margins = new Float64Array(2 * 401 + 1);
  const totals = new Float64Array(2 * 401 + 1);
  for (let i = 0; i < finals.p.length; i += 1) {
    let scale = 0;
    nflHalfCells(
      home,
      away,
      { home: finals.home[i]!, away: finals.away[i]! },
      fitted,
      (z) => (scale = finals.p[i]! / z),
      (h, a, w) => {
        margins[h - a + 401]! += scale * w;
        totals[h + a]! += scale * w;
        return false;
      },
    );
  }
  return { margin: normalise(-401, margins), total: normalise(0, totals) };
}

// ---------------------------------------------------------------------------------------------------------------
// A first part in play: the score so far plus the rest of the part (decision 288).

const restCache = new Map<string, { margin: IntegerDistribution; total: IntegerDistribution }>();

/** The rest of a first part with `steps` twentieths of its time left, at the pre-game centre (cached, as the games). */
function restOfPart(
  league: LeagueKey,
  pregame: MarketCentre,
  steps: number,
): { margin: IntegerDistribution; total: IntegerDistribution } {
  const key = `${league}|${Math.round(pregame.margin / CENTRE_STEP)}|${Math.round(pregame.total / CENTRE_STEP)}|${steps}`;
  let found = restCache.get(key);
  if (found) return found;
  const rest = steps * LIVE_PART_STEP;
  const shares = halfShares(league);
  if (shares) {
    const prior = SGP_GAME_PRIORS[league];
    const v = HALF_TIME_SHARE * rest;
    const m = discretisedNormalWeights(
      shares.margin * pregame.margin * rest,
      prior.sigmaMargin * Math.sqrt(v),
    );
    const t = discretisedNormalWeights(
      shares.total * pregame.total * rest,
      prior.sigmaTotal * Math.sqrt(v),
      0,
    );
    found = { margin: normalise(m.min, m.weights), total: normalise(t.min, t.weights) };
  } else {
    const share = firstPartShare(league);
    if (share === undefined) throw new RangeError(`No part model for ${league}`);
    found = periodDistributions(league, pregame, share * rest);
  }
  if (restCache.size >= DISTRIBUTIONS_CACHED) restCache.delete(restCache.keys().next().value!);
  restCache.set(key, found);
  return found;
}

/** A distribution moved by `by`. */
function shifted(d: IntegerDistribution, by: number): IntegerDistribution {
  return { min: d.min + by, probabilities: d.probabilities };
}

/** The fraction of a part's time left is read to this step (a twentieth), so a grid league's builds are few. */
export const LIVE_PART_STEP = 0.05;

/**
 * A first part's final margin and total in play, from the pre-game centre, the part's score so far and the share of
 * its playing time left (`left`, 0–1): the score so far plus what the part's model gives the rest. Points leagues
 * (NBA, NCAAB, NFL halves): the rest is the segment model's increment, normal with the half's expected margin and
 * total times `left` and variance σ²·v·left (v the half's time share), discretised. Goal and run leagues (the parts of
 * decision 284): the rest is the full game's part goals thinned at the part's share times `left`. `left` is read up
 * to `LIVE_PART_STEP` (the simulator's prices mix the two steps about `left`, decision 293) and the rest cached per
 * pre-game centre. At `left` 0 the part is its score. RangeError for a league without a part model.
 */
export function livePartDistributions(
  league: LeagueKey,
  pregame: MarketCentre,
  soFar: { home: number; away: number },
  left: number,
): GameDistributions {
  const margin0 = soFar.home - soFar.away;
  const total0 = soFar.home + soFar.away;
  const rest = Math.min(Math.max(left, 0), 1);
  if (rest < 1e-6) {
    const margin = { min: margin0, probabilities: [1] };
    const total = { min: total0, probabilities: [1] };
    return { margin, total, totalGiven: () => total };
  }
  const steps = Math.ceil(rest / LIVE_PART_STEP - 1e-9);
  const part = restOfPart(league, pregame, steps);
  const margin = shifted(part.margin, margin0);
  const total = shifted(part.total, total0);
  return { margin, total, totalGiven: () => total };
}
