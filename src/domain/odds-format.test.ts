import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalDecimal } from './arbitrage.ts';
import { americanToDecimal, formatAmerican, type AmericanOdds } from './odds.ts';
import { exactDecimal, formatOdds, fractionAtMost, toFraction, type PricedSide } from './odds-format.ts';

/** A side as the engine publishes it: the American text, and the exact decimal floored to 4 places. */
const side = (american: number): PricedSide => ({
  american: formatAmerican(american as AmericanOdds),
  decimal: canonicalDecimal(americanToDecimal(american as AmericanOdds)),
});

describe('formatOdds', () => {
  // Hand-checked: decimal rounded down to 2 places, fraction exact and reduced, probability rounded up to 0.1 %.
  const table: [number, string, string, string][] = [
    // american, decimal, fractional, probability
    [150, '2.50', '3/2', '40.0%'],
    [-110, '1.90', '10/11', '52.4%'], // 1.9090…; 52.38…%
    [110, '2.10', '11/10', '47.7%'], // 47.619…%
    [250, '3.50', '5/2', '28.6%'], // 28.571…%
    [-200, '1.50', '1/2', '66.7%'], // 66.666…%
    [100, '2.00', '1/1', '50.0%'],
    [-100, '2.00', '1/1', '50.0%'],
    [-150, '1.66', '2/3', '60.0%'], // 1.6666…
    [-115, '1.86', '20/23', '53.5%'], // 1.869565…; 53.488…%
    [105, '2.05', '21/20', '48.8%'], // 48.780…%
    [137, '2.37', '137/100', '42.2%'], // 42.194…%
    [-137, '1.72', '100/137', '57.9%'], // 1.729927…; 57.8…%
    [1000, '11.00', '10/1', '9.1%'], // 9.0909…%
    [-1000, '1.10', '1/10', '91.0%'], // 90.909…%
  ];
  it.each(table)('%i → %s, %s, %s', (american, decimal, fractional, probability) => {
    const s = side(american);
    expect(formatOdds(s, 'american')).toBe(formatAmerican(american as AmericanOdds));
    expect(formatOdds(s, 'decimal')).toBe(decimal);
    expect(formatOdds(s, 'fractional')).toBe(fractional);
    expect(formatOdds(s, 'probability')).toBe(probability);
  });

  it('shows the American text as the feed sends it, even money as "+100" (issue 56)', () => {
    expect(formatOdds({ american: '+150', decimal: 2.5 }, 'american')).toBe('+150');
    expect(formatOdds({ american: '-110', decimal: 1.909 }, 'american')).toBe('-110');
    expect(formatOdds({ american: '-100', decimal: 2 }, 'american')).toBe('+100');
    expect(formatOdds({ american: '+133.33', decimal: 2.3333 }, 'american')).toBe('+133.33');
  });

  it('approximates a decimal that is not its American text from below, denominator ≤ 100', () => {
    // 1.86 is −116.28…; the text "-116" would say 25/29 = 0.862 > 0.86: the decimal is the price.
    const s = { american: '-116', decimal: 1.86 };
    expect(exactDecimal(s)).toBe(1.86);
    expect(formatOdds(s, 'fractional')).toBe('43/50');
    expect(formatOdds(s, 'decimal')).toBe('1.86');
    // 2.3333 ≈ 4/3 but a hair under: 4/3 would flatter it.
    expect(formatOdds({ american: '+133.33', decimal: 2.3333 }, 'fractional')).toBe('133/100');
    expect(formatOdds({ american: '+133.33', decimal: 2.3333 }, 'probability')).toBe('42.9%');
  });

  it('gives long odds-on prices a unit fraction', () => {
    expect(fractionAtMost(0.005)).toEqual({ numerator: 1, denominator: 200 });
    expect(fractionAtMost(0.0049)).toEqual({ numerator: 1, denominator: 205 });
  });
});

describe('exactDecimal', () => {
  it('recovers the exact decimal of an integer American price the feed floored', () => {
    expect(exactDecimal(side(-110))).toBe(1 + 100 / 110);
    expect(exactDecimal(side(150))).toBe(2.5);
    expect(exactDecimal({ american: '-110', decimal: 1.9 })).toBe(1.9); // not the same price
  });
});

describe('fractional property', () => {
  const americanArb = fc.oneof(
    fc.integer({ min: 100, max: 10_000 }),
    fc.integer({ min: -10_000, max: -100 }),
  );

  it('never exceeds decimal − 1, and is within 1e-2 of it for an integer American price', () => {
    fc.assert(
      fc.property(americanArb, (american) => {
        const s = side(american);
        const { numerator, denominator } = toFraction(s);
        const value = numerator / denominator;
        expect(value).toBeLessThanOrEqual(exactDecimal(s) - 1 + 1e-12);
        expect(Math.abs(value - (s.decimal - 1))).toBeLessThanOrEqual(1e-2);
        expect(value).toBeCloseTo(americanToDecimal(american as AmericanOdds) - 1, 12);
      }),
    );
  });

  it('never exceeds decimal − 1 for any feed decimal, within 1/100 of it', () => {
    const tenThousandths = fc.integer({ min: 10_100, max: 500_000 });
    fc.assert(
      fc.property(tenThousandths, (n) => {
        const decimal = n / 10_000;
        const { numerator, denominator } = toFraction({ american: 'x', decimal });
        expect(numerator * 10_000).toBeLessThanOrEqual((n - 10_000) * denominator);
        expect(decimal - 1 - numerator / denominator).toBeLessThan(1 / 100);
      }),
    );
  });

  it('decimal and probability never flatter the price', () => {
    const tenThousandths = fc.integer({ min: 10_100, max: 500_000 });
    fc.assert(
      fc.property(tenThousandths, (n) => {
        const decimal = n / 10_000;
        const s = { american: 'x', decimal };
        expect(Number(formatOdds(s, 'decimal'))).toBeLessThanOrEqual(decimal);
        expect(Number(formatOdds(s, 'probability').slice(0, -1))).toBeGreaterThanOrEqual(
          100 / decimal - 1e-9,
        );
      }),
    );
  });
});
