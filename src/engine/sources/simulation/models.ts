import { LEAGUES, type GameMarketType, type LeagueKey, type Period } from '#domain/markets.ts';
import { FIRST_PART_SHARES } from '#domain/score-distributions.ts';
import { SIMULATED_GAME_MINUTES } from '#domain/simulated-games.ts';
import type { SgpMarginSchedule } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';

// The simulator's static models: how each book quotes, how each sport scores, how often each league is on the board,
// and which markets it offers. The teams are in ../teams.ts (shared with The Odds API source).

export interface BookProfile {
  margin: number;
  /** Mean seconds between re-quotes pre-match (live: a third of it). */
  lagSeconds: number;
  roundToFive: boolean;
}

// Sharp, low-margin books quote tighter and faster; recreational books wider and slower.
export const PROFILES: Readonly<Record<SportsbookKey, BookProfile>> = {
  circa: { margin: 0.021, lagSeconds: 4, roundToFive: false },
  betonline: { margin: 0.026, lagSeconds: 5, roundToFive: false },
  bodog: { margin: 0.038, lagSeconds: 9, roundToFive: true },
  fanduel: { margin: 0.042, lagSeconds: 5, roundToFive: false },
  draftkings: { margin: 0.044, lagSeconds: 5, roundToFive: false },
  betmgm: { margin: 0.049, lagSeconds: 8, roundToFive: true },
  caesars: { margin: 0.048, lagSeconds: 8, roundToFive: true },
  espn: { margin: 0.046, lagSeconds: 7, roundToFive: false },
  fanatics: { margin: 0.043, lagSeconds: 6, roundToFive: false },
  hardrock: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  hardrock_in: { margin: 0.054, lagSeconds: 11, roundToFive: true },
  ballybet: { margin: 0.058, lagSeconds: 12, roundToFive: true },
  betparx: { margin: 0.056, lagSeconds: 12, roundToFive: true },
  betrivers: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  fliff: { margin: 0.06, lagSeconds: 10, roundToFive: false },
};

/**
 * The simulated books that sell same-game parlays (the US retail books do; the sharp offshore books Circa, BetOnline
 * and Bodog, and Fliff, do not), with their SGP premium over compounding their own margin per leg (decision 129):
 * (1 + margin)^legs × (1 + premium) − 1, so FanDuel holds ~15 % on 2 legs, ~25 % on 4 and ~47 % on 8.
 */
const SGP_PREMIUMS: Partial<Record<SportsbookKey, number>> = {
  fanduel: 0.06,
  draftkings: 0.06,
  fanatics: 0.06,
  espn: 0.07,
  betmgm: 0.08,
  caesars: 0.08,
  hardrock: 0.08,
  betrivers: 0.08,
  ballybet: 0.09,
  betparx: 0.09,
};

export const SGP_BOOKS: ReadonlyMap<SportsbookKey, SgpMarginSchedule> = new Map(
  Object.entries(SGP_PREMIUMS).map(([book, premium]) => [
    book as SportsbookKey,
    { perLeg: PROFILES[book as SportsbookKey].margin, premium: premium! },
  ]),
);

export interface SportModel {
  /** Logistic scale of the final margin and total (points, runs, goals). */
  marginScale: number;
  totalScale: number;
  /** Typical expected total and home advantage. */
  total: number;
  /** Kick-off to final score (#domain/simulated-games.ts: the calibration page says it too). */
  durationMinutes: number;
}

export const MODELS: Readonly<Record<LeagueKey, SportModel>> = {
  nba: { marginScale: 7, totalScale: 9, total: 226, durationMinutes: SIMULATED_GAME_MINUTES.nba },
  ncaab: { marginScale: 6.5, totalScale: 8, total: 143, durationMinutes: SIMULATED_GAME_MINUTES.ncaab },
  nfl: { marginScale: 7.5, totalScale: 8, total: 45, durationMinutes: SIMULATED_GAME_MINUTES.nfl },
  mlb: { marginScale: 2.3, totalScale: 2.4, total: 8.5, durationMinutes: SIMULATED_GAME_MINUTES.mlb },
  nhl: { marginScale: 1.5, totalScale: 1.4, total: 6, durationMinutes: SIMULATED_GAME_MINUTES.nhl },
  epl: { marginScale: 1.1, totalScale: 1.0, total: 2.7, durationMinutes: SIMULATED_GAME_MINUTES.epl },
  mls: { marginScale: 1.1, totalScale: 1.0, total: 3, durationMinutes: SIMULATED_GAME_MINUTES.mls },
};

/** How often each league is drawn for a new fixture (relative weights). */
export const LEAGUE_WEIGHTS: readonly (readonly [LeagueKey, number])[] = [
  ['nba', 22],
  ['ncaab', 20],
  ['nfl', 10],
  ['mlb', 10],
  ['nhl', 14],
  ['epl', 14],
  ['mls', 10],
];

export interface MarketPlan {
  type: GameMarketType;
  period: Period;
}

/**
 * The game clock model of the period markets: where each period a league's books quote ends, as a fraction of the
 * fixture's window (kick-off to end, `durationMinutes`), stoppages, breaks and intermissions included. An NBA first
 * quarter is over ~37 minutes after tip-off and its first half ~70 (then 15 minutes of half-time); an NCAAB first half
 * ~56 minutes; an NFL first quarter ~49 and first half ~92 (of 195); MLB's first five innings ~95 minutes (of 170);
 * an NHL first period ~39 minutes (20 of play, stoppages, then an 18-minute intermission); a soccer first half 48
 * minutes (45 and stoppage time). A period market is closed (suspended at every book) from its period's end: nobody
 * quotes a first half once it is played.
 */
export const PERIOD_ENDS: Readonly<Record<LeagueKey, Partial<Record<Period, number>>>> = {
  nba: { q1: 0.25, h1: 0.47 },
  ncaab: { h1: 0.45 },
  nfl: { q1: 0.25, h1: 0.47 },
  mlb: { f5: 0.56 },
  nhl: { p1: 0.26 },
  epl: { h1: 0.42 },
  mls: { h1: 0.42 },
};

/** When the fixture's `period` is over (unix ms): its end for the full game, else by PERIOD_ENDS. */
export function periodEndsAt(
  fixture: { league: LeagueKey; startsAt: number; endsAt: number },
  period: Period,
): number {
  if (period === 'full') return fixture.endsAt;
  const fraction = PERIOD_ENDS[fixture.league][period] ?? 1;
  return fixture.startsAt + Math.round((fixture.endsAt - fixture.startsAt) * fraction);
}

/**
 * The share of a full game's scoring a period holds (its expected margin and total scale with it, their spread with
 * its square root): halves 0.5, a quarter 0.25; the first parts of the goal and run leagues their published shares
 * (score-distributions.ts `FIRST_PART_SHARES`, docs/calibration.md): a soccer first half 0.44 (more goals come late),
 * an NHL first period 0.30 (the other two 0.35 each), MLB's first five innings 0.58.
 */
export function periodShare(league: LeagueKey, period: Period): number {
  switch (period) {
    case 'full':
      return 1;
    case 'h1':
      return LEAGUES[league].hasDraws ? FIRST_PART_SHARES.soccer : 0.5;
    case 'h2':
      return LEAGUES[league].hasDraws ? 1 - FIRST_PART_SHARES.soccer : 0.5;
    case 'q1':
    case 'q2':
    case 'q3':
    case 'q4':
      return 0.25;
    case 'p1':
      return FIRST_PART_SHARES.nhl;
    case 'p2':
    case 'p3':
      return (1 - FIRST_PART_SHARES.nhl) / 2;
    case 'f5':
      return FIRST_PART_SHARES.mlb;
  }
}

/** The priced first part of each league's game (its markets: `plansFor`). */
export const FIRST_PART: Readonly<Record<LeagueKey, Period>> = {
  nba: 'h1',
  nfl: 'h1',
  ncaab: 'h1',
  nhl: 'p1',
  mlb: 'f5',
  epl: 'h1',
  mls: 'h1',
};

/** The markets the books quote for a fixture of the league, in the order the simulator creates them. */
export function plansFor(league: LeagueKey): MarketPlan[] {
  if (LEAGUES[league].hasDraws)
    return [
      { type: '1x2', period: 'full' },
      { type: 'total', period: 'full' },
      { type: 'spread', period: 'full' },
      { type: 'total', period: 'h1' },
    ];
  const base: MarketPlan[] = [
    { type: 'moneyline', period: 'full' },
    { type: 'spread', period: 'full' },
    { type: 'total', period: 'full' },
  ];
  if (league === 'nba' || league === 'ncaab' || league === 'nfl')
    base.push({ type: 'spread', period: 'h1' }, { type: 'total', period: 'h1' });
  if (league === 'mlb') base.push({ type: 'total', period: 'f5' });
  if (league === 'nhl') base.push({ type: 'total', period: 'p1' });
  return base;
}
