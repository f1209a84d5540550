import { describe, expect, it } from 'vitest';
import type { EvFeedRow } from '#domain/schemas/ev-feed.ts';
import { emptyRowsText, readView, rowStakeCents, visibleRows, writeView } from './ev-view.ts';

const row = (over: Partial<EvFeedRow>): EvFeedRow => ({
  id: 'x',
  event: {
    id: 'e',
    league: 'nba',
    sport: 'basketball',
    home: 'Los Angeles Lakers',
    away: 'Boston Celtics',
    starts_at: '2026-11-22T03:30:00.000Z',
    live: false,
  },
  market_type: 'moneyline',
  market: 'Moneyline',
  outcome: 'Los Angeles Lakers',
  book: 'betmgm',
  american: '+200',
  decimal: 3,
  fair_prob: 0.4,
  fair_american: '+150',
  books: 5,
  ev_pct: 20,
  links: { desktop: null, mobile: null },
  ...over,
});

describe('readView and writeView', () => {
  it('reads the defaults from an empty query: every league, market and book, $1,000, a quarter Kelly', () => {
    expect(readView(new URLSearchParams())).toEqual({
      league: null,
      market: null,
      book: null,
      minEv: 0,
      bankrollDollars: 1000,
      kelly: 0.25,
    });
    expect(writeView(readView(new URLSearchParams())).toString()).toBe('');
  });

  it('round-trips a view through the URL and ignores values out of range', () => {
    const query = 'league=nba&market=prop&book=fanduel&min_ev=2.5&bankroll=5000&kelly=0.5';
    expect(writeView(readView(new URLSearchParams(query))).toString()).toBe(query);
    const bad = readView(new URLSearchParams('min_ev=-3&bankroll=abc&kelly=0.3&league=%3Cscript%3E'));
    expect(bad).toMatchObject({ minEv: 0, bankrollDollars: 1000, kelly: 0.25, league: null });
  });
});

describe('visibleRows', () => {
  it("keeps the rows of the visitor's books that pass every filter", () => {
    const rows = [
      row({ id: 'a' }),
      row({ id: 'b', book: 'fanduel' }),
      row({ id: 'c', market_type: 'prop' }),
      row({ id: 'd', ev_pct: 1 }),
      row({ id: 'e', event: { ...row({}).event, league: 'nfl' } }),
    ];
    const ids = (view: string, books = ['betmgm']) =>
      visibleRows(rows, readView(new URLSearchParams(view)), new Set(books)).map((item) => item.id);
    expect(ids('')).toEqual(['a', 'c', 'd', 'e']);
    expect(ids('', ['betmgm', 'fanduel'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids('league=nba&market=moneyline&min_ev=2')).toEqual(['a']);
    expect(ids('book=fanduel', ['betmgm', 'fanduel'])).toEqual(['b']);
  });
});

describe('rowStakeCents', () => {
  it('is the fraction of the Kelly stake of the bankroll: d = 3, p = 0.4 is f* = 0.1', () => {
    expect(rowStakeCents(row({}), readView(new URLSearchParams()))).toBe(2_500);
    expect(rowStakeCents(row({}), readView(new URLSearchParams('bankroll=200&kelly=1')))).toBe(2_000);
    expect(rowStakeCents(row({ decimal: 2.4 }), readView(new URLSearchParams()))).toBe(0);
  });
});

describe('emptyRowsText', () => {
  it('says a delayed view with no price at all shows the market as it was, which a new server has not had yet', () => {
    expect(emptyRowsText({ total: 0, delay_seconds: 120 })).toBe(
      'No price with positive EV in this view yet. It shows the market as it was 2 minutes ago: on a server that has just started, prices appear once it has run for 2 minutes.',
    );
    expect(emptyRowsText({ total: 0, delay_seconds: 30 })).toContain('as it was 30 seconds ago');
  });

  it('says only that nothing matches when the feed has prices the filters leave out, or runs in real time', () => {
    const none = 'No price with positive EV matches these filters and sportsbooks right now.';
    expect(emptyRowsText({ total: 12, delay_seconds: 120 })).toBe(none);
    expect(emptyRowsText({ total: 0, delay_seconds: 0 })).toBe(none);
  });
});
