import { bookSum, DEFAULT_COMBINATION_OPTIONS, edgePct, type CombinationOptions } from '#domain/arbitrage.ts';
import { marketKey, type LeagueKey, type Period } from '#domain/markets.ts';
import { isValidDecimal } from '#domain/odds.ts';
import {
  propOutcomes,
  propSpecProblem,
  propStat,
  type PropMarketSpec,
  type PropOutcomeKey,
  type PropSpecProblem,
  type PropStatKey,
} from '#domain/props.ts';
import { bestCombinations } from './best-combinations.ts';

// Which prop prices may be paired into an arb (docs/product.md §10 pairing rules applied to props; decision 120). A price belongs
// to exactly one market, keyed by (event, stat, period, player, line) through marketKey; pairs are only formed
// inside one market, so two players, two stats, two lines (a gap is a middle, not an arb), two periods or two
// propositions never meet. Within a market the best combinations come from bestCombinations, as the game-line
// scanner's do. The engine keys prop markets the same way (marketKey) and scans them like game lines; this module
// states the rules as pure functions the property tests of src/domain/prop-pairing.test.ts check. Nothing shipped
// runs it.

/** One book's price for one side of one prop, the player already matched to the event's canonical id. */
export interface PropPrice {
  eventId: string;
  league: LeagueKey;
  book: string;
  /** The event's canonical player id (player-matching.ts); a book player left unmatched has no price here. */
  playerId: string;
  stat: PropStatKey;
  period: Period;
  point: number | null;
  outcome: PropOutcomeKey;
  decimal: number;
  suspended?: boolean;
}

export type PropPriceProblem = PropSpecProblem | 'outcome_not_in_market' | 'invalid_decimal';

export interface RejectedPropPrice {
  price: PropPrice;
  reason: PropPriceProblem;
}

/** One pairable market: its key and spec, and the usable prices of each side (one per book: the last one given). */
export interface PropMarketGroup {
  key: string;
  eventId: string;
  league: LeagueKey;
  spec: PropMarketSpec;
  /** The market's two outcomes (over, under or yes, no) and their prices, in that order. */
  outcomes: readonly [PropOutcomeKey, PropOutcomeKey];
  prices: readonly [PropPrice[], PropPrice[]];
}

export interface PropPair {
  marketKey: string;
  eventId: string;
  spec: PropMarketSpec;
  /** [over, under] or [yes, no], from two different books. */
  picks: readonly [PropPrice, PropPrice];
  /** S = 1/d₁ + 1/d₂. */
  sum: number;
  /** edgePct of the two decimals (unrounded; the feed floors it with publishedEdge). */
  edgePct: number;
}

export interface PropPairingResult {
  markets: PropMarketGroup[];
  /** Best first (edge descending, then market key and books), at most `maxPerMarket` per market. */
  pairs: PropPair[];
  rejected: RejectedPropPrice[];
  /** Suspended prices skipped (never paired). */
  suspended: number;
}

function specOfPrice(price: PropPrice): PropMarketSpec {
  return {
    type: 'prop',
    stat: price.stat,
    period: price.period,
    playerId: price.playerId,
    point: price.point,
  };
}

/** Why a price cannot enter any market, or null when it can. */
export function propPriceProblem(price: PropPrice): PropPriceProblem | null {
  const problem = propSpecProblem(price.league, specOfPrice(price));
  if (problem) return problem;
  const def = propStat(price.league, price.stat)!;
  if (!propOutcomes(def.kind).includes(price.outcome)) return 'outcome_not_in_market';
  if (!isValidDecimal(price.decimal)) return 'invalid_decimal';
  return null;
}

/**
 * Groups prices into markets: invalid ones are rejected with a reason, suspended ones skipped, and a book quoting one
 * side of one market twice keeps its last quote (as the store overwrites). Markets keep their first-seen order.
 */
function groupPropMarkets(prices: readonly PropPrice[]): Omit<PropPairingResult, 'pairs'> {
  const rejected: RejectedPropPrice[] = [];
  let suspended = 0;
  const groups = new Map<
    string,
    { group: PropMarketGroup; byBook: [Map<string, PropPrice>, Map<string, PropPrice>] }
  >();
  for (const price of prices) {
    const reason = propPriceProblem(price);
    if (reason) {
      rejected.push({ price, reason });
      continue;
    }
    if (price.suspended) {
      suspended += 1;
      continue;
    }
    const spec = specOfPrice(price);
    const key = marketKey(price.eventId, spec);
    let entry = groups.get(key);
    if (!entry) {
      const outcomes = propOutcomes(propStat(price.league, price.stat)!.kind);
      entry = {
        group: { key, eventId: price.eventId, league: price.league, spec, outcomes, prices: [[], []] },
        byBook: [new Map(), new Map()],
      };
      groups.set(key, entry);
    }
    const side = entry.group.outcomes.indexOf(price.outcome) as 0 | 1;
    entry.byBook[side].delete(price.book); // last quote wins, in arrival order
    entry.byBook[side].set(price.book, price);
  }
  const markets: PropMarketGroup[] = [];
  for (const { group, byBook } of groups.values()) {
    markets.push({ ...group, prices: [[...byBook[0].values()], [...byBook[1].values()]] });
  }
  return { markets, rejected, suspended };
}

/** The best pairs of one market (each side from a different book), as the game-line scanner chooses them. */
function pairMarket(
  market: PropMarketGroup,
  options: CombinationOptions = DEFAULT_COMBINATION_OPTIONS,
): PropPair[] {
  const combinations = bestCombinations(market.prices, options);
  return combinations.map((combination) => {
    const picks = [combination.picks[0]!, combination.picks[1]!] as const;
    const decimals = [picks[0].decimal, picks[1].decimal];
    return {
      marketKey: market.key,
      eventId: market.eventId,
      spec: market.spec,
      picks,
      sum: bookSum(decimals),
      edgePct: edgePct(decimals),
    };
  });
}

function pairOrder(a: PropPair, b: PropPair): number {
  if (a.edgePct !== b.edgePct) return b.edgePct - a.edgePct;
  const ka = `${a.marketKey}|${a.picks[0].book}|${a.picks[1].book}`;
  const kb = `${b.marketKey}|${b.picks[0].book}|${b.picks[1].book}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Every pairable market of these prices and its candidate pairs: per market the best combination for each distinct
 * pair of books passing the floor (default −1 %, docs/product.md §10), at most `maxPerMarket`, over the `topPerOutcome` best
 * prices per side. Staleness is the caller's: pass only fresh prices (the scanner's isUsable).
 */
export function pairPropPrices(
  prices: readonly PropPrice[],
  options: CombinationOptions = DEFAULT_COMBINATION_OPTIONS,
): PropPairingResult {
  const grouped = groupPropMarkets(prices);
  const pairs: PropPair[] = [];
  for (const market of grouped.markets) pairs.push(...pairMarket(market, options));
  pairs.sort(pairOrder);
  return { ...grouped, pairs };
}

/** The other side of a prop outcome (over ↔ under, yes ↔ no). */
export function oppositeOutcome(outcome: PropOutcomeKey): PropOutcomeKey {
  switch (outcome) {
    case 'over':
      return 'under';
    case 'under':
      return 'over';
    case 'yes':
      return 'no';
    case 'no':
      return 'yes';
  }
}
