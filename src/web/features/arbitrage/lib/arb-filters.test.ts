import { describe, expect, it } from 'vitest';
import { marketLabel } from '#domain/markets.ts';
import { arb, moneyline } from '#tests/support/arbitrage-fixtures.ts';
import { filtersFromQuery, queryForView, viewQuery, type FeedArb } from './arb-filters.ts';
import { arbFilter, arbMarketType, marketType } from './arb-predicate.ts';
import { DEFAULT_FILTERS, type ArbFilters } from './tool-settings.ts';
import { leagueOptions } from '../components/filter-menu.tsx';

const NOW = Date.UTC(2026, 10, 24, 12);
const HOUR = 3_600_000;

function game(
  id: string,
  {
    league,
    market = 'Moneyline',
    marketType,
    edge = 1,
    live = false,
    startsInH = 3,
    sport,
  }: Partial<{
    league: string;
    market: string;
    marketType: string;
    edge: number;
    live: boolean;
    startsInH: number | null;
    sport: string;
  }> = {},
): FeedArb {
  const base = moneyline(id, edge, live);
  const date = startsInH === null ? undefined : new Date(NOW + startsInH * HOUR).toISOString();
  const built = arb(id, base.sides, { live, edge, market, date });
  const typed = marketType === undefined ? built : { ...built, market_type: marketType };
  return { ...typed, event: { ...built.event, league, sport } };
}

/** A player prop as the engine publishes it (decision 121): the label reads like a total, `market_type` says prop. */
const prop = (id: string, market = 'LeBron James Points Over/Under 27.5') =>
  game(id, { league: 'nba', market, marketType: 'prop' });

describe('marketType', () => {
  it('reads every label the domain builds, with periods', () => {
    const cases = [
      [{ type: 'moneyline', period: 'full', point: null }, 'moneyline'],
      [{ type: 'spread', period: 'full', point: -3.5 }, 'spread'],
      [{ type: 'spread', period: 'h1', point: 0 }, 'spread'],
      [{ type: 'total', period: 'full', point: 221.5 }, 'total'],
      [{ type: 'total', period: 'q1', point: 55.5 }, 'total'],
      [{ type: '1x2', period: 'full', point: null }, '1x2'],
      [{ type: '1x2', period: 'h1', point: null }, '1x2'],
      [{ type: 'moneyline', period: 'f5', point: null }, 'moneyline'],
    ] as const;
    for (const [spec, type] of cases) expect(marketType(marketLabel(spec)), marketLabel(spec)).toBe(type);
  });

  it('reads other spellings and says null for what it does not know', () => {
    expect(marketType('Spread')).toBe('spread');
    expect(marketType('Total Points')).toBe('total');
    expect(marketType('Run Line -1.5')).toBe('spread');
    expect(marketType('Puck Line')).toBe('spread');
    expect(marketType('Over/Under 8.5')).toBe('total');
    expect(marketType('ML')).toBe('moneyline');
    expect(marketType('3-Way Moneyline')).toBe('1x2');
    expect(marketType('Player Points')).toBeNull();
    expect(marketType('Totally unknown')).toBeNull(); // "total" only as a word
  });
});

describe('arbMarketType', () => {
  it("is the feed's market_type when given, 'prop' as 'props', whatever the label says", () => {
    expect(arbMarketType(prop('p1'))).toBe('props');
    expect(arbMarketType(prop('p2', 'Travis Kelce Anytime TD'))).toBe('props');
    expect(arbMarketType(prop('p3', 'LeBron James 1st Quarter Points Over/Under 7.5'))).toBe('props');
    expect(arbMarketType(game('g1', { market: 'Total 221.5', marketType: 'total' }))).toBe('total');
    expect(arbMarketType(game('g2', { market: '1st Half Moneyline', marketType: 'moneyline' }))).toBe(
      'moneyline',
    );
    expect(arbMarketType(game('g3', { market: 'Full Time Result', marketType: '1x2' }))).toBe('1x2');
  });

  it('reads the label when the feed has no market_type (older snapshots, the sample data)', () => {
    expect(arbMarketType(game('old1', { market: 'Spread -3.5 / +3.5' }))).toBe('spread');
    expect(arbMarketType(game('old2', { market: 'Player Points' }))).toBeNull();
  });

  it('is null for a market_type the page does not offer (a type added later)', () => {
    expect(arbMarketType(game('new1', { market: 'Team Total 110.5', marketType: 'team_total' }))).toBeNull();
  });
});

describe('arbFilter', () => {
  const arbs = [
    game('nba1', { league: 'nba', edge: 2.5 }),
    game('nhl1', { league: 'nhl', market: 'Spread -1.5 / +1.5', edge: 1, startsInH: 0.5 }),
    game('mlb1', { league: 'mlb', market: 'Total 8.5', edge: 0.3, startsInH: 30 }),
    game('anon', { edge: 1.2, startsInH: null }),
    game('live', { league: 'nba', edge: 0.1, live: true, startsInH: -1 }),
  ];
  const keep = (filters: Partial<ArbFilters>) => {
    const predicate = arbFilter({ ...DEFAULT_FILTERS, ...filters }, NOW);
    return arbs.filter((a) => predicate?.(a) ?? true).map((a) => a.event.id);
  };

  it('is null with the defaults (docs/product.md list, untouched)', () => {
    expect(arbFilter(DEFAULT_FILTERS, NOW)).toBeNull();
  });

  it('keeps arbs at or above the minimum edge', () => {
    expect(keep({ minEdgePct: 1 })).toEqual(['nba1', 'nhl1', 'anon']);
    expect(keep({ minEdgePct: 0 })).toEqual(['nba1', 'nhl1', 'mlb1', 'anon', 'live']);
  });

  it('keeps the chosen leagues, leaving out arbs whose league the feed does not give', () => {
    expect(keep({ leagues: ['nba', 'nhl'] })).toEqual(['nba1', 'nhl1', 'live']);
  });

  it('keeps the chosen market types', () => {
    expect(keep({ markets: ['spread', 'total'] })).toEqual(['nhl1', 'mlb1']);
    expect(keep({ markets: ['moneyline'] })).toEqual(['nba1', 'anon', 'live']);
  });

  it('keeps player props with Player props only, by market_type, and still reads labels without it', () => {
    const mixed = [
      prop('lebron'),
      prop('kelce', 'Travis Kelce Anytime TD'),
      game('ml', { league: 'nba', marketType: 'moneyline' }),
      game('old', { league: 'nba', market: 'Total 221.5' }), // no market_type: the label says total
    ];
    const keepOf = (markets: ArbFilters['markets']) => {
      const predicate = arbFilter({ ...DEFAULT_FILTERS, markets }, NOW)!;
      return mixed.filter(predicate).map((a) => a.event.id);
    };
    expect(keepOf(['props'])).toEqual(['lebron', 'kelce']);
    expect(keepOf(['moneyline'])).toEqual(['ml']);
    // "Over/Under" in a prop's label does not make it a total.
    expect(keepOf(['total'])).toEqual(['old']);
    expect(keepOf(['props', 'total'])).toEqual(['lebron', 'kelce', 'old']);
  });

  it('windows pre-match starts only; live arbs and started games pass, unknown starts do not', () => {
    expect(keep({ startsWithin: '1h' })).toEqual(['nhl1', 'live']);
    expect(keep({ startsWithin: '6h' })).toEqual(['nba1', 'nhl1', 'live']);
    expect(keep({ startsWithin: '24h' })).toEqual(['nba1', 'nhl1', 'live']);
  });

  it('combines every filter', () => {
    expect(
      keep({ minEdgePct: 0.5, leagues: ['nba', 'nhl', 'mlb'], markets: ['spread'], startsWithin: '1h' }),
    ).toEqual(['nhl1']);
  });
});

describe('URL and storage', () => {
  const every: ArbFilters = {
    minEdgePct: 1.5,
    leagues: ['nba', 'nhl'],
    markets: ['spread', 'total'],
    startsWithin: '6h',
  };

  it('writes the filters and the format to the query, keeping other parameters, and reads them back', () => {
    const query = queryForView('?utm_source=x', every, 'decimal');
    expect(query).toBe('?utm_source=x&min=1.5&leagues=nba,nhl&markets=spread,total&starts=6h&format=decimal');
    expect(filtersFromQuery(new URLSearchParams(query!))).toEqual(every);
    expect(queryForView(query!, every, 'decimal')).toBeNull();
    expect(queryForView(query!, DEFAULT_FILTERS, 'american')).toBe('?utm_source=x');
    expect(queryForView('', DEFAULT_FILTERS, 'american')).toBeNull();
  });

  it('has no filters without a filter parameter, and drops what it cannot read', () => {
    expect(filtersFromQuery(new URLSearchParams('format=decimal'))).toBeNull();
    expect(
      filtersFromQuery(new URLSearchParams('min=abc&leagues=NBA,<x>&markets=total,futures&starts=2h')),
    ).toEqual({
      minEdgePct: null,
      leagues: ['nba'],
      markets: ['total'],
      startsWithin: 'any',
    });
    expect(filtersFromQuery(new URLSearchParams('min=-1'))?.minEdgePct).toBeNull();
  });

  it('round-trips Player props as markets=props, in the URL and in the stored query', () => {
    const props: ArbFilters = { ...DEFAULT_FILTERS, markets: ['props'] };
    expect(viewQuery(props)).toBe('markets=props');
    expect(queryForView('', props, 'american')).toBe('?markets=props');
    expect(filtersFromQuery(new URLSearchParams('markets=props'))).toEqual(props);
    expect(filtersFromQuery(new URLSearchParams('markets=PROPS,spread'))?.markets).toEqual([
      'spread',
      'props',
    ]);
  });

  it('writes the view as the query storage keeps', () => {
    expect(viewQuery(every)).toBe('min=1.5&leagues=nba,nhl&markets=spread,total&starts=6h');
    expect(viewQuery(DEFAULT_FILTERS, 'probability')).toBe('format=probability');
    expect(viewQuery(DEFAULT_FILTERS)).toBe('');
  });
});

describe('leagueOptions', () => {
  it("lists the leagues present by the feed's sport, plus selected ones absent from the feed", () => {
    const arbs = [
      game('a', { league: 'nhl', sport: 'hockey' }),
      game('b', { league: 'nba', sport: 'basketball' }),
      game('c', { league: 'ncaab', sport: 'basketball' }),
      game('d', { league: 'cfl', sport: 'football' }),
      game('e'),
    ];
    expect(leagueOptions(arbs, ['epl'])).toEqual([
      { id: 'nba', name: 'NBA', sport: 'basketball' },
      { id: 'ncaab', name: 'NCAAB', sport: 'basketball' },
      { id: 'cfl', name: 'CFL', sport: 'football' },
      { id: 'nhl', name: 'NHL', sport: 'hockey' },
      { id: 'epl', name: 'Premier League', sport: 'other' },
    ]);
  });
});
