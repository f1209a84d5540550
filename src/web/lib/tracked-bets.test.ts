import { describe, expect, it } from 'vitest';
import type { Arb } from '#domain/schemas/feed.ts';
import type { EvFeedRow } from '#domain/schemas/ev-feed.ts';
import type { MiddleFeedRow } from '#domain/schemas/middles-feed.ts';
import { arbBets, evBets, KEY_INSTANT, middleBets, rowTrackKeys, trackedBets } from './tracked-bets.ts';

// What a finder row's Track button adds (issue 57): a bet per side with a leg, at the row's stakes, grouped for an arb
// or a middle (game lines and props, decision 282), and nothing for a row without legs (an older snapshot's).

const AT = '2026-11-22T21:14:00.000Z';
const links = { desktop: null, mobile: null };
const event = {
  id: 'nfl-buf-kc-1',
  league: 'nfl',
  sport: 'football',
  home: 'Kansas City Chiefs',
  away: 'Buffalo Bills',
  starts_at: '2026-11-22T18:00:00.000Z',
  live: true,
};

const arb: Arb = {
  event: {
    id: event.id,
    teams: {
      away: { id: 'buf', name: event.away, abbreviation: 'BUF' },
      home: { id: 'kc', name: event.home, abbreviation: 'KC' },
    },
    live: true,
    date: event.starts_at,
    sport: 'football',
    league: 'nfl',
  },
  market: 'Spread -3.5 / +3.5',
  market_type: 'spread',
  sides: [
    {
      id: 'fanduel-a',
      sportsbook: 'fanduel',
      name: 'Buffalo Bills +3.5',
      price: '+105',
      selection: { name: 'Buffalo Bills' },
      decimal_odds: 2.05,
      implied_prob: 0.487805,
      links,
      leg: { market: 'spread', period: 'full', line: -3.5, outcome: 'away' },
    },
    {
      id: 'draftkings-b',
      sportsbook: 'draftkings',
      name: 'Kansas City Chiefs -3.5',
      price: '+100',
      selection: { name: 'Kansas City Chiefs' },
      decimal_odds: 2,
      implied_prob: 0.5,
      links,
      leg: { market: 'spread', period: 'full', line: -3.5, outcome: 'home' },
    },
  ],
  edge_pct: 1.2,
};

describe('bets from finder rows', () => {
  it('tracks an arb as its legs, grouped, each side on its own line at the row’s stakes', () => {
    const bets = arbBets(arb, [9_877, 10_123], AT);
    expect(bets.map((bet) => [bet.kind, bet.outcome, bet.line, bet.stake, bet.book, bet.selection])).toEqual([
      ['arb', 'away', 3.5, 9_877, 'fanduel', 'Buffalo Bills +3.5'],
      ['arb', 'home', -3.5, 10_123, 'draftkings', 'Kansas City Chiefs -3.5'],
    ]);
    expect(bets[0]!.group).toBe(bets[1]!.group);
    expect(bets[0]).toMatchObject({ event_id: event.id, league: 'nfl', sport: 'football', placed_at: AT });
    // The keys the button checks do not depend on the instant or the stakes.
    expect(rowTrackKeys(arbBets(arb, [1, 1], KEY_INSTANT))).toEqual(rowTrackKeys(bets));
    expect(rowTrackKeys(bets)).toHaveLength(2);
  });

  it('tracks nothing from a row with a side without a leg (an older snapshot) or without a stake', () => {
    const legless = { ...arb, sides: arb.sides.map(({ leg: _leg, ...side }) => side) };
    expect(arbBets(legless, [100, 100], AT)).toEqual([]);
    expect(arbBets(arb, [0, 100], AT)).toEqual([]);
  });

  it('tracks a positive-EV price and a middle’s two sides', () => {
    const ev: EvFeedRow = {
      id: 'ev-1',
      event,
      market_type: 'total',
      market: 'Total 44.5',
      outcome: 'Over 44.5',
      book: 'betmgm',
      american: '+110',
      decimal: 2.1,
      fair_prob: 0.5,
      fair_american: '+100',
      books: 5,
      ev_pct: 5,
      links,
      leg: { market: 'total', period: 'full', line: 44.5, outcome: 'over' },
    };
    expect(evBets(ev, 2_500, AT)).toMatchObject([{ kind: 'ev', group: null, line: 44.5, stake: 2_500 }]);
    const side = (name: string, line: number, outcome: string) => ({
      book: 'fanduel',
      name,
      line,
      american: '-110',
      decimal: 1.9091,
      links,
      leg: { market: 'spread', period: 'full', line: 3.5, outcome },
    });
    const middle: MiddleFeedRow = {
      id: 'm-1',
      event,
      market_type: 'spread',
      market_label: 'Spread',
      high: side('Kansas City Chiefs +3.5', -3.5, 'home'),
      low: {
        ...side('Buffalo Bills -2.5', -2.5, 'away'),
        leg: { market: 'spread', period: 'full', line: 2.5, outcome: 'away' },
      },
      gap: { from: -3, to: -3 },
      probability: 0.08,
      push_high: 0,
      push_low: 0,
      ev_pct: -1,
      worst_case_pct: -4.5,
      model: 'nfl-drives',
    };
    const bets = middleBets(middle, [10_000, 10_000], AT);
    expect(bets.map((bet) => [bet.kind, bet.outcome, bet.line])).toEqual([
      ['middle', 'home', 3.5],
      ['middle', 'away', -2.5],
    ]);
    expect(bets[0]!.group).toBe(bets[1]!.group);
  });

  it('adds a row once to the stored list', () => {
    const bets = arbBets(arb, [9_877, 10_123], AT);
    expect(trackedBets.add(bets).added).toBe(2);
    expect(trackedBets.add(bets)).toMatchObject({ added: 0, skipped: 2 });
    expect(trackedBets.get()).toHaveLength(2);
  });

  it('tracks a prop price and a prop middle with the stat and player their legs carry', () => {
    const propLeg = (outcome: string, line: number) => ({
      market: 'prop',
      period: 'full',
      line,
      outcome,
      stat: 'player_reception_yds',
      player_id: 'nfl-kc-p07',
      player: 'Travis Kelce',
    });
    const ev: EvFeedRow = {
      id: 'ev-prop',
      event,
      market_type: 'prop',
      market: 'Travis Kelce Receiving Yards Over/Under 55.5',
      outcome: 'Travis Kelce Receiving Yards Over 55.5',
      book: 'betmgm',
      american: '+110',
      decimal: 2.1,
      fair_prob: 0.5,
      fair_american: '+100',
      books: 5,
      ev_pct: 5,
      links,
      leg: propLeg('over', 55.5),
    };
    const [bet] = evBets(ev, 2_500, AT);
    expect(bet).toMatchObject({
      kind: 'ev',
      market: 'prop',
      line: 55.5,
      outcome: 'over',
      selection: 'Travis Kelce Receiving Yards Over 55.5',
      prop: { stat: 'player_reception_yds', player: 'Travis Kelce', player_id: 'nfl-kc-p07' },
    });
    // Another player's prop on the same line is another bet to the Track button.
    const other = { ...ev, leg: { ...ev.leg!, player_id: 'nfl-kc-p08' } };
    expect(rowTrackKeys(evBets(other, 1, KEY_INSTANT))).not.toEqual(rowTrackKeys([bet!]));
    // A prop leg without its stat or player cannot be graded: nothing to track.
    expect(evBets({ ...ev, leg: { ...ev.leg!, stat: undefined } }, 2_500, AT)).toEqual([]);
    const side = (name: string, leg: ReturnType<typeof propLeg>, line: number) => ({
      book: 'fanduel',
      name,
      line,
      american: '+100',
      decimal: 2,
      links,
      leg,
    });
    const middle: MiddleFeedRow = {
      id: 'mid-prop',
      event,
      market_type: 'prop',
      market_label: 'Travis Kelce Receiving Yards',
      high: side('Travis Kelce Receiving Yards Over 52.5', propLeg('over', 52.5), 52.5),
      low: side('Travis Kelce Receiving Yards Under 57.5', propLeg('under', 57.5), 57.5),
      gap: { from: 53, to: 57 },
      probability: 0.2,
      push_high: 0,
      push_low: 0,
      ev_pct: 3,
      worst_case_pct: -2,
      model: 'prop-normal',
    };
    const legs = middleBets(middle, [5_000, 5_000], AT);
    expect(legs.map((one) => [one.kind, one.market, one.outcome, one.line, one.prop?.player])).toEqual([
      ['middle', 'prop', 'over', 52.5, 'Travis Kelce'],
      ['middle', 'prop', 'under', 57.5, 'Travis Kelce'],
    ]);
  });
});
