import { floorTo, PROB_PLACES } from './arbitrage.ts';
import { DEFAULT_DEVIG_METHOD, type DevigMethod } from './devig.ts';
import { consensusFair, referenceFair, type FairFallback, type FairReference } from './history.ts';
import { isValidDecimal, roundTo } from './odds.ts';

// Positive expected value (issue 36, docs/product.md §10, decision 163). A book's price has positive EV when it pays
// more than the market's fair probability says it should: EV = p_fair × decimal − 1 per unit staked. The fair
// probability of each outcome is the consensus of every book that prices every side of the market (including the
// book being judged): per outcome the median implied probability across those books, the margin then removed by the
// project's default de-vig method (Shin's, decision 164: it does not flatter longshots as normalising does), and
// only when at least `EV_MIN_BOOKS` books stand behind it. Every answer names the method and the reference
// (`EV_METHOD`, `EV_REFERENCE`).

/** How the margin is removed from the consensus medians: the project's default method (Shin's, decision 164). */
export const EV_METHOD = DEFAULT_DEVIG_METHOD;
/** Whose prices the fair probability comes from: the consensus of every book pricing every side. */
export const EV_REFERENCE = 'consensus' as const;
/** The fewest books pricing every side of a market for its fair probabilities to be published. */
export const EV_MIN_BOOKS = 3;
/** EV is published in percent to 3 places, rounded down: a published EV never exceeds the true one. */
export const EV_PLACES = 3;
/** The default Kelly fraction: a quarter of the full Kelly stake. */
export const DEFAULT_KELLY_FRACTION = 0.25;

/**
 * EV of one unit staked at `decimal` when the outcome's fair probability is `fairProbability`, as a fraction
 * (0.05 is +5 %): p × d − 1. RangeError for invalid decimal odds or a probability outside (0, 1].
 */
export function expectedValue(decimal: number, fairProbability: number): number {
  checkInputs(decimal, fairProbability);
  return fairProbability * decimal - 1;
}

/** EV in percent, at full precision: (p × d − 1) × 100. */
export function evPct(decimal: number, fairProbability: number): number {
  return expectedValue(decimal, fairProbability) * 100;
}

/** EV in percent as answers publish it: floored to `EV_PLACES` (−0 normalised to 0). */
export function publishedEvPct(decimal: number, fairProbability: number): number {
  return floorTo(evPct(decimal, fairProbability), EV_PLACES) + 0;
}

/**
 * The Kelly fraction of a bankroll to stake: f* = (b·p − q) / b with b = d − 1 and q = 1 − p, never negative (0 when
 * the price has no positive EV). RangeError for invalid odds or probability.
 */
export function kellyFraction(decimal: number, fairProbability: number): number {
  checkInputs(decimal, fairProbability);
  const b = decimal - 1;
  const f = (b * fairProbability - (1 - fairProbability)) / b;
  return f > 0 ? f : 0;
}

/**
 * The stake in whole cents for a bankroll in cents and a Kelly fraction (default ¼): bankroll × fraction × f*, rounded
 * down to the cent (never more than the rule says). RangeError for a negative or non-integer bankroll, or a fraction
 * outside (0, 1].
 */
export function kellyStakeCents(
  bankrollCents: number,
  decimal: number,
  fairProbability: number,
  fraction: number = DEFAULT_KELLY_FRACTION,
): number {
  if (!Number.isSafeInteger(bankrollCents) || bankrollCents < 0)
    throw new RangeError(`A bankroll is a whole number of cents >= 0, got ${bankrollCents}`);
  if (!(fraction > 0 && fraction <= 1))
    throw new RangeError(`A Kelly fraction is in (0, 1], got ${fraction}`);
  return Math.floor(bankrollCents * fraction * kellyFraction(decimal, fairProbability) + 1e-9);
}

/** One book's price on one outcome, as `marketEv` reads it. */
export interface EvQuote<B extends string = string> {
  book: B;
  /** Index of the outcome in the market's outcome order. */
  outcome: number;
  decimal: number;
}

/** A quote judged against the market's fair probabilities (the quote's own fields are kept). */
export type EvPrice<Q extends EvQuote = EvQuote> = Q & {
  /** The outcome's fair probability, full precision. */
  fairProbability: number;
  /** EV in percent, full precision (`publishedEvPct` is the answer's figure). */
  evPct: number;
};

/**
 * Where a request takes fair probabilities from (issue 55, decision 206): the de-vig method and the reference, as
 * /v1/events/{eventId}/lines chooses them; `EV_DEFAULT_CHOICE` when it names neither.
 */
export interface EvChoice {
  method: DevigMethod;
  reference: FairReference;
}

export const EV_DEFAULT_CHOICE: EvChoice = { method: EV_METHOD, reference: EV_REFERENCE };

export const isDefaultEvChoice = (choice: EvChoice): boolean =>
  choice.method === EV_METHOD && choice.reference === EV_REFERENCE;

/** The fair probabilities of a market, the books behind them, and what they came from. */
export interface MarketFair {
  probabilities: number[];
  /** How many books priced every side (the consensus's books). */
  books: number;
  method: DevigMethod;
  /** What the medians came from: `consensus`, `sharp` or a book's key. */
  reference: string;
  /** Why `reference` is not the one asked for (`referenceFair`); null when it is. */
  fallback: FairFallback | null;
}

/**
 * The fair probabilities of a market of `width` outcomes from the books' usable quotes: undefined when fewer than
 * `minBooks` books price every side (a book quoting an outcome twice keeps its first quote). By default the
 * consensus of those books de-vigged by Shin's method; `choice` takes the medians from another reference (the sharp
 * books among them, or one book: `referenceFair`, the consensus when it cannot) and de-vigs them by another method.
 */
export function marketFair(
  quotes: readonly EvQuote[],
  width: number,
  minBooks: number = EV_MIN_BOOKS,
  choice: EvChoice = EV_DEFAULT_CHOICE,
): MarketFair | undefined {
  if (width < 2) return undefined;
  const rows = new Map<string, (number | undefined)[]>();
  for (const quote of quotes) {
    if (quote.outcome < 0 || quote.outcome >= width || !isValidDecimal(quote.decimal)) continue;
    let row = rows.get(quote.book);
    if (!row) rows.set(quote.book, (row = new Array<number | undefined>(width).fill(undefined)));
    row[quote.outcome] ??= quote.decimal;
  }
  const complete = [...rows].filter(([, row]) => row.every((decimal) => decimal !== undefined));
  if (complete.length < minBooks) return undefined;
  if (isDefaultEvChoice(choice)) {
    const probabilities = consensusFair(
      complete.map(([, row]) => row),
      EV_METHOD,
    );
    return (
      probabilities && {
        probabilities,
        books: complete.length,
        method: EV_METHOD,
        reference: EV_REFERENCE,
        fallback: null,
      }
    );
  }
  const fair = referenceFair(
    complete.map(([book, decimals]) => ({ book, decimals })),
    choice,
  );
  return (
    fair && {
      probabilities: fair.probabilities,
      books: complete.length,
      method: fair.method,
      reference: fair.reference,
      fallback: fair.fallback,
    }
  );
}

/**
 * Every quote of a market judged against the consensus fair (`marketFair`), those with EV above `minEvPct` (percent;
 * default 0: positive EV only), best EV first. A quote may come from a book that does not price every side: it can
 * still be bet, only it does not count towards the fair. Empty when the market has no published fair.
 */
export function marketEv<Q extends EvQuote>(
  quotes: readonly Q[],
  width: number,
  options: { minBooks?: number; minEvPct?: number; choice?: EvChoice } = {},
): { fair: MarketFair | undefined; prices: EvPrice<Q>[] } {
  const fair = marketFair(quotes, width, options.minBooks ?? EV_MIN_BOOKS, options.choice);
  if (!fair) return { fair, prices: [] };
  const floor = options.minEvPct ?? 0;
  const prices: EvPrice<Q>[] = [];
  for (const quote of quotes) {
    if (quote.outcome < 0 || quote.outcome >= width || !isValidDecimal(quote.decimal)) continue;
    const fairProbability = fair.probabilities[quote.outcome]!;
    // The additive method can leave an outcome 0: no fair price, so no EV (as CLV treats it).
    if (!(fairProbability > 0)) continue;
    const pct = evPct(quote.decimal, fairProbability);
    if (pct > floor) prices.push({ ...quote, fairProbability, evPct: pct });
  }
  prices.sort((a, b) => b.evPct - a.evPct || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  return { fair, prices };
}

/** The fair probability as answers publish it (6 places). */
export function publishedFairProbability(probability: number): number {
  return roundTo(probability, PROB_PLACES);
}

function checkInputs(decimal: number, fairProbability: number): void {
  if (!isValidDecimal(decimal)) throw new RangeError(`Decimal odds must be finite and > 1, got ${decimal}`);
  if (!(fairProbability > 0 && fairProbability <= 1))
    throw new RangeError(`A fair probability must be in (0, 1], got ${fairProbability}`);
}
