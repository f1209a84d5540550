import { describe, expect, it } from 'vitest';
import { middleReturns } from '#domain/middles.ts';
import type { MiddleFeedRow } from '#domain/schemas/middles-feed.ts';
import {
  emptyRowsText,
  gapText,
  middleFigures,
  readView,
  signedDollars,
  visibleRows,
  writeView,
} from './middles-view.ts';

// Kansas City −2.5 (−105) at FanDuel and Buffalo +3.5 (−110) at DraftKings: both win when the Chiefs win by 3.
const row = (over: Partial<MiddleFeedRow> = {}): MiddleFeedRow => ({
  id: 'x',
  event: {
    id: 'e',
    league: 'nfl',
    sport: 'football',
    home: 'Kansas City Chiefs',
    away: 'Buffalo Bills',
    starts_at: '2026-11-22T18:00:00.000Z',
    live: false,
  },
  market_type: 'spread',
  market_label: 'Spread',
  high: {
    book: 'fanduel',
    name: 'Kansas City Chiefs -2.5',
    line: 2.5,
    american: '-105',
    decimal: 1.9524,
    links: { desktop: null, mobile: null },
  },
  low: {
    book: 'draftkings',
    name: 'Buffalo Bills +3.5',
    line: 3.5,
    american: '-110',
    decimal: 1.9091,
    links: { desktop: null, mobile: null },
  },
  gap: { from: 3, to: 3 },
  probability: 0.096,
  push_high: 0,
  push_low: 0,
  ev_pct: 15.2,
  worst_case_pct: -3.5,
  model: 'nfl-key-numbers',
  ...over,
});

describe('readView and writeView', () => {
  it('reads the defaults from an empty query: every league, both markets, any book, $200, the stored format', () => {
    expect(readView(new URLSearchParams())).toEqual({
      league: null,
      market: null,
      book: null,
      minProbabilityPct: 0,
      minEv: null,
      totalDollars: 200,
      format: null,
    });
    expect(writeView(readView(new URLSearchParams())).toString()).toBe('');
  });

  it('round-trips a view through the URL, a negative minimum EV included, and ignores values out of range', () => {
    const query = 'league=nfl&market=total&book=fanduel&min_prob=5&min_ev=-2.5&stake=500&format=decimal';
    expect(writeView(readView(new URLSearchParams(query))).toString()).toBe(query);
    const bad = readView(
      new URLSearchParams('market=moneyline&min_prob=101&min_ev=-300&stake=-1&format=roman&league=%3Cb%3E'),
    );
    expect(bad).toEqual(readView(new URLSearchParams()));
  });
});

describe('visibleRows', () => {
  it("keeps the middles whose two books are the visitor's and that pass every filter", () => {
    const rows = [
      row({ id: 'a' }),
      row({ id: 'b', low: { ...row().low, book: 'betmgm' } }),
      row({ id: 'c', market_type: 'total' }),
      row({ id: 'd', ev_pct: -1.5, probability: 0.03 }),
      row({ id: 'e', event: { ...row().event, league: 'nba' } }),
    ];
    const ids = (view: string, books = ['fanduel', 'draftkings']) =>
      visibleRows(rows, readView(new URLSearchParams(view)), new Set(books)).map((item) => item.id);
    // BetMGM is not among the visitor's books: that pair is left out until it is.
    expect(ids('')).toEqual(['a', 'c', 'd', 'e']);
    expect(ids('', ['fanduel', 'draftkings', 'betmgm'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids('league=nfl&market=spread')).toEqual(['a', 'd']);
    expect(ids('min_ev=0')).toEqual(['a', 'c', 'e']);
    expect(ids('min_ev=-2')).toEqual(['a', 'c', 'd', 'e']);
    // 9.6 % ≥ 9.6 %: the boundary is kept, whatever the float.
    expect(ids('min_prob=9.6')).toEqual(['a', 'c', 'e']);
    expect(ids('book=betmgm', ['fanduel', 'draftkings', 'betmgm'])).toEqual(['b']);
  });
});

describe('middleFigures', () => {
  it('splits the total so either side alone pays the same, and sums it exactly', () => {
    const figures = middleFigures(row(), 20_000);
    // −105 pays 41/21 and −110 pays 21/11 (exact prices): stakes in proportion to 1/d.
    expect(figures.stakes).toEqual([9_888, 10_112]);
    expect(figures.stakes[0] + figures.stakes[1]).toBe(20_000);
    expect(figures.payouts).toEqual([19_305, 19_304]);
    expect(Math.abs(figures.payouts[0] - figures.payouts[1])).toBeLessThanOrEqual(2);
  });

  it('recomputes the worst case and the middle from the two prices: a miss loses the margin, a hit wins both', () => {
    for (const total of [20_000, 10_000, 12_345, 1_000_000]) {
      const figures = middleFigures(row(), total);
      const [paidHigh, paidLow] = figures.payouts;
      expect(figures.ifMiss).toBe(Math.min(paidHigh, paidLow) - total);
      expect(figures.ifMiddle).toBe(paidHigh + paidLow - total);
      // Per unit staked, the domain's returns at the same prices (within the cents the split rounds).
      const returns = middleReturns(41 / 21, 21 / 11);
      expect(figures.ifMiss / total).toBeCloseTo(returns.miss, 3);
      expect(figures.ifMiddle / total).toBeCloseTo(returns.hit, 3);
    }
    expect(middleFigures(row(), 20_000).ifMiss).toBeLessThan(0);
  });

  it('follows the prices: a pair that is also an arb never loses', () => {
    const arb = row({
      high: { ...row().high, american: '+110', decimal: 2.1 },
      low: { ...row().low, american: '+105', decimal: 2.05 },
    });
    const figures = middleFigures(arb, 20_000);
    expect(figures.ifMiss).toBeGreaterThan(0);
    expect(figures.ifMiddle).toBeGreaterThan(20_000);
  });

  it('stakes nothing for a total of 0, and rounds a fractional total to the cent', () => {
    expect(middleFigures(row(), 0)).toMatchObject({ stakes: [0, 0], ifMiss: 0, ifMiddle: 0 });
    expect(middleFigures(row(), 100.4).total).toBe(100);
  });
});

describe('gapText', () => {
  it("names where both sides win: the home side by a margin, the away side, a total, or a player's stat", () => {
    expect(gapText(row())).toBe('Kansas City Chiefs win by 3');
    expect(gapText(row({ gap: { from: 3, to: 4 } }))).toBe('Kansas City Chiefs win by 3 to 4');
    expect(gapText(row({ gap: { from: -7, to: -4 } }))).toBe('Buffalo Bills win by 4 to 7');
    expect(gapText(row({ gap: { from: -1, to: 1 } }))).toBe('a margin of -1 to 1 (home − away)');
    expect(gapText(row({ market_type: 'total', gap: { from: 45, to: 47 } }))).toBe('a total of 45 to 47');
    expect(
      gapText(row({ market_type: 'prop', market_label: 'LeBron James Points', gap: { from: 25, to: 26 } })),
    ).toBe('LeBron James Points: 25 to 26');
  });
});

describe('emptyRowsText and signedDollars', () => {
  it('says a delayed feed with no middle yet shows the market as it was; otherwise that nothing matches', () => {
    expect(emptyRowsText({ total: 0, delay_seconds: 120 })).toBe(
      'No middle in this view yet. It shows the market as it was 2 minutes ago: on a server that has just started, middles appear once it has run for 2 minutes.',
    );
    expect(emptyRowsText({ total: 3, delay_seconds: 120 })).toBe(
      'No middle matches these filters and sportsbooks right now.',
    );
  });

  it('writes gains with a plus and losses with a minus sign', () => {
    expect(signedDollars(1234)).toBe('+$12.34');
    expect(signedDollars(-456)).toBe('−$4.56');
    expect(signedDollars(0)).toBe('$0.00');
  });
});
