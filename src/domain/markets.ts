import type { AmericanOdds, DecimalOdds } from './odds.ts';
import type { PropMarketSpec } from './props.ts';
import type { ArbEvent } from './schemas/feed.ts';
import type { SportsbookKey } from './sportsbooks.ts';

// The canonical odds model (docs/decisions/040-044): sport, league, event, market (type + period + point), outcome, and one price
// per book. Sources map their own shapes onto this; the engine, the arbitrage feed and the paid API read it.

export type SportKey = 'basketball' | 'football' | 'baseball' | 'hockey' | 'soccer';

export interface League {
  key: string;
  sport: SportKey;
  name: string;
  /** True when the full-game result can be a draw, so the main result market is 1X2 rather than a moneyline. */
  hasDraws: boolean;
  /** What the name means when it is not plain to a reader (the site's copy adds it: "NCAAB (men's college basketball)"). */
  note?: string;
}

export const LEAGUES = {
  nba: { key: 'nba', sport: 'basketball', name: 'NBA', hasDraws: false },
  ncaab: {
    key: 'ncaab',
    sport: 'basketball',
    name: 'NCAAB',
    hasDraws: false,
    note: "men's college basketball",
  },
  nfl: { key: 'nfl', sport: 'football', name: 'NFL', hasDraws: false },
  mlb: { key: 'mlb', sport: 'baseball', name: 'MLB', hasDraws: false },
  nhl: { key: 'nhl', sport: 'hockey', name: 'NHL', hasDraws: false },
  epl: { key: 'epl', sport: 'soccer', name: 'Premier League', hasDraws: true },
  mls: { key: 'mls', sport: 'soccer', name: 'MLS', hasDraws: true },
} as const satisfies Record<string, League>;

export type LeagueKey = keyof typeof LEAGUES;

export function isLeagueKey(value: string): value is LeagueKey {
  return Object.prototype.hasOwnProperty.call(LEAGUES, value);
}

export interface Team {
  id: string;
  name: string;
  abbreviation: string;
}

export interface OddsEvent {
  /** Canonical event id (stable across sources, see the engine's event registry). */
  id: string;
  league: LeagueKey;
  home: Team;
  away: Team;
  /** Scheduled start, unix milliseconds. */
  startsAt: number;
  live: boolean;
}

/** The game lines: markets on the teams and the score. */
export const GAME_MARKET_TYPES = ['moneyline', 'spread', 'total', '1x2'] as const;
export type GameMarketType = (typeof GAME_MARKET_TYPES)[number];
/** Every market type: the game lines and player props (src/domain/props.ts, decision 121). */
export const MARKET_TYPES = [...GAME_MARKET_TYPES, 'prop'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

export const PERIODS = ['full', 'h1', 'h2', 'q1', 'q2', 'q3', 'q4', 'p1', 'p2', 'p3', 'f5'] as const;
export type Period = (typeof PERIODS)[number];

export const PERIOD_LABELS: Readonly<Record<Period, string>> = {
  full: '',
  h1: '1st Half',
  h2: '2nd Half',
  q1: '1st Quarter',
  q2: '2nd Quarter',
  q3: '3rd Quarter',
  q4: '4th Quarter',
  p1: '1st Period',
  p2: '2nd Period',
  p3: '3rd Period',
  f5: 'First 5 Innings',
};

/** Game-line outcomes, and the props' over/under and yes/no (a prop's over is its player's over). */
export type OutcomeKey = 'home' | 'away' | 'draw' | 'over' | 'under' | 'yes' | 'no';
export const OUTCOME_KEYS: readonly OutcomeKey[] = ['home', 'away', 'draw', 'over', 'under', 'yes', 'no'];

/**
 * A market of one event. `point` is the home team's line for spreads (home −3.5 means away +3.5: the two sides of one
 * spread market are exact opposites by construction) and the line for totals; null for moneyline and 1X2.
 */
export interface GameMarketSpec {
  type: GameMarketType;
  period: Period;
  point: number | null;
}

/** A market of one event: a game line, or a player prop (one player, stat, period and line). */
export type MarketSpec = GameMarketSpec | PropMarketSpec;

/** The outcomes that together cover every result of a game line, in the order the feed lists them. */
export function outcomesOf(type: GameMarketType): readonly OutcomeKey[] {
  switch (type) {
    case 'moneyline':
    case 'spread':
      return ['away', 'home'];
    case 'total':
      return ['over', 'under'];
    case '1x2':
      return ['home', 'draw', 'away'];
  }
}

export function isMarketType(value: string): value is MarketType {
  return (MARKET_TYPES as readonly string[]).includes(value);
}

export function isGameMarketType(value: string): value is GameMarketType {
  return (GAME_MARKET_TYPES as readonly string[]).includes(value);
}

export function isPeriod(value: string): value is Period {
  return (PERIODS as readonly string[]).includes(value);
}

/** Points are quoted in halves: anything else is not a line a book offers. */
export function isValidPoint(type: GameMarketType, point: number | null): boolean {
  if (type === 'moneyline' || type === '1x2') return point === null;
  if (point === null || !Number.isFinite(point) || Math.abs(point) > 500) return false;
  if (type === 'total' && point <= 0) return false;
  return Number.isInteger(point * 2);
}

/**
 * Whether the market exists for the league: a sport with draws settles its result market as 1X2 (three ways, all
 * required), never as a two-way moneyline that a draw would leave uncovered.
 */
export function isMarketAllowed(league: League, spec: GameMarketSpec): boolean {
  if (spec.type === '1x2') return league.hasDraws;
  if (spec.type === 'moneyline') return !league.hasDraws;
  return true;
}

export function formatPoint(point: number): string {
  if (point === 0) return 'PK';
  const text = Number.isInteger(point) ? point.toFixed(0) : String(point);
  return point > 0 ? `+${text}` : text;
}

/**
 * The market key: `event|type|period|point` for game lines, `event|prop|stat|period|player|point` for props (the
 * player id URI-encoded, so no id can forge a separator; `prop` sits where a game line's type does, so the two kinds
 * never share a key). Alternate lines are separate markets.
 */
export function marketKey(eventId: string, spec: MarketSpec): string {
  if (spec.type === 'prop')
    return `${eventId}|prop|${spec.stat}|${spec.period}|${encodeURIComponent(spec.playerId)}|${spec.point ?? ''}`;
  return `${eventId}|${spec.type}|${spec.period}|${spec.point ?? ''}`;
}

/** The market as a bettor reads it: "Moneyline", "Spread -3.5 / +3.5", "Total 221.5", "1X2", "1st Half Total 110.5". */
export function marketLabel(spec: GameMarketSpec): string {
  let base: string;
  switch (spec.type) {
    case 'moneyline':
      base = 'Moneyline';
      break;
    case '1x2':
      base = '1X2';
      break;
    case 'total':
      base = `Total ${spec.point}`;
      break;
    case 'spread': {
      const home = spec.point ?? 0;
      base = `Spread ${formatPoint(-home)} / ${formatPoint(home)}`;
      break;
    }
  }
  const period = PERIOD_LABELS[spec.period];
  return period ? `${period} ${base}` : base;
}

/** The outcome without its line: "Boston Celtics", "Over", "Draw" ("Yes" / "No" for a yes/no prop). */
export function selectionName(event: Pick<OddsEvent, 'home' | 'away'>, outcome: OutcomeKey): string {
  switch (outcome) {
    case 'home':
      return event.home.name;
    case 'away':
      return event.away.name;
    case 'draw':
      return 'Draw';
    case 'over':
      return 'Over';
    case 'under':
      return 'Under';
    case 'yes':
      return 'Yes';
    case 'no':
      return 'No';
  }
}

/** The outcome as the book shows it: "Boston Celtics", "Boston Celtics -3.5", "Over 221.5", "Draw". */
export function outcomeLabel(
  event: Pick<OddsEvent, 'home' | 'away'>,
  spec: GameMarketSpec,
  outcome: OutcomeKey,
): string {
  const name = selectionName(event, outcome);
  if (spec.type === 'spread' && spec.point !== null) {
    return `${name} ${formatPoint(outcome === 'home' ? spec.point : -spec.point)}`;
  }
  if (spec.type === 'total' && spec.point !== null) return `${name} ${spec.point}`;
  return name;
}

export interface PriceLinks {
  desktop: string | null;
  mobile: string | null;
}

/** One book's current price for one outcome of one market. */
export interface BookPrice {
  book: SportsbookKey;
  outcome: OutcomeKey;
  american: AmericanOdds;
  /** Floored to 4 decimal places at ingestion, so every figure derived from it never overstates the payout. */
  decimal: DecimalOdds;
  links: PriceLinks;
  /** When the book changed this price (its own clock, never later than `receivedAt`), unix ms. */
  updatedAt: number;
  /** When the engine received it, unix ms. */
  receivedAt: number;
  suspended: boolean;
}

/** 32-bit FNV-1a twice (two seeds) → a compact, stable id fragment. Not cryptographic; ids only need stability. */
export function stableHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(36).padStart(7, '0') + (b >>> 0).toString(36).padStart(7, '0');
}

/** The event block of a feed arb (docs/product.md §3): the event's id, teams, live flag, start (ISO 8601), sport and league. */
export function arbEventOf(event: OddsEvent): ArbEvent {
  return {
    id: event.id,
    teams: { away: { ...event.away }, home: { ...event.home } },
    live: event.live,
    date: new Date(event.startsAt).toISOString(),
    sport: LEAGUES[event.league].sport,
    league: event.league,
  };
}

/** Stable side id: the same book, market and outcome always give the same id (the page's new-arb key uses it). */
export function sideId(eventId: string, spec: MarketSpec, outcome: OutcomeKey, book: SportsbookKey): string {
  return `${book}-${stableHash(`${marketKey(eventId, spec)}|${outcome}|${book}`)}`;
}
