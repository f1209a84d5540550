import {
  DEFAULT_COMBINATION_OPTIONS,
  EDGE_PLACES,
  floorTo,
  PROB_PLACES,
  publishedEdge,
  type CombinationOptions,
} from '#domain/arbitrage.ts';
import { arbKeyOf } from '#domain/arb-feed.ts';
import { specLabel, specOutcomeLabel, specSelectionName } from '#domain/market-labels.ts';
import { feedLeg } from '#domain/feed-leg.ts';
import { arbEventOf, sideId, type BookPrice, type OddsEvent } from '#domain/markets.ts';
import { formatAmerican, roundTo, type AmericanOdds, type DecimalOdds } from '#domain/odds.ts';
import type { Arb, ArbEvent, FeedLeg } from '#domain/schemas/feed.ts';
import { combineBest } from './combinations.ts';
import {
  BOOK_COUNT,
  BOOKS_BY_SLOT,
  bookSlot,
  lastScanAt,
  PRICE_ROW,
  type MarketState,
  type OddsStore,
} from './store.ts';

// Arb detection for one market, and the results of many ranked for the feed. The engine re-scans only markets whose
// prices changed (or whose published arbs reached the age limit of one of their prices): a price update re-evaluates
// only its market. `rescanAll` re-scans every market: the engine benchmark's baseline.

export interface ScanOptions extends CombinationOptions {
  /** A price older than this is stale and never used (docs/product.md §10: 60 s pre-match, 10 s live). */
  maxAgePreMatchMs: number;
  maxAgeLiveMs: number;
  /** An arb whose edge_pct is above this is published with `suspect: true` (ARB_MAX_EDGE_PCT; decision 046). */
  maxEdgePct: number;
}

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  ...DEFAULT_COMBINATION_OPTIONS,
  maxAgePreMatchMs: 60_000,
  maxAgeLiveMs: 10_000,
  maxEdgePct: 10,
};

/**
 * One combination a market's scan holds (issue 37): what the ranking reads (its edge and stable key), the prices it
 * was built from (to reuse it while they do not change), and the feed's `Arb`, built only when the combination is
 * ranked into a published feed (`arbOf`): a scan holds thousands of near-arbs, a feed shows a few hundred.
 */
export interface HeldArb {
  /** edge_pct as published. */
  edge: number;
  /** The stable tie-break of equal edges (`arbOrderKey` of the Arb). */
  key: string;
  /** Copies of the prices' fields, one per outcome (the store updates its prices in place). */
  picks: HeldPrice[];
  market: MarketState;
  event: OddsEvent;
  /** Above the scan's edge limit: published with `suspect: true`. */
  suspect: boolean;
  /** The Arb, once built. */
  arb: Arb | undefined;
}

export interface MarketResult {
  /** The market's combinations, best first. */
  held: HeldArb[];
  event: OddsEvent | null;
  /** The first instant at which one of the used prices turns stale (Infinity when there are none). */
  validUntil: number;
}

const NONE: MarketResult = { held: [], event: null, validUntil: Infinity };

/** The feed's Arb of a held combination, built on first use and kept. */
export function arbOf(held: HeldArb): Arb {
  held.arb ??= buildArb(held.market, held.event, held.picks, held.suspect);
  return held.arb;
}

export function maxAgeFor(event: OddsEvent, options: ScanOptions): number {
  return event.live ? options.maxAgeLiveMs : options.maxAgePreMatchMs;
}

/** A price is usable when it is not suspended and not older than the event's age limit at `now`. */
export function isUsable(price: BookPrice, now: number, maxAgeMs: number): boolean {
  return !price.suspended && now - price.updatedAt <= maxAgeMs;
}

/**
 * The `count` best usable prices among one outcome's book slots (`hot` from `base`: decimals, 0 when suspended or
 * absent; from `base + times`: book times) into `top` from `at` (best first: decimal descending, then book key, which
 * is slot order), by insertion into at most `count` places: no sort, no allocation. Returns how many there are.
 */
function bestSlots(
  hot: Float64Array,
  base: number,
  times: number,
  now: number,
  maxAge: number,
  count: number,
  top: Int32Array,
  at: number,
): number {
  let n = 0;
  for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
    const decimal = hot[base + slot]!;
    if (decimal === 0 || now - hot[base + times + slot]! > maxAge) continue;
    // Slots come in key order: a later one ranks before an earlier one only with a higher decimal.
    let place: number;
    if (n < count) {
      place = n;
      n += 1;
    } else if (decimal > hot[base + top[at + count - 1]!]!) place = count - 1;
    else continue;
    while (place > 0 && decimal > hot[base + top[at + place - 1]!]!) {
      top[at + place] = top[at + place - 1]!;
      place -= 1;
    }
    top[at + place] = slot;
  }
  return n;
}

/** Scratch for `scanMarket`: the best slots of each outcome (`topPerOutcome` places each), reused by every scan. */
let scratchTop = new Int32Array(3 * 8);
const scratchCounts: number[] = [];
const scratchPlaces: number[] = [];

/** The price index (`MarketState.hot`) of outcome `way` in the `index`-th combination `combineBest` found. */
function pickAt(top: Int32Array, count: number, ways: number, index: number, way: number): number {
  return way * BOOK_COUNT + top[way * count + scratchPlaces[index * ways + way]!]!;
}

/** A held combination's price: the fields its Arb is built from and its reuse compares. */
export type HeldPrice = Pick<BookPrice, 'book' | 'outcome' | 'american' | 'decimal' | 'links'>;

/** A copy of the price at `index` (the store takes new versions into its columns, `MarketState.hot`). */
function pickOf(market: MarketState, index: number): HeldPrice {
  const row = market.at + market.columns + index * PRICE_ROW;
  return {
    book: BOOKS_BY_SLOT[index % BOOK_COUNT]!,
    outcome: market.outcomes[(index / BOOK_COUNT) | 0]!,
    american: market.hot[row + 1]! as AmericanOdds,
    decimal: market.hot[row]! as DecimalOdds,
    links: market.links[index]!,
  };
}

/** Whether a held pick is the price at `index` as it is now (same book, odds and links). */
function samePick(pick: HeldPrice, market: MarketState, index: number): boolean {
  const at = market.at + market.columns + index * PRICE_ROW;
  return (
    pick.book === BOOKS_BY_SLOT[index % BOOK_COUNT] &&
    pick.decimal === market.hot[at] &&
    pick.american === market.hot[at + 1] &&
    pick.links === market.links[index]
  );
}

/**
 * Scans one market. `previous` is the market's last result: an arb whose prices did not change (same books, odds and
 * links, same event record) is reused as is, so a re-quote at the same price costs no rebuilding.
 *
 * Exactly the tests' reference `bestCombinations` (tests/support/best-combinations.ts) over each outcome's best
 * `topPerOutcome` usable prices (`combineBest`), not even begun when no combination can pass the floor: the best price
 * of every outcome, whatever its book, already sums to at least the limit (each of the combination's partial sums is
 * at least the same partial sum of best prices: 1/d falls as d rises and floating-point addition is monotonic), which
 * is the case of most markets.
 */
export function scanMarket(
  market: MarketState,
  event: OddsEvent,
  now: number,
  options: ScanOptions,
  previous?: MarketResult,
): MarketResult {
  const maxAge = maxAgeFor(event, options);
  const ways = market.outcomes.length;
  const count = options.topPerOutcome;
  const hot = market.hot;
  const at = market.at;
  const times = ways * BOOK_COUNT;
  const record = at + lastScanAt(ways);
  market.scanned = true;
  const limit = 1 - options.floorPct / 100;
  // First each outcome's best usable price alone: when they cannot pass the floor together (most markets), neither can
  // any combination, and the record says only that. A later price below its outcome's best, from another book, then
  // cannot change that (prices turning stale only lower the bests): it needs no re-scan.
  let bound = 0;
  let empty = false;
  for (let way = 0; way < ways; way += 1) {
    const base = at + way * BOOK_COUNT;
    let best = 0;
    let bestSlot = -1;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      const decimal = hot[base + slot]!;
      if (decimal > best && now - hot[base + times + slot]! <= maxAge) {
        best = decimal;
        bestSlot = slot;
      }
    }
    hot[record + way] = bestSlot < 0 ? 0 : 1 << bestSlot;
    hot[record + ways + way] = best;
    if (bestSlot < 0) empty = true;
    else bound += 1 / best;
  }
  // The outcomes' best prices alone cannot pass the floor: the record's bests are an upper bound of what each outcome
  // offers for as long as no price rises above its outcome's (`MarketState.bounded`).
  market.bounded = !empty && bound >= limit;
  if (empty || ways < 2 || ways > 3 || count <= 0 || bound >= limit) return NONE;
  if (scratchTop.length < ways * count) scratchTop = new Int32Array(ways * count);
  const top = scratchTop;
  for (let way = 0; way < ways; way += 1) {
    const base = at + way * BOOK_COUNT;
    const from = way * count;
    const n = bestSlots(hot, base, times, now, maxAge, count, top, from);
    scratchCounts[way] = n;
    let books = 0;
    for (let i = 0; i < n; i += 1) books |= 1 << top[from + i]!;
    hot[record + way] = books;
    hot[record + ways + way] = n < count ? 0 : hot[base + top[from + n - 1]!]!;
  }
  const found = combineBest(
    hot,
    at,
    BOOK_COUNT,
    ways,
    top,
    count,
    scratchCounts,
    limit,
    options.maxPerMarket,
    scratchPlaces,
  );
  if (found === 0) return NONE;
  // The common case of a market re-scanned with the same arbs (its change was to a price none of them uses, or moved
  // no combination): the previous result, with its expiry brought up to date, instead of a new one that would hold
  // the same combinations.
  if (previous && previous.event === event && previous.held.length === found) {
    let same = true;
    let until = Infinity;
    for (let index = 0; index < found && same; index += 1) {
      const held = previous.held[index]!.picks;
      for (let way = 0; way < ways; way += 1) {
        const y = pickAt(top, count, ways, index, way);
        if (!samePick(held[way]!, market, y)) {
          same = false;
          break;
        }
        until = Math.min(until, hot[at + times + y]! + maxAge + 1);
      }
    }
    if (same) {
      previous.validUntil = until;
      return previous;
    }
  }
  let validUntil = Infinity;
  const held: HeldArb[] = [];
  for (let index = 0; index < found; index += 1) {
    let reused: HeldArb | undefined;
    let inverse = 0;
    for (let way = 0; way < ways; way += 1) {
      const pick = pickAt(top, count, ways, index, way);
      validUntil = Math.min(validUntil, hot[at + times + pick]! + maxAge + 1);
      inverse += 1 / hot[at + pick]!;
    }
    if (previous && previous.event === event) {
      for (const candidate of previous.held) {
        if (samePicksAt(candidate.picks, market, top, count, ways, index)) {
          reused = candidate;
          break;
        }
      }
    }
    if (reused === undefined) {
      const picks: HeldPrice[] = [];
      for (let way = 0; way < ways; way += 1)
        picks.push(pickOf(market, pickAt(top, count, ways, index, way)));
      // publishedEdge's figure, from the same sum in the same order.
      const edge = floorTo((1 / inverse - 1) * 100, EDGE_PLACES) + 0;
      reused = {
        edge,
        key: orderKey(market, event, picks),
        picks,
        market,
        event,
        suspect: edge > options.maxEdgePct,
        arb: undefined,
      };
    }
    held.push(reused);
  }
  return { held, event, validUntil };
}

/** Whether a held combination's prices are those of the `index`-th combination found (same books, odds and links). */
function samePicksAt(
  picks: readonly HeldPrice[],
  market: MarketState,
  top: Int32Array,
  count: number,
  ways: number,
  index: number,
): boolean {
  for (let way = 0; way < ways; way += 1)
    if (!samePick(picks[way]!, market, pickAt(top, count, ways, index, way))) return false;
  return true;
}

/**
 * Re-scans each market into `results` (market key → result, only markets with arbs), reusing each previous result's
 * unchanged arbs. Returns whether the arbs of any market changed.
 */
export function rescanMarkets(
  markets: Iterable<MarketState>,
  now: number,
  options: ScanOptions,
  results: Map<string, MarketResult>,
): boolean {
  let changed = false;
  for (const market of markets) {
    // The event's record, from the state that holds the market (no lookup by id); none once it left the store.
    const owner = market.owner;
    const event = owner.removed ? undefined : owner.event;
    const previous = results.get(market.key);
    const result = event ? scanMarket(market, event, now, options, previous) : undefined;
    if (!result || result.held.length === 0) {
      if (previous) {
        results.delete(market.key);
        changed = true;
      }
    } else {
      results.set(market.key, result);
      if (!previous || !sameItems(previous.held, result.held)) changed = true;
    }
  }
  return changed;
}

/**
 * Re-scans every market of the store into `results`, and drops the results of markets the store no longer holds:
 * the full rescan the engine benchmark compares the engine's incremental scans with (bench/engine.bench.ts; decision
 * 096). Returns whether any market's arbs changed.
 */
export function rescanAll(
  store: OddsStore,
  now: number,
  options: ScanOptions,
  results: Map<string, MarketResult>,
): boolean {
  let changed = false;
  for (const key of results.keys()) {
    if (!store.market(key)) {
      results.delete(key);
      changed = true;
    }
  }
  return rescanMarkets(store.allMarkets(), now, options, results) || changed;
}

/** The arbs of these results, best first (edge descending, then a stable key), at most `limit`. */
export function rankArbs(results: Iterable<MarketResult>, limit = Infinity): Arb[] {
  return rankResults(results, limit).arbs;
}

/** Scratch for `rankResults`: every held combination of the results, gathered again on every ranking. */
const rankScratch: HeldArb[] = [];

/** Whether gathered combination x ranks before gathered y: edge descending, then key, then gathering order. */
function ranksBefore(x: number, y: number): boolean {
  const a = rankScratch[x]!;
  const b = rankScratch[y]!;
  if (a.edge !== b.edge) return a.edge > b.edge;
  if (a.key !== b.key) return a.key < b.key;
  return x < y;
}

function byRank(x: number, y: number): number {
  return ranksBefore(x, y) ? -1 : ranksBefore(y, x) ? 1 : 0;
}

/** Restores the heap below `from` (the worst of the kept arbs at the root). */
function siftDown(heap: number[], from: number): void {
  let at = from;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= heap.length) return;
    const right = left + 1;
    const worse = right < heap.length && ranksBefore(heap[left]!, heap[right]!) ? right : left;
    if (!ranksBefore(heap[at]!, heap[worse]!)) return;
    const swap = heap[at]!;
    heap[at] = heap[worse]!;
    heap[worse] = swap;
    at = worse;
  }
}

/**
 * `rankArbs` with each arb's key (`keys[i]` is that of `arbs[i]`). The order is a total one: edge descending, then
 * key, then the order the results hold them (what a stable sort by the first two gives). When `limit` keeps fewer
 * than all, the best `limit` are chosen with a bounded heap before only they are sorted. `floor` changes nothing of
 * the answer, only how much is gathered (see below); with one, `results` may be read twice (not a one-shot iterator).
 */
export function rankResults(
  results: Iterable<MarketResult>,
  limit = Infinity,
  floor = Number.NEGATIVE_INFINITY,
): { arbs: Arb[]; keys: string[] } {
  const gathered = rankScratch;
  gathered.length = 0;
  // With a floor (the caller's guess of the `limit`-th edge, such as the last ranking's), only the arbs at or above it
  // are gathered first: when there are at least `limit` of them, the best `limit` are among them, in the same order
  // (every arb left out has a lower edge than all of them, and the gathered keep their order). Else all are gathered.
  if (floor > Number.NEGATIVE_INFINITY && limit < Infinity) {
    for (const result of results) {
      for (const held of result.held) if (held.edge >= floor) gathered.push(held);
    }
    if (gathered.length < limit) gathered.length = 0;
  }
  if (gathered.length === 0)
    for (const result of results) {
      for (const held of result.held) gathered.push(held);
    }
  const n = gathered.length;
  const count = Math.min(limit, n);
  let order: number[];
  if (count < n) {
    // A heap of the best `count` so far, the worst of them at the root.
    const heap: number[] = [];
    for (let index = 0; index < n; index += 1) {
      if (heap.length < count) {
        heap.push(index);
        let at = heap.length - 1;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!ranksBefore(heap[parent]!, heap[at]!)) break;
          const swap = heap[parent]!;
          heap[parent] = heap[at]!;
          heap[at] = swap;
          at = parent;
        }
      } else if (count > 0 && ranksBefore(index, heap[0]!)) {
        heap[0] = index;
        siftDown(heap, 0);
      }
    }
    order = heap;
  } else {
    order = new Array<number>(n);
    for (let index = 0; index < n; index += 1) order[index] = index;
  }
  order.sort(byRank);
  // Only the ranked combinations become Arbs (each built once, while its market's result holds it).
  const ranked = { arbs: new Array<Arb>(count), keys: new Array<string>(count) };
  for (let i = 0; i < count; i += 1) {
    const held = gathered[order[i]!]!;
    ranked.arbs[i] = arbOf(held);
    ranked.keys[i] = held.key;
  }
  gathered.length = 0;
  return ranked;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

interface FeedCache {
  event: OddsEvent;
  arbEvent: ArbEvent;
  label: string;
  sides: Map<string, { id: string; name: string; selection: { name: string }; leg: FeedLeg | undefined }>;
  /** Order keys by the combination's book slots, one per outcome (`slot₀ + 32·slot₁ + 1024·slot₂`). */
  keys: Map<number, string>;
}

/** The parts of a market's Arbs that depend only on the event and market, cached until the event record changes. */
function feedCacheOf(market: MarketState, event: OddsEvent): FeedCache {
  let cache = market.feedCache as FeedCache | undefined;
  if (!cache || cache.event !== event) {
    cache = {
      event,
      arbEvent: arbEventOf(event),
      label: specLabel(market.spec, market.player),
      sides: new Map(),
      keys: new Map(),
    };
    market.feedCache = cache;
  }
  return cache;
}

/** A side's id, name and selection (cached per outcome and book). */
function sideOf(cache: FeedCache, market: MarketState, event: OddsEvent, price: HeldPrice) {
  const key = `${price.outcome}|${price.book}`;
  let fixed = cache.sides.get(key);
  if (!fixed) {
    fixed = {
      id: sideId(event.id, market.spec, price.outcome, price.book),
      name: specOutcomeLabel(event, market.spec, price.outcome, market.player),
      selection: { name: specSelectionName(event, market.spec, price.outcome, market.player) },
      leg: feedLeg(market.spec, price.outcome, market.player),
    };
    cache.sides.set(key, fixed);
  }
  return fixed;
}

/**
 * The order key (`arbOrderKey`) of the Arb these prices (one per outcome, in outcome order) would make, without
 * building it: cached per combination of books.
 */
function orderKey(market: MarketState, event: OddsEvent, picks: readonly HeldPrice[]): string {
  const cache = feedCacheOf(market, event);
  let code = 0;
  for (let way = picks.length - 1; way >= 0; way -= 1) code = code * 32 + bookSlot(picks[way]!.book);
  let key = cache.keys.get(code);
  if (key === undefined) {
    const sides = picks.map((price) => sideOf(cache, market, event, price).id);
    key = `${event.id}|${cache.label}|${arbKeyOf(event.id, sides)}`;
    cache.keys.set(code, key);
  }
  return key;
}

/**
 * The feed's Arb (docs/product.md §3), with the parts that depend only on the event and market (event block, market
 * label, side ids and names) cached on the market until the event record changes; the engine's tests compare it with
 * the uncached `toArb` of tests/support/arb-feed.ts. An edge above the scan's `maxEdgePct` is more likely a bad price
 * than money: the arb is flagged `suspect` (decision 046).
 */
export function buildArb(
  market: MarketState,
  event: OddsEvent,
  prices: readonly HeldPrice[],
  suspect: boolean,
): Arb {
  const cache = feedCacheOf(market, event);
  const sides = prices.map((price) => {
    const fixed = sideOf(cache, market, event, price);
    return {
      id: fixed.id,
      sportsbook: price.book,
      name: fixed.name,
      price: formatAmerican(price.american),
      selection: fixed.selection,
      decimal_odds: price.decimal,
      implied_prob: roundTo(1 / price.decimal, PROB_PLACES),
      links: { desktop: price.links.desktop, mobile: price.links.mobile },
      ...(fixed.leg ? { leg: fixed.leg } : {}),
    };
  });
  const arb: Arb = {
    event: cache.arbEvent,
    market: cache.label,
    market_type: market.spec.type,
    sides,
    edge_pct: publishedEdge(prices.map((price) => price.decimal)),
  };
  if (suspect) arb.suspect = true;
  return arb;
}
