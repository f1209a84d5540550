import { describe, expect, it } from 'vitest';
import type { Player } from '#domain/props.ts';
import type { MarketDto } from '#domain/schemas/api/odds.ts';
import { filterKey, markMainLines, matchesPlayer, playerFilter } from './views.ts';

describe('filterKey', () => {
  it('gives equal filters one key whatever the order of their list values', () => {
    expect(filterKey(['nba', new Set(['fanduel', 'betmgm'])])).toBe(
      filterKey(['nba', new Set(['betmgm', 'fanduel'])]),
    );
  });

  it('tells filters apart by position, value and absence', () => {
    const keys = [
      filterKey(['nba', undefined]),
      filterKey([undefined, 'nba']),
      filterKey(['nhl', undefined]),
      filterKey([undefined, undefined]),
      filterKey([new Set(['spread']), false]),
      filterKey([new Set(['spread']), true]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the player filter', () => {
  const lebron: Player = { id: 'p-lebron', name: 'LeBron James', team: 'home' };
  const luka: Player = { id: 'p-luka', name: 'Luka Dončić', team: 'home' };

  it('matches a player by exact id or by name with case, accents and punctuation ignored', () => {
    for (const query of ['p-lebron', 'lebron james', 'LEBRON JAMES', '  LeBron  James ', 'Lebron James Jr.'])
      expect(matchesPlayer(lebron, playerFilter(query)!), query).toBe(true);
    for (const query of ['luka doncic', 'LUKA DONČIĆ', 'p-luka'])
      expect(matchesPlayer(luka, playerFilter(query)!), query).toBe(true);
    for (const query of ['lebron', 'P-LEBRON', 'james lebron', '---'])
      expect(matchesPlayer(lebron, playerFilter(query)!), query).toBe(false);
    expect(matchesPlayer(undefined, playerFilter('p-lebron')!)).toBe(false);
    expect(playerFilter(undefined)).toBeUndefined();
  });
});

describe('markMainLines with props', () => {
  const price = (book: string, implied: number) => ({
    book: book as 'fanduel',
    american: '-110',
    decimal: 1 / implied,
    implied_prob: implied,
    updated_at: '2026-11-22T00:00:00.000Z',
    suspended: false,
    links: { desktop: null, mobile: null },
  });
  const prop = (
    playerId: string,
    point: number | null,
    books: string[],
    stat = 'player_points',
  ): MarketDto => ({
    key: `e|prop|${stat}|full|${playerId}|${point ?? ''}`,
    type: 'prop',
    period: 'full',
    stat: stat as 'player_points',
    player: { id: playerId, name: playerId, team: 'home' },
    point,
    label: playerId,
    main: true,
    outcomes: (point === null ? ['yes', 'no'] : ['over', 'under']).map((outcome) => ({
      outcome: outcome as 'over',
      name: outcome,
      prices: books.map((book) => price(book, 0.52)),
    })),
  });

  it('decides the main line per player, stat and period; yes/no props are always main', () => {
    const markets = [
      prop('a', 27.5, ['fanduel', 'draftkings']),
      prop('a', 28.5, ['fanduel']),
      prop('b', 30.5, ['fanduel']),
      prop('b', 31.5, ['fanduel', 'draftkings', 'betmgm']),
      prop('a', 8.5, ['fanduel'], 'player_rebounds'),
      prop('a', null, ['fanduel'], 'player_double_double'),
    ];
    markMainLines(markets);
    expect(
      markets.map((market) => `${market.player!.id}:${market.stat}:${market.point}:${market.main}`),
    ).toEqual([
      'a:player_points:27.5:true',
      'a:player_points:28.5:false',
      'b:player_points:30.5:false',
      'b:player_points:31.5:true',
      'a:player_rebounds:8.5:true',
      'a:player_double_double:null:true',
    ]);
  });
});
