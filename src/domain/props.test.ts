import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEAGUES, marketKey, PERIODS, sideId, type LeagueKey } from './markets.ts';
import {
  isPropStatKey,
  oddsApiMarketKey,
  PROP_CATALOGUE,
  PROP_STAT_KEYS,
  propMarketLabel,
  propOutcomeLabel,
  propOutcomes,
  propSpecProblem,
  propStat,
  type PropMarketSpec,
  type PropOutcomeKey,
  type PropStatKey,
} from './props.ts';

const LEAGUE_KEYS = Object.keys(LEAGUES) as LeagueKey[];
/** The leagues offering a stat. */
const leaguesOffering = (stat: PropStatKey) =>
  LEAGUE_KEYS.filter((league) => propStat(league, stat) !== undefined);
/** Whether the outcome belongs to the stat's kind in this league (an over never belongs to a yes/no prop). */
const isPropOutcomeOf = (league: LeagueKey, stat: PropStatKey, outcome: PropOutcomeKey) => {
  const def = propStat(league, stat);
  return def !== undefined && propOutcomes(def.kind).includes(outcome);
};
const spec = (
  stat: PropStatKey,
  point: number | null,
  playerId = 'p1',
  period: PropMarketSpec['period'] = 'full',
) => ({ type: 'prop', stat, period, playerId, point }) satisfies PropMarketSpec;

describe('prop catalogue', () => {
  it.each([
    [
      'nba',
      [
        'player_points',
        'player_rebounds',
        'player_assists',
        'player_threes',
        'player_points_rebounds_assists',
      ],
    ],
    [
      'ncaab',
      [
        'player_points',
        'player_rebounds',
        'player_assists',
        'player_threes',
        'player_points_rebounds_assists',
      ],
    ],
    [
      'nfl',
      ['player_pass_yds', 'player_rush_yds', 'player_reception_yds', 'player_receptions', 'player_pass_tds'],
    ],
    ['mlb', ['batter_hits', 'batter_total_bases', 'pitcher_strikeouts']],
    ['nhl', ['player_shots_on_goal', 'player_points']],
    ['epl', ['player_shots', 'player_shots_on_target']],
    ['mls', ['player_shots', 'player_shots_on_target']],
  ] as const)('%s offers the over/under stats of issue 15', (league, stats) => {
    const ou = PROP_CATALOGUE[league].filter((def) => def.kind === 'over_under').map((def) => def.key);
    expect(ou).toEqual(stats);
  });

  it.each([
    ['nba', 'player_double_double'],
    ['ncaab', 'player_double_double'],
    ['nfl', 'player_anytime_td'],
    ['nhl', 'player_goal_scorer_anytime'],
    ['epl', 'player_goal_scorer_anytime'],
    ['mls', 'player_goal_scorer_anytime'],
  ] as const)('%s offers the yes/no proposition %s', (league, stat) => {
    expect(propStat(league, stat)?.kind).toBe('yes_no');
  });

  it('MLB has no yes/no prop; every entry is full game at least, periods valid, keys unique per league', () => {
    expect(PROP_CATALOGUE.mlb.some((def) => def.kind === 'yes_no')).toBe(false);
    for (const league of LEAGUE_KEYS) {
      const keys = PROP_CATALOGUE[league].map((def) => def.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const def of PROP_CATALOGUE[league]) {
        expect(def.periods).toContain('full');
        for (const period of def.periods) expect(PERIODS).toContain(period);
        if (def.kind === 'yes_no') expect(def.periods).toEqual(['full']);
        expect(def.label).not.toBe('');
      }
    }
  });

  it('a stat key shared by two leagues has one kind and one label (labels need no league)', () => {
    for (const stat of PROP_STAT_KEYS) {
      const defs = leaguesOffering(stat).map((league) => propStat(league, stat)!);
      expect(defs.length).toBeGreaterThan(0);
      expect(new Set(defs.map((def) => `${def.kind}|${def.label}`)).size).toBe(1);
    }
  });

  it('every catalogue key is a stat key, and The Odds API keys carry the period suffix', () => {
    for (const league of LEAGUE_KEYS)
      for (const def of PROP_CATALOGUE[league]) expect(isPropStatKey(def.key)).toBe(true);
    expect(isPropStatKey('player_blocks')).toBe(false);
    expect(oddsApiMarketKey('player_points', 'full')).toBe('player_points');
    expect(oddsApiMarketKey('player_points', 'q1')).toBe('player_points_q1');
    expect(oddsApiMarketKey('player_pass_yds', 'q1')).toBe('player_pass_yds_q1');
  });
});

describe('prop outcomes', () => {
  it('over/under and yes/no, each stat with the pair of its kind', () => {
    expect(propOutcomes('over_under')).toEqual(['over', 'under']);
    expect(propOutcomes('yes_no')).toEqual(['yes', 'no']);
    expect(isPropOutcomeOf('nba', 'player_points', 'over')).toBe(true);
    expect(isPropOutcomeOf('nba', 'player_points', 'yes')).toBe(false);
    expect(isPropOutcomeOf('nfl', 'player_anytime_td', 'no')).toBe(true);
    expect(isPropOutcomeOf('nfl', 'player_anytime_td', 'under')).toBe(false);
    expect(isPropOutcomeOf('mlb', 'player_points', 'over')).toBe(false);
  });
});

describe('marketKey of a prop', () => {
  it('alternate lines, players, periods and stats are separate markets', () => {
    const base = marketKey('e1', spec('player_points', 27.5));
    expect(base).toBe('e1|prop|player_points|full|p1|27.5');
    expect(marketKey('e1', spec('player_points', 28.5))).not.toBe(base);
    expect(marketKey('e1', spec('player_points', 27.5, 'p2'))).not.toBe(base);
    expect(marketKey('e1', spec('player_points', 27.5, 'p1', 'q1'))).not.toBe(base);
    expect(marketKey('e1', spec('player_rebounds', 27.5))).not.toBe(base);
    expect(marketKey('e2', spec('player_points', 27.5))).not.toBe(base);
    expect(marketKey('e1', spec('player_anytime_td', null))).toBe('e1|prop|player_anytime_td|full|p1|');
  });

  it('distinct specs give distinct keys, whatever the player ids hold, and never a game-line key', () => {
    const specArb = fc.record({
      type: fc.constant('prop' as const),
      stat: fc.constantFrom(...PROP_STAT_KEYS),
      period: fc.constantFrom(...PERIODS),
      playerId: fc.string({ maxLength: 6 }),
      point: fc.option(
        fc.integer({ min: 0, max: 40 }).map((n) => n + 0.5),
        { nil: null },
      ),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), specArb, specArb, (eventId, a, b) => {
        const same =
          a.stat === b.stat && a.period === b.period && a.playerId === b.playerId && a.point === b.point;
        expect(marketKey(eventId, a) === marketKey(eventId, b)).toBe(same);
        expect(marketKey(eventId, a)).not.toBe(
          marketKey(eventId, { type: 'total', period: a.period, point: a.point }),
        );
      }),
    );
  });

  it('side ids are stable and differ by outcome and book', () => {
    const s = spec('player_points', 27.5);
    expect(sideId('e1', s, 'over', 'fanduel')).toBe(sideId('e1', s, 'over', 'fanduel'));
    expect(sideId('e1', s, 'over', 'fanduel')).not.toBe(sideId('e1', s, 'under', 'fanduel'));
    expect(sideId('e1', s, 'over', 'fanduel')).not.toBe(sideId('e1', s, 'over', 'betmgm'));
    expect(sideId('e1', s, 'over', 'fanduel')).toMatch(/^fanduel-/);
  });
});

describe('prop labels', () => {
  const lebron = { name: 'LeBron James' };
  const kelce = { name: 'Travis Kelce' };
  it.each([
    [lebron, spec('player_points', 27.5), 'over', 'LeBron James Points Over 27.5'],
    [lebron, spec('player_points', 27.5), 'under', 'LeBron James Points Under 27.5'],
    [lebron, spec('player_points', 7.5, 'p', 'q1'), 'over', 'LeBron James 1st Quarter Points Over 7.5'],
    [kelce, spec('player_anytime_td', null), 'yes', 'Travis Kelce Anytime TD — Yes'],
    [kelce, spec('player_anytime_td', null), 'no', 'Travis Kelce Anytime TD — No'],
    [
      { name: 'Patrick Mahomes' },
      spec('player_pass_yds', 274.5),
      'over',
      'Patrick Mahomes Passing Yards Over 274.5',
    ],
  ] as const)('%o %o %s → %s', (player, s, outcome, label) => {
    expect(propOutcomeLabel(player, s, outcome)).toBe(label);
  });

  it('market labels read at once', () => {
    expect(propMarketLabel(lebron, spec('player_points', 27.5))).toBe('LeBron James Points Over/Under 27.5');
    expect(propMarketLabel(kelce, spec('player_anytime_td', null))).toBe('Travis Kelce Anytime TD');
    expect(propMarketLabel({ name: 'Nikola Jokić' }, spec('player_double_double', null))).toBe(
      'Nikola Jokić Double-Double',
    );
    expect(propMarketLabel({ name: 'Aaron Judge' }, spec('batter_total_bases', 1.5))).toBe(
      'Aaron Judge Total Bases Over/Under 1.5',
    );
  });
});

describe('propSpecProblem', () => {
  it.each([
    ['nba', spec('player_points', 27.5), null],
    ['nba', spec('player_points', 7.5, 'p1', 'q1'), null],
    ['nba', spec('player_points', 0.5), null],
    ['nfl', spec('player_pass_yds', 999.5), null],
    ['nfl', spec('player_anytime_td', null), null],
    ['nhl', spec('player_points', 0.5), null],
    ['nba', spec('player_pass_yds', 250.5), 'stat_not_in_league'],
    ['mlb', spec('player_points', 0.5), 'stat_not_in_league'],
    ['ncaab', spec('player_points', 7.5, 'p1', 'q1'), 'period_not_offered'],
    ['nba', spec('player_points', 27.5, 'p1', 'h1'), 'period_not_offered'],
    ['nfl', spec('player_anytime_td', null, 'p1', 'q1'), 'period_not_offered'],
    ['nba', spec('player_points', 27.5, ' '), 'missing_player'],
    ['nba', spec('player_points', null), 'point_required'],
    ['nba', spec('player_points', 27), 'point_not_half_line'],
    ['nba', spec('player_points', 27.25), 'point_not_half_line'],
    ['nba', spec('player_points', 0), 'point_out_of_range'],
    ['nba', spec('player_points', -1.5), 'point_out_of_range'],
    ['nba', spec('player_points', 1000.5), 'point_out_of_range'],
    ['nba', spec('player_points', Number.NaN), 'point_out_of_range'],
    ['nba', spec('player_double_double', 0.5), 'point_not_allowed'],
    ['nba', { ...spec('player_points', 27.5), stat: 'player_blocks' as PropStatKey }, 'unknown_stat'],
  ] as const)('%s %o → %s', (league, s, problem) => {
    expect(propSpecProblem(league, s)).toBe(problem);
  });
});
