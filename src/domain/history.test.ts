import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  candles,
  closingTick,
  clvPct,
  consensusFair,
  devig,
  minuteSeries,
  openingTick,
  priceAt,
  referenceFair,
  type Candle,
  type Tick,
} from './history.ts';
import { DEVIG_METHODS, devigImplied } from './devig.ts';
import {
  americanToDecimal,
  decimalToAmerican,
  roundTo,
  type AmericanOdds,
  type DecimalOdds,
} from './odds.ts';

const T0 = Date.UTC(2026, 10, 22, 0, 0); // midnight UTC: a multiple of every interval below
const MINUTE = 60_000;
const m = (minutes: number) => T0 + minutes * MINUTE;

function tick(at: number, decimal: number, state: Tick['state'] = 'open'): Tick {
  return { at, decimal, american: Math.round(decimalToAmerican(decimal as DecimalOdds)), state };
}

/**
 * One series (times in minutes from T0), five-minute buckets marked: it opens, moves, gets a tick exactly on a bucket
 * boundary, is suspended, reopens, is carried through a tick-less bucket, is removed, reopens.
 */
const SERIES: Tick[] = [
  tick(m(1), 2.0), //        [0, 5)
  tick(m(3), 2.1),
  tick(m(5), 2.3), //        [5, 10): exactly at the bucket start
  tick(m(6), 2.25),
  tick(m(7), 2.25, 'suspended'),
  tick(m(12), 2.2), //       [10, 15): reopened, nothing carried in
  tick(m(14), 2.15), //      [15, 20): no tick, 2.15 carried throughout
  tick(m(20), 2.15, 'removed'), // [20, 25) and [25, 30): no price at any instant
  tick(m(31), 2.05), //      [30, 35)
  tick(m(33), 1.9),
  tick(m(34), 1.9, 'suspended'),
  tick(m(36), 2.4), //       [35, 40)
  tick(m(41), 2.6), //       [40, 45): 2.4 carried in
  tick(m(43), 2.35),
];

const candle = (minutes: number, open: number, high: number, low: number, close: number): Candle => ({
  at: m(minutes),
  open,
  high,
  low,
  close,
});

describe('openingTick', () => {
  it('is the first open tick', () => {
    expect(openingTick(SERIES)).toBe(SERIES[0]);
  });

  it('skips a suspended or removed start: the opening line is the first price a bettor could take', () => {
    const ticks = [
      tick(m(0), 1.8, 'suspended'),
      tick(m(1), 1.8, 'removed'),
      tick(m(2), 1.85),
      tick(m(3), 1.9),
    ];
    expect(openingTick(ticks)).toBe(ticks[2]);
  });

  it('is undefined for an empty series or one never open', () => {
    expect(openingTick([])).toBeUndefined();
    expect(openingTick([tick(m(0), 2, 'suspended'), tick(m(1), 2, 'removed')])).toBeUndefined();
  });
});

describe('closingTick', () => {
  it('is the last tick at or before the start, a tick exactly at the start included', () => {
    expect(closingTick(SERIES, m(6))).toBe(SERIES[3]); // exactly at 6
    expect(closingTick(SERIES, m(6) - 1)).toBe(SERIES[2]); // one millisecond earlier: the 2.30 at 5
    expect(closingTick(SERIES, m(13))).toBe(SERIES[5]);
  });

  it('falls back to the last open tick when the line was suspended or removed at the start', () => {
    expect(closingTick(SERIES, m(7))).toBe(SERIES[3]); // suspended at 7 → the 2.25 open at 6
    expect(closingTick(SERIES, m(10))).toBe(SERIES[3]);
    expect(closingTick(SERIES, m(25))).toBe(SERIES[6]); // removed at 20 → the 2.15 open at 14
    expect(closingTick(SERIES, m(35))?.decimal).toBe(1.9); // suspended at 34 → 1.90 at 33
  });

  it('is undefined before the first open tick', () => {
    expect(closingTick(SERIES, m(1) - 1)).toBeUndefined();
    expect(closingTick([tick(m(0), 2, 'suspended'), tick(m(2), 2)], m(1))).toBeUndefined();
    expect(closingTick([], m(1))).toBeUndefined();
  });
});

describe('priceAt', () => {
  it('is the last tick with at <= the instant, whatever its state', () => {
    expect(priceAt(SERIES, m(1) - 1)).toBeUndefined();
    expect(priceAt(SERIES, m(1))).toBe(SERIES[0]);
    expect(priceAt(SERIES, m(3) - 1)).toBe(SERIES[0]);
    expect(priceAt(SERIES, m(7))).toBe(SERIES[4]); // the suspension itself
    expect(priceAt(SERIES, m(11))?.state).toBe('suspended');
    expect(priceAt(SERIES, m(1000))).toBe(SERIES[13]);
    expect(priceAt([], m(0))).toBeUndefined();
  });

  it('takes the later of two ticks at the same instant', () => {
    const ticks = [tick(m(0), 2.0), tick(m(1), 2.1), tick(m(1), 2.2), tick(m(2), 2.3)];
    expect(priceAt(ticks, m(1))).toBe(ticks[2]);
  });
});

describe('candles', () => {
  const FIVE = 5 * MINUTE;
  const ALL = [
    candle(0, 2.0, 2.1, 2.0, 2.1), // first tick opens; nothing carried in
    candle(5, 2.3, 2.3, 2.25, 2.25), // the tick at exactly 5 is the price in force at the start, not the 2.10 before
    candle(10, 2.2, 2.2, 2.15, 2.15), // suspended at the start: opens at its first tick
    candle(15, 2.15, 2.15, 2.15, 2.15), // no tick: flat at the carried price
    // 20 and 25: removed throughout, no candle
    candle(30, 2.05, 2.05, 1.9, 1.9), // suspended at the end: closes at the last price in force
    candle(35, 2.4, 2.4, 2.4, 2.4),
    candle(40, 2.4, 2.6, 2.35, 2.35), // opens at the carried 2.40
  ];

  it('builds the hand-checked five-minute candles, omitting the buckets with no price at any instant', () => {
    expect(candles(SERIES, FIVE, m(0), m(44))).toEqual(ALL);
  });

  it('selects buckets by from/to but always describes the whole bucket', () => {
    expect(candles(SERIES, FIVE, m(7), m(16))).toEqual(ALL.slice(1, 4));
    expect(candles(SERIES, FIVE, m(16), m(18))).toEqual([candle(15, 2.15, 2.15, 2.15, 2.15)]); // carried from before
    expect(candles(SERIES, FIVE, m(20), m(29))).toEqual([]);
    expect(candles(SERIES, FIVE, m(50), m(54))).toEqual([candle(50, 2.35, 2.35, 2.35, 2.35)]); // still open after
    expect(candles(SERIES, FIVE, m(10), m(5))).toEqual([]);
  });

  it('stops after `max` candles, the first ones, skipping empty buckets without counting them', () => {
    expect(candles(SERIES, FIVE, m(0), m(44), 3)).toEqual(ALL.slice(0, 3));
    expect(candles(SERIES, FIVE, m(15), m(44), 2)).toEqual(ALL.slice(3, 5)); // 20 and 25 have none
    expect(candles(SERIES, FIVE, m(0), m(44), ALL.length + 5)).toEqual(ALL);
    // A flat price in force for a year: as many candles as asked, not one per bucket of the year.
    expect(candles([tick(m(0), 2.0)], MINUTE, m(0), m(365 * 24 * 60), 4)).toEqual(
      [0, 1, 2, 3].map((minute) => candle(minute, 2.0, 2.0, 2.0, 2.0)),
    );
  });

  it('aligns hourly buckets to UTC hours', () => {
    const hour = 60 * MINUTE;
    const ticks = [tick(m(59), 2.0), tick(m(61), 1.8), tick(m(125), 2.2, 'suspended')];
    expect(candles(ticks, hour, m(0), m(179))).toEqual([
      candle(0, 2.0, 2.0, 2.0, 2.0),
      candle(60, 2.0, 2.0, 1.8, 1.8),
      candle(120, 1.8, 1.8, 1.8, 1.8),
    ]);
  });

  it('rejects an interval that is not a positive integer and a range that is not finite', () => {
    expect(() => candles(SERIES, 0, m(0), m(5))).toThrow(RangeError);
    expect(() => candles(SERIES, 1.5, m(0), m(5))).toThrow(RangeError);
    expect(() => candles(SERIES, FIVE, m(0), Infinity)).toThrow(RangeError);
  });
});

describe('minuteSeries', () => {
  it('gives the price in force at each minute, null while suspended, removed or not yet priced', () => {
    expect(minuteSeries(SERIES, m(0) + 30_000, m(8))).toEqual([
      [m(1), 100, 2.0],
      [m(2), 100, 2.0],
      [m(3), 110, 2.1],
      [m(4), 110, 2.1],
      [m(5), 130, 2.3],
      [m(6), 125, 2.25],
      [m(7), null, null],
      [m(8), null, null],
    ]);
    expect(minuteSeries(SERIES, m(0), m(1))).toEqual([
      [m(0), null, null],
      [m(1), 100, 2.0],
    ]);
    expect(minuteSeries(SERIES, m(20), m(22), 2 * MINUTE)).toEqual([
      [m(20), null, null],
      [m(22), null, null],
    ]);
  });

  it('is empty when no boundary lies in the range, and rejects a bad step', () => {
    expect(minuteSeries(SERIES, m(1) + 1, m(2) - 1)).toEqual([]);
    expect(() => minuteSeries(SERIES, m(0), m(1), 0)).toThrow(RangeError);
    expect(() => minuteSeries(SERIES, -Infinity, m(1))).toThrow(RangeError);
  });
});

/** Decimal odds as the feed carries them: 4 places, 1.0100 to 1000.0000. */
const odds4 = fc.integer({ min: 10_100, max: 10_000_000 }).map((n) => n / 10_000);

describe('devig', () => {
  it('splits a symmetric market evenly', () => {
    expect(devig([1.9091, 1.9091])).toEqual([0.5, 0.5]);
    const minus110 = americanToDecimal(-110 as AmericanOdds); // 1.90909…
    expect(devig([minus110, minus110])).toEqual([0.5, 0.5]);
  });

  it('removes the margin of an asymmetric two-way market (-150 / +130)', () => {
    // 1/d: 0.6 and 10/23; sum 23.8/23; fair: 13.8/23.8 = 69/119 and 50/119.
    const [a, b] = devig([americanToDecimal(-150 as AmericanOdds), americanToDecimal(130 as AmericanOdds)]);
    expect(a).toBeCloseTo(69 / 119, 12); // 0.579832
    expect(b).toBeCloseTo(50 / 119, 12); // 0.420168
  });

  it('removes the margin of a Pinnacle-style three-way market (2.50 / 3.40 / 2.90)', () => {
    // 1/d: 2/5, 5/17, 10/29 → 986/2465, 725/2465, 850/2465; sum 2561/2465 (a 3.89 % margin).
    const [home, draw, away] = devig([2.5, 3.4, 2.9]);
    expect(home).toBeCloseTo(986 / 2561, 12); // 0.385006
    expect(draw).toBeCloseTo(725 / 2561, 12); // 0.283093
    expect(away).toBeCloseTo(850 / 2561, 12); // 0.331902
  });

  it('throws RangeError for fewer than two outcomes or invalid odds', () => {
    expect(() => devig([])).toThrow(RangeError);
    expect(() => devig([2])).toThrow(RangeError);
    for (const bad of [1, 0.5, 0, -2, Number.NaN, Infinity])
      expect(() => devig([2, bad])).toThrow(RangeError);
  });

  it('sums to 1, stays in (0, 1), keeps the order of the prices and their ratios', () => {
    fc.assert(
      fc.property(fc.array(odds4, { minLength: 2, maxLength: 6 }), (ds) => {
        const ps = devig(ds);
        expect(ps).toHaveLength(ds.length);
        expect(ps.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
        for (let i = 0; i < ds.length; i += 1) {
          expect(ps[i]).toBeGreaterThan(0);
          expect(ps[i]).toBeLessThan(1);
          for (let j = 0; j < ds.length; j += 1) {
            if (ds[i]! < ds[j]!) expect(ps[i]).toBeGreaterThan(ps[j]!);
            if (ds[i] === ds[j]) expect(ps[i]).toBe(ps[j]);
            expect(ps[i]! / ps[j]!).toBeCloseTo(ds[j]! / ds[i]!, 9);
          }
        }
      }),
    );
  });
});

describe('consensusFair', () => {
  const A = [1.9, 1.95];
  const B = [1.8, 2.05];
  const C = [1.95, 1.87];

  it('takes the median implied probability per outcome, then de-vigs the medians', () => {
    // Medians: 1/1.90 = 10/19 (A) and 1/1.95 = 20/39 (A); normalised: 390/770 = 39/77 and 38/77.
    const [p0, p1] = consensusFair([A, B, C])!;
    expect(p0).toBeCloseTo(39 / 77, 12); // 0.506494
    expect(p1).toBeCloseTo(38 / 77, 12); // 0.493506
    // Not the mean of the books' de-vigged probabilities (0.5046… for outcome 0).
    const meanOf0 = (devig(A)[0]! + devig(B)[0]! + devig(C)[0]!) / 3;
    expect(Math.abs(p0! - meanOf0)).toBeGreaterThan(1e-3);
  });

  it('skips books that do not price every outcome', () => {
    const withPartial = consensusFair([A, B, C, [Number.NaN, 1.8], [undefined, 1.5], [1.5], [2.0, 1.0]]);
    expect(withPartial).toEqual(consensusFair([A, B, C]));
    // Had [2.00, 1.80] been complete, outcome 1's median would be the mean of 1/1.95 and 1/1.80: a different answer.
    expect(consensusFair([A, B, C, [2.0, 1.8]])![1]).not.toBeCloseTo(38 / 77, 6);
  });

  it('averages the two middle probabilities for an even number of books', () => {
    // Outcome 0: 1/2, 1/2.5 → 0.45; outcome 1: 1/2, 1/1.6 → 0.5625; sum 1.0125.
    const [p0, p1] = consensusFair([
      [2.0, 2.0],
      [2.5, 1.6],
    ])!;
    expect(p0).toBeCloseTo(0.45 / 1.0125, 12);
    expect(p1).toBeCloseTo(0.5625 / 1.0125, 12);
  });

  it('is undefined when no book priced every outcome, and rejects one-outcome markets', () => {
    expect(consensusFair([])).toBeUndefined();
    expect(
      consensusFair([
        [2.0, undefined],
        [Number.NaN, 1.9],
      ]),
    ).toBeUndefined();
    expect(() => consensusFair([[2.0], [1.9]])).toThrow(RangeError);
  });

  const book = fc.array(fc.double({ min: 1.01, max: 50, noNaN: true }), { minLength: 3, maxLength: 3 });

  it('sums to 1, stays in (0, 1), ignores book order, and equals a lone book de-vigged', () => {
    fc.assert(
      fc.property(fc.array(book, { minLength: 1, maxLength: 7 }), (books) => {
        const ps = consensusFair(books)!;
        expect(ps.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
        for (const p of ps) {
          expect(p).toBeGreaterThan(0);
          expect(p).toBeLessThan(1);
        }
        expect(consensusFair([...books].reverse())).toEqual(ps);
        const only = consensusFair([books[0]!])!;
        devig(books[0]!).forEach((p, i) => expect(only[i]).toBeCloseTo(p, 12));
      }),
    );
  });
});

describe('referenceFair', () => {
  const circa = { book: 'circa', decimals: [2.5, 3.4, 2.9] };
  const betonline = { book: 'betonline', decimals: [2.55, 3.3, 2.85] };
  const others = [
    { book: 'draftkings', decimals: [2.4, 3.3, 2.95] },
    { book: 'fanduel', decimals: [2.45, 3.5, 2.8] },
    { book: 'betmgm', decimals: [2.6, 3.2, 2.85] },
  ];
  const implied = (decimals: readonly number[]) => decimals.map((decimal) => 1 / decimal);

  it("uses the reference book's own prices, de-vigged by the method asked for, when it priced every outcome", () => {
    for (const method of DEVIG_METHODS) {
      expect(referenceFair([...others, circa], { reference: 'circa', method })).toEqual({
        reference: 'circa',
        fallback: null,
        method,
        books: ['circa'],
        implied: implied([2.5, 3.4, 2.9]),
        probabilities: devigImplied(implied([2.5, 3.4, 2.9]), method),
      });
    }
  });

  it('consensus: the median implied probability per outcome across every complete book, then the method', () => {
    // Medians by hand: outcome 0 of 2.4, 2.45, 2.5, 2.6 → (1/2.45 + 1/2.5) / 2; outcome 1 of 3.2, 3.3, 3.4, 3.5 →
    // (1/3.3 + 1/3.4) / 2; outcome 2 of 2.8, 2.85, 2.9, 2.95 → (1/2.85 + 1/2.9) / 2.
    const medians = [(1 / 2.45 + 1 / 2.5) / 2, (1 / 3.3 + 1 / 3.4) / 2, (1 / 2.85 + 1 / 2.9) / 2];
    const fair = referenceFair([...others, circa], { reference: 'consensus', method: 'power' })!;
    expect(fair).toMatchObject({ reference: 'consensus', fallback: null, method: 'power' });
    expect(fair.books).toEqual(['betmgm', 'circa', 'draftkings', 'fanduel']);
    fair.implied.forEach((q, i) => expect(q).toBeCloseTo(medians[i]!, 15));
    expect(fair.probabilities).toEqual(devigImplied(fair.implied, 'power'));
    expect(
      consensusFair(
        [...others, circa].map((o) => o.decimals),
        'power',
      ),
    ).toEqual(fair.probabilities);
  });

  it('sharp: the median of the sharp books (circa, betonline) that priced every outcome', () => {
    const fair = referenceFair([...others, circa, betonline], { reference: 'sharp', method: 'shin' })!;
    expect(fair).toMatchObject({ reference: 'sharp', fallback: null, books: ['betonline', 'circa'] });
    fair.implied.forEach((q, i) =>
      expect(q).toBeCloseTo((1 / circa.decimals[i]! + 1 / betonline.decimals[i]!) / 2, 15),
    );
    expect(fair.probabilities).toEqual(devigImplied(fair.implied, 'shin'));
    const incomplete = { book: 'betonline', decimals: [2.55, undefined, 2.85] };
    expect(
      referenceFair([...others, circa, incomplete], { reference: 'sharp', method: 'shin' })!.books,
    ).toEqual(['circa']);
  });

  it('falls back to the consensus, and says why, when the reference cannot give the fair probabilities', () => {
    const consensus = (fallback: string) => ({
      ...referenceFair(others, { reference: 'consensus', method: 'shin' }),
      fallback,
    });
    expect(referenceFair(others, { reference: 'pinnacle', method: 'shin' })).toEqual(
      consensus('book_not_carried'),
    );
    expect(referenceFair(others, { reference: 'circa', method: 'shin' })).toEqual(
      consensus('book_missing_outcomes'),
    );
    const noDraw = { book: 'circa', decimals: [2.5, undefined, 2.9] };
    expect(referenceFair([noDraw, ...others], { reference: 'circa', method: 'shin' })).toEqual(
      consensus('book_missing_outcomes'),
    );
    const twoOfThree = { book: 'circa', decimals: [2.5, 3.4] };
    expect(referenceFair([twoOfThree, ...others], { reference: 'circa', method: 'shin' })).toEqual(
      consensus('book_missing_outcomes'),
    );
    expect(referenceFair(others, { reference: 'sharp', method: 'shin' })).toEqual(consensus('no_sharp_book'));
  });

  it('is undefined when no book priced every outcome', () => {
    expect(referenceFair([], { reference: 'circa', method: 'shin' })).toBeUndefined();
    expect(
      referenceFair(
        [
          { book: 'circa', decimals: [2.5, undefined] },
          { book: 'fanduel', decimals: [undefined, 1.6] },
        ],
        { reference: 'circa', method: 'shin' },
      ),
    ).toBeUndefined();
  });
});

describe('clvPct', () => {
  it('is (bet decimal × fair probability − 1) × 100 at full precision', () => {
    expect(clvPct(americanToDecimal(150 as AmericanOdds), 0.42)).toBeCloseTo(5.0, 12); // (2.5 × 0.42 − 1) × 100
    const minus110 = americanToDecimal(-110 as AmericanOdds);
    expect(clvPct(minus110, 0.5)).toBeCloseTo(-50 / 11, 12); // −4.545454…: not rounded here
    expect(roundTo(clvPct(minus110, 0.5), 3)).toBe(-4.545);
    expect(clvPct(2.0, 0.5)).toBe(0);
  });

  it('gives CLV and OLV of one bet against the closing and opening fair probabilities', () => {
    // +150 on the home side; opened 2.70 / 3.30 / 2.70, closed 2.50 / 3.40 / 2.90 at the reference.
    const opening = devig([2.7, 3.3, 2.7])[0]!; // (1/2.7) / (2/2.7 + 1/3.3) = 3.3/9.3 = 0.354839
    const closing = devig([2.5, 3.4, 2.9])[0]!; // 986/2561 = 0.385006
    expect(opening).toBeCloseTo(3.3 / 9.3, 12);
    expect(clvPct(2.5, closing)).toBeCloseTo(((2.5 * 986) / 2561 - 1) * 100, 12); // −3.748536
    expect(roundTo(clvPct(2.5, closing), 3)).toBe(-3.749);
    expect(roundTo(clvPct(2.5, opening), 3)).toBe(-11.29); // OLV: (2.5 × 3.3/9.3 − 1) × 100 = −11.2903…
  });

  it('rejects invalid odds and probabilities outside (0, 1]', () => {
    for (const p of [0, -0.1, 1.2, Number.NaN]) expect(() => clvPct(2.5, p)).toThrow(RangeError);
    for (const d of [1, 0.9, Number.NaN, Infinity]) expect(() => clvPct(d, 0.4)).toThrow(RangeError);
  });

  it('is zero at the fair odds and has the sign of the price against them', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.95, noNaN: true }),
        fc.double({ min: 1.01, max: 100, noNaN: true }),
        (p, d) => {
          expect(clvPct(1 / p, p)).toBeCloseTo(0, 9);
          const clv = clvPct(d, p);
          if (d * p > 1 + 1e-12) expect(clv).toBeGreaterThan(0);
          if (d * p < 1 - 1e-12) expect(clv).toBeLessThan(0);
        },
      ),
    );
  });
});

// ── Property tests on random tick sequences, checked against brute-force recomputation from the spec's definitions ──

const ticksArb = fc
  .array(
    fc.record({
      at: fc.integer({ min: 0, max: 120 }), // a small range so ties and bucket boundaries are common
      decimal: fc.integer({ min: 101, max: 1000 }).map((hundredths) => hundredths / 100),
      state: fc.constantFrom<Tick['state']>('open', 'open', 'open', 'suspended', 'removed'),
    }),
    { maxLength: 40 },
  )
  .map((raw) => raw.map((t) => tick(t.at, t.decimal, t.state)).sort((a, b) => a.at - b.at)); // stable sort
const timeArb = fc.integer({ min: -10, max: 140 });
/** A tick sequence and an instant, half the time exactly one of its ticks' times (where `<=` versus `<` matters). */
const ticksAndTimeArb = ticksArb.chain((ticks) =>
  fc.tuple(
    fc.constant(ticks),
    ticks.length > 0 ? fc.oneof(timeArb, fc.constantFrom(...ticks.map((t) => t.at))) : timeArb,
  ),
);

/** The tick in force at t, by a linear scan. */
function scanAt(ticks: readonly Tick[], t: number): Tick | undefined {
  let found: Tick | undefined;
  for (const candidate of ticks) if (candidate.at <= t) found = candidate;
  return found;
}

/** The decimal price a bettor could take at t, if any. */
function inForce(ticks: readonly Tick[], t: number): number | undefined {
  const found = scanAt(ticks, t);
  return found?.state === 'open' ? found.decimal : undefined;
}

/** The candles' doc comment transcribed literally, bucket by bucket. */
function bruteCandles(ticks: readonly Tick[], interval: number, from: number, to: number): Candle[] {
  const out: Candle[] = [];
  for (
    let s = Math.floor(from / interval) * interval;
    s <= Math.floor(to / interval) * interval;
    s += interval
  ) {
    const inBucket = ticks
      .filter((t) => t.state === 'open' && t.at >= s && t.at < s + interval)
      .map((t) => t.decimal);
    const open = inForce(ticks, s) ?? inBucket[0];
    if (open === undefined) continue;
    out.push({
      at: s,
      open,
      high: Math.max(open, ...inBucket),
      low: Math.min(open, ...inBucket),
      close: inBucket.at(-1) ?? open,
    });
  }
  return out;
}

describe('history properties on random tick sequences', () => {
  it('opening is the first open tick', () => {
    fc.assert(
      fc.property(ticksArb, (ticks) => {
        const opening = openingTick(ticks);
        const firstOpen = ticks.findIndex((t) => t.state === 'open');
        if (firstOpen < 0) expect(opening).toBeUndefined();
        else expect(opening).toBe(ticks[firstOpen]);
      }),
    );
  });

  it('closing is the last tick at or before the start when open, else the last open tick before it', () => {
    fc.assert(
      fc.property(ticksAndTimeArb, ([ticks, start]) => {
        const closing = closingTick(ticks, start);
        const last = scanAt(ticks, start);
        if (last?.state === 'open') expect(closing).toBe(last);
        const lastOpen = ticks.filter((t) => t.at <= start && t.state === 'open').at(-1);
        expect(closing).toBe(lastOpen);
        if (closing) expect(closing.at).toBeLessThanOrEqual(start);
      }),
    );
  });

  it('priceAt agrees with a linear scan', () => {
    fc.assert(
      fc.property(ticksAndTimeArb, ([ticks, at]) => {
        expect(priceAt(ticks, at)).toBe(scanAt(ticks, at));
      }),
    );
  });

  it("candles' open, high, low and close agree with a brute-force recomputation from the ticks", () => {
    fc.assert(
      fc.property(ticksArb, fc.integer({ min: 1, max: 30 }), timeArb, timeArb, (ticks, interval, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        expect(candles(ticks, interval, from, to)).toEqual(bruteCandles(ticks, interval, from, to));
      }),
    );
  });

  it('a candle exists exactly when a price was in force at some instant of its bucket, and bounds every such price', () => {
    fc.assert(
      fc.property(ticksArb, fc.integer({ min: 1, max: 30 }), timeArb, timeArb, (ticks, interval, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const byStart = new Map(candles(ticks, interval, from, to).map((c) => [c.at, c]));
        for (let s = Math.floor(from / interval) * interval; s <= to; s += interval) {
          // Ticks fall on whole milliseconds, so sampling every millisecond sees every price that was in force.
          const prices: number[] = [];
          for (let t = s; t < s + interval; t += 1) {
            const price = inForce(ticks, t);
            if (price !== undefined) prices.push(price);
          }
          // An open tick replaced within the same millisecond was in force for no instant, yet was published.
          const published = ticks.some((t) => t.state === 'open' && t.at >= s && t.at < s + interval);
          const c = byStart.get(s);
          expect(c !== undefined).toBe(prices.length > 0 || published);
          if (!c) continue;
          for (const price of prices) {
            expect(price).toBeGreaterThanOrEqual(c.low);
            expect(price).toBeLessThanOrEqual(c.high);
          }
          const atEnd = inForce(ticks, s + interval - 1);
          if (atEnd !== undefined) expect(c.close).toBe(atEnd);
          const atStart = inForce(ticks, s);
          if (atStart !== undefined) expect(c.open).toBe(atStart);
        }
      }),
    );
  });

  it('minuteSeries gives every aligned step in range with the open price in force there, else nulls', () => {
    fc.assert(
      fc.property(ticksArb, fc.integer({ min: 1, max: 20 }), timeArb, timeArb, (ticks, step, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const series = minuteSeries(ticks, from, to, step);
        const expected: number[] = [];
        for (let t = from; t <= to; t += 1) if (t % step === 0) expected.push(t);
        expect(series.map(([t]) => t)).toEqual(expected);
        for (const [t, american, decimal] of series) {
          const found = scanAt(ticks, t);
          if (found?.state === 'open') expect([american, decimal]).toEqual([found.american, found.decimal]);
          else expect([american, decimal]).toEqual([null, null]);
        }
      }),
    );
  });
});
