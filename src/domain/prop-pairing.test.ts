import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passesFloor } from '#tests/support/best-combinations.ts';
import {
  oppositeOutcome,
  pairPropPrices,
  propPriceProblem,
  type PropPrice,
} from '#tests/support/prop-pairing.ts';
import { bookSum, canonicalDecimal, DEFAULT_COMBINATION_OPTIONS, edgePct } from './arbitrage.ts';
import { marketKey, type LeagueKey, type Period } from './markets.ts';
import { PROP_CATALOGUE, propOutcomes, propStat, type PropOutcomeKey, type PropStatKey } from './props.ts';

const price = (overrides: Partial<PropPrice>): PropPrice => ({
  eventId: 'e1',
  league: 'nba',
  book: 'fanduel',
  playerId: 'lebron',
  stat: 'player_points',
  period: 'full',
  point: 27.5,
  outcome: 'over',
  decimal: 2.1,
  ...overrides,
});

describe('pairPropPrices: what may be paired', () => {
  it('pairs the best over and the best under of one player, stat, period and line from two books', () => {
    const result = pairPropPrices([
      price({ book: 'fanduel', outcome: 'over', decimal: 2.1 }),
      price({ book: 'betmgm', outcome: 'over', decimal: 2.0 }),
      price({ book: 'draftkings', outcome: 'under', decimal: 2.05 }),
      price({ book: 'caesars', outcome: 'under', decimal: 1.9 }),
    ]);
    expect(result.markets).toHaveLength(1);
    const best = result.pairs[0]!;
    expect(best.picks.map((p) => `${p.book}:${p.outcome}`)).toEqual(['fanduel:over', 'draftkings:under']);
    expect(best.edgePct).toBe(edgePct([2.1, 2.05]));
    expect(best.edgePct).toBeGreaterThan(0);
    expect(best.marketKey).toBe('e1|prop|player_points|full|lebron|27.5');
  });

  it.each<[string, Partial<PropPrice>]>([
    ['a gap between lines is a middle, not an arb', { point: 28.5 }],
    ['two players', { playerId: 'davis' }],
    ['two stats', { stat: 'player_rebounds' }],
    ['two periods', { period: 'q1', point: 27.5 }],
    ['two events', { eventId: 'e2' }],
  ])('never pairs across %s', (_label, under) => {
    const result = pairPropPrices([
      price({ book: 'fanduel', outcome: 'over', decimal: 3 }),
      price({ book: 'draftkings', outcome: 'under', decimal: 3, ...under }),
    ]);
    expect(result.markets).toHaveLength(2);
    expect(result.pairs).toEqual([]);
  });

  it('yes/no only for the same player and proposition', () => {
    const td = { league: 'nfl', stat: 'player_anytime_td', point: null } as const;
    const same = pairPropPrices([
      price({ ...td, playerId: 'kelce', book: 'fanduel', outcome: 'yes', decimal: 2.2 }),
      price({ ...td, playerId: 'kelce', book: 'draftkings', outcome: 'no', decimal: 2.0 }),
    ]);
    expect(same.pairs).toHaveLength(1);
    expect(same.pairs[0]!.picks.map((p) => p.outcome)).toEqual(['yes', 'no']);
    const otherPlayer = pairPropPrices([
      price({ ...td, playerId: 'kelce', book: 'fanduel', outcome: 'yes', decimal: 3 }),
      price({ ...td, playerId: 'mahomes', book: 'draftkings', outcome: 'no', decimal: 3 }),
    ]);
    expect(otherPlayer.pairs).toEqual([]);
    const otherProposition = pairPropPrices([
      price({ league: 'nhl', stat: 'player_goal_scorer_anytime', point: null, outcome: 'yes', decimal: 3 }),
      price({
        league: 'nba',
        stat: 'player_double_double',
        point: null,
        outcome: 'no',
        book: 'betmgm',
        decimal: 3,
      }),
    ]);
    expect(otherProposition.pairs).toEqual([]);
  });

  it('never pairs one book with itself, nor a suspended price', () => {
    expect(
      pairPropPrices([price({ outcome: 'over', decimal: 3 }), price({ outcome: 'under', decimal: 3 })]).pairs,
    ).toEqual([]);
    const result = pairPropPrices([
      price({ outcome: 'over', decimal: 3 }),
      price({ book: 'betmgm', outcome: 'under', decimal: 3, suspended: true }),
    ]);
    expect(result.pairs).toEqual([]);
    expect(result.suspended).toBe(1);
  });

  it('a book quoting one side twice keeps its last quote', () => {
    const result = pairPropPrices([
      price({ outcome: 'over', decimal: 3 }),
      price({ outcome: 'over', decimal: 1.5 }),
      price({ book: 'betmgm', outcome: 'under', decimal: 2.2 }),
    ]);
    expect(result.markets[0]!.prices[0].map((p) => p.decimal)).toEqual([1.5]);
    expect(result.pairs).toEqual([]); // 1/1.5 + 1/2.2 > 1.01
  });

  it.each<[string, Partial<PropPrice>, string]>([
    ['a stat the league does not offer', { league: 'mlb' }, 'stat_not_in_league'],
    ['a whole line', { point: 27 }, 'point_not_half_line'],
    ['an over/under without a line', { point: null }, 'point_required'],
    ['a yes on an over/under prop', { outcome: 'yes' }, 'outcome_not_in_market'],
    ['an over on a yes/no prop', { stat: 'player_double_double', point: null }, 'outcome_not_in_market'],
    [
      'a yes/no with a line',
      { stat: 'player_double_double', point: 0.5, outcome: 'yes' },
      'point_not_allowed',
    ],
    ['odds of 1', { decimal: 1 }, 'invalid_decimal'],
    ['odds NaN', { decimal: Number.NaN }, 'invalid_decimal'],
    ['a period the prop lacks', { period: 'h1' }, 'period_not_offered'],
  ])('rejects %s', (_label, overrides, reason) => {
    const bad = price(overrides);
    expect(propPriceProblem(bad)).toBe(reason);
    const result = pairPropPrices([bad, price({ book: 'betmgm', outcome: 'under', decimal: 5 })]);
    expect(result.rejected).toEqual([{ price: bad, reason }]);
    expect(result.pairs).toEqual([]);
  });

  it('orders pairs best edge first and keeps at most maxPerMarket per market', () => {
    const books = ['fanduel', 'betmgm', 'draftkings', 'caesars', 'espn'];
    const prices = books.flatMap((book, index) => [
      price({ book, outcome: 'over', decimal: 2.2 - index * 0.02 }),
      price({ book, outcome: 'under', decimal: 2.2 - index * 0.02 }),
    ]);
    const result = pairPropPrices(prices);
    expect(result.pairs).toHaveLength(DEFAULT_COMBINATION_OPTIONS.maxPerMarket);
    for (let i = 1; i < result.pairs.length; i += 1) {
      expect(result.pairs[i - 1]!.edgePct).toBeGreaterThanOrEqual(result.pairs[i]!.edgePct);
    }
    const sets = result.pairs.map((p) =>
      p.picks
        .map((pick) => pick.book)
        .sort()
        .join('+'),
    );
    expect(new Set(sets).size).toBe(sets.length);
  });
});

// Random prop books: a few events, players, stats (in and out of the league), periods, lines (alternates and
// invalid ones), both outcome families, books, prices around evens so arbs are common, some suspended.
const LEAGUES_USED: LeagueKey[] = ['nba', 'nfl', 'nhl', 'mlb', 'epl'];
const ALL_STATS = [
  ...new Set(LEAGUES_USED.flatMap((league) => PROP_CATALOGUE[league].map((def) => def.key))),
];
const priceArb: fc.Arbitrary<PropPrice> = fc
  .record({
    event: fc.integer({ min: 0, max: 2 }),
    book: fc.constantFrom('fanduel', 'betmgm', 'draftkings', 'caesars', 'espn', 'fliff', 'circa', 'bodog'),
    playerId: fc.constantFrom('p1', 'p2', 'p3'),
    stat: fc.constantFrom<PropStatKey>(...ALL_STATS),
    period: fc.constantFrom<Period>('full', 'full', 'full', 'q1', 'h1'),
    point: fc.constantFrom<number | null>(0.5, 1.5, 27.5, 28.5, 274.5, 27, null),
    outcome: fc.constantFrom<PropOutcomeKey>('over', 'under', 'yes', 'no'),
    decimal: fc.double({ min: 1.4, max: 3.2, noNaN: true }).map((d) => canonicalDecimal(d)),
    suspended: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
  })
  .map((r) => ({
    eventId: `e${r.event}`,
    league: LEAGUES_USED[r.event]!,
    book: r.book,
    playerId: r.playerId,
    stat: r.stat,
    period: r.period,
    point: r.point,
    outcome: r.outcome,
    decimal: r.decimal,
    suspended: r.suspended,
  }));

/** A whole random book, biased so a good share of prices fall in the same few valid markets. */
const booksArb = fc
  .tuple(
    fc.array(priceArb, { maxLength: 60 }),
    fc.array(
      fc.record({
        book: fc.constantFrom('fanduel', 'betmgm', 'draftkings', 'caesars', 'espn'),
        playerId: fc.constantFrom('p1', 'p2'),
        stat: fc.constantFrom<PropStatKey>('player_points', 'player_rebounds', 'player_double_double'),
        period: fc.constantFrom<Period>('full', 'q1'),
        point: fc.constantFrom(27.5, 28.5),
        outcome: fc.constantFrom<PropOutcomeKey>('over', 'under', 'yes', 'no'),
        decimal: fc.double({ min: 1.6, max: 2.6, noNaN: true }).map((d) => canonicalDecimal(d)),
      }),
      { minLength: 20, maxLength: 60 },
    ),
  )
  .map(([random, dense]) => [
    ...random,
    ...dense.map((d): PropPrice => ({
      eventId: 'e0',
      league: 'nba',
      ...d,
      point: propStat('nba', d.stat)!.kind === 'yes_no' ? null : d.point,
    })),
  ]);

const keyOf = (p: PropPrice) =>
  marketKey(p.eventId, {
    type: 'prop',
    stat: p.stat,
    period: p.period,
    playerId: p.playerId,
    point: p.point,
  });

describe('pairPropPrices: properties over random prop books', () => {
  it('no pair ever mixes events, players, stats, lines, periods or propositions, or uses a bad price', () => {
    let seen = 0;
    fc.assert(
      fc.property(booksArb, (prices) => {
        const result = pairPropPrices(prices);
        seen += result.pairs.length;
        for (const pair of result.pairs) {
          const [a, b] = pair.picks;
          expect(a.eventId).toBe(b.eventId);
          expect(a.playerId).toBe(b.playerId);
          expect(a.stat).toBe(b.stat);
          expect(a.period).toBe(b.period);
          expect(a.point).toBe(b.point);
          expect(a.book).not.toBe(b.book);
          expect(b.outcome).toBe(oppositeOutcome(a.outcome));
          expect([a.outcome, b.outcome]).toEqual(propOutcomes(propStat(a.league, a.stat)!.kind));
          expect(keyOf(a)).toBe(pair.marketKey);
          expect(keyOf(b)).toBe(pair.marketKey);
          for (const pick of pair.picks) {
            expect(pick.suspended ?? false).toBe(false);
            expect(propPriceProblem(pick)).toBeNull();
          }
        }
      }),
      { numRuns: 300 },
    );
    // The books do produce pairs (about one per run; 295–400 seen in 300 runs): the property is not vacuous. The
    // bound is far below that so that no seed fails it.
    expect(seen).toBeGreaterThan(100);
  });

  it("every pair's edge is edgePct of its two decimals, and its sum their book sum", () => {
    fc.assert(
      fc.property(booksArb, (prices) => {
        for (const pair of pairPropPrices(prices).pairs) {
          const decimals = pair.picks.map((p) => p.decimal);
          expect(pair.edgePct).toBe(edgePct(decimals));
          expect(pair.sum).toBe(bookSum(decimals));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a brute force over all price pairs finds no valid pair better than the best one returned per market', () => {
    fc.assert(
      fc.property(booksArb, (prices) => {
        const result = pairPropPrices(prices);
        // The effective prices: valid, not suspended, the last quote of each book per side of each market.
        const last = new Map<string, PropPrice>();
        for (const p of prices) {
          if (propPriceProblem(p) !== null || p.suspended) continue;
          last.set(`${keyOf(p)}#${p.outcome}#${p.book}`, p);
        }
        const effective = [...last.values()];
        const bestByMarket = new Map<string, number>();
        for (const a of effective) {
          for (const b of effective) {
            if (keyOf(a) !== keyOf(b) || a.book === b.book) continue;
            const [first] = propOutcomes(propStat(a.league, a.stat)!.kind);
            if (a.outcome !== first || b.outcome !== oppositeOutcome(first)) continue;
            const sum = bookSum([a.decimal, b.decimal]);
            const key = keyOf(a);
            if (sum < (bestByMarket.get(key) ?? Infinity)) bestByMarket.set(key, sum);
          }
        }
        const returnedBest = new Map<string, number>();
        for (const pair of result.pairs) {
          if (!returnedBest.has(pair.marketKey)) returnedBest.set(pair.marketKey, pair.sum);
          expect(pair.sum).toBeGreaterThanOrEqual(returnedBest.get(pair.marketKey)!);
        }
        for (const [key, sum] of bestByMarket) {
          if (passesFloor(sum, DEFAULT_COMBINATION_OPTIONS.floorPct)) {
            expect(returnedBest.get(key)).toBeCloseTo(sum, 12);
          } else {
            expect(returnedBest.has(key)).toBe(false);
          }
        }
        for (const key of returnedBest.keys()) expect(bestByMarket.has(key)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
