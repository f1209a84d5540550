import { toArb } from '#domain/arb-feed.ts';
import { bestCombinations, type CombinationOptions } from '#domain/arbitrage.ts';
import type { BookPrice, OddsEvent } from '#domain/markets.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { MarketState } from './store.ts';

// Arb detection for one market. The engine calls it only for markets whose prices changed (or whose published
// arbs reached the age limit of one of their prices): a price update re-evaluates only its market.

export interface ScanOptions extends CombinationOptions {
  /** A price older than this is stale and never used (DESIGN.md: 60 s pre-match, 10 s live). */
  maxAgePreMatchMs: number;
  maxAgeLiveMs: number;
}

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  floorPct: -1,
  maxPerMarket: 3,
  topPerOutcome: 6,
  maxAgePreMatchMs: 60_000,
  maxAgeLiveMs: 10_000,
};

export interface MarketResult {
  arbs: Arb[];
  /** The first instant at which one of the used prices turns stale (Infinity when there are no arbs). */
  validUntil: number;
}

const NONE: MarketResult = { arbs: [], validUntil: Infinity };

interface PriceCandidate {
  book: string;
  decimal: number;
  price: BookPrice;
}

export function maxAgeFor(event: OddsEvent, options: ScanOptions): number {
  return event.live ? options.maxAgeLiveMs : options.maxAgePreMatchMs;
}

/** A price is usable when it is not suspended and not older than the event's age limit at `now`. */
export function isUsable(price: BookPrice, now: number, maxAgeMs: number): boolean {
  return !price.suspended && now - price.updatedAt <= maxAgeMs;
}

export function scanMarket(
  market: MarketState,
  event: OddsEvent,
  now: number,
  options: ScanOptions,
): MarketResult {
  const maxAge = maxAgeFor(event, options);
  const byOutcome: PriceCandidate[][] = [];
  for (const byBook of market.prices) {
    const usable: PriceCandidate[] = [];
    for (const price of byBook.values()) {
      if (isUsable(price, now, maxAge)) usable.push({ book: price.book, decimal: price.decimal, price });
    }
    if (usable.length === 0) return NONE;
    byOutcome.push(usable);
  }
  const combinations = bestCombinations(byOutcome, options);
  if (combinations.length === 0) return NONE;
  let validUntil = Infinity;
  const arbs = combinations.map((combination) => {
    for (const pick of combination.picks)
      validUntil = Math.min(validUntil, pick.price.updatedAt + maxAge + 1);
    return toArb(
      event,
      market.spec,
      combination.picks.map((pick) => pick.price),
    );
  });
  return { arbs, validUntil };
}
