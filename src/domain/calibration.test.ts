import { describe, expect, it } from 'vitest';
import { binOf, brierTerm, calibrationGroups, logLossTerm, outcomeValue } from './calibration.ts';

// The calibration report's figures (decision 266), worked out by hand.

describe('calibrationGroups', () => {
  const forecast = (
    market: string,
    fair: number,
    result: 'won' | 'lost' | 'push' | 'half_won',
    books = {},
  ) => ({
    market,
    league: 'nfl' as const,
    marketType: 'spread',
    fair,
    result,
    books: new Map(Object.entries(books)) as Map<string, number>,
  });

  it('scores won and lost outcomes only, bins them by fair probability, pairs each book with ours', () => {
    const [group] = calibrationGroups([
      forecast('a', 0.7, 'won', { fanduel: 0.8 }),
      forecast('a', 0.3, 'lost', { fanduel: 0.2 }),
      forecast('b', 0.55, 'push'),
      forecast('c', 0.4, 'half_won'),
      forecast('d', 1, 'won'),
    ]);
    // Three forecasts: 0.7 won, 0.3 lost, 1 won. Brier ((0.3)² + (0.3)² + 0) / 3 = 0.06.
    expect(group).toMatchObject({
      league: 'nfl',
      league_name: 'NFL',
      market_type: 'spread',
      markets: 2,
      forecasts: 3,
    });
    expect(group!.brier).toBeCloseTo(0.06, 4);
    expect(group!.log_loss).toBeCloseTo((-Math.log(0.7) * 2 - Math.log(1 - 1e-6)) / 3, 4);
    expect(group!.bins[7]).toEqual({ from: 0.7, to: 0.8, forecasts: 1, mean_fair: 0.7, observed: 1 });
    expect(group!.bins[3]).toEqual({ from: 0.3, to: 0.4, forecasts: 1, mean_fair: 0.3, observed: 0 });
    // A fair probability of 1 falls in the last bin.
    expect(group!.bins[9]).toMatchObject({ forecasts: 1, observed: 1 });
    // FanDuel priced the first market only: 0.8 won, 0.2 lost → Brier 0.04; ours on the same two 0.09.
    expect(group!.books).toEqual([
      {
        book: 'fanduel',
        forecasts: 2,
        brier: 0.04,
        log_loss: Number((-Math.log(0.8)).toFixed(4)),
        fair_brier: 0.09,
        fair_log_loss: Number((-Math.log(0.7)).toFixed(4)),
      },
    ]);
  });

  it('orders groups by league then market type, and leaves out a group with no yes-or-no result', () => {
    const groups = calibrationGroups([
      { ...forecast('x', 0.5, 'won'), league: 'nhl', marketType: 'total' },
      { ...forecast('y', 0.5, 'won'), league: 'nba', marketType: 'total' },
      { ...forecast('z', 0.5, 'lost'), league: 'nba', marketType: 'moneyline' },
      { ...forecast('w', 0.5, 'push'), league: 'mlb', marketType: 'total' },
    ]);
    expect(groups.map((g) => `${g.league} ${g.market_type}`)).toEqual([
      'nba moneyline',
      'nba total',
      'nhl total',
    ]);
  });

  it('has the textbook figures: Brier 0.25 and log loss ln 2 at 50 %; bins in tenths; results as 1 and 0', () => {
    expect(brierTerm(0.5, 1)).toBe(0.25);
    expect(logLossTerm(0.5, 0)).toBeCloseTo(Math.LN2, 12);
    expect([0, 0.0999, 0.1, 0.95, 1].map(binOf)).toEqual([0, 0, 1, 9, 9]);
    expect(
      ['won', 'lost', 'push', 'void', 'half_won', 'half_lost'].map((r) => outcomeValue(r as 'won')),
    ).toEqual([1, 0, null, null, null, null]);
  });
});
