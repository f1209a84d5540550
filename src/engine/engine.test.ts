import { describe, expect, it } from 'vitest';
import { toArb } from '#tests/support/arb-feed.ts';
import { ArbFeedSchema, type Arb } from '#domain/schemas/feed.ts';
import { OddsEngine } from './engine.ts';
import { pricesOf } from './store.ts';
import type { PriceMessage } from './messages.ts';

// The engine end to end on a virtual clock: messages in, feed snapshot out.

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);

function setup(options: { floorPct?: number } = {}) {
  let now = T0;
  const engine = new OddsEngine({
    source: 'replay',
    now: () => now,
    scan: options.floorPct === undefined ? {} : { floorPct: options.floorPct },
  });
  engine.markReady();
  return {
    engine,
    advance(ms: number) {
      now += ms;
    },
    get now() {
      return now;
    },
    feed() {
      engine.tick();
      return ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
    },
  };
}

function fixture(n: number, league = 'nba', extra: Record<string, unknown> = {}) {
  return {
    kind: 'event',
    sourceEventId: `c${n}`,
    league,
    home: { name: `Home ${n}`, abbreviation: `H${n}` },
    away: { name: `Away ${n}`, abbreviation: `A${n}` },
    startsAt: T0 + 3_600_000,
    ...extra,
  };
}

function price(
  n: number,
  book: string,
  market: string,
  outcome: string,
  american: number | undefined,
  extra: Partial<PriceMessage> = {},
): PriceMessage {
  return { kind: 'price', sourceEventId: `c${n}`, book, market, outcome, american, ...extra };
}

/** Independent of the domain code: American → decimal → edge, computed here from first principles. */
function independentEdge(americans: number[]): number {
  const decimals = americans.map((a) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a));
  const sum = decimals.reduce((s, d) => s + 1 / d, 0);
  return (1 / sum - 1) * 100;
}

interface TableCase {
  name: string;
  league?: string;
  live?: boolean;
  prices: (n: number, now: number) => PriceMessage[];
  /** Expected best entry: the books (sorted), the American prices that make it, and its edge to two decimals. */
  best: { books: string[]; americans: number[]; edge: number } | null;
  /** How many entries the market publishes (distinct sets of books above the floor). */
  entries?: number;
}

const TABLE: TableCase[] = [
  {
    name: 'moneyline arb across two books',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -130),
    ],
    best: { books: ['draftkings', 'fanduel'], americans: [150, -130], edge: 3.6 },
  },
  {
    name: 'moneyline at exactly S = 1 (a zero-edge near-arb)',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 100),
      price(n, 'betmgm', 'moneyline', 'home', 100),
    ],
    best: { books: ['betmgm', 'fanduel'], americans: [100, 100], edge: 0 },
  },
  {
    name: 'moneyline +105 / −105 (decimal floored: never shown above zero)',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 105),
      price(n, 'betmgm', 'moneyline', 'home', -105),
    ],
    best: { books: ['betmgm', 'fanduel'], americans: [105, -105], edge: 0 },
  },
  {
    name: 'moneyline −110 / −110 (S ≥ 1.01: nothing)',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', -110),
      price(n, 'betmgm', 'moneyline', 'home', -110),
    ],
    best: null,
  },
  {
    name: 'near-arb just inside the −1 % floor',
    prices: (n) => [price(n, 'circa', 'moneyline', 'away', 100), price(n, 'espn', 'moneyline', 'home', -104)],
    best: { books: ['circa', 'espn'], americans: [100, -104], edge: -0.97 },
  },
  {
    name: 'near-arb just outside the floor (S = 1.0122): nothing',
    prices: (n) => [price(n, 'circa', 'moneyline', 'away', 100), price(n, 'espn', 'moneyline', 'home', -105)],
    best: null,
  },
  {
    name: 'spread with exactly opposite points',
    prices: (n) => [
      price(n, 'caesars', 'spread', 'home', 105, { point: -3.5 }),
      price(n, 'betmgm', 'spread', 'away', 105, { point: 3.5 }),
    ],
    best: { books: ['betmgm', 'caesars'], americans: [105, 105], edge: 2.5 },
  },
  {
    name: 'spread −3.5 against +4.5 (a middle, never paired)',
    prices: (n) => [
      price(n, 'caesars', 'spread', 'home', 120, { point: -3.5 }),
      price(n, 'betmgm', 'spread', 'away', 120, { point: 4.5 }),
    ],
    best: null,
  },
  {
    name: "spread pick'em (0 / 0)",
    prices: (n) => [
      price(n, 'fanatics', 'spread', 'home', 100, { point: 0 }),
      price(n, 'hardrock', 'spread', 'away', 105, { point: 0 }),
    ],
    best: { books: ['fanatics', 'hardrock'], americans: [100, 105], edge: 1.23 },
  },
  {
    name: 'total with the same point',
    prices: (n) => [
      price(n, 'fanduel', 'total', 'over', 110, { point: 221.5 }),
      price(n, 'circa', 'total', 'under', -105, { point: 221.5 }),
    ],
    best: { books: ['circa', 'fanduel'], americans: [110, -105], edge: 1.18 },
  },
  {
    name: 'total over 221.5 against under 222.5 (never paired)',
    prices: (n) => [
      price(n, 'fanduel', 'total', 'over', 150, { point: 221.5 }),
      price(n, 'circa', 'total', 'under', 150, { point: 222.5 }),
    ],
    best: null,
  },
  {
    name: 'first-half total',
    prices: (n) => [
      price(n, 'betrivers', 'total', 'over', 105, { point: 110.5, period: 'h1' }),
      price(n, 'ballybet', 'total', 'under', 100, { point: 110.5, period: 'h1' }),
    ],
    best: { books: ['ballybet', 'betrivers'], americans: [105, 100], edge: 1.23 },
  },
  {
    name: 'full-game moneyline against first-half moneyline (periods never mixed)',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -130, { period: 'h1' }),
    ],
    best: null,
  },
  {
    name: '1X2 with all three outcomes',
    league: 'epl',
    prices: (n) => [
      price(n, 'betmgm', '1x2', 'home', 160),
      price(n, 'bodog', '1x2', 'draw', 260),
      price(n, 'fanduel', '1x2', 'away', 280),
    ],
    best: { books: ['betmgm', 'bodog', 'fanduel'], americans: [160, 260, 280], edge: 8.04 },
  },
  {
    name: '1X2 near-arb',
    league: 'mls',
    prices: (n) => [
      price(n, 'circa', '1x2', 'home', 170),
      price(n, 'betonline', '1x2', 'draw', 240),
      price(n, 'fliff', '1x2', 'away', 200),
    ],
    best: { books: ['betonline', 'circa', 'fliff'], americans: [170, 240, 200], edge: 0.22 },
  },
  {
    name: '1X2 without a draw price (does not cover every result)',
    league: 'epl',
    prices: (n) => [price(n, 'betmgm', '1x2', 'home', 300), price(n, 'fanduel', '1x2', 'away', 300)],
    best: null,
  },
  {
    name: 'two-way moneyline in soccer (draws possible: refused as a market)',
    league: 'epl',
    prices: (n) => [
      price(n, 'betmgm', 'moneyline', 'home', 300),
      price(n, 'fanduel', 'moneyline', 'away', 300),
    ],
    best: null,
  },
  {
    name: 'the best price suspended: the next best is used',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -110, { suspended: true }),
      price(n, 'betmgm', 'moneyline', 'home', -130),
    ],
    best: { books: ['betmgm', 'fanduel'], americans: [150, -130], edge: 3.6 },
  },
  {
    name: 'the best price 61 s old pre-match (stale): the next best is used',
    prices: (n, now) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -110, { updatedAt: now - 61_000 }),
      price(n, 'caesars', 'moneyline', 'home', -130),
    ],
    best: { books: ['caesars', 'fanduel'], americans: [150, -130], edge: 3.6 },
  },
  {
    name: 'live: a price 11 s old is stale',
    live: true,
    prices: (n, now) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -110, { updatedAt: now - 11_000 }),
      price(n, 'betmgm', 'moneyline', 'home', -130, { updatedAt: now - 9_000 }),
    ],
    best: { books: ['betmgm', 'fanduel'], americans: [150, -130], edge: 3.6 },
  },
  {
    name: 'one book best on both sides: never paired with itself',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'fanduel', 'moneyline', 'home', -105),
      price(n, 'betmgm', 'moneyline', 'home', -130),
      price(n, 'draftkings', 'moneyline', 'away', 140),
    ],
    best: { books: ['draftkings', 'fanduel'], americans: [140, -105], edge: 7.66 },
    entries: 3,
  },
  {
    name: 'tie: two books at the same best price give two entries with equal edges',
    prices: (n) => [
      price(n, 'fanduel', 'moneyline', 'away', 150),
      price(n, 'betmgm', 'moneyline', 'away', 150),
      price(n, 'draftkings', 'moneyline', 'home', -130),
    ],
    best: { books: ['betmgm', 'draftkings'], americans: [150, -130], edge: 3.6 },
    entries: 2,
  },
  {
    name: 'long shot against a heavy favourite',
    prices: (n) => [
      price(n, 'fliff', 'moneyline', 'away', 900),
      price(n, 'circa', 'moneyline', 'home', -800),
    ],
    best: { books: ['circa', 'fliff'], americans: [900, -800], edge: 1.12 },
  },
  {
    name: 'decimal-quoted prices',
    prices: (n) => [
      price(n, 'betonline', 'moneyline', 'away', undefined, { decimal: 2.1 }),
      price(n, 'bodog', 'moneyline', 'home', undefined, { decimal: 2.1 }),
    ],
    best: { books: ['betonline', 'bodog'], americans: [110, 110], edge: 5 },
  },
];

describe('hand-checked table of markets', () => {
  const env = setup();
  TABLE.forEach((testCase, index) => {
    env.engine.ingest(fixture(index, testCase.league, { live: testCase.live === true }));
    for (const message of testCase.prices(index, env.now)) env.engine.ingest(message);
  });
  const feed = env.feed();

  TABLE.forEach((testCase, index) => {
    it(`${testCase.name}`, () => {
      const arbs = feed.arbs.filter((arb) => arb.event.teams.home.name === `Home ${index}`);
      if (!testCase.best) {
        expect(arbs).toEqual([]);
        return;
      }
      expect(arbs.length).toBe(testCase.entries ?? 1);
      const best = arbs.find(
        (arb) =>
          arb.sides
            .map((side) => side.sportsbook)
            .sort()
            .join() === testCase.best!.books.join(),
      )!;
      expect(best).toBeDefined();
      expect(best.edge_pct).toBe(arbs[0]!.edge_pct);
      const independent = independentEdge(testCase.best.americans);
      expect(independent).toBeCloseTo(testCase.best.edge, 2);
      expect(Math.abs(best.edge_pct - testCase.best.edge)).toBeLessThan(0.01);
      expect(best.edge_pct).toBeLessThanOrEqual(independent + 1e-9);
      if (testCase.name.startsWith('tie')) expect(arbs[1]!.edge_pct).toBe(arbs[0]!.edge_pct);
    });
  });
});

describe('OddsEngine', () => {
  const moneyline = (n: number, away: number, home: number) => [
    price(n, 'fanduel', 'moneyline', 'away', away),
    price(n, 'draftkings', 'moneyline', 'home', home),
  ];

  it('re-scans only the market of a price update', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2));
    for (const message of [...moneyline(1, 150, -130), ...moneyline(2, 150, -130)])
      env.engine.ingest(message);
    env.engine.ingest(price(1, 'fanduel', 'total', 'over', 100, { point: 200.5 }));
    env.feed();
    const before = env.engine.stats().scans;
    env.engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 155));
    env.engine.ingest(price(2, 'betmgm', 'moneyline', 'away', 120));
    env.feed();
    expect(env.engine.stats().scans - before).toBe(1);
  });

  it('does not re-scan a market that cannot pass the floor until a price rises above its outcome best', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    // Best away 2.0 (FanDuel), best home 1.8 (DraftKings): 1/2 + 1/1.8 > 1, no combination can pass the floor.
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 100));
    env.engine.ingest(price(1, 'draftkings', 'moneyline', 'home', -125));
    env.engine.ingest(price(1, 'betmgm', 'moneyline', 'away', -110));
    expect(env.feed().arbs).toHaveLength(0);
    const scans = () => env.engine.stats().scans;
    const before = scans();
    // The best away price falls, the best home price is suspended then back at its old odds, another book stays below:
    // the bests can only have fallen, so no scan.
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', -105));
    env.engine.ingest(price(1, 'draftkings', 'moneyline', 'home', -125, { suspended: true }));
    env.engine.ingest(price(1, 'draftkings', 'moneyline', 'home', -125));
    env.engine.ingest(price(1, 'betmgm', 'moneyline', 'away', 100));
    expect(env.feed().arbs).toHaveLength(0);
    expect(scans() - before).toBe(0);
    // A price above its outcome's recorded best (home 2.5 > 1.8) is re-scanned, and makes the arb with away 2.0.
    env.engine.ingest(price(1, 'caesars', 'moneyline', 'home', 150));
    const arbs = env.feed().arbs;
    expect(scans() - before).toBe(1);
    expect(arbs.map((arb) => arb.sides.map((side) => [side.sportsbook, side.price]))).toEqual([
      [
        ['betmgm', '+100'],
        ['caesars', '+150'],
      ],
      [
        ['fanduel', '-105'],
        ['caesars', '+150'],
      ],
    ]);
  });

  it('drops an arb once one of its prices passes the age limit, without any update', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    expect(env.feed().arbs).toHaveLength(1);
    env.advance(60_000);
    expect(env.feed().arbs).toHaveLength(1);
    env.advance(1_000);
    expect(env.feed().arbs).toHaveLength(0);
  });

  it('uses the live age limit once the event goes live', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    expect(env.feed().arbs[0]!.event.live).toBe(false);
    env.advance(11_000);
    env.engine.ingest(fixture(1, 'nba', { live: true }));
    expect(env.feed().arbs).toHaveLength(0);
  });

  it('treats prices from the future beyond the clock skew as stale, never fresh', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    expect(
      env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 150, { updatedAt: env.now + 60_000 })),
    ).toBe(false);
    expect(env.engine.stats().drops.future_timestamp).toBe(1);
    expect(
      env.engine.ingest(price(1, 'draftkings', 'moneyline', 'home', -130, { updatedAt: env.now + 2_000 })),
    ).toBe(true);
    expect(env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 150))).toBe(true);
    // Within the skew the price counts as received now, not later: it still expires 60 s from now.
    env.advance(60_001);
    expect(env.feed().arbs).toHaveLength(0);
  });

  it('removes an ended event from the feed', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    expect(env.feed().arbs).toHaveLength(1);
    env.engine.ingest({ kind: 'end', sourceEventId: 'c1' });
    expect(env.feed().arbs).toHaveLength(0);
    expect(env.engine.store.eventCount).toBe(0);
  });

  it('merges one fixture sent under two source ids, but keeps a doubleheader apart', () => {
    const env = setup();
    const teams = {
      home: { name: 'New York Yankees', abbreviation: 'NYY' },
      away: { name: 'Boston Red Sox', abbreviation: 'BOS' },
    };
    env.engine.ingest({
      kind: 'event',
      sourceEventId: 'a-1',
      league: 'mlb',
      ...teams,
      startsAt: T0 + 3_600_000,
    });
    env.engine.ingest({
      kind: 'event',
      sourceEventId: 'b-9',
      league: 'mlb',
      ...teams,
      startsAt: T0 + 3_600_000 + 5 * 60_000,
    });
    env.engine.ingest({
      kind: 'event',
      sourceEventId: 'a-2',
      league: 'mlb',
      ...teams,
      startsAt: T0 + 3_600_000 + 4 * 3_600_000,
    });
    expect(env.engine.store.eventCount).toBe(2);
    env.engine.ingest({
      kind: 'price',
      sourceEventId: 'a-1',
      book: 'fanduel',
      market: 'moneyline',
      outcome: 'away',
      american: 150,
    });
    env.engine.ingest({
      kind: 'price',
      sourceEventId: 'b-9',
      book: 'betmgm',
      market: 'moneyline',
      outcome: 'home',
      american: -130,
    });
    env.engine.ingest({
      kind: 'price',
      sourceEventId: 'a-2',
      book: 'caesars',
      market: 'moneyline',
      outcome: 'home',
      american: -130,
    });
    const arbs = env.feed().arbs;
    expect(arbs).toHaveLength(1);
    expect(arbs[0]!.sides.map((side) => side.sportsbook).sort()).toEqual(['betmgm', 'fanduel']);
    expect(arbs[0]!.event.id).toBe('mlb-bos-nyy-202611220100');
  });

  it('keeps side ids stable across snapshots and price changes', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    const first = env.feed().arbs[0]!;
    env.advance(1_000);
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 160));
    const second = env.feed().arbs[0]!;
    expect(second.edge_pct).toBeGreaterThan(first.edge_pct);
    expect(second.sides.map((side) => side.id)).toEqual(first.sides.map((side) => side.id));
  });

  it('publishes only when the arbs change, and serves delayed readers from history', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    const first = env.engine.tick()!;
    env.advance(5_000);
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 150));
    expect(env.engine.tick()).toBeUndefined();
    env.advance(5_000);
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 170));
    const second = env.engine.tick()!;
    expect(second.body.equals(first.body)).toBe(false);
    expect(env.engine.snapshotAt(T0 + 9_000)).toMatchObject({ at: first.at, arbs: first.arbs });
    expect(env.engine.snapshotAt(T0 + 10_000)).toBe(second);
    expect(env.engine.snapshotAt(T0 - 1)).toBeUndefined();
    const key = env.engine.store.markets(env.engine.store.events()[0]!.id)[0]!.key;
    expect(env.engine.store.prices(key, T0 + 9_000).find((p) => p.book === 'fanduel')!.american).toBe(150);
    expect(env.engine.store.prices(key).find((p) => p.book === 'fanduel')!.american).toBe(170);
  });

  it('carries the arbs its body was serialised from, with their keys; an unchanged arb is the same object next time', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2));
    for (const message of [...moneyline(1, 150, -130), ...moneyline(2, 140, -130)])
      env.engine.ingest(message);
    const first = env.engine.tick()!;
    expect(JSON.parse(first.body.toString()).arbs).toEqual(JSON.parse(JSON.stringify(first.arbs)));
    env.advance(1_000);
    env.engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 160));
    const second = env.engine.tick()!;
    for (const snapshot of [first, second]) {
      expect(snapshot.arbs).toHaveLength(2);
      snapshot.arbs.forEach((arb, i) =>
        expect(snapshot.keys[i]).toBe(
          `${arb.event.id}|${arb.market}|${arb.event.id}:${arb.sides
            .map((side) => side.id)
            .sort()
            .join(',')}`,
        ),
      );
    }
    const arbOf = (snapshot: typeof first, home: string) =>
      snapshot.arbs.find((arb) => arb.event.teams.home.name === home)!;
    expect(arbOf(second, 'Home 1')).toBe(arbOf(first, 'Home 1'));
    expect(arbOf(second, 'Home 2')).not.toBe(arbOf(first, 'Home 2'));
    expect(arbOf(second, 'Home 2').sides[0]!.price).toBe('+160');
  });

  it("builds a snapshot's body and public body when first read, the same bytes as at once; at once while wanted", () => {
    // Issue 59: no feed bytes for nobody. Each snapshot's body and what `encode` makes of its public (capped) body are
    // built on first read, from the arbs' JSON as its tick left it, even after later ticks took other arbs.
    let now = T0;
    let wanted = false;
    const encoded: Buffer[] = [];
    const engine = new OddsEngine<Buffer>({
      source: 'replay',
      now: () => now,
      publicEdgeCapPct: 4,
      encode: (body) => {
        encoded.push(body);
        return body;
      },
      bodyWanted: () => wanted,
    });
    engine.markReady();
    engine.ingest(fixture(1));
    engine.ingest(fixture(2));
    for (const message of [...moneyline(1, 150, -130), ...moneyline(2, 170, -130)]) engine.ingest(message);
    const first = engine.tick()!;
    now += 1_000;
    engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 160));
    const second = engine.tick()!;
    expect(encoded).toHaveLength(0);
    const expected = (snapshot: typeof first, cap: number) => ({
      generated_at: Math.floor(snapshot.at / 1000),
      source: 'replay',
      arbs: JSON.parse(JSON.stringify(snapshot.arbs.filter((arb) => arb.edge_pct <= cap))),
    });
    // The first snapshot read after the second was made: its own arbs (one above the cap, one below).
    expect(first.arbs.some((arb) => arb.edge_pct > 4)).toBe(true);
    expect(JSON.parse(first.body.toString())).toEqual(expected(first, Infinity));
    expect(JSON.parse(first.encoded.toString())).toMatchObject(expected(first, 4));
    expect(first.encoded).toBe(first.encoded);
    expect(first.body).toBe(first.body);
    expect(encoded).toHaveLength(1);
    expect(JSON.parse(second.encoded.toString())).toMatchObject(expected(second, 4));
    expect(JSON.parse(second.body.toString())).toEqual(expected(second, Infinity));
    expect(second.body.equals(first.body)).toBe(false);
    expect(encoded).toHaveLength(2);
    // While wanted: encoded as it is published.
    wanted = true;
    now += 1_000;
    engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 175));
    const third = engine.tick()!;
    expect(encoded).toHaveLength(3);
    expect(third.encoded).toBe(encoded[2]);
    expect(JSON.parse(third.body.toString())).toEqual(expected(third, Infinity));
  });

  it('builds each arb exactly as the uncached toArb does (its cached fragments change nothing)', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(price(1, 'fanduel', 'spread', 'away', 150, { point: 2.5, period: 'h1' }));
    env.engine.ingest(price(1, 'betmgm', 'spread', 'home', -130, { point: -2.5, period: 'h1' }));
    const arb = env.feed().arbs[0]!;
    const event = env.engine.store.events()[0]!;
    const market = env.engine.store.markets(event.id)[0]!;
    const prices = market.outcomes.map((_, index) => pricesOf(market, index)[0]!);
    expect(arb).toEqual({ ...toArb(event, market.spec, prices), found_at: T0 / 1000 });
    expect(arb.market).toBe('1st Half Spread +2.5 / -2.5');
  });

  it('tells price subscribers about every accepted price', () => {
    const env = setup();
    const seen: string[] = [];
    env.engine.store.subscribe((change) => seen.push(`${change.price.book}:${change.price.american}`));
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    env.engine.ingest(price(1, 'nosuchbook', 'moneyline', 'away', 150));
    expect(seen).toEqual(['fanduel:150', 'draftkings:-130']);
  });

  it('flags an arb above the edge ceiling as suspect, and leaves the others unflagged', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2));
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', undefined, { decimal: 1000 }));
    env.engine.ingest(price(1, 'caesars', 'moneyline', 'home', -110));
    for (const message of moneyline(2, 150, -130)) env.engine.ingest(message);
    const arbs = env.feed().arbs;
    expect(arbs.map((arb) => [arb.edge_pct, arb.suspect])).toEqual([
      [90.536, true],
      [3.602, undefined],
    ]);
    expect(Object.keys(arbs[1]!)).not.toContain('suspect');
  });

  it('takes the edge ceiling and the odds range from its options', () => {
    let now = T0;
    const engine = new OddsEngine({
      source: 'replay',
      now: () => now,
      scan: { maxEdgePct: 95 },
      limits: { maxDecimal: 500 },
    });
    engine.markReady();
    engine.ingest(fixture(1));
    expect(engine.ingest(price(1, 'fanduel', 'moneyline', 'away', undefined, { decimal: 1000 }))).toBe(false);
    expect(engine.stats().drops.odds_out_of_range).toBe(1);
    engine.ingest(price(1, 'fanduel', 'moneyline', 'away', undefined, { decimal: 400 }));
    engine.ingest(price(1, 'caesars', 'moneyline', 'home', -110));
    now += 1;
    engine.tick();
    const feed = ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
    expect(feed.arbs.map((arb) => [arb.edge_pct, arb.suspect])).toEqual([[89.993, undefined]]);
    expect(() => new OddsEngine({ source: 'replay', limits: { maxDecimal: 1e7 } })).toThrow(RangeError);
  });

  it('caps the feed at maxArbs, best first', () => {
    let now = T0;
    const engine = new OddsEngine({ source: 'replay', now: () => now, maxArbs: 3 });
    engine.markReady();
    for (let n = 0; n < 6; n += 1) {
      engine.ingest(fixture(n));
      engine.ingest(price(n, 'fanduel', 'moneyline', 'away', 150 + n * 10));
      engine.ingest(price(n, 'draftkings', 'moneyline', 'home', -130));
    }
    now += 1;
    engine.tick();
    const feed = JSON.parse(engine.latest!.body.toString()) as { arbs: Arb[] };
    expect(feed.arbs.map((arb) => arb.event.teams.home.name)).toEqual(['Home 5', 'Home 4', 'Home 3']);
  });
});

describe("found_at and the event's sport and league (issue 14, decision 116)", () => {
  const moneyline = (n: number, away: number, home: number) => [
    price(n, 'fanduel', 'moneyline', 'away', away),
    price(n, 'draftkings', 'moneyline', 'home', home),
  ];
  const seconds = (ms: number) => Math.floor(ms / 1000);

  it('keeps found_at across snapshots and edge changes, and resets it once the arb disappears', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    const first = env.feed().arbs;
    expect(first.map((arb) => arb.found_at)).toEqual([seconds(T0)]);

    env.advance(5_500); // another arb appears: a new snapshot, the first arb unchanged
    for (const message of moneyline(2, 140, -130)) env.engine.ingest(message);
    const second = env.feed().arbs;
    expect(second.map((arb) => [arb.event.teams.home.name, arb.found_at])).toEqual([
      ['Home 1', seconds(T0)],
      ['Home 2', seconds(T0 + 5_500)],
    ]);

    env.advance(5_000); // the edge changes, up then down: still the same opportunity
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 170));
    const up = env.feed().arbs.find((arb) => arb.event.teams.home.name === 'Home 1')!;
    expect(up.edge_pct).toBeGreaterThan(first[0]!.edge_pct);
    expect(up.found_at).toBe(seconds(T0));
    env.advance(5_000);
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 135));
    const down = env.feed().arbs.find((arb) => arb.event.teams.home.name === 'Home 1')!;
    expect(down.edge_pct).toBeGreaterThan(0);
    expect(down.edge_pct).toBeLessThan(first[0]!.edge_pct);
    expect(down.found_at).toBe(seconds(T0));

    env.advance(5_000); // gone (the price no longer makes even a near-arb)…
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 100));
    expect(env.feed().arbs.map((arb) => arb.event.teams.home.name)).toEqual(['Home 2']);
    env.advance(5_000); // …and back: a new opportunity
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 150));
    const back = env.feed().arbs.find((arb) => arb.event.teams.home.name === 'Home 1')!;
    expect(back.found_at).toBe(seconds(T0 + 25_500));
    expect(env.feed().arbs.find((arb) => arb.event.teams.home.name === 'Home 2')!.found_at).toBe(
      seconds(T0 + 5_500),
    );
  });

  it('resets found_at when the arb goes stale and comes back', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    expect(env.feed().arbs[0]!.found_at).toBe(seconds(T0));
    env.advance(61_000);
    expect(env.feed().arbs).toHaveLength(0);
    env.advance(2_000);
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    expect(env.feed().arbs[0]!.found_at).toBe(seconds(T0 + 63_000));
  });

  it('gives near-arbs no found_at, and sets it when the edge turns positive', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    for (const message of moneyline(1, 130, -130)) env.engine.ingest(message); // 2.30 / 1.7692: edge just below 0
    const near = env.feed().arbs[0]!;
    expect(near.edge_pct).toBeLessThanOrEqual(0);
    expect(near).not.toHaveProperty('found_at');
    env.advance(3_000);
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 140));
    expect(env.feed().arbs[0]!.found_at).toBe(seconds(T0 + 3_000));
    env.advance(3_000); // back to a near-arb: no longer an opportunity…
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 130));
    expect(env.feed().arbs[0]).not.toHaveProperty('found_at');
    env.advance(3_000); // …so a positive edge again starts a new one
    env.engine.ingest(price(1, 'fanduel', 'moneyline', 'away', 140));
    expect(env.feed().arbs[0]!.found_at).toBe(seconds(T0 + 9_000));
  });

  it('resets found_at for an arb pushed out of the capped feed', () => {
    let now = T0;
    const engine = new OddsEngine({ source: 'replay', now: () => now, maxArbs: 1 });
    engine.markReady();
    const feed = () => {
      engine.tick();
      return (JSON.parse(engine.latest!.body.toString()) as { arbs: Arb[] }).arbs;
    };
    engine.ingest(fixture(1));
    for (const message of moneyline(1, 150, -130)) engine.ingest(message);
    expect(feed().map((arb) => arb.found_at)).toEqual([seconds(T0)]);
    now += 2_000;
    engine.ingest(fixture(2));
    for (const message of moneyline(2, 170, -130)) engine.ingest(message);
    expect(feed().map((arb) => [arb.event.teams.home.name, arb.found_at])).toEqual([
      ['Home 2', seconds(T0 + 2_000)],
    ]);
    now += 2_000;
    engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 100));
    expect(feed().map((arb) => [arb.event.teams.home.name, arb.found_at])).toEqual([
      ['Home 1', seconds(T0 + 4_000)],
    ]);
  });

  it('publishes an unchanged arb as the same object, found_at included', () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2));
    for (const message of [...moneyline(1, 150, -130), ...moneyline(2, 140, -130)])
      env.engine.ingest(message);
    const first = env.engine.tick()!;
    env.advance(1_000);
    env.engine.ingest(price(2, 'fanduel', 'moneyline', 'away', 160));
    const second = env.engine.tick()!;
    const arbOf = (snapshot: typeof first, home: string) =>
      snapshot.arbs.find((arb) => arb.event.teams.home.name === home)!;
    expect(arbOf(second, 'Home 1')).toBe(arbOf(first, 'Home 1'));
    expect(arbOf(second, 'Home 1').found_at).toBe(seconds(T0));
    expect(arbOf(second, 'Home 2').found_at).toBe(seconds(T0));
    expect(JSON.parse(second.body.toString()).arbs).toEqual(JSON.parse(JSON.stringify(second.arbs)));
  });

  it("names the event's sport and league as /v1/leagues does", () => {
    const env = setup();
    env.engine.ingest(fixture(1));
    env.engine.ingest(fixture(2, 'epl'));
    for (const message of moneyline(1, 150, -130)) env.engine.ingest(message);
    env.engine.ingest(price(2, 'fanduel', '1x2', 'home', 260));
    env.engine.ingest(price(2, 'draftkings', '1x2', 'draw', 400));
    env.engine.ingest(price(2, 'betmgm', '1x2', 'away', 380));
    const events = env
      .feed()
      .arbs.map((arb) => [arb.event.teams.home.name, arb.event.sport, arb.event.league]);
    expect(events).toContainEqual(['Home 1', 'basketball', 'nba']);
    expect(events).toContainEqual(['Home 2', 'soccer', 'epl']);
  });
});

describe('retire: a new ingest leader starts the market over (issue 19, decision 146)', () => {
  it('keeps the retired market for readers before its end, for as long as the versions window lasts', () => {
    const t = setup();
    const { engine } = t;
    engine.ingest(fixture(1));
    engine.ingest(price(1, 'fanduel', 'moneyline', 'home', -110));
    t.advance(1_000);
    const until = t.now;
    engine.retire(until);
    expect(engine.store.eventCount).toBe(0);
    engine.ingest(fixture(2));
    engine.ingest(price(2, 'draftkings', 'moneyline', 'away', 120));
    const names = (at: number | undefined) =>
      engine
        .storeAt(at)
        .events()
        .map((event) => event.home.name);
    expect(names(until - 500)).toEqual(['Home 1']);
    expect(names(until)).toEqual(['Home 2']);
    expect(names(undefined)).toEqual(['Home 2']);
    const [market] = engine.storeAt(until - 500).allMarkets();
    expect(
      engine
        .storeAt(until - 500)
        .prices(market!.key, until - 500)
        .map((p) => p.american),
    ).toEqual([-110]);
    // Past the window (180 s by default) no reader can be that far behind: the retired market is let go.
    t.advance(181_000);
    expect(names(until - 500)).toEqual(['Home 2']);
  });
});
