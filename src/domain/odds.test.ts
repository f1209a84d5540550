import { describe, expect, it } from 'vitest';
import { americanToDecimal, formatAmerican, formatAmericanAtMost, type AmericanOdds } from './odds.ts';

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
