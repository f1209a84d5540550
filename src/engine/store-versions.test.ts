import { describe, expect, it } from 'vitest';
import { OddsEngine } from './engine.ts';
import { BOOK_COUNT, bookSlot, priceAt, type StoredPrice } from './store.ts';

// The store's price versions for delayed readers (decision 121): a re-confirmation (same odds, suspension, links)
// moves the newest version's times and keeps the earlier receipts as pairs, instead of a whole new version; readers
// at an earlier instant see exactly what was known then.

const T0 = Date.UTC(2026, 10, 24, 12);

function setup(historyMs = 130_000) {
  let now = T0;
  const engine = new OddsEngine({ source: 'replay', now: () => now, historyMs });
  engine.markReady();
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e',
    league: 'nba',
    home: { name: 'Boston Celtics' },
    away: { name: 'New York Knicks' },
    startsAt: T0 + 3_600_000,
  });
  const key = () => engine.store.markets(engine.store.events()[0]!.id)[0]!.key;
  const quote = (american: number, extra: Record<string, unknown> = {}) =>
    engine.ingest({
      kind: 'price',
      sourceEventId: 'e',
      book: 'fanduel',
      market: 'moneyline',
      outcome: 'home',
      american,
      ...extra,
    });
  const newest = (): StoredPrice => priceAt(engine.store.market(key())!, BOOK_COUNT + bookSlot('fanduel'))!;
  const chain = () => engine.store.versionChain(newest());
  return {
    engine,
    key,
    quote,
    newest,
    chain,
    at: (ms: number) => {
      now = T0 + ms;
    },
  };
}

describe('price versions with re-confirmations', () => {
  it('a re-confirmation moves the newest times and keeps the earlier receipts, without a new version', () => {
    const s = setup();
    s.quote(-110);
    s.at(5_000);
    s.quote(-110);
    s.at(9_000);
    s.quote(-110, { updatedAt: T0 + 8_000 });
    // One version, three receipts: the newest object took the last one's times, the earlier two are ring entries.
    expect(s.chain().map((v) => [v.american, v.receivedAt - T0, v.updatedAt - T0])).toEqual([
      [-110, 9_000, 8_000],
      [-110, 5_000, 5_000],
      [-110, 0, 0],
    ]);
    // Readers at earlier instants see the receipt they would have seen.
    const seen = (ms: number) =>
      s.engine.store.prices(s.key(), T0 + ms).map((p) => [p.receivedAt - T0, p.updatedAt - T0]);
    expect(seen(-1)).toEqual([]);
    expect(seen(0)).toEqual([[0, 0]]);
    expect(seen(4_999)).toEqual([[0, 0]]);
    expect(seen(5_000)).toEqual([[5_000, 5_000]]);
    expect(seen(8_999)).toEqual([[5_000, 5_000]]);
    expect(seen(9_000)).toEqual([[9_000, 8_000]]);
    expect(s.engine.store.prices(s.key())[0]).toMatchObject({
      receivedAt: T0 + 9_000,
      updatedAt: T0 + 8_000,
    });
  });

  it('a change of odds, suspension or links is a new version; readers before it see the old run as it was', () => {
    const s = setup();
    s.quote(-110);
    s.at(2_000);
    s.quote(-110);
    s.at(4_000);
    s.quote(-120);
    s.at(6_000);
    s.quote(-120, { suspended: true });
    expect(s.chain().map((v) => [v.american, v.suspended])).toEqual([
      [-120, true],
      [-120, false],
      [-110, false],
      [-110, false],
    ]);
    const seen = (ms: number) =>
      s.engine.store.prices(s.key(), T0 + ms).map((p) => [p.american, p.suspended, p.receivedAt - T0]);
    expect(seen(3_000)).toEqual([[-110, false, 2_000]]);
    expect(seen(5_000)).toEqual([[-120, false, 4_000]]);
    expect(seen(7_000)).toEqual([[-120, true, 6_000]]);
  });

  it('the API rule (updatedBy): a receipt whose book time is after the instant is not yet visible', () => {
    const s = setup();
    s.quote(-110, { updatedAt: T0 });
    s.at(3_000);
    s.quote(-110, { updatedAt: T0 + 3_000 });
    const newest = s.newest();
    expect(s.engine.store.versionAt(newest, T0 + 2_000, true)).toMatchObject({
      receivedAt: T0,
      updatedAt: T0,
    });
    expect(s.engine.store.versionAt(newest, T0 + 3_000, true)).toBe(newest);
    expect(s.engine.store.versionAt(newest, T0 - 1, true)).toBeNull();
  });

  it('keeps receipts only for the window: the ring stays the size of the window, readers inside it see every receipt', () => {
    const s = setup(10_000);
    for (let ms = 0; ms <= 600_000; ms += 1_000) {
      s.at(ms);
      s.quote(-110);
    }
    // One receipt a second for 10 minutes, a 10 s window: the receipts superseded inside it (10), not 600.
    expect(s.engine.store.versionCount).toBe(10);
    // A reader at the window start (590 s) sees the receipt of 590 s; the ones in between are there too.
    expect(s.engine.store.prices(s.key(), T0 + 590_500)[0]!.receivedAt).toBe(T0 + 590_000);
    expect(s.engine.store.prices(s.key(), T0 + 595_000)[0]!.receivedAt).toBe(T0 + 595_000);
    s.at(601_000);
    s.quote(-125);
    s.at(615_000);
    s.quote(-130);
    // At 615 s the window starts at 605 s: the −125 version, received at 601 s, is what a reader then sees.
    const seen = (ms: number) => s.engine.store.prices(s.key(), T0 + ms).map((p) => p.american);
    expect(seen(605_000)).toEqual([-125]);
    expect(seen(614_999)).toEqual([-125]);
    expect(seen(615_000)).toEqual([-130]);
  });

  it('listeners hear a re-confirmation as a change from the version as it was', () => {
    const s = setup();
    const heard: [number, number | null][] = [];
    s.engine.store.subscribe((change) =>
      heard.push([change.price.receivedAt - T0, change.previous ? change.previous.receivedAt - T0 : null]),
    );
    s.quote(-110);
    s.at(1_000);
    s.quote(-110);
    expect(heard).toEqual([
      [0, null],
      [1_000, 0],
    ]);
  });

  it('listeners get each version as a BookPrice of its own: its fields as the store holds them, no history', () => {
    const s = setup();
    const heard: { price: object; previous: object | null }[] = [];
    s.engine.store.subscribe((change) => heard.push({ price: change.price, previous: change.previous }));
    s.quote(-110);
    const first = { ...s.newest() };
    s.at(1_000);
    s.quote(-120, { suspended: true });
    const second = { ...s.newest() };
    s.at(2_000);
    s.quote(-120, { suspended: true });
    const third = { ...s.newest() };
    const withoutHistory = ({ history: _history, ...rest }: StoredPrice) => rest;
    // The same keys in the same order (what JSON of a change would show), and nothing else.
    const keys = ['book', 'outcome', 'american', 'decimal', 'links', 'updatedAt', 'receivedAt', 'suspended'];
    for (const { price, previous } of heard) {
      expect(Object.keys(price)).toEqual(keys);
      if (previous) expect(Object.keys(previous)).toEqual(keys);
    }
    expect(heard[0]).toEqual({ price: withoutHistory(first), previous: null });
    expect(heard[1]).toEqual({ price: withoutHistory(second), previous: withoutHistory(first) });
    expect(heard[1]!.price).toMatchObject({ american: -120, suspended: true, receivedAt: T0 + 1_000 });
    // A re-confirmation: the version as it was, then with this receipt's time; never the same object.
    expect(heard[2]!.previous).toEqual(withoutHistory(second));
    expect(heard[2]!.price).toEqual(withoutHistory(third));
    expect(heard[2]!.price).toMatchObject({ american: -120, suspended: true, receivedAt: T0 + 2_000 });
    expect(heard[2]!.price).not.toBe(heard[2]!.previous);
  });
});
