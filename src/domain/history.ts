import { devigImplied, type DevigMethod } from './devig.ts';
import { isValidDecimal } from './odds.ts';
import { isSportsbookKey, SHARP_BOOKS } from './sportsbooks.ts';

// Odds-history maths of issue 13: opening and closing lines, the price at an instant, OHLC candles, the one-minute
// teaser series, fair (no-vig) probabilities (the methods are in devig.ts) and CLV/OLV. Pure functions over one price series: the ticks of one
// (event, market, period, line, outcome, book), sorted ascending by `at`. Ticks with the same `at` keep their arrival
// order and the later one wins (it is what was in force from that instant on). Nothing here checks the sort: it is
// the caller's contract, as binary search needs it.
//
// Prices are decimal odds throughout (docs/product.md §10: compute in decimal, display American); `decimalToAmerican` in
// odds.ts converts a candle's values for display. Figures are returned at full precision: callers round for display
// (`roundTo` in odds.ts, CLV to 3 places), so every published figure is recomputable from the ticks we return.

/** One recorded change of one price series. */
export interface Tick {
  /** When the change was accepted: Unix milliseconds, UTC. */
  at: number;
  american: number;
  decimal: number;
  /**
   * `open`: a price a bettor could take. `suspended`: the book still shows its last price (carried in american and
   * decimal) but takes no bets. `removed`: the book withdrew the price, or the event ended.
   */
  state: 'open' | 'suspended' | 'removed';
}

/** An OHLC candle of decimal odds over the bucket [at, at + intervalMs). */
export interface Candle {
  /** Bucket start, Unix milliseconds UTC, a multiple of the interval. */
  at: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** One point of `minuteSeries`: both prices, or both null when no price could be taken at that instant. */
export type SeriesPoint =
  readonly [at: number, american: number, decimal: number] | readonly [at: number, null, null];

const isOpen = (tick: Tick) => tick.state === 'open';

/** Index of the first tick with `at > time` (so every tick before it has `at <= time`). */
function upperBound(ticks: readonly Tick[], time: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid]!.at <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first tick with `at >= time`. */
function lowerBound(ticks: readonly Tick[], time: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid]!.at < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkRange(name: string, ms: number, from: number, to: number): void {
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new RangeError(`${name} must be a positive integer, got ${ms}`);
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new RangeError(`from and to must be finite, got ${from}, ${to}`);
}

/**
 * The opening line: the first `open` tick, i.e. the first price a bettor could have taken. A series that starts
 * suspended opens at its first bettable price, not at the price shown while suspended. Undefined if the series was
 * never open.
 */
export function openingTick(ticks: readonly Tick[]): Tick | undefined {
  return ticks.find(isOpen);
}

/**
 * The closing line: the last tick at or before `startsAt` (a tick exactly at `startsAt` counts), when that tick is
 * `open`. Books commonly suspend or pull a line moments before the start; then the closing line is the last `open`
 * tick at or before `startsAt`: the last price a bettor could actually have taken, never a suspended price nobody
 * could bet. So the result is always the last `open` tick with `at <= startsAt`, however long before the start it
 * was (compare its `at` with `startsAt` to judge staleness). Undefined if there is none.
 */
export function closingTick(ticks: readonly Tick[], startsAt: number): Tick | undefined {
  for (let index = upperBound(ticks, startsAt) - 1; index >= 0; index -= 1) {
    const tick = ticks[index]!;
    if (isOpen(tick)) return tick;
  }
  return undefined;
}

/**
 * The tick in force at `at`: the last tick with `tick.at <= at` (binary search), whatever its state; check `state`
 * before treating it as a takeable price. Undefined if the series had not started by then.
 */
export function priceAt(ticks: readonly Tick[], at: number): Tick | undefined {
  const index = upperBound(ticks, at);
  return index === 0 ? undefined : ticks[index - 1];
}

/**
 * OHLC candles of decimal odds, one per `intervalMs` bucket [s, s + intervalMs), buckets aligned to multiples of
 * `intervalMs` in UTC (s = floor(at / intervalMs) × intervalMs). Only `open` ticks give prices; a `suspended` or
 * `removed` tick ends the price in force until the next `open` tick.
 *
 * With P(t) the price in force at instant t (the last tick with `at <= t`, if `open`) and B the `open` ticks with
 * s <= at < s + intervalMs:
 * - open = P(s) when a price was in force at the bucket start (carried from an earlier tick, or set by a tick exactly
 *   at s), else the first tick of B;
 * - high, low = the maximum and minimum of open and every tick of B;
 * - close = the price of the last tick of B, else open: the price in force at the bucket end, or, when the series was
 *   suspended/removed at the bucket end, the last price that was in force during the bucket.
 * - A bucket with no price in force at its start and no `open` tick (empty, or suspended/removed throughout) has no
 *   candle. Nothing is fabricated: a gap in the series is a gap in the candles. A bucket with a price in force and no
 *   tick has a flat candle (that price was takeable throughout). An `open` tick counts even when a later tick at the
 *   same millisecond replaced it: it was published.
 *
 * `from` and `to` (inclusive) select the buckets: those starting from floor(from / intervalMs) × intervalMs to
 * floor(to / intervalMs) × intervalMs. A candle always describes its whole bucket, so the same bucket is the same
 * candle whatever range asked for it; an empty array when from > to. At most `max` candles, the first ones (a page
 * stops there). Work is O(log n + ticks in range + candles): the caller bounds the range or `max`. RangeError for an
 * interval that is not a positive integer or a range that is not finite.
 */
export function candles(
  ticks: readonly Tick[],
  intervalMs: number,
  from: number,
  to: number,
  max = Infinity,
): Candle[] {
  checkRange('intervalMs', intervalMs, from, to);
  const out: Candle[] = [];
  if (from > to) return out;
  const lastBucket = Math.floor(to / intervalMs) * intervalMs;
  let bucket = Math.floor(from / intervalMs) * intervalMs + 0; // + 0: never a −0 timestamp
  let index = lowerBound(ticks, bucket);
  const before = index > 0 ? ticks[index - 1]! : undefined;
  /** The price in force just before `bucket` (ticks with at < bucket). */
  let inForce = before && isOpen(before) ? before.decimal : undefined;
  while (bucket <= lastBucket) {
    const end = bucket + intervalMs;
    if (inForce === undefined && (index >= ticks.length || ticks[index]!.at >= end)) {
      // No price in force and no tick in this bucket: skip straight to the next tick's bucket.
      if (index >= ticks.length) break;
      bucket = Math.floor(ticks[index]!.at / intervalMs) * intervalMs;
      continue;
    }
    let atStart = inForce;
    for (let k = index; k < ticks.length && ticks[k]!.at === bucket; k += 1) {
      atStart = isOpen(ticks[k]!) ? ticks[k]!.decimal : undefined;
    }
    let open = atStart;
    let high = atStart ?? -Infinity;
    let low = atStart ?? Infinity;
    let close = atStart;
    for (; index < ticks.length && ticks[index]!.at < end; index += 1) {
      const tick = ticks[index]!;
      if (!isOpen(tick)) {
        inForce = undefined;
        continue;
      }
      open ??= tick.decimal;
      if (tick.decimal > high) high = tick.decimal;
      if (tick.decimal < low) low = tick.decimal;
      close = tick.decimal;
      inForce = tick.decimal;
    }
    if (open !== undefined && close !== undefined) {
      out.push({ at: bucket, open, high, low, close });
      if (out.length >= max) break;
    }
    bucket = end;
  }
  return out;
}

/**
 * A price per step for a small chart: for each boundary t in [from, to] aligned to `stepMs` (t a multiple of
 * `stepMs`, from ceil(from / stepMs) × stepMs to floor(to / stepMs) × stepMs), the tick in force at t (the last tick
 * with `at <= t`) as `[t, american, decimal]` when it is `open`, else `[t, null, null]` (suspended, removed, or no
 * price yet). A price is never carried across a suspension. Empty when no boundary lies in [from, to]; RangeError
 * for a step that is not a positive integer or a range that is not finite.
 */
export function minuteSeries(
  ticks: readonly Tick[],
  from: number,
  to: number,
  stepMs = 60_000,
): SeriesPoint[] {
  checkRange('stepMs', stepMs, from, to);
  const out: SeriesPoint[] = [];
  const first = Math.ceil(from / stepMs) * stepMs + 0; // + 0: Math.ceil(−0.5) is −0
  let index = upperBound(ticks, first);
  for (let t = first; t <= to; t += stepMs) {
    while (index < ticks.length && ticks[index]!.at <= t) index += 1;
    const tick = index > 0 ? ticks[index - 1]! : undefined;
    out.push(tick && isOpen(tick) ? [t, tick.american, tick.decimal] : [t, null, null]);
  }
  return out;
}

/**
 * Fair probabilities of one set of decimal odds by `method` (default multiplicative: p_i = (1/d_i) / Σ_j (1/d_j);
 * the other methods are in devig.ts). They sum to 1 and keep the order of the prices (shorter odds, higher
 * probability). Throws RangeError for fewer than 2 outcomes or any odds that are not finite decimal odds > 1.
 */
export function devig(decimals: readonly number[], method: DevigMethod = 'multiplicative'): number[] {
  if (decimals.length < 2) throw new RangeError(`devig needs at least 2 outcomes, got ${decimals.length}`);
  for (const decimal of decimals) {
    if (!isValidDecimal(decimal)) throw new RangeError(`Decimal odds must be finite and > 1, got ${decimal}`);
  }
  return devigImplied(
    decimals.map((decimal) => 1 / decimal),
    method,
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Outcome count of a market: the longest row (a shorter row lacks outcomes). */
const widthOf = (rows: readonly (readonly (number | undefined)[])[]) =>
  rows.reduce((width, row) => Math.max(width, row.length), 0);

/** Whether a row prices each of `width` outcomes with valid decimal odds. */
const isComplete = (row: readonly (number | undefined)[], width: number): row is readonly number[] =>
  row.length === width && row.every((decimal) => decimal !== undefined && isValidDecimal(decimal));

/**
 * The median implied probability 1/d per outcome across the rows that price every outcome (the mean of the two middle
 * ones for an even count): the input the consensus de-vigs. Undefined when no row is complete.
 */
function medianImplied(complete: readonly (readonly number[])[], width: number): number[] | undefined {
  if (complete.length === 0) return undefined;
  return Array.from({ length: width }, (_, outcome) => median(complete.map((row) => 1 / row[outcome]!)));
}

/**
 * Consensus fair probabilities: each row is one book's decimal odds for the same outcomes in the same order. Books
 * that do not price every outcome (a missing, undefined or NaN entry, or anything that is not valid decimal odds > 1,
 * or a shorter row: the outcome count is the longest row's) are left out. For each outcome, the median implied
 * probability 1/d across the remaining books (the mean of the two middle ones for an even count), then the medians
 * de-vigged by `method` (default multiplicative: divided by their sum) so they sum to 1. The median, not the mean, so
 * one stale or off-market book cannot move the consensus. Undefined when no book priced every outcome; RangeError for
 * a market of fewer than 2 outcomes. `referenceFair` also says which books and which inputs gave the answer.
 */
export function consensusFair(
  byBook: readonly (readonly (number | undefined)[])[],
  method: DevigMethod = 'multiplicative',
): number[] | undefined {
  if (byBook.length === 0) return undefined;
  const width = widthOf(byBook);
  if (width < 2) throw new RangeError(`A market needs at least 2 outcomes, got ${width}`);
  const medians = medianImplied(
    byBook.filter((row) => isComplete(row, width)),
    width,
  );
  return medians && devigImplied(medians, method);
}

/**
 * Where fair probabilities are taken from: the median of every book (`consensus`), the median of the sharp books
 * (`sharp`, SHARP_BOOKS in sportsbooks.ts), or one book's own prices (its key).
 */
export type FairReference = 'consensus' | 'sharp' | (string & {});

/**
 * Why the fair probabilities did not come from the reference asked for (null when they did): `book_not_carried`, the
 * book is not in the catalogue (no source carries it, e.g. pinnacle); `book_missing_outcomes`, the book did not price
 * every outcome of this market; `no_sharp_book`, no sharp book priced every outcome. The fallback is the consensus.
 */
export type FairFallback = 'book_not_carried' | 'book_missing_outcomes' | 'no_sharp_book';

/** Fair probabilities of one market, with everything needed to recompute them. */
export interface MarketFair {
  /** What they came from: a book's key, `sharp` or `consensus`. */
  reference: string;
  /** Why `reference` is not the one asked for; null when it is. */
  fallback: FairFallback | null;
  method: DevigMethod;
  /** The books whose prices were used, sorted. */
  books: string[];
  /** The de-vigged input per outcome: 1/d of the book, or the median 1/d across `books`. Full precision. */
  implied: number[];
  /** `devigImplied(implied, method)`. */
  probabilities: number[];
}

/**
 * Fair probabilities of one market (one row of decimal odds per book, outcomes in the same order) from `reference`,
 * de-vigged by `method`: a book's own prices when it priced every outcome (the outcome count is the longest row's;
 * its first row counts if a book appears twice), the median implied probabilities of the sharp books that did for
 * `sharp`, of every book that did for `consensus`. When the reference asked for cannot give them, the consensus does,
 * and `fallback` says why. Undefined when no book priced every outcome; RangeError for fewer than 2 outcomes.
 */
export function referenceFair(
  prices: readonly { book: string; decimals: readonly (number | undefined)[] }[],
  options: { reference: FairReference; method: DevigMethod; sharpBooks?: readonly string[] },
): MarketFair | undefined {
  const { reference, method, sharpBooks = SHARP_BOOKS } = options;
  if (prices.length === 0) return undefined;
  const width = widthOf(prices.map((price) => price.decimals));
  if (width < 2) throw new RangeError(`A market needs at least 2 outcomes, got ${width}`);
  const seen = new Set<string>();
  const complete = prices.filter((price) => {
    if (seen.has(price.book)) return false;
    seen.add(price.book);
    return isComplete(price.decimals, width);
  });
  const fairOf = (
    used: typeof complete,
    name: string,
    fallback: FairFallback | null,
  ): MarketFair | undefined => {
    const implied = medianImplied(
      used.map((price) => price.decimals as readonly number[]),
      width,
    );
    if (!implied) return undefined;
    return {
      reference: name,
      fallback,
      method,
      books: used.map((price) => price.book).sort(),
      implied,
      probabilities: devigImplied(implied, method),
    };
  };
  if (reference === 'consensus') return fairOf(complete, 'consensus', null);
  if (reference === 'sharp') {
    const sharp = complete.filter((price) => sharpBooks.includes(price.book));
    return sharp.length > 0 ? fairOf(sharp, 'sharp', null) : fairOf(complete, 'consensus', 'no_sharp_book');
  }
  const own = complete.find((price) => price.book === reference);
  if (own) return fairOf([own], reference, null);
  return fairOf(
    complete,
    'consensus',
    isSportsbookKey(reference) ? 'book_missing_outcomes' : 'book_not_carried',
  );
}

/**
 * Closing line value in percent: (betDecimal × p − 1) × 100, with p the fair closing probability of the outcome bet
 * on: the expected return of the bet at fair closing odds. The same formula gives OLV with p the fair opening
 * probability. Full precision: round for display (3 places, `roundTo` in odds.ts). RangeError for invalid decimal
 * odds or a probability outside (0, 1].
 */
export function clvPct(betDecimal: number, fairProbability: number): number {
  if (!isValidDecimal(betDecimal))
    throw new RangeError(`Decimal odds must be finite and > 1, got ${betDecimal}`);
  if (!(fairProbability > 0 && fairProbability <= 1)) {
    throw new RangeError(`A fair probability must be in (0, 1], got ${fairProbability}`);
  }
  return (betDecimal * fairProbability - 1) * 100;
}
