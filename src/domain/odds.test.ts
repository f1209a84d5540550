import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  americanDisplay,
  americanToDecimal,
  formatAmerican,
  formatAmericanAtMost,
  parseAmerican,
  type AmericanOdds,
} from './odds.ts';

/** A whole American price: ≤ −100 or ≥ +100. */
const wholeAmerican = fc.oneof(
  fc.integer({ min: 100, max: 100_000 }),
  fc.integer({ min: -100_000, max: -100 }),
);

// Issue 56: even money is "+100", as US books write it; "-100" read as a favourite's price.
describe('even money', () => {
  it('formatAmerican writes −100 and +100 as "+100"', () => {
    expect(formatAmerican(-100 as AmericanOdds)).toBe('+100');
    expect(formatAmerican(100 as AmericanOdds)).toBe('+100');
    expect(formatAmerican(-100.4 as AmericanOdds)).toBe('+100');
  });

  it('formatAmericanAtMost writes a decimal a hair under 2 that floors to −100 as "+100"', () => {
    // 1.9999999999999998 is −100.00000000000003: the 1e-9 guard floors it to −100, the same price as +100.
    expect(formatAmericanAtMost(1.9999999999999998)).toBe('+100');
    expect(formatAmericanAtMost(2)).toBe('+100');
  });

  it('americanDisplay spells a feed text as formatAmerican does and leaves other text alone', () => {
    expect(americanDisplay('-100')).toBe('+100');
    expect(americanDisplay('100')).toBe('+100');
    expect(americanDisplay('-100.0')).toBe('+100');
    expect(americanDisplay('150')).toBe('+150');
    expect(americanDisplay('-110')).toBe('-110');
    expect(americanDisplay('+133.33')).toBe('+133.33');
    expect(americanDisplay('n/a')).toBe('n/a');
  });

  it('no whole price is ever written "-100", and every text reads back as the same price (property)', () => {
    fc.assert(
      fc.property(wholeAmerican, (american) => {
        const text = formatAmerican(american as AmericanOdds);
        expect(text).not.toBe('-100');
        expect(text).toMatch(/^[+-]\d+$/);
        expect(americanToDecimal(parseAmerican(text)!)).toBe(americanToDecimal(american as AmericanOdds));
        expect(americanDisplay(String(american))).toBe(text);
      }),
    );
  });

  it('no computed price is ever written "-100" (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.5, max: 2.5, noNaN: true }), (decimal) => {
        expect(formatAmericanAtMost(decimal)).not.toBe('-100');
      }),
    );
  });
});

// docs/decisions/160: a computed price (fair, parlay) is shown in American odds rounded in the bettor's disfavour.
describe('formatAmericanAtMost', () => {
  it.each([
    // 6.0968 − 1 = 5.0968 → +509.68: "+509" (to nearest it was "+510", a better price than the fair one).
    [6.0968, '+509'],
    // Whole points stay whole: 2.5 → +150, 5.1 → +410 (4.1 × 100 is 409.999… in binary), 2 → +100.
    [2.5, '+150'],
    [5.1, '+410'],
    [2, '+100'],
    // Odds-on: 1 + 100/110 → −110 exactly (−110.0000…01 in binary); 1.9 → −111.11… → "-112"; 1.909 → −110.01 → "-111".
    [1 + 100 / 110, '-110'],
    [1.9, '-112'],
    [1.909, '-111'],
    // Just under even money: 1.99 → −101.01… → "-102"; just over: 2.005 → +100.5 → "+100".
    [1.99, '-102'],
    [2.005, '+100'],
  ])('%d → %s', (decimal, text) => {
    expect(formatAmericanAtMost(decimal)).toBe(text);
  });

  it('never reads a better price than the decimal (+A pays 1 + A/100, −A pays 1 + 100/A)', () => {
    for (let cents = 101; cents <= 5_000; cents += 1) {
      const decimal = cents / 100 + 0.00123;
      const shown = Number(formatAmericanAtMost(decimal));
      expect(americanToDecimal(shown as AmericanOdds)).toBeLessThanOrEqual(decimal);
      // And by less than one American point: the next point up is better than the decimal.
      const next = shown + 1 > -100 && shown + 1 < 100 ? 101 : shown + 1; // −100 and +100 are both 2.0
      expect(americanToDecimal(next as AmericanOdds)).toBeGreaterThan(decimal);
    }
  });

  it('differs from formatAmerican (to nearest) exactly where nearest would flatter the price', () => {
    expect(formatAmerican(509.68 as AmericanOdds)).toBe('+510');
    expect(formatAmericanAtMost(6.0968)).toBe('+509');
  });
});
