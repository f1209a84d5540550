import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EV_MIN_BOOKS,
  evPct,
  expectedValue,
  kellyFraction,
  kellyStakeCents,
  marketEv,
  marketFair,
  publishedEvPct,
  publishedFairProbability,
  type EvQuote,
} from './ev.ts';
import { consensusFair, devig } from './history.ts';

const twoWay = (book: string, home: number, away: number): EvQuote[] => [
  { book, outcome: 0, decimal: home },
  { book, outcome: 1, decimal: away },
];

describe('expectedValue and evPct', () => {
  it('is p × d − 1: a 2.10 price on a fair 50 % outcome is +5 %', () => {
    expect(expectedValue(2.1, 0.5)).toBeCloseTo(0.05, 12);
    expect(evPct(2.1, 0.5)).toBeCloseTo(5, 10);
    expect(evPct(1.9, 0.5)).toBeCloseTo(-5, 10);
  });

  it('publishes EV floored to 3 places, never above the true figure', () => {
    expect(publishedEvPct(2.1, 0.5)).toBe(5);
    expect(publishedEvPct(1.90476, 0.52)).toBe(-0.953);
    expect(Object.is(publishedEvPct(2, 0.5), 0)).toBe(true);
  });

  it('refuses invalid odds and probabilities', () => {
    expect(() => evPct(1, 0.5)).toThrow(RangeError);
    expect(() => evPct(2, 0)).toThrow(RangeError);
    expect(() => evPct(2, 1.2)).toThrow(RangeError);
  });
});

describe('kellyFraction and kellyStakeCents', () => {
  it('is (b·p − q)/b with b = d − 1', () => {
    // d = 2.1, p = 0.5: b = 1.1, (0.55 − 0.5) / 1.1 = 0.04545…
    expect(kellyFraction(2.1, 0.5)).toBeCloseTo(0.05 / 1.1, 12);
    // d = 3, p = 0.4: b = 2, (0.8 − 0.6) / 2 = 0.1
    expect(kellyFraction(3, 0.4)).toBeCloseTo(0.1, 12);
  });

  it('is never negative: a price without positive EV stakes nothing', () => {
    expect(kellyFraction(1.9, 0.5)).toBe(0);
    expect(kellyFraction(2, 0.5)).toBe(0);
    expect(kellyStakeCents(100_000, 1.5, 0.5)).toBe(0);
  });

  it('stakes a quarter Kelly of the bankroll by default, in whole cents rounded down', () => {
    // $1,000 bankroll, f* = 0.1: full Kelly $100, quarter $25.
    expect(kellyStakeCents(100_000, 3, 0.4)).toBe(2_500);
    expect(kellyStakeCents(100_000, 3, 0.4, 1)).toBe(10_000);
    // 0.04545… × ¼ × $1,000 = $11.3636… → 1,136 cents.
    expect(kellyStakeCents(100_000, 2.1, 0.5)).toBe(1_136);
  });

  it('refuses a bankroll that is not whole cents and a fraction outside (0, 1]', () => {
    expect(() => kellyStakeCents(10.5, 2, 0.6)).toThrow(RangeError);
    expect(() => kellyStakeCents(-1, 2, 0.6)).toThrow(RangeError);
    expect(() => kellyStakeCents(1000, 2, 0.6, 0)).toThrow(RangeError);
    expect(() => kellyStakeCents(1000, 2, 0.6, 1.5)).toThrow(RangeError);
  });

  it('never stakes more than the fraction of the bankroll, and stakes only on positive EV (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 1.01, max: 50, noNaN: true }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (bankroll, decimal, p, fraction) => {
          const stake = kellyStakeCents(bankroll, decimal, p, fraction);
          expect(Number.isInteger(stake)).toBe(true);
          expect(stake).toBeGreaterThanOrEqual(0);
          expect(stake).toBeLessThanOrEqual(bankroll * fraction + 1e-6);
          if (expectedValue(decimal, p) <= 0) expect(stake).toBe(0);
        },
      ),
    );
  });
});

describe('marketFair', () => {
  it('is the consensus of the books pricing every side, with their count', () => {
    const quotes = [
      ...twoWay('a', 1.9, 1.9),
      ...twoWay('b', 1.95, 1.87),
      ...twoWay('c', 1.85, 1.95),
      { book: 'd', outcome: 0, decimal: 2.2 },
    ];
    const fair = marketFair(quotes, 2)!;
    expect(fair.books).toBe(3);
    // Medians of 1/d: home 1/1.9, away 1/1.9 → 0.5 each after normalising.
    expect(fair.probabilities[0]).toBeCloseTo(0.5, 12);
    expect(fair.probabilities[1]).toBeCloseTo(0.5, 12);
  });

  it('removes the margin by Shin’s method, which does not flatter the longshot as normalising does', () => {
    // Three books at 1.20 / 5.00: implied 0.8333 + 0.2 = 1.0333. Shin's method on two outcomes takes half the
    // overround (0.01667) from each side: 0.81667 / 0.18333. Normalising would give the longshot 0.2 / 1.0333 = 0.19355.
    const quotes = [
      ...twoWay('a', 1.2, 5),
      ...twoWay('b', 1.2, 5),
      ...twoWay('c', 1.2, 5),
      { book: 'd', outcome: 1, decimal: 5.6 },
    ];
    const fair = marketFair(quotes, 2)!;
    expect(fair.probabilities[1]).toBeCloseTo(0.2 - (1 / 1.2 + 0.2 - 1) / 2, 9);
    const [best] = marketEv(quotes, 2).prices;
    // 0.183333 × 5.6 − 1 = +2.67 % (normalising: 0.19355 × 5.6 − 1 = +8.39 %).
    expect(best!.book).toBe('d');
    expect(best!.evPct).toBeCloseTo((0.2 - (1 / 1.2 + 0.2 - 1) / 2) * 5.6 * 100 - 100, 6);
  });

  it(`publishes no fair below ${EV_MIN_BOOKS} books pricing every side`, () => {
    const quotes = [
      ...twoWay('a', 1.9, 1.9),
      ...twoWay('b', 1.95, 1.87),
      { book: 'c', outcome: 0, decimal: 2 },
    ];
    expect(marketFair(quotes, 2)).toBeUndefined();
    expect(marketFair(quotes, 2, 2)?.books).toBe(2);
  });
});

describe('marketEv', () => {
  it('lists the prices above the fair, best EV first, including a book that prices one side only', () => {
    const quotes = [
      ...twoWay('a', 1.9, 1.9),
      ...twoWay('b', 1.9, 1.9),
      ...twoWay('c', 2.05, 1.8),
      { book: 'd', outcome: 1, decimal: 2.2 },
    ];
    const { fair, prices } = marketEv(quotes, 2);
    expect(fair?.books).toBe(3);
    expect(prices.map((price) => [price.book, price.outcome])).toEqual([
      ['d', 1],
      ['c', 0],
    ]);
    expect(prices[0]!.evPct).toBeCloseTo((2.2 * prices[0]!.fairProbability - 1) * 100, 10);
  });

  it('finds no positive EV when every book shows the same margined prices', () => {
    const quotes = [...twoWay('a', 1.91, 1.91), ...twoWay('b', 1.91, 1.91), ...twoWay('c', 1.91, 1.91)];
    expect(marketEv(quotes, 2).prices).toEqual([]);
  });

  const odds = fc.integer({ min: 10_100, max: 500_000 }).map((n) => n / 10_000);
  const market = fc.integer({ min: 2, max: 3 }).chain((width) =>
    fc.record({
      width: fc.constant(width),
      books: fc.array(fc.array(fc.option(odds, { nil: undefined }), { minLength: width, maxLength: width }), {
        minLength: 1,
        maxLength: 8,
      }),
    }),
  );

  it('publishes EVs that recompute from the published fair probability and price (property)', () => {
    fc.assert(
      fc.property(market, ({ width, books }) => {
        const quotes: EvQuote[] = books.flatMap((row, book) =>
          row.flatMap((decimal, outcome) =>
            decimal === undefined ? [] : [{ book: `b${book}`, outcome, decimal }],
          ),
        );
        const { fair, prices } = marketEv(quotes, width, { minEvPct: -100 });
        if (!fair) {
          expect(prices).toEqual([]);
          return;
        }
        expect(fair.books).toBeGreaterThanOrEqual(EV_MIN_BOOKS);
        expect(fair.probabilities.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 9);
        expect(prices.length).toBe(quotes.length);
        for (const price of prices) {
          const fairPublished = publishedFairProbability(price.fairProbability);
          const published = publishedEvPct(price.decimal, price.fairProbability);
          const recomputed = (fairPublished * price.decimal - 1) * 100;
          // Rounding the fair to 6 places moves EV by at most 0.5e-6 × d × 100; flooring EV by under 0.001.
          expect(Math.abs(published - recomputed)).toBeLessThanOrEqual(0.001 + 0.5e-4 * price.decimal + 1e-9);
          expect(published).toBeLessThanOrEqual(price.evPct + 1e-9);
          expect(price.fairProbability).toBe(fair.probabilities[price.outcome]);
        }
        for (let i = 1; i < prices.length; i += 1)
          expect(prices[i - 1]!.evPct).toBeGreaterThanOrEqual(prices[i]!.evPct);
      }),
    );
  });
});

describe('marketFair by a method and reference (issue 55)', () => {
  // Three books at −200 / +170 and BetMGM at −180 / +190: lopsided medians, so the methods disagree.
  const quotes: EvQuote[] = [
    ...['fanduel', 'draftkings', 'caesars'].flatMap((book) => [
      { book, outcome: 0, decimal: 1.5 },
      { book, outcome: 1, decimal: 2.7 },
    ]),
    { book: 'betmgm', outcome: 0, decimal: 1 + 100 / 180 },
    { book: 'betmgm', outcome: 1, decimal: 2.9 },
  ];
  const byBook = [
    [1.5, 2.7],
    [1.5, 2.7],
    [1.5, 2.7],
    [1 + 100 / 180, 2.9],
  ];

  it('de-vigs the consensus medians by the method asked for, and says so', () => {
    for (const method of ['multiplicative', 'additive', 'power', 'shin'] as const) {
      const fair = marketFair(quotes, 2, EV_MIN_BOOKS, { method, reference: 'consensus' })!;
      expect(fair).toMatchObject({ books: 4, method, reference: 'consensus', fallback: null });
      expect(fair.probabilities).toEqual(consensusFair(byBook, method));
    }
    expect(marketFair(quotes, 2)).toEqual(
      marketFair(quotes, 2, EV_MIN_BOOKS, { method: 'shin', reference: 'consensus' }),
    );
  });

  it("takes one book's own prices as the reference, the consensus when it has none, and still needs 3 books", () => {
    const own = marketFair(quotes, 2, EV_MIN_BOOKS, { method: 'power', reference: 'betmgm' })!;
    expect(own).toMatchObject({ books: 4, reference: 'betmgm', fallback: null });
    expect(own.probabilities).toEqual(devig([1 + 100 / 180, 2.9], 'power'));
    expect(marketFair(quotes, 2, EV_MIN_BOOKS, { method: 'power', reference: 'sharp' })).toMatchObject({
      reference: 'consensus',
      fallback: 'no_sharp_book',
    });
    expect(
      marketFair(quotes.slice(4), 2, EV_MIN_BOOKS, { method: 'power', reference: 'betmgm' }),
    ).toBeUndefined();
  });
});
