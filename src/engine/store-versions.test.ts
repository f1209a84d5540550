import { describe, expect, it } from 'vitest';
import { OddsEngine } from './engine.ts';
import { versionAt, type StoredPrice } from './store.ts';

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
  const newest = (): StoredPrice => engine.store.market(key())!.prices[1]!.get('fanduel')!;
  const chain = () => {
    const versions: StoredPrice[] = [];
    for (let version: StoredPrice | null = newest(); version; version = version.previous)
      versions.push(version);
    return versions;
  };
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
    expect(s.chain()).toHaveLength(1);
    expect(s.newest()).toMatchObject({ american: -110, receivedAt: T0 + 9_000, updatedAt: T0 + 8_000 });
    expect(s.newest().confirmations).toEqual([T0, T0, T0 + 5_000, T0 + 5_000]);
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
    expect(versionAt(newest, T0 + 2_000, true)).toMatchObject({ receivedAt: T0, updatedAt: T0 });
    expect(versionAt(newest, T0 + 3_000, true)).toBe(newest);
    expect(versionAt(newest, T0 - 1, true)).toBeNull();
  });

  it('keeps receipts only for the window: older pairs and versions are dropped, but the last one before it', () => {
    const s = setup(10_000);
    for (let ms = 0; ms <= 60_000; ms += 1_000) {
      s.at(ms);
      s.quote(-110);
    }
    const pairs = s.newest().confirmations!;
    // Receipts at 50 s (the last at or before the window start, 60 − 10 s) and after it: 10 pairs.
    expect(pairs.length / 2).toBe(10);
    expect(pairs[0]).toBe(T0 + 50_000);
    expect(s.engine.store.prices(s.key(), T0 + 50_500)[0]!.receivedAt).toBe(T0 + 50_000);
    s.at(61_000);
    s.quote(-125);
    s.at(75_000);
    s.quote(-130);
    // At 75 s the window starts at 65 s: the −125 version, first received at 61 s, is what a reader then sees, so
    // nothing older is kept.
    expect(s.chain().map((v) => v.american)).toEqual([-130, -125]);
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
});
