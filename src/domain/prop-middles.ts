import { LEAGUES, type LeagueKey, type SportKey } from './markets.ts';
import {
  type CentreChoice,
  type CentreSource,
  highSideChance,
  type MiddleChances,
  isMiddleLines,
  MIDDLE_MIN_BOOKS,
  normalMiddleChances,
  referenceMedian,
} from './middles.ts';
import { normalQuantile } from './mvn.ts';
import type { PropStatKey } from './props.ts';

// Player-prop middles (issue 36, decision 189): an over at one book and an under at a higher line at another, on one
// player's stat in one period ("LeBron James Points": over 24.5 and under 26.5 both win on 25 or 26). The stat X is a
// whole number; the over wins when X > its line, the under when X < its line, a whole-number line pushes. The chance of
// landing in the gap comes from a distribution of the stat centred on the market:
//
// - counts with small means (threes, touchdown passes, receptions, hits, total bases, strikeouts, shots, a hockey
//   player's points and shots on goal) are Poisson(λ);
// - volume stats (a basketball player's points, rebounds, assists and their sum; passing, rushing and receiving yards)
//   are a normal N(μ, (k·√μ)²) discretised to whole numbers, its spread growing with the mean as a sum of many small
//   counts does. k is a prior per stat (a scorer averaging 25 points has σ ≈ 7, a quarterback's 250 passing yards
//   σ ≈ 63), not fitted to a published table: the chances are the model's, and say so (`model` in the answers).
//
// The centre is estimated as the game lines' is (`marketCentre` in middles.ts): per book and line with both sides
// quoted, the de-vigged chance of the over p gives the mean for which the model's P(X > line) = p (closed form for the
// normal, bisection for the Poisson); the centre is the median of those estimates, with at least MIDDLE_MIN_BOOKS
// books. Scores that cannot be negative (points, counts) are floored at 0; yards can be negative.

/** How a stat's distribution is modelled. */
export type PropStatModel =
  | { kind: 'poisson' }
  | {
      kind: 'normal';
      /** σ = dispersion · √μ. */
      dispersion: number;
      /** The least value (0), or undefined for a stat that can be negative (yards). */
      floor: 0 | undefined;
    };

const poisson: PropStatModel = { kind: 'poisson' };
const normal = (dispersion: number, floor: 0 | undefined): PropStatModel => ({
  kind: 'normal',
  dispersion,
  floor,
});

/**
 * The over/under stats' models per sport (a stat key may mean different things in two sports: a hockey player's
 * points are a small count, a basketball player's a volume). Yes/no props have no line and no middle.
 */
export const PROP_STAT_MODELS: Readonly<Record<SportKey, Partial<Record<PropStatKey, PropStatModel>>>> = {
  basketball: {
    player_points: normal(1.4, 0),
    player_rebounds: normal(1.1, 0),
    player_assists: normal(1.1, 0),
    player_points_rebounds_assists: normal(1.6, 0),
    player_threes: poisson,
  },
  football: {
    player_pass_yds: normal(4, undefined),
    player_rush_yds: normal(3.5, undefined),
    player_reception_yds: normal(3.5, undefined),
    player_receptions: poisson,
    player_pass_tds: poisson,
  },
  baseball: {
    batter_hits: poisson,
    batter_total_bases: poisson,
    pitcher_strikeouts: poisson,
  },
  hockey: {
    player_points: poisson,
    player_shots_on_goal: poisson,
  },
  soccer: {
    player_shots: poisson,
    player_shots_on_target: poisson,
  },
};

/** The league's model of an over/under stat; undefined for a stat without one (yes/no props). */
export function propStatModel(league: LeagueKey, stat: PropStatKey): PropStatModel | undefined {
  return PROP_STAT_MODELS[LEAGUES[league].sport][stat];
}

/** How the answers name a prop's model. */
export function propModelName(model: PropStatModel): 'prop-poisson' | 'prop-normal' {
  return model.kind === 'poisson' ? 'prop-poisson' : 'prop-normal';
}

/** σ of the normal model at mean μ (at least a tenth of a unit, so that a mean near 0 still has a spread). */
export function propSigma(model: Extract<PropStatModel, { kind: 'normal' }>, mean: number): number {
  return Math.max(0.1, model.dispersion * Math.sqrt(Math.max(mean, 0)));
}

/** P(X ≤ k) for X ~ Poisson(λ), k a whole number (0 below 0). */
export function poissonCdf(k: number, lambda: number): number {
  if (k < 0) return 0;
  let term = Math.exp(-lambda);
  let sum = term;
  for (let i = 1; i <= k; i += 1) {
    term *= lambda / i;
    sum += term;
  }
  return Math.min(1, sum);
}

/** P(X = k) for X ~ Poisson(λ). */
function poissonPmf(k: number, lambda: number): number {
  if (k < 0 || !Number.isInteger(k)) return 0;
  let term = Math.exp(-lambda);
  for (let i = 1; i <= k; i += 1) term *= lambda / i;
  return term;
}

/** P(a ≤ X ≤ b) for X ~ Poisson(λ). */
function poissonMass(a: number, b: number, lambda: number): number {
  const from = Math.max(0, a);
  if (b < from) return 0;
  return Math.max(0, poissonCdf(b, lambda) - poissonCdf(from - 1, lambda));
}

/**
 * The mean for which the model's chance of the over at `line` is `pOver`: X > line for a whole-number X. For the
 * normal, with the continuity correction P(X > L) = 1 − Φ((⌊L⌋ + ½ − μ)/σ) and σ = k√μ, μ solves a quadratic in √μ;
 * for the Poisson, P(X ≥ ⌊L⌋ + 1) rises with λ and λ is found by bisection. Undefined when no mean gives it.
 */
export function propMeanFor(model: PropStatModel, line: number, pOver: number): number | undefined {
  if (!(pOver > 0 && pOver < 1) || !Number.isFinite(line) || line < 0) return undefined;
  const threshold = Math.floor(line) + 0.5;
  if (model.kind === 'normal') {
    // μ − k z √μ − threshold = 0, z = Φ⁻¹(pOver): √μ = (k z + √(k² z² + 4 threshold)) / 2.
    const kz = model.dispersion * normalQuantile(pOver);
    const root = (kz + Math.sqrt(kz * kz + 4 * threshold)) / 2;
    const mean = root * root;
    return Number.isFinite(mean) && mean > 0 ? mean : undefined;
  }
  return poissonMeanFor(Math.floor(line) + 1, pOver);
}

/**
 * λ with P(X ≥ need) = p for X ~ Poisson(λ): Newton's method on λ (the derivative of P(X ≥ n) in λ is P(X = n − 1)),
 * kept inside a bracket that each step narrows, bisecting when a step would leave it. Undefined when no λ up to
 * 4 · need + 20 gives it.
 */
function poissonMeanFor(need: number, p: number): number | undefined {
  let lo = 0;
  let hi = Math.max(1, need * 4 + 20);
  if (1 - poissonCdf(need - 1, hi) < p) return undefined;
  let lambda = Math.max(need - 0.5, 0.5);
  for (let i = 0; i < 100; i += 1) {
    const f = 1 - poissonCdf(need - 1, lambda) - p;
    if (Math.abs(f) < 1e-13) return lambda;
    if (f < 0) lo = lambda;
    else hi = lambda;
    const slope = poissonPmf(need - 1, lambda);
    let next = slope > 0 ? lambda - f / slope : Number.NaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - lambda) < 1e-12 * Math.max(1, lambda)) return next;
    lambda = next;
  }
  return lambda;
}

/** One book's two sides of one line of a player's stat: decimal odds of the over and of the under. */
export interface PropLineQuote {
  book: string;
  line: number;
  over: number;
  under: number;
}

/**
 * The stat's expected value from the market: per book and line, the de-vigged chance of the over gives a mean
 * (`propMeanFor`); the centre is their median. Undefined when fewer than `minBooks` books price both sides of a line.
 */
export function propCentre(
  model: PropStatModel,
  quotes: readonly PropLineQuote[],
  minBooks: number = MIDDLE_MIN_BOOKS,
): number | undefined {
  const books = new Set<string>();
  for (const quote of quotes) if (quote.over > 1 && quote.under > 1) books.add(quote.book);
  if (books.size < minBooks) return undefined;
  books.clear();
  const estimates: number[] = [];
  for (const quote of quotes) {
    if (!(quote.over > 1 && quote.under > 1)) continue;
    const pOver = 1 / quote.over / (1 / quote.over + 1 / quote.under);
    const mean = propMeanFor(model, quote.line, pOver);
    if (mean === undefined) continue;
    books.add(quote.book);
    estimates.push(mean);
  }
  if (books.size < minBooks) return undefined;
  estimates.sort((a, b) => a - b);
  const mid = estimates.length >> 1;
  return estimates.length % 2 ? estimates[mid]! : (estimates[mid - 1]! + estimates[mid]!) / 2;
}

/**
 * `propCentre` by `choice` (issue 55, decision 206): each book's over de-vigged by `choice.method` (`highSideChance`),
 * the median of `choice.reference`'s estimates (`referenceMedian`). Undefined when fewer than `minBooks` books price
 * both sides of a line, whatever the reference.
 */
export function propCentreBy(
  model: PropStatModel,
  quotes: readonly PropLineQuote[],
  choice: CentreChoice,
  minBooks: number = MIDDLE_MIN_BOOKS,
): { centre: number; source: CentreSource } | undefined {
  const books = new Set<string>();
  for (const quote of quotes) if (quote.over > 1 && quote.under > 1) books.add(quote.book);
  if (books.size < minBooks) return undefined;
  const estimates: { book: string; value: number }[] = [];
  for (const quote of quotes) {
    if (!(quote.over > 1 && quote.under > 1)) continue;
    const pOver = highSideChance(quote.over, quote.under, choice.method);
    const mean = pOver === undefined ? undefined : propMeanFor(model, quote.line, pOver);
    if (mean !== undefined) estimates.push({ book: quote.book, value: mean });
  }
  return referenceMedian(estimates, choice);
}

/**
 * A prop middle's chances: the over at `high` and the under at `low` (high < low, a whole number between), under the
 * stat's model at mean `centre`.
 */
export function propMiddleChances(
  model: PropStatModel,
  centre: number,
  high: number,
  low: number,
): MiddleChances {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  if (model.kind === 'normal')
    return normalMiddleChances(high, low, centre, propSigma(model, centre), { floor: model.floor });
  const middle = poissonMass(Math.floor(high) + 1, Math.ceil(low) - 1, centre);
  const pushHigh = Number.isInteger(high) ? poissonPmf(high, centre) : 0;
  const pushLow = Number.isInteger(low) ? poissonPmf(low, centre) : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}
