import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFeed, compareArbs, toArb } from '#tests/support/arb-feed.ts';
import { bestCombinations, passesFloor } from '#tests/support/best-combinations.ts';
import { arbKey, arbKeyOf } from './arb-feed.ts';
import { bookSum, canonicalDecimal, DECIMAL_PLACES, edgePct, floorTo, publishedEdge } from './arbitrage.ts';
import {
  marketLabel,
  outcomeLabel,
  sideId,
  type BookPrice,
  type MarketSpec,
  type OddsEvent,
} from './markets.ts';
import {
  americanToDecimal,
  decimalToAmerican,
  formatAmerican,
  parseAmerican,
  type AmericanOdds,
  type DecimalOdds,
} from './odds.ts';
import { ArbFeedSchema } from './schemas/feed.ts';
import { SPORTSBOOK_KEYS, type SportsbookKey } from './sportsbooks.ts';

const decimalArb = fc.double({ min: 1.01, max: 50, noNaN: true });
const americanArb = fc.oneof(fc.integer({ min: 100, max: 10000 }), fc.integer({ min: -10000, max: -100 }));

const EVENT: OddsEvent = {
  id: 'nba-bos-lal-202611220100',
  league: 'nba',
  away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
  home: { id: 'lal', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
  startsAt: Date.UTC(2026, 10, 22, 1, 0),
  live: false,
};

function price(book: SportsbookKey, outcome: BookPrice['outcome'], decimal: number): BookPrice {
  const d = canonicalDecimal(decimal);
  return {
    book,
    outcome,
    decimal: d,
    american: decimalToAmerican(d),
    links: { desktop: null, mobile: null },
    updatedAt: 0,
    receivedAt: 0,
    suspended: false,
  };
}

describe('odds conversions', () => {
  it('round-trips American → decimal → American for every valid integer price', () => {
    fc.assert(
      fc.property(americanArb, (american) => {
        const back = decimalToAmerican(americanToDecimal(american as AmericanOdds));
        // −100 and +100 are the same price (even money, decimal 2.0): it comes back as +100, and is written "+100"
        // (issue 56).
        const even = american === -100 ? 100 : american;
        expect(Math.round(back)).toBe(even);
        expect(parseAmerican(formatAmerican(american as AmericanOdds))).toBe(even);
      }),
    );
  });

  it('round-trips decimal → American → decimal', () => {
    fc.assert(
      fc.property(decimalArb, (decimal) => {
        expect(americanToDecimal(decimalToAmerican(decimal as DecimalOdds))).toBeCloseTo(decimal, 9);
      }),
    );
  });

  it('never rounds decimal odds up when canonicalising them', () => {
    fc.assert(
      fc.property(decimalArb, (decimal) => {
        const canonical = canonicalDecimal(decimal);
        expect(canonical).toBeLessThanOrEqual(decimal + 1e-9);
        expect(decimal - canonical).toBeLessThan(1e-4 + 1e-9);
      }),
    );
    expect(canonicalDecimal(2.5)).toBe(2.5);
    expect(canonicalDecimal(americanToDecimal(-110 as AmericanOdds))).toBe(1.909);
  });

  it('canonicalises exactly as flooring to DECIMAL_PLACES does (its factor is computed once)', () => {
    fc.assert(
      fc.property(fc.oneof(decimalArb, fc.double({ min: 1, max: 1e6, noNaN: true })), (decimal) => {
        expect(canonicalDecimal(decimal)).toBe(floorTo(decimal, DECIMAL_PLACES));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('edge', () => {
  it('computes edge_pct = (1/S − 1) × 100', () => {
    expect(edgePct([2.1, 2.1])).toBeCloseTo(5, 10);
    expect(edgePct([2, 2])).toBe(0);
    expect(bookSum([2.5, 1.8])).toBeCloseTo(0.4 + 1 / 1.8, 12);
  });

  it('publishes an edge that never exceeds the true edge and is within 0.001 of it', () => {
    fc.assert(
      fc.property(fc.array(decimalArb, { minLength: 2, maxLength: 3 }), (decimals) => {
        const exact = edgePct(decimals);
        const published = publishedEdge(decimals);
        expect(published).toBeLessThanOrEqual(exact + 1e-9);
        expect(exact - published).toBeLessThan(0.001 + 1e-9);
      }),
    );
  });
});

describe('bestCombinations', () => {
  const candidates = fc.array(
    fc.record({
      book: fc.constantFrom(...SPORTSBOOK_KEYS),
      decimal: fc.double({ min: 1.05, max: 6, noNaN: true }),
    }),
    { minLength: 1, maxLength: 15 },
  );

  it('never combines one book with itself and never publishes below the floor', () => {
    fc.assert(
      fc.property(
        fc.array(candidates, { minLength: 2, maxLength: 3 }),
        fc.double({ min: -5, max: 0, noNaN: true }),
        (byOutcome, floor) => {
          const combos = bestCombinations(byOutcome, {
            floorPct: floor,
            maxPerMarket: 50,
            topPerOutcome: 15,
          });
          for (const combo of combos) {
            expect(new Set(combo.picks.map((pick) => pick.book)).size).toBe(combo.picks.length);
            expect(combo.picks).toHaveLength(byOutcome.length);
            expect(combo.sum).toBeLessThan(1 - floor / 100);
            expect(combo.edgePct).toBeCloseTo(edgePct(combo.picks.map((pick) => pick.decimal)), 9);
          }
          const keys = combos.map((combo) =>
            combo.picks
              .map((pick) => pick.book)
              .sort()
              .join('+'),
          );
          expect(new Set(keys).size).toBe(keys.length);
        },
      ),
    );
  });

  it('yields nothing for a market whose best prices give S ≥ 1 − floor', () => {
    fc.assert(
      fc.property(fc.array(candidates, { minLength: 2, maxLength: 3 }), (byOutcome) => {
        const best = byOutcome.map((list) => Math.max(...list.map((c) => c.decimal)));
        fc.pre(!passesFloor(bookSum(best), -1));
        expect(bestCombinations(byOutcome)).toEqual([]);
      }),
    );
  });

  it('finds the same best edge as an exhaustive search over distinct books', () => {
    fc.assert(
      fc.property(fc.array(candidates, { minLength: 2, maxLength: 2 }), ([a, b]) => {
        let bestSum = Infinity;
        for (const x of a!)
          for (const y of b!)
            if (x.book !== y.book) bestSum = Math.min(bestSum, 1 / x.decimal + 1 / y.decimal);
        const combos = bestCombinations([a!, b!], { floorPct: -100, maxPerMarket: 1, topPerOutcome: 15 });
        if (bestSum === Infinity) expect(combos).toEqual([]);
        else expect(combos[0]!.sum).toBeCloseTo(bestSum, 12);
      }),
    );
  });

  it('keeps the best combination per distinct set of books, best first', () => {
    const combos = bestCombinations(
      [
        [
          { book: 'fanduel', decimal: 2.2 },
          { book: 'betmgm', decimal: 2.1 },
        ],
        [
          { book: 'fanduel', decimal: 2.05 },
          { book: 'draftkings', decimal: 2.0 },
          { book: 'betmgm', decimal: 1.95 },
        ],
      ],
      { floorPct: -1, maxPerMarket: 10, topPerOutcome: 6 },
    );
    // {fanduel, betmgm} has two orientations: betmgm 2.1 + fanduel 2.05 (S 0.9640) beats fanduel 2.2 + betmgm 1.95.
    expect(combos.map((combo) => combo.picks.map((pick) => pick.book).join('+'))).toEqual([
      'fanduel+draftkings',
      'betmgm+fanduel',
      'betmgm+draftkings',
    ]);
  });
});

describe('arbKey', () => {
  it('is the event id plus the sorted side ids, whatever the side order', () => {
    const moneyline: MarketSpec = { type: 'moneyline', period: 'full', point: null };
    const a = toArb(EVENT, moneyline, [price('fanduel', 'away', 2.6), price('draftkings', 'home', 1.8)]);
    const ids = a.sides.map((side) => side.id);
    expect(arbKey(a)).toBe(`${EVENT.id}:${[...ids].sort().join(',')}`);
    expect(arbKey({ ...a, sides: [...a.sides].reverse() })).toBe(arbKey(a));
    expect(arbKey({ ...a, event: { ...a.event, id: 'other' } })).not.toBe(arbKey(a));
    expect(arbKeyOf('ev1', ['s2', 's1'])).toBe('ev1:s1,s2');
  });
});

describe('feed shapes', () => {
  const spread: MarketSpec = { type: 'spread', period: 'full', point: 3.5 };

  it('labels markets and outcomes as a bettor reads them', () => {
    expect(marketLabel({ type: 'moneyline', period: 'full', point: null })).toBe('Moneyline');
    expect(marketLabel(spread)).toBe('Spread -3.5 / +3.5');
    expect(marketLabel({ type: 'total', period: 'full', point: 221.5 })).toBe('Total 221.5');
    expect(marketLabel({ type: '1x2', period: 'full', point: null })).toBe('1X2');
    expect(marketLabel({ type: 'total', period: 'h1', point: 110.5 })).toBe('1st Half Total 110.5');
    expect(outcomeLabel(EVENT, spread, 'away')).toBe('Boston Celtics -3.5');
    expect(outcomeLabel(EVENT, spread, 'home')).toBe('Los Angeles Lakers +3.5');
    expect(outcomeLabel(EVENT, { type: 'total', period: 'full', point: 221.5 }, 'over')).toBe('Over 221.5');
    expect(outcomeLabel(EVENT, { type: '1x2', period: 'full', point: null }, 'draw')).toBe('Draw');
  });

  it('gives the same side id for the same book, market and outcome, and different ids otherwise', () => {
    expect(sideId(EVENT.id, spread, 'home', 'fanduel')).toBe(
      sideId(EVENT.id, { ...spread }, 'home', 'fanduel'),
    );
    const ids = new Set([
      sideId(EVENT.id, spread, 'home', 'fanduel'),
      sideId(EVENT.id, spread, 'away', 'fanduel'),
      sideId(EVENT.id, spread, 'home', 'betmgm'),
      sideId(EVENT.id, { ...spread, point: 4.5 }, 'home', 'fanduel'),
      sideId(EVENT.id, { ...spread, period: 'h1' }, 'home', 'fanduel'),
    ]);
    expect(ids.size).toBe(5);
  });

  it('builds a schema-valid feed sorted by edge_pct descending with a stable key per arb', () => {
    const moneyline: MarketSpec = { type: 'moneyline', period: 'full', point: null };
    const a = toArb(EVENT, moneyline, [price('fanduel', 'away', 2.6), price('draftkings', 'home', 1.8)]);
    const b = toArb({ ...EVENT, live: true }, spread, [
      price('betmgm', 'away', 2.05),
      price('caesars', 'home', 2.0),
    ]);
    const feed = buildFeed(1_763_770_000_123, [b, a], 'simulator');
    expect(ArbFeedSchema.parse(feed)).toEqual(feed);
    expect(feed.generated_at).toBe(1_763_770_000);
    expect(feed.arbs.map((arb) => arb.edge_pct)).toEqual([a.edge_pct, b.edge_pct]);
    expect(a.sides[0]).toMatchObject({
      name: 'Boston Celtics',
      price: '+160',
      selection: { name: 'Boston Celtics' },
    });
    expect(a.event.date).toBe('2026-11-22T01:00:00.000Z');
    expect(arbKey(a)).toBe(arbKey({ ...a, sides: [...a.sides].reverse() }));
    expect(compareArbs(a, a)).toBe(0);
  });
});
