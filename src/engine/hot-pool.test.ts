import { describe, expect, it } from 'vitest';
import { OddsEngine } from './engine.ts';
import { BOOK_COUNT, bookSlot, hotBlockSize, PRICE_ROW, priceAt, type MarketState } from './store.ts';

// The markets' hot blocks live in a few large arrays of the store's pool (issue 37): a market's block is its own for
// as long as it is in the store, a removed market keeps a copy of what it last had, and its place is zeroed for the
// next market.

const T0 = Date.UTC(2026, 10, 24, 12);

function setup() {
  let now = T0;
  const engine = new OddsEngine({ source: 'replay', now: () => now });
  engine.markReady();
  const event = (id: string) =>
    engine.ingest({
      kind: 'event',
      sourceEventId: id,
      league: 'nba',
      home: { name: `Home ${id}` },
      away: { name: `Away ${id}` },
      startsAt: T0 + 3_600_000,
    });
  const price = (id: string, book: string, outcome: 'home' | 'away', american: number) =>
    engine.ingest({ kind: 'price', sourceEventId: id, book, market: 'moneyline', outcome, american });
  const market = (): MarketState => {
    const events = engine.store.events();
    return engine.store.markets(events.at(-1)!.id)[0]!;
  };
  return { engine, event, price, market, advance: (ms: number) => (now += ms) };
}

/** The decimal a market's hot block holds for an outcome (0: away, 1: home) and book. */
function hotDecimal(market: MarketState, outcome: number, book: string): number {
  return market.hot[market.at + outcome * BOOK_COUNT + bookSlot(book)]!;
}

describe('the hot block pool', () => {
  it('gives a removed market a copy of its block, and its place, zeroed, to the next market', () => {
    const s = setup();
    s.event('a');
    expect(s.price('a', 'fanduel', 'home', -110)).toBe(true);
    const first = s.market();
    const { hot, at } = first;
    expect(hotDecimal(first, 1, 'fanduel')).toBe(1.909);
    expect(s.engine.ingest({ kind: 'end', sourceEventId: 'a' })).toBe(true);
    // The removed market reads its own copy.
    expect(first.hot).not.toBe(hot);
    expect(hotDecimal(first, 1, 'fanduel')).toBe(1.909);
    s.event('b');
    expect(s.price('b', 'draftkings', 'away', 150)).toBe(true);
    const second = s.market();
    // The new market took the freed place: nothing of the first market's prices is left in it.
    expect(second.hot).toBe(hot);
    expect(second.at).toBe(at);
    expect(hotDecimal(second, 1, 'fanduel')).toBe(0);
    expect(hotDecimal(second, 0, 'draftkings')).toBe(2.5);
    // Every number of the block that is not zero is that one price's: in the scanner's columns, and its row.
    const index = bookSlot('draftkings');
    const cells = second.cells;
    const own = [index, cells + index, ...[0, 1, 2, 3, 4].map((k) => second.columns + index * PRICE_ROW + k)];
    const set = [...second.hot.subarray(at, at + hotBlockSize(2))].flatMap((value, i) =>
      value !== 0 ? [i] : [],
    );
    expect(set).toEqual(own);
    // The copy is not the new market's block.
    expect(hotDecimal(first, 0, 'draftkings')).toBe(0);
    expect(hotDecimal(first, 1, 'fanduel')).toBe(1.909);
    // And the new market scans alone: one book on one side is no arb.
    s.advance(1_000);
    expect(s.engine.tick()?.arbs ?? []).toHaveLength(0);
  });

  it('keeps every market its own block across more than one of the pool arrays', () => {
    const s = setup();
    const markets: MarketState[] = [];
    // 1,100 two-way markets need more than one array (306 blocks of 214 numbers each).
    for (let index = 0; index < 1_100; index += 1) {
      const id = `e${index}`;
      s.event(id);
      expect(s.price(id, 'fanduel', 'home', 100 + index)).toBe(true);
      expect(s.price(id, 'betmgm', 'away', -(100 + index))).toBe(true);
      markets.push(s.market());
    }
    expect(new Set(markets.map((market) => market.hot)).size).toBeGreaterThan(1);
    for (const [index, market] of markets.entries()) {
      const price = priceAt(market, BOOK_COUNT + bookSlot('fanduel'))!;
      expect(hotDecimal(market, 1, 'fanduel')).toBe(price.decimal);
      expect(hotDecimal(market, 0, 'betmgm')).toBe(priceAt(market, bookSlot('betmgm'))!.decimal);
      expect(price.american).toBe(100 + index);
    }
    // No two blocks of one array overlap.
    const byArray = new Map<Float64Array, number[]>();
    for (const market of markets) byArray.set(market.hot, [...(byArray.get(market.hot) ?? []), market.at]);
    for (const starts of byArray.values()) {
      starts.sort((x, y) => x - y);
      for (let i = 1; i < starts.length; i += 1)
        expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(hotBlockSize(2));
    }
  });
});
