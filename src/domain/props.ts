import { PERIOD_LABELS, type LeagueKey, type Period } from './markets.ts';

// Player props (issue 15, decision 120): the players, the prop catalogue per league as data, the prop market spec,
// its outcomes, labels and validation. A prop market is one of `MarketSpec`'s kinds, keyed by its `marketKey`
// (markets.ts; decision 121).

/** A player of one event. `team` is 'home', 'away' or a team id (the event's `home.id` / `away.id`). */
export interface Player {
  id: string;
  name: string;
  team: 'home' | 'away' | string;
}

export type PropKind = 'over_under' | 'yes_no';

/**
 * Every prop stat key. Each is The Odds API's player-prop market key for the full game (its "betting markets" list:
 * `player_*` for basketball, football, hockey and soccer, `batter_*` / `pitcher_*` for baseball); partial periods are
 * its key with the period suffix (`player_points_q1`), see `oddsApiMarketKey`. Keep them: the source maps one to one.
 */
export const PROP_STAT_KEYS = [
  'player_points',
  'player_rebounds',
  'player_assists',
  'player_threes',
  'player_points_rebounds_assists',
  'player_double_double',
  'player_pass_yds',
  'player_rush_yds',
  'player_reception_yds',
  'player_receptions',
  'player_pass_tds',
  'player_anytime_td',
  'batter_hits',
  'batter_total_bases',
  'pitcher_strikeouts',
  'player_shots_on_goal',
  'player_goal_scorer_anytime',
  'player_shots',
  'player_shots_on_target',
] as const;

export type PropStatKey = (typeof PROP_STAT_KEYS)[number];

export function isPropStatKey(value: string): value is PropStatKey {
  return (PROP_STAT_KEYS as readonly string[]).includes(value);
}

/** One prop as a league offers it. */
export interface PropStatDef {
  key: PropStatKey;
  /** What a bettor reads after the player's name: "Points", "Passing Yards", "Anytime TD". */
  label: string;
  kind: PropKind;
  /** The periods the prop exists for in this league; always includes 'full'. */
  periods: readonly Period[];
}

const ou = (key: PropStatKey, label: string, periods: readonly Period[] = ['full']): PropStatDef => ({
  key,
  label,
  kind: 'over_under',
  periods,
});
const yn = (key: PropStatKey, label: string): PropStatDef => ({
  key,
  label,
  kind: 'yes_no',
  periods: ['full'],
});

const BASKETBALL_FULL: readonly PropStatDef[] = [
  ou('player_points', 'Points'),
  ou('player_rebounds', 'Rebounds'),
  ou('player_assists', 'Assists'),
  ou('player_threes', 'Threes Made'),
  ou('player_points_rebounds_assists', 'Pts + Reb + Ast'),
  yn('player_double_double', 'Double-Double'),
];

const SOCCER: readonly PropStatDef[] = [
  ou('player_shots', 'Shots'),
  ou('player_shots_on_target', 'Shots on Target'),
  yn('player_goal_scorer_anytime', 'Anytime Goal'),
];

/**
 * The prop catalogue per league. Partial periods only where The Odds API lists a period key for them (NBA first-quarter
 * points, rebounds and assists; NFL first-quarter passing yards). College basketball plays halves: full game only.
 */
export const PROP_CATALOGUE: Readonly<Record<LeagueKey, readonly PropStatDef[]>> = {
  nba: [
    ou('player_points', 'Points', ['full', 'q1']),
    ou('player_rebounds', 'Rebounds', ['full', 'q1']),
    ou('player_assists', 'Assists', ['full', 'q1']),
    ou('player_threes', 'Threes Made'),
    ou('player_points_rebounds_assists', 'Pts + Reb + Ast'),
    yn('player_double_double', 'Double-Double'),
  ],
  ncaab: BASKETBALL_FULL,
  nfl: [
    ou('player_pass_yds', 'Passing Yards', ['full', 'q1']),
    ou('player_rush_yds', 'Rushing Yards'),
    ou('player_reception_yds', 'Receiving Yards'),
    ou('player_receptions', 'Receptions'),
    ou('player_pass_tds', 'Passing TDs'),
    yn('player_anytime_td', 'Anytime TD'),
  ],
  mlb: [
    ou('batter_hits', 'Hits'),
    ou('batter_total_bases', 'Total Bases'),
    ou('pitcher_strikeouts', 'Strikeouts'),
  ],
  nhl: [
    ou('player_shots_on_goal', 'Shots on Goal'),
    ou('player_points', 'Points'),
    yn('player_goal_scorer_anytime', 'Anytime Goal'),
  ],
  epl: SOCCER,
  mls: SOCCER,
};

/** The league's definition of a stat; undefined when the league does not offer it. */
export function propStat(league: LeagueKey, stat: PropStatKey): PropStatDef | undefined {
  return PROP_CATALOGUE[league].find((def) => def.key === stat);
}

/** The Odds API market key of a stat in a period: the stat key for the full game, `${key}_${period}` otherwise. */
export function oddsApiMarketKey(stat: PropStatKey, period: Period): string {
  return period === 'full' ? stat : `${stat}_${period}`;
}

/** A prop market of one event: one player, one stat, one period and (over/under only) one line. */
export interface PropMarketSpec {
  type: 'prop';
  stat: PropStatKey;
  period: Period;
  /** The event's canonical player id (after player matching). */
  playerId: string;
  /** The line for over/under props (a half-line: 27.5); null for yes/no props. */
  point: number | null;
}

export type PropOutcomeKey = 'over' | 'under' | 'yes' | 'no';

/** The two outcomes that together cover every result of a prop, in the order the feed lists them. */
export function propOutcomes(kind: PropKind): readonly [PropOutcomeKey, PropOutcomeKey] {
  return kind === 'over_under' ? ['over', 'under'] : ['yes', 'no'];
}

function statLabel(spec: PropMarketSpec, def: Pick<PropStatDef, 'label'> | undefined): string {
  const period = PERIOD_LABELS[spec.period];
  const label = def?.label ?? spec.stat;
  return period ? `${period} ${label}` : label;
}

function anyDef(stat: PropStatKey): PropStatDef | undefined {
  for (const defs of Object.values(PROP_CATALOGUE)) {
    const def = defs.find((candidate) => candidate.key === stat);
    if (def) return def;
  }
  return undefined;
}

/**
 * The market as a bettor reads it: "LeBron James Points Over/Under 27.5", "LeBron James 1st Quarter Points
 * Over/Under 7.5", "Travis Kelce Anytime TD". Labels of one stat key agree across leagues, so the league is not needed.
 */
export function propMarketLabel(player: Pick<Player, 'name'>, spec: PropMarketSpec): string {
  const def = anyDef(spec.stat);
  const base = propStatLabel(player, spec);
  return def?.kind === 'yes_no' || spec.point === null ? base : `${base} Over/Under ${spec.point}`;
}

/** The player's stat in its period, without a line: "LeBron James Points", "LeBron James 1st Quarter Points". */
export function propStatLabel(player: Pick<Player, 'name'>, spec: PropMarketSpec): string {
  return `${player.name} ${statLabel(spec, anyDef(spec.stat))}`;
}

/** One side as the book shows it: "LeBron James Points Over 27.5", "Travis Kelce Anytime TD — Yes". */
export function propOutcomeLabel(
  player: Pick<Player, 'name'>,
  spec: PropMarketSpec,
  outcome: PropOutcomeKey,
): string {
  const base = `${player.name} ${statLabel(spec, anyDef(spec.stat))}`;
  switch (outcome) {
    case 'over':
      return `${base} Over ${spec.point}`;
    case 'under':
      return `${base} Under ${spec.point}`;
    case 'yes':
      return `${base} — Yes`;
    case 'no':
      return `${base} — No`;
  }
}

/** Highest line accepted (passing yards reach the 300s; anything near 1000 is a feed error). */
export const MAX_PROP_POINT = 999.5;

export type PropSpecProblem =
  | 'unknown_stat'
  | 'stat_not_in_league'
  | 'period_not_offered'
  | 'missing_player'
  | 'point_required'
  | 'point_not_half_line'
  | 'point_out_of_range'
  | 'point_not_allowed';

/**
 * Why a prop spec is not a market the league offers, or null when it is. Over/under props need a half-line
 * (x.5, from 0.5 to MAX_PROP_POINT): every stat of the catalogue counts whole units, so a half-line cannot push and the
 * over and under always cover every result. Yes/no props carry no point.
 */
export function propSpecProblem(league: LeagueKey, spec: PropMarketSpec): PropSpecProblem | null {
  if (!isPropStatKey(spec.stat)) return 'unknown_stat';
  const def = propStat(league, spec.stat);
  if (!def) return 'stat_not_in_league';
  if (!def.periods.includes(spec.period)) return 'period_not_offered';
  if (spec.playerId.trim() === '') return 'missing_player';
  if (def.kind === 'yes_no') return spec.point === null ? null : 'point_not_allowed';
  if (spec.point === null) return 'point_required';
  if (!Number.isFinite(spec.point) || spec.point < 0.5 || spec.point > MAX_PROP_POINT)
    return 'point_out_of_range';
  if (!Number.isInteger(spec.point - 0.5)) return 'point_not_half_line';
  return null;
}
