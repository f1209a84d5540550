import { describe, expect, it } from 'vitest';
import { priceText } from './bettor-extras.ts';

// The row's price in American odds needs no chunk (bettor-extras.ts): the feed's text, spelled as the site spells it.
describe('priceText in American odds', () => {
  it('shows even money as "+100", never "-100" (issue 56)', () => {
    expect(priceText({ price: '-100', decimal_odds: 2 }, 'american')).toBe('+100');
    expect(priceText({ price: '-110', decimal_odds: 1.909 }, 'american')).toBe('-110');
    expect(priceText({ price: '+150', decimal_odds: 2.5 }, 'american')).toBe('+150');
  });
});
