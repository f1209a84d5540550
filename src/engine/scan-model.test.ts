import { describe, expect, it } from 'vitest';
import type { BookPrice, MarketSpec, OddsEvent } from '#domain/markets.ts';
import { americanToDecimal, type AmericanOdds, type DecimalOdds } from '#domain/odds.ts';
import { seededRandom } from '#domain/random.ts';
import { SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { canonicalDecimal } from '#domain/arbitrage.ts';
import { arbOrderKey } from '#domain/arb-feed.ts';
import { toArb } from '#tests/support/arb-feed.ts';
import { bestCombinations } from '#tests/support/best-combinations.ts';
import { arbOf, DEFAULT_SCAN_OPTIONS, isUsable, maxAgeFor, scanMarket, type ScanOptions } from './scanner.ts';
import { BOOK_COUNT, bookSlot, lastScanAt, OddsStore, priceAt, pricesOf, type MarketState } from './store.ts';

// The scanner's shortcuts (decisions 131, 132) against the scan they replace, from scratch: each outcome's usable
// prices sorted (decimal descending, then book) and cut to the best few, `bestCombinations` (tests/support) over them,
// one arb per combination. Random markets with many ties, suspended and stale prices, prices updated in place many
// times over, and random options: the scanner must find the same arbs, from the same prices, and record the same
// best books and worst best decimal per outcome (what the engine's intake test reads).

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);
const EVENT: OddsEvent = {
  id: 'nba-bos-lal-202611220000',
  league: 'nba',
  home: { id: 'lal', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
  away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
  startsAt: T0 + 3_600_000,
  live: false,
} as OddsEvent;
const EPL: OddsEvent = { ...EVENT, id: 'epl-che-ars-202611220000', league: 'epl' } as OddsEvent;

/** The scan as it was: sort every outcome's usable prices, keep the best, and search their combinations with strings. */
function referenceScan(market: MarketState, event: OddsEvent, now: number, options: ScanOptions) {
  const maxAge = maxAgeFor(event, options);
  const byOutcome: BookPrice[][] = market.outcomes.map((_, outcome) =>
    [...pricesOf(market, outcome)]
      .filter((price) => isUsable(price, now, maxAge))
      .sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0))
      .slice(0, options.topPerOutcome),
  );
  // The record: when the best prices alone cannot pass the floor (or an outcome has none), each outcome's best book
  // and decimal; else the books among each outcome's best few, and the worst of them (0 when fewer were usable).
  const bound = byOutcome.reduce((sum, usable) => sum + 1 / (usable[0]?.decimal ?? 1), 0);
  const bestOnly = byOutcome.some((usable) => usable.length === 0) || bound >= 1 - options.floorPct / 100;
  const books = byOutcome.map((usable) =>
    (bestOnly ? usable.slice(0, 1) : usable).reduce((bits, price) => bits | (1 << bookSlot(price.book)), 0),
  );
  const kth = byOutcome.map((usable) =>
    bestOnly
      ? (usable[0]?.decimal ?? 0)
      : usable.length < options.topPerOutcome
        ? 0
        : usable[usable.length - 1]!.decimal,
  );
  const combinations = byOutcome.some((usable) => usable.length === 0)
    ? []
    : bestCombinations(byOutcome, options);
  return {
    books,
    kth,
    arbs: combinations.map((combination) => {
      const arb = toArb(event, market.spec, combination.picks, market.player);
      if (arb.edge_pct > options.maxEdgePct) arb.suspect = true;
      return arb;
    }),
    picks: combinations.map((combination) =>
      combination.picks.map((price) => [price.book, price.decimal, price.american, price.links]),
    ),
  };
}

describe('scanMarket', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'finds exactly what sorting every outcome and bestCombinations find (seed %i)',
    (seed) => {
      const random = seededRandom(seed);
      const store = new OddsStore(60_000);
      const specs: [OddsEvent, MarketSpec][] = [
        [EVENT, { type: 'moneyline', period: 'full', point: null }],
        [EVENT, { type: 'total', period: 'full', point: 210.5 }],
        [EPL, { type: '1x2', period: 'full', point: null }],
      ];
      const markets = specs.map(([event, spec], index) => {
        const state = store.eventState(event.id) ?? store.upsertEvent(event);
        return { event, market: store.marketFor(state, index, spec)! };
      });
      // Few distinct odds, so that ties (equal decimals, equal sums) are common.
      const odds = [-130, -120, -115, -110, -105, 100, 105, 110, 120, 150, 200, 250, 300];
      let now = T0;
      let withArbs = 0;
      for (let step = 0; step < 4_000; step += 1) {
        now += Math.floor(random() * 3_000);
        const { event, market } = markets[Math.floor(random() * markets.length)]!;
        // A handful of prices change, in place when the book already quotes the outcome.
        for (let change = 0; change < 1 + Math.floor(random() * 6); change += 1) {
          const outcomeIndex = Math.floor(random() * market.outcomes.length);
          const book = SPORTSBOOK_KEYS[Math.floor(random() * SPORTSBOOK_KEYS.length)]!;
          const american = odds[Math.floor(random() * odds.length)]! as AmericanOdds;
          const decimal = canonicalDecimal(americanToDecimal(american)) as DecimalOdds;
          const suspended = random() < 0.1;
          const updatedAt = now - Math.floor(random() * 80_000);
          const links = { desktop: null, mobile: null };
          const index = outcomeIndex * BOOK_COUNT + bookSlot(book);
          const version = { american, decimal, updatedAt, suspended };
          if (priceAt(market, index)) store.update(market, index, version, links, now);
          else store.put(market, index, outcomeIndex, book, version, links, now);
        }
        const options: ScanOptions = {
          ...DEFAULT_SCAN_OPTIONS,
          topPerOutcome: 1 + Math.floor(random() * 6),
          maxPerMarket: 1 + Math.floor(random() * 4),
          floorPct: [-1, -1, -3, -8, 0, 1][Math.floor(random() * 6)]!,
        };
        const expected = referenceScan(market, event, now, options);
        const result = scanMarket(market, event, now, options);
        // What the ranking reads without building the Arb (its edge and key), then the Arb built on demand.
        expect(result.held.map((held) => [held.edge, held.key])).toEqual(
          expected.arbs.map((arb) => [arb.edge_pct, arbOrderKey(arb)]),
        );
        expect(result.held.map(arbOf)).toEqual(expected.arbs);
        expect(
          result.held.map((held) => held.picks.map((p) => [p.book, p.decimal, p.american, p.links])),
        ).toEqual(expected.picks);
        const record = market.at + lastScanAt(market.outcomes.length);
        const ways = market.outcomes.length;
        expect(market.scanned).toBe(true);
        expect({
          books: [...market.hot.subarray(record, record + ways)],
          kth: [...market.hot.subarray(record + ways, record + 2 * ways)],
        }).toEqual({ books: expected.books, kth: expected.kth });
        if (result.held.length > 0) withArbs += 1;
      }
      // The random markets do hold combinations that pass the floor, not only the shortcut's empty answer.
      expect(withArbs).toBeGreaterThan(200);
    },
  );
});
