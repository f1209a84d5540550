import type { LeagueKey, Period } from '#domain/markets.ts';
import { propStat, type PropKind, type PropStatKey } from '#domain/props.ts';
import type { Role, RosterPlayer } from './rosters.ts';

// The simulator's player-prop models (decision 122): per role, the mean (and spread) of each counted stat over a full
// game; which props the books hang on a player; and, pure, the fair probability of a prop's outcomes given what the
// player has so far and how much of the game is left. Counts with small means are Poisson; points, rebounds, assists
// and yards are normal (the half-line is the continuity correction). No state, no randomness.

/** The counted stats the simulator keeps per player (props read one, or a sum: points + rebounds + assists). */
export type Counter =
  | 'pts'
  | 'reb'
  | 'ast'
  | 'threes'
  | 'pass_yds'
  | 'pass_tds'
  | 'rush_yds'
  | 'rec_yds'
  | 'receptions'
  | 'tds'
  | 'hits'
  | 'total_bases'
  | 'strikeouts'
  | 'sog'
  | 'hockey_points'
  | 'goals'
  | 'shots'
  | 'shots_on_target';

export interface CounterModel {
  /** Full-game mean for a player of rating 1 in a game of the league's typical total. */
  mean: number;
  /** Normal spread over a full game; undefined: Poisson. */
  sd?: number;
  /** How much the stat follows his team's expected score (1: proportional; 0: not at all). */
  scoring: number;
}

const n = (mean: number, sd: number, scoring = 1): CounterModel => ({ mean, sd, scoring });
const p = (mean: number, scoring = 1): CounterModel => ({ mean, scoring });

/** Each role's counters (NCAAB scales the basketball ones, below). */
const ROLE_COUNTERS: Partial<Record<Role, Partial<Record<Counter, CounterModel>>>> = {
  star: { pts: n(27, 7), reb: n(7, 2.8, 0.5), ast: n(6, 2.5, 0.5), threes: p(2.6) },
  guard: { pts: n(19, 6), reb: n(4, 2, 0.5), ast: n(7, 2.6, 0.5), threes: p(2.8) },
  wing: { pts: n(15, 5.5), reb: n(5.5, 2.4, 0.5), ast: n(3, 1.8, 0.5), threes: p(2.2) },
  big: { pts: n(16, 5.5), reb: n(11, 3.3, 0.5), ast: n(2.5, 1.6, 0.5), threes: p(0.6) },
  qb: { pass_yds: n(245, 62), pass_tds: p(1.7), rush_yds: n(18, 14), tds: p(0.12) },
  rb1: { rush_yds: n(68, 28), receptions: p(3), rec_yds: n(22, 16), tds: p(0.55) },
  rb2: { rush_yds: n(32, 18), receptions: p(1.6), rec_yds: n(11, 10), tds: p(0.28) },
  wr1: { rec_yds: n(72, 30), receptions: p(5.5), tds: p(0.45) },
  wr2: { rec_yds: n(52, 25), receptions: p(4.2), tds: p(0.32) },
  wr3: { rec_yds: n(33, 20), receptions: p(2.8), tds: p(0.2) },
  te: { rec_yds: n(42, 22), receptions: p(3.8), tds: p(0.3) },
  batter_top: { hits: p(1.0), total_bases: p(1.55) },
  sp: { strikeouts: p(6, 0) },
  forward_top: { sog: p(2.9, 0.4), hockey_points: p(0.8), goals: p(0.33) },
  defenceman: { sog: p(2.1, 0.3), hockey_points: p(0.45), goals: p(0.1) },
  striker: { shots: p(3, 0.5), shots_on_target: p(1.25, 0.5), goals: p(0.45) },
  attacker: { shots: p(2, 0.5), shots_on_target: p(0.8, 0.5), goals: p(0.27) },
};

/** A player's counter model in the league (rating applied), or undefined when his role has none. */
export function counterModel(
  league: LeagueKey,
  player: RosterPlayer,
  counter: Counter,
): CounterModel | undefined {
  const base = ROLE_COUNTERS[player.role]?.[counter];
  if (!base) return undefined;
  const scale = league === 'ncaab' ? (counter === 'pts' || counter === 'threes' ? 0.72 : 0.85) : 1;
  const mean = base.mean * scale * player.rating;
  return {
    mean,
    sd: base.sd === undefined ? undefined : base.sd * Math.sqrt(scale * player.rating),
    scoring: base.scoring,
  };
}

/** One prop a book may hang on a player: the stat, its period, and the counters it reads. */
export interface PropPlan {
  stat: PropStatKey;
  period: Period;
  kind: PropKind;
  /** The counters summed (one for most props; points + rebounds + assists for PRA; DD reads pts/reb/ast). */
  counters: readonly Counter[];
  /** Whether books also hang an alternate line of it (over/under props with a normal spread). */
  alternates: boolean;
}

const plan = (
  stat: PropStatKey,
  counters: readonly Counter[],
  options: { period?: Period; alternates?: boolean } = {},
): Omit<PropPlan, 'kind'> => ({
  stat,
  period: options.period ?? 'full',
  counters,
  alternates: options.alternates ?? false,
});

/** The props of a player of this role, before the league's catalogue check. */
function rolePlans(league: LeagueKey, role: Role): Omit<PropPlan, 'kind'>[] {
  const nba = league === 'nba';
  switch (role) {
    case 'star':
      return [
        plan('player_points', ['pts'], { alternates: true }),
        plan('player_rebounds', ['reb']),
        plan('player_assists', ['ast']),
        plan('player_threes', ['threes']),
        plan('player_points_rebounds_assists', ['pts', 'reb', 'ast'], { alternates: true }),
        plan('player_double_double', ['pts', 'reb', 'ast']),
        ...(nba ? [plan('player_points', ['pts'], { period: 'q1' })] : []),
      ];
    case 'guard':
      return [
        plan('player_points', ['pts'], { alternates: nba }),
        plan('player_rebounds', ['reb']),
        plan('player_assists', ['ast']),
        plan('player_threes', ['threes']),
        plan('player_points_rebounds_assists', ['pts', 'reb', 'ast']),
      ];
    case 'wing':
      return [
        plan('player_points', ['pts']),
        plan('player_rebounds', ['reb']),
        plan('player_assists', ['ast']),
        plan('player_threes', ['threes']),
        plan('player_points_rebounds_assists', ['pts', 'reb', 'ast']),
      ];
    case 'big':
      return [
        plan('player_points', ['pts']),
        plan('player_rebounds', ['reb'], { alternates: nba }),
        plan('player_assists', ['ast']),
        plan('player_points_rebounds_assists', ['pts', 'reb', 'ast']),
        plan('player_double_double', ['pts', 'reb', 'ast']),
        ...(nba ? [plan('player_rebounds', ['reb'], { period: 'q1' })] : []),
      ];
    case 'qb':
      return [
        plan('player_pass_yds', ['pass_yds'], { alternates: true }),
        plan('player_pass_tds', ['pass_tds']),
        plan('player_rush_yds', ['rush_yds']),
        plan('player_pass_yds', ['pass_yds'], { period: 'q1' }),
      ];
    case 'rb1':
      return [
        plan('player_rush_yds', ['rush_yds'], { alternates: true }),
        plan('player_receptions', ['receptions']),
        plan('player_anytime_td', ['tds']),
      ];
    case 'rb2':
      return [plan('player_rush_yds', ['rush_yds']), plan('player_anytime_td', ['tds'])];
    case 'wr1':
    case 'te':
      return [
        plan('player_reception_yds', ['rec_yds'], { alternates: role === 'wr1' }),
        plan('player_receptions', ['receptions']),
        plan('player_anytime_td', ['tds']),
      ];
    case 'wr2':
      return [
        plan('player_reception_yds', ['rec_yds']),
        plan('player_receptions', ['receptions']),
        plan('player_anytime_td', ['tds']),
      ];
    case 'wr3':
      return [plan('player_anytime_td', ['tds'])];
    case 'batter_top':
      return [plan('batter_hits', ['hits']), plan('batter_total_bases', ['total_bases'])];
    case 'sp':
      return [plan('pitcher_strikeouts', ['strikeouts'])];
    case 'forward_top':
      return [
        plan('player_shots_on_goal', ['sog']),
        plan('player_points', ['hockey_points']),
        plan('player_goal_scorer_anytime', ['goals']),
      ];
    case 'defenceman':
      return [plan('player_shots_on_goal', ['sog'])];
    case 'striker':
    case 'attacker':
      return [
        plan('player_shots', ['shots']),
        plan('player_shots_on_target', ['shots_on_target']),
        plan('player_goal_scorer_anytime', ['goals']),
      ];
    default:
      return [];
  }
}

/** How many players of each role get props (the first ones of the role on the roster), per team. */
const PROP_PLAYERS_PER_ROLE: Partial<Record<Role, number>> = {
  // College boards are thinner: no wing props (below).
  star: 1,
  guard: 1,
  wing: 1,
  big: 1,
  qb: 1,
  rb1: 1,
  rb2: 1,
  wr1: 1,
  wr2: 1,
  wr3: 1,
  te: 1,
  batter_top: 5,
  sp: 1,
  forward_top: 4,
  defenceman: 1,
  striker: 1,
  attacker: 3,
};

/**
 * The props books hang on one team's roster: for each player whose role gets props, the role's props that the
 * league's catalogue offers in the period (every one does; the check keeps the simulator honest with the catalogue).
 */
export function propsFor(
  league: LeagueKey,
  roster: readonly RosterPlayer[],
): { player: RosterPlayer; plan: PropPlan }[] {
  const out: { player: RosterPlayer; plan: PropPlan }[] = [];
  const seen = new Map<Role, number>();
  for (const player of roster) {
    const count = seen.get(player.role) ?? 0;
    seen.set(player.role, count + 1);
    const limit =
      league === 'ncaab' && player.role === 'wing' ? 0 : (PROP_PLAYERS_PER_ROLE[player.role] ?? 0);
    if (count >= limit) continue;
    for (const partial of rolePlans(league, player.role)) {
      const def = propStat(league, partial.stat);
      if (!def || !def.periods.includes(partial.period)) continue;
      out.push({ player, plan: { ...partial, kind: def.kind } });
    }
  }
  return out;
}

/** Share of a full game's stat that a period holds, and where in the game it ends (fraction of the game). */
export function periodShare(period: Period): { share: number; endsAt: number } {
  return period === 'q1' ? { share: 0.26, endsAt: 0.25 } : { share: 1, endsAt: 1 };
}

// --- Probabilities -------------------------------------------------------------------------------------------------

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 on erf; |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-x * x);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** P(X >= k) for X ~ Poisson(lambda). */
export function poissonAtLeast(lambda: number, k: number): number {
  if (k <= 0) return 1;
  if (lambda <= 0) return 0;
  let term = Math.exp(-lambda);
  let below = term;
  for (let i = 1; i < k; i += 1) {
    term *= lambda / i;
    below += term;
  }
  return Math.max(0, 1 - below);
}

/** What remains of one counter: its mean and, for normal counters, its spread. */
export interface Remaining {
  mean: number;
  sd?: number;
}

/**
 * P(final > line) where final = `sofar` + the sum of the remaining counters (a half-line: never a push). Normal when
 * any part is normal (sum of means and variances), else Poisson of the summed means.
 */
export function overProbability(line: number, sofar: number, remaining: readonly Remaining[]): number {
  const need = line - sofar;
  if (need < 0) return 1;
  let mean = 0;
  let variance = 0;
  let normal = false;
  for (const part of remaining) {
    mean += part.mean;
    if (part.sd !== undefined) {
      normal = true;
      variance += part.sd * part.sd;
    } else variance += part.mean;
  }
  if (normal) {
    if (variance <= 1e-9) return mean > need ? 1 : 0;
    return 1 - normalCdf((need - mean) / Math.sqrt(variance));
  }
  return poissonAtLeast(mean, Math.ceil(need));
}

/** P(double-double): points and one of rebounds or assists reach 10 (treated as independent). */
export function doubleDoubleProbability(
  sofar: { pts: number; reb: number; ast: number },
  remaining: { pts: Remaining; reb: Remaining; ast: Remaining },
): number {
  const ten = (have: number, rest: Remaining) => overProbability(9.5, have, [rest]);
  const pts = ten(sofar.pts, remaining.pts);
  const other = 1 - (1 - ten(sofar.reb, remaining.reb)) * (1 - ten(sofar.ast, remaining.ast));
  return pts * other;
}

/** The half-line nearest an even split of over and under (at least 0.5). */
export function evenLine(overAt: (line: number) => number, guess: number): number {
  let line = Math.max(0.5, Math.floor(guess) + 0.5);
  let distance = Math.abs(overAt(line) - 0.5);
  for (const direction of [1, -1]) {
    for (;;) {
      const next = line + direction;
      if (next < 0.5) break;
      const d = Math.abs(overAt(next) - 0.5);
      if (d >= distance) break;
      line = next;
      distance = d;
    }
  }
  return line;
}
