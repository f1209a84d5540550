// What sources hand to the engine. Every field is untrusted: the engine validates each message (ingest.ts) and
// drops, with a counted reason, whatever does not hold.

export interface TeamInput {
  name: string;
  abbreviation?: string;
  id?: string;
}

/**
 * A player of a fixture as a source lists him (its roster, which props are matched against). `team` is 'home',
 * 'away' or one of the two teams' ids, or unknown; `id` is the source's stable player id (without one, the engine
 * derives it from the team and name).
 */
export interface PlayerInput {
  id?: string;
  name: string;
  /** Absent or '' when the source does not know it (The Odds API): such a player is matched by id, or by name alone. */
  team?: string;
}

/** How a prop price names its player: by the roster's id when the source knows it, else by name (and team if given). */
export interface PricePlayerInput {
  id?: string | null;
  name: string;
  team?: string | null;
}

/** A fixture as a source knows it (created or changed). */
export interface EventMessage {
  kind: 'event';
  /** The source's own id for the fixture (the engine merges one fixture arriving under several ids). */
  sourceEventId: string;
  league: string;
  home: TeamInput;
  away: TeamInput;
  /** Unix ms or an ISO 8601 string. */
  startsAt: number | string;
  live?: boolean;
  /**
   * The fixture's players (at most MAX_ROSTER), added to the roster the engine already holds for it (a player is
   * never removed while the fixture lasts). Props name their player against it; a player not in it is dropped.
   */
  players?: PlayerInput[];
}

/** The fixture is over (or withdrawn): its markets leave the store and the feed. */
export interface EndMessage {
  kind: 'end';
  sourceEventId: string;
}

/** One book's price for one outcome. */
export interface PriceMessage {
  kind: 'price';
  sourceEventId: string;
  book: string;
  /** moneyline | spread | total | 1x2 | prop */
  market: string;
  /** Props only: the stat, a `PropStatKey` of src/domain/props.ts (The Odds API's market key: `player_points`). */
  stat?: string;
  /** Props only: the player, matched against the fixture's roster (id first, then name and team). */
  player?: PricePlayerInput;
  /** Defaults to "full". */
  period?: string;
  /**
   * The outcome's own line as the book quotes it: spreads home −3.5 / away +3.5, totals 221.5 for both sides, an
   * over/under prop's line (a half-line) for both sides; none for yes/no props.
   */
  point?: number | null;
  /** home | away | draw | over | under (game lines); over | under or yes | no (props, by the stat's kind) */
  outcome: string;
  /** American odds (number or text such as "+150"); or `decimal`. */
  american?: number | string;
  decimal?: number;
  /** Absent: the links already held for this price are kept (an update that only moves the odds). */
  links?: { desktop?: string | null; mobile?: string | null };
  /** When the book changed the price, unix ms or an ISO 8601 string; defaults to the time of receipt. */
  updatedAt?: number | string;
  suspended?: boolean;
}

/**
 * A fixture's score (issue 57): while it is in play (`live`), and once it is over (`final`, sent before its `end`). The
 * score is the game's as bets on it settle (docs/grading.md); `periods` holds each period played so far (`q1`, `h1`,
 * `f5`…, as markets name them), `clock` a short text of where the game is ("Q3", "2nd Half").
 */
export interface ScoreMessage {
  kind: 'score';
  sourceEventId: string;
  status: 'live' | 'final';
  home: number;
  away: number;
  periods?: Record<string, { home: number; away: number }>;
  clock?: string | null;
  /** When the source saw this score, unix ms or an ISO 8601 string; defaults to the time of receipt. */
  updatedAt?: number | string;
  /**
   * False when the source gives only the game's score and no period's (The Odds API's scores endpoint): bets on a
   * period of such a game are left ungraded rather than voided (docs/grading.md). Defaults to true.
   */
  periodScores?: boolean;
  /**
   * Finals only: the box score of the players the source priced props on, by the roster's player id: each period's
   * figures (`full`, and the periods of his props), a stat key of src/domain/props.ts → a whole count. `null`: the
   * player did not play (his props are void).
   */
  players?: Record<string, Record<string, Record<string, number>> | null>;
}

export type SourceMessage = EventMessage | EndMessage | PriceMessage | ScoreMessage;

export const DROP_REASONS = [
  'malformed',
  'payload_too_large',
  'not_json',
  'invalid_odds',
  'american_out_of_range',
  /** Decimal odds outside the plausible range (ODDS_MIN_DECIMAL..ODDS_MAX_DECIMAL; decision 046). */
  'odds_out_of_range',
  'missing_teams',
  'unknown_league',
  'unknown_market',
  'unknown_book',
  'unknown_event',
  'future_timestamp',
  /** A start or update time outside the plausible window around now (decision 045). */
  'time_out_of_range',
  'bad_link',
  'unfilled_placeholder',
  /** A prop whose player is not on the fixture's roster (not found, or listed under another team). */
  'unknown_player',
  /** A prop whose player could be two of the roster's (same name, or a surname two players share, without an id). */
  'ambiguous_player',
  /**
   * Refused for control or bidi characters (decision 148): an id (a key: never cleaned) or a link holding one, or a
   * name with nothing else in it. A roster entry or a link is left out, its message kept; anything else is refused.
   */
  'control_characters',
  /** Not a refusal: control or bidi characters removed from a name or abbreviation that was kept (decision 148). */
  'text_cleaned',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];
export type DropCounters = Record<DropReason, number>;

export function emptyDropCounters(): DropCounters {
  return Object.fromEntries(DROP_REASONS.map((reason) => [reason, 0])) as DropCounters;
}
