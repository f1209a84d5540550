import { z } from 'zod/mini';
import { closingProbability, type ClosingMarket } from './closing.ts';
import {
  betClvPct,
  findPlayer,
  gradeGameMarket,
  nearPlayers,
  gradePropOnFinal,
  GRADE_RESULTS,
  GradingInputError,
  settle,
  settleTicket,
  type BoxScore,
  type GradeResult,
} from './grading.ts';
import { propKindOf } from './market-labels.ts';
import { isLeagueKey, OUTCOME_KEYS, PERIODS, stableHash, type OutcomeKey } from './markets.ts';
import {
  americanToDecimal,
  decimalToAmerican,
  formatAmerican,
  parseAmerican,
  roundTo,
  type Cents,
  type DecimalOdds,
} from './odds.ts';
import type { OddsFormat } from './odds-format.ts';
import { normalizePlayerName } from './player-matching.ts';
import { PROP_STAT_KEYS } from './props.ts';
import { RESULTS_WINDOW_DAYS } from './plans.ts';
import type { ResultsFeedGame } from './schemas/results-feed.ts';

// The bet tracker (issue 57, decision 257): bets a visitor tracks in the browser, graded against the public results
// feed with the grading rules (grading.ts), their summary (profit, ROI, CLV by sport, book and kind, the cumulative
// profit), and their CSV and JSON files. Pure: the page keeps the list in localStorage, nothing here stores anything.

/** Where a bet came from: a row of the arbitrage, positive-EV or middles page, or typed by hand. */
export const BET_KINDS = ['arb', 'ev', 'middle', 'manual', 'parlay'] as const;
export type BetKind = (typeof BET_KINDS)[number];
export const BET_KIND_LABELS: Readonly<Record<BetKind, string>> = {
  arb: 'Arbitrage',
  ev: 'Positive EV',
  middle: 'Middle',
  manual: 'Manual',
  parlay: 'Parlay',
};

/** How a settled bet was settled: by the public results, by POST /v1/grade with a key, or by the bettor. */
export const SETTLED_BY = ['results', 'api', 'hand'] as const;
export type SettledBy = (typeof SETTLED_BY)[number];

export const GAME_LINE_TYPES = ['moneyline', 'spread', 'total', '1x2'] as const;
/** What one bet (or one parlay leg) is on: a game line or a player prop (decision 282). */
export const LEG_MARKETS = [...GAME_LINE_TYPES, 'prop'] as const;
export type LegMarket = (typeof LEG_MARKETS)[number];
/** A tracked bet's market: a leg's, or `parlay` (its legs in `legs`). */
export const BET_MARKETS = [...LEG_MARKETS, 'parlay'] as const;

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

export const SettlementSchema = z.object({
  result: z.enum(GRADE_RESULTS as [GradeResult, ...GradeResult[]]),
  /** Payout, stake included, and profit, in cents. */
  payout: z.int().check(z.nonnegative()),
  profit: z.int(),
  /**
   * CLV in percent against the fair close (decision 289: from GET /tools/closing.json when the results settle it, as
   * POST /v1/grade gives it); null when the bet has no close (a market not priced before the start, a line no book
   * hung) or was settled by hand.
   */
  clv_pct: z.nullable(z.number()),
  /** ISO 8601: when the game ended (results, API) or the bettor settled it. */
  settled_at: text(1, 40),
  settled_by: z.enum(SETTLED_BY),
});

/** A player prop's stat and player: his id when the bet came from a row, his name as shown or typed. */
export const BetPropSchema = z.object({
  stat: z.enum(PROP_STAT_KEYS),
  /** The player's name (a bet typed by hand is matched to the box score by it). */
  player: text(1, 200),
  /** The event roster's id, as the feeds and the box score name him; null for a bet typed by hand. */
  player_id: z.nullable(text(1, 200)),
});
export type BetProp = z.infer<typeof BetPropSchema>;

const price = z.number().check(z.gt(1), z.lt(10_000));

/** What a single bet and a parlay's leg share: the game, and the side of one market of it. */
const legFields = {
  sport: text(0, 32),
  league: text(0, 64),
  event_id: z.nullable(text(1, 200)),
  home: text(1, 200),
  away: text(1, 200),
  /** ISO 8601 start; null when not known. */
  starts_at: z.nullable(text(1, 40)),
  period: z.enum(PERIODS),
  /** The line of the side bet (a spread's own line: +3.5 for an away side at +3.5; a prop's over/under line). */
  line: z.nullable(z.number().check(z.gte(-500), z.lte(500))),
  /** The side as a bettor reads it: "Boston Celtics +3.5", "Over 221.5", "LeBron James Points Over 27.5". */
  selection: text(1, 200),
  /** A player prop's stat and player (market `prop` only). */
  prop: z.optional(BetPropSchema),
};

/** One leg of a parlay: a game line or a prop, its own price when known, and its result once graded. */
export const ParlayLegSchema = z.object({
  ...legFields,
  market: z.enum(LEG_MARKETS),
  outcome: z.enum(OUTCOME_KEYS as [OutcomeKey, ...OutcomeKey[]]),
  /** The leg's own decimal price (a pushed or void leg is divided out of the ticket's by it); null when not typed. */
  decimal_odds: z.nullable(price),
  /** The leg's result once its game is final; null while open. */
  result: z.nullable(z.enum(GRADE_RESULTS as [GradeResult, ...GradeResult[]])),
  /**
   * The leg's fair closing probability, kept when the results grade it (decision 289: the ticket's CLV needs every
   * leg's, and a parlay's games may span more than the results' three days); null: no close. Absent before.
   */
  closing_probability: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1)))),
});
export type ParlayLeg = z.infer<typeof ParlayLegSchema>;

/** The most legs of a parlay (as POST /v1/grade takes). */
export const MAX_PARLAY_LEGS = 12;

/**
 * One tracked bet: a single on a game line or a player prop, or a parlay of 2 to 12 legs (decision 282). An arb or a
 * middle is tracked as its legs, one bet each, sharing a `group`. `event_id` ties a single to the results feed (a bet
 * typed by hand has none: it is matched by league, teams and date). Money is integer cents. A parlay (`kind` and
 * `market` `parlay`) has its games in `legs`; its own event fields are empty (`home`, `away`: "") and `outcome` null.
 */
export const TrackedBetSchema = z.object({
  id: text(1, 120),
  group: z.nullable(text(1, 120)),
  kind: z.enum(BET_KINDS),
  /** ISO 8601: when the bet was placed (tracked). */
  placed_at: text(1, 40),
  ...legFields,
  home: text(0, 200),
  away: text(0, 200),
  market: z.enum(BET_MARKETS),
  outcome: z.nullable(z.enum(OUTCOME_KEYS as [OutcomeKey, ...OutcomeKey[]])),
  book: text(1, 64),
  decimal_odds: price,
  american_odds: text(1, 16),
  stake: z.int().check(z.positive(), z.lte(100_000_000)),
  /** A parlay's legs (market `parlay` only). */
  legs: z.optional(z.array(ParlayLegSchema).check(z.minLength(2), z.maxLength(MAX_PARLAY_LEGS))),
  settlement: z.nullable(SettlementSchema),
});

export type TrackedBet = z.infer<typeof TrackedBetSchema>;
export type Settlement = z.infer<typeof SettlementSchema>;

/** The JSON export: a versioned list. */
export const TrackerFileSchema = z.object({
  format: z.literal('sharpline-bets'),
  /** 2 since props and parlays (decision 282); a version 1 file (game-line singles) reads the same. */
  version: z.union([z.literal(1), z.literal(2)]),
  bets: z.array(TrackedBetSchema).check(z.maxLength(10_000)),
});
export type TrackerFile = z.infer<typeof TrackerFileSchema>;

/** The most bets the tracker keeps (localStorage holds about 5 MB; a bet is about 500 bytes). */
export const MAX_TRACKED_BETS = 5_000;

/** A bet's id from what it is: the same bet (row side, stake, instant) always gets the same id. */
export function betId(bet: Omit<TrackedBet, 'id' | 'settlement'>): string {
  return `bet-${stableHash(
    [
      bet.kind,
      bet.group ?? '',
      bet.placed_at,
      bet.event_id ?? `${bet.away}@${bet.home}`,
      bet.market,
      bet.period,
      bet.line ?? '',
      bet.outcome,
      bet.book,
      bet.decimal_odds,
      bet.stake,
      // Props and parlays (decision 282) add what tells them apart; a game-line single's id is as it was.
      ...(bet.prop ? [bet.prop.stat, bet.prop.player_id ?? bet.prop.player] : []),
      ...(bet.legs
        ? [JSON.stringify(bet.legs.map((leg) => ({ ...leg, result: null, closing_probability: undefined })))]
        : []),
    ].join('|'),
  )}`;
}

/** The line rule of one market (as POST /v1/grade's): spreads, totals and over/under props need one, others none. */
export function legNeedsLine(market: LegMarket, prop: BetProp | undefined): boolean {
  if (market === 'spread' || market === 'total') return true;
  if (market === 'prop') return prop !== undefined && propKindOf(prop.stat) === 'over_under';
  return false;
}

/** The outcomes a leg's market has: a prop's over/under or yes/no by its stat. */
export function legOutcomes(market: LegMarket, prop: BetProp | undefined): readonly OutcomeKey[] {
  switch (market) {
    case 'moneyline':
    case 'spread':
      return ['home', 'away'];
    case 'total':
      return ['over', 'under'];
    case '1x2':
      return ['home', 'draw', 'away'];
    case 'prop':
      return prop !== undefined && propKindOf(prop.stat) === 'yes_no' ? ['yes', 'no'] : ['over', 'under'];
  }
}

interface LegShape {
  market: LegMarket;
  outcome: OutcomeKey;
  line: number | null;
  prop?: BetProp | undefined;
  home: string;
  away: string;
}

function legProblem(leg: LegShape): string | null {
  if ((leg.market === 'prop') !== (leg.prop !== undefined))
    return leg.market === 'prop' ? 'a prop needs its stat and player' : 'only a prop has a stat and player';
  const needsLine = legNeedsLine(leg.market, leg.prop);
  if (needsLine !== (leg.line !== null))
    return `a ${leg.market === 'prop' ? 'prop of this stat' : leg.market} ${needsLine ? 'needs a line' : 'has no line'}`;
  if (leg.line !== null && !Number.isInteger(leg.line * 4)) return 'a line is a multiple of 0.25';
  if (!legOutcomes(leg.market, leg.prop).includes(leg.outcome))
    return `a ${leg.market === 'prop' ? 'prop of this stat' : leg.market} has no outcome "${leg.outcome}"`;
  return null;
}

/**
 * What is wrong with a bet the schema accepted, in words (null: nothing): a single has its side and teams and no legs,
 * a parlay (kind and market `parlay`) its legs and no side of its own; every leg keeps the line rule of its market
 * and names an outcome the market has.
 */
export function betProblem(bet: TrackedBet): string | null {
  const parlay = bet.market === 'parlay';
  if (parlay !== (bet.kind === 'parlay')) return 'a parlay is of kind "parlay", and only a parlay';
  if (parlay !== (bet.legs !== undefined))
    return parlay ? 'a parlay needs its legs' : 'only a parlay has legs';
  if (parlay) {
    if (bet.outcome !== null || bet.line !== null || bet.prop !== undefined)
      return 'a parlay has no outcome, line or prop of its own';
    for (const [index, leg] of bet.legs!.entries()) {
      const problem = legProblem(leg);
      if (problem) return `leg ${index + 1}: ${problem}`;
    }
    return null;
  }
  if (bet.outcome === null) return 'a single needs its outcome';
  if (bet.home === '' || bet.away === '') return 'a single needs both teams';
  return legProblem({ ...bet, market: bet.market as LegMarket, outcome: bet.outcome });
}

/** A stored or imported bet as the tracker keeps it, or null when it is not one (the schema, then `betProblem`). */
export function parseTrackedBet(raw: unknown): TrackedBet | null {
  const parsed = TrackedBetSchema.safeParse(raw);
  return parsed.success && betProblem(parsed.data) === null ? parsed.data : null;
}

/** What a bet is, without its id and settlement: two bets alike in all of it are the same bet (import skips it). */
function sameBetKey(bet: TrackedBet): string {
  return betId(bet);
}

/**
 * `incoming` added to `current`: bets already there (same id, or the same bet under another id) are skipped, and the
 * list stays within MAX_TRACKED_BETS (the oldest bets dropped first). Returns the new list and how many were added.
 */
export function mergeBets(
  current: readonly TrackedBet[],
  incoming: readonly TrackedBet[],
): { bets: TrackedBet[]; added: number; skipped: number } {
  const ids = new Set(current.map((bet) => bet.id));
  const keys = new Set(current.map(sameBetKey));
  const bets = [...current];
  let added = 0;
  for (const bet of incoming) {
    const key = sameBetKey(bet);
    if (ids.has(bet.id) || keys.has(key)) continue;
    ids.add(bet.id);
    keys.add(key);
    bets.push(bet);
    added += 1;
  }
  bets.sort((a, b) => (a.placed_at < b.placed_at ? -1 : a.placed_at > b.placed_at ? 1 : 0));
  return { bets: bets.slice(-MAX_TRACKED_BETS), added, skipped: incoming.length - added };
}

// ---------------------------------------------------------------------------------------------------------------
// Odds typed in the bettor's format

/** Odds typed in `format` as decimal odds (4 places, as the feeds), or null when they are not a price. */
export function parseOddsInput(input: string, format: OddsFormat): number | null {
  const value = input.trim();
  let decimal: number;
  switch (format) {
    case 'american': {
      const american = parseAmerican(value);
      if (american === null) return null;
      decimal = americanToDecimal(american);
      break;
    }
    case 'decimal':
      if (!/^\d+(\.\d+)?$/.test(value)) return null;
      decimal = Number(value);
      break;
    case 'fractional': {
      const match = /^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(value);
      if (!match || Number(match[2]) === 0) return null;
      decimal = 1 + Number(match[1]) / Number(match[2]);
      break;
    }
    case 'probability': {
      const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value);
      if (!match) return null;
      const pct = Number(match[1]);
      if (pct <= 0 || pct >= 100) return null;
      decimal = 100 / pct;
      break;
    }
  }
  if (!Number.isFinite(decimal) || decimal <= 1 || decimal >= 10_000) return null;
  return roundTo(decimal, 4);
}

/** The American odds text of a decimal price ("+150", "-110"). */
export function americanText(decimal: number): string {
  return formatAmerican(decimalToAmerican(decimal as DecimalOdds));
}

// ---------------------------------------------------------------------------------------------------------------
// Grading against the results feed

const norm = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');
const DAY_MS = 86_400_000;

/** The game a single bet or a parlay's leg is on, with its market and side. */
type GameLeg = Pick<
  TrackedBet,
  'event_id' | 'league' | 'home' | 'away' | 'starts_at' | 'period' | 'line' | 'prop'
> & { market: LegMarket; outcome: OutcomeKey };

/**
 * The finished game a bet (or a leg) is on: by its event id, or, for one typed by hand, the game of its league with
 * the same teams that started within a day of its start (or, without one, of `placedAt`).
 */
export function findGame(
  leg: Pick<TrackedBet, 'event_id' | 'league' | 'home' | 'away' | 'starts_at'>,
  games: readonly ResultsFeedGame[],
  placedAt = '',
): ResultsFeedGame | undefined {
  if (leg.event_id !== null) {
    const byId = games.find((game) => game.event_id === leg.event_id);
    if (byId) return byId;
  }
  const when = Date.parse(leg.starts_at ?? placedAt);
  return games.find(
    (game) =>
      (leg.league === '' || game.league === leg.league) &&
      norm(game.home_team) === norm(leg.home) &&
      norm(game.away_team) === norm(leg.away) &&
      (!Number.isFinite(when) || Math.abs(Date.parse(game.commence_time) - when) <= DAY_MS),
  );
}

/** A game line's spec as grading reads it: a spread's line back to the home team's. */
function gameSpecOf(leg: Pick<GameLeg, 'market' | 'period' | 'line' | 'outcome'>) {
  const homeLine =
    leg.market === 'spread' && leg.line !== null && leg.outcome === 'away' ? -leg.line : leg.line;
  return { type: leg.market as (typeof GAME_LINE_TYPES)[number], period: leg.period, point: homeLine };
}

/** A final's box score as grading reads it (the players who played), or null when the feed carries none. */
export function boxScoreOfGame(game: ResultsFeedGame): BoxScore | null {
  if (!game.players) return null;
  return Object.fromEntries(
    game.players.flatMap((player) => (player.periods === null ? [] : [[player.id, player.periods]])),
  );
}

/** The player a prop leg names in a final's box score: by his id, else by his name (`findPlayer`); undefined if none. */
function propPlayerOf(leg: GameLeg, game: ResultsFeedGame): string | undefined {
  if (!leg.prop || !game.players) return undefined;
  const names = new Map(game.players.map((player) => [player.id, player.name]));
  return (
    (leg.prop.player_id !== null ? findPlayer(leg.prop.player_id, names) : undefined) ??
    findPlayer(leg.prop.player, names)
  );
}

/**
 * A leg graded on its finished game by the rules of grading.ts, as POST /v1/grade grades it: null when the game cannot
 * settle it (a period of a game scored only as a whole; a prop without a box score, on a player the box score does not
 * name, or without his figure), or the leg names a side its market does not have. A prop's player is found by his
 * id, else by name (`findPlayer`); a player who did not play voids it.
 */
export function gradeLegOnGame(leg: GameLeg, game: ResultsFeedGame): GradeResult | null {
  try {
    if (leg.market === 'prop') {
      if (!leg.prop || !isLeagueKey(game.league)) return null;
      const box = boxScoreOfGame(game);
      if (box === null) return null;
      const playerId = propPlayerOf(leg, game);
      if (playerId === undefined) return null;
      return gradePropOnFinal(
        game.league,
        { type: 'prop', stat: leg.prop.stat, period: leg.period, playerId, point: leg.line },
        leg.outcome,
        box,
      );
    }
    if (game.periods_reported === false && leg.period !== 'full') return null;
    return gradeGameMarket(gameSpecOf(leg), leg.outcome, { periods: game.periods });
  } catch (error) {
    if (error instanceof GradingInputError) return null;
    throw error;
  }
}

/**
 * The fair closing probability of a leg on its finished game, from the game's close (`markets`, GET /tools/closing.json),
 * found as POST /v1/grade finds it (`closingProbability`: the market, its line — a spread's the home team's — and
 * period, a prop's stat and player); null when the close has none.
 */
export function legClosingProbability(
  leg: GameLeg,
  game: ResultsFeedGame,
  markets: readonly ClosingMarket[],
): number | null {
  let playerId: string | undefined;
  if (leg.market === 'prop') {
    playerId = propPlayerOf(leg, game);
    if (playerId === undefined) return null;
  }
  return closeOfLeg(markets, leg, playerId);
}

/** A ticket's CLV (3 places, as POST /v1/grade's `clv_pct`) from its legs' closes; null when a leg has none. */
export function ticketClvPct(decimal: number, closes: readonly (number | null | undefined)[]): number | null {
  if (closes.length === 0 || !closes.every((p): p is number => p !== null && p !== undefined)) return null;
  return roundTo(betClvPct(decimal, closes), 3);
}

/**
 * A parlay leg's own CLV (3 places, as POST /v1/grade's leg `clv_pct`): its own price against its fair close; null
 * without either (decision 297).
 */
export function legClvPct(leg: Pick<ParlayLeg, 'decimal_odds' | 'closing_probability'>): number | null {
  if (leg.decimal_odds === null || leg.closing_probability === null || leg.closing_probability === undefined)
    return null;
  return ticketClvPct(leg.decimal_odds, [leg.closing_probability]);
}

/** How long after its start a leg's game is waited on for its close (the results hold RESULTS_WINDOW_DAYS). */
const CLOSE_WAIT_MS = (RESULTS_WINDOW_DAYS + 1) * 86_400_000;

/**
 * Whether a parlay settled before all its games ended (lost on an early leg, by the results or the API) still waits on
 * a leg's game for its result and close (decision 297): the ticket's CLV, like POST /v1/grade's, needs every leg's
 * close. A leg stops being waited on RESULTS_WINDOW_DAYS + 1 days after its start (its placing, typed without one):
 * the results no longer carry it. A bet settled by hand waits on nothing.
 */
export function awaitsClose(bet: TrackedBet, now: number): boolean {
  const s = bet.settlement;
  if (s === null || s.settled_by === 'hand' || !bet.legs) return false;
  return bet.legs.some((leg) => {
    if (leg.result !== null) return false;
    const start = Date.parse(leg.starts_at ?? bet.placed_at);
    return !Number.isFinite(start) || now - start <= CLOSE_WAIT_MS;
  });
}

/**
 * Games' closes by event id (GET /tools/closing.json): finals', and games' started but not final (decision 310); a game
 * missing from it: its close not read yet (or it has not started).
 */
export type GameCloses = ReadonlyMap<string, readonly ClosingMarket[]>;

/**
 * The fair closing probability of an open leg whose game has started but is not final (decision 310), from that
 * game's close in `closes` (by the leg's event id): null when the close has none; undefined when it is not known — the
 * game's close not read (not started), a leg typed by hand (no event id), or a prop naming its player only by name
 * (his id is found in the box score, once the game is final).
 */
export function startedLegClose(leg: GameLeg, closes: GameCloses): number | null | undefined {
  if (leg.event_id === null) return undefined;
  const markets = closes.get(leg.event_id);
  if (markets === undefined) return undefined;
  let playerId: string | undefined;
  if (leg.market === 'prop') {
    if (!leg.prop || leg.prop.player_id === null) return undefined;
    playerId = leg.prop.player_id;
  }
  return closeOfLeg(markets, leg, playerId);
}

/** Why an open leg stays open when its game is final: its player is not in the box score (decision 289). */
export interface LegIssue {
  kind: 'unknown_player' | 'ambiguous_player';
  /** The name as the bet has it. */
  player: string;
  /** Players of the box score whose names are close to it (at most 3, the closest first). */
  near: string[];
  /** In words, for the page. */
  message: string;
}

/**
 * The box score's names close to `name` (normalised as `findPlayer` compares them): the same name, the same surname,
 * or within a third of its letters' edits; at most 3, the closest first (`nearPlayers`, as POST /v1/grade's).
 */
export function nearPlayerNames(name: string, names: readonly string[]): string[] {
  return nearPlayers(name, new Map(names.map((named) => [named, named]))).map((player) => player.name);
}

/**
 * Why a prop leg cannot be graded on its final though the final has a box score: no player of the box score answers
 * to its player (POST /v1/grade answers `unknown_player` for it), or two do. Null for any other leg.
 */
export function legIssue(leg: GameLeg, game: ResultsFeedGame): LegIssue | null {
  if (leg.market !== 'prop' || !leg.prop || !game.players) return null;
  if (propPlayerOf(leg, game) !== undefined) return null;
  const name = leg.prop.player;
  const names = game.players.map((player) => player.name).filter((named) => named !== '');
  const wanted = normalizePlayerName(name);
  const same = names.filter((named) => normalizePlayerName(named) === wanted);
  if (wanted !== '' && same.length > 1)
    return {
      kind: 'ambiguous_player',
      player: name,
      near: same.slice(0, 3),
      message: `${same.length} players in this game’s box score are named “${name}”; the bet stays open — settle it by hand.`,
    };
  const near = nearPlayerNames(name, names);
  return {
    kind: 'unknown_player',
    player: name,
    near,
    message: `No player named “${name}” in this game’s box score — check the spelling${
      near.length > 0 ? ` (close: ${near.join(', ')})` : ''
    }; the bet stays open.`,
  };
}

/** The issues of a bet's open legs whose games are final (`legIssue`), in leg order. */
export function betIssues(bet: TrackedBet, games: readonly ResultsFeedGame[]): LegIssue[] {
  if (bet.settlement !== null) return [];
  const single = singleLeg(bet);
  const legs: GameLeg[] = single ? [single] : (bet.legs ?? []).filter((leg) => leg.result === null);
  return legs.flatMap((leg) => {
    const game = findGame(leg, games, bet.placed_at);
    const issue = game ? legIssue(leg, game) : null;
    return issue ? [issue] : [];
  });
}

/** A single bet as a leg (null for a parlay). */
function singleLeg(bet: TrackedBet): GameLeg | null {
  if (bet.market === 'parlay' || bet.outcome === null) return null;
  return { ...bet, market: bet.market, outcome: bet.outcome };
}

/**
 * The bet graded on the finished games, as far as they decide it: a parlay's legs get the results of the games among
 * `games` (a leg graded before keeps its result: the feed holds three days, a parlay's games may span more), and the
 * bet its settlement once `settleTicket` settles it (a lost leg loses the ticket at once; otherwise every leg must be
 * graded; a pushed or void leg drops out, repriced by the legs' own prices). The bet itself when nothing changed.
 *
 * With `closes` (decision 289), a leg is graded only once its game's close is known, and keeps its fair closing
 * probability; the settlement has the ticket's CLV (`ticketClvPct`, as POST /v1/grade's), null when a leg has no
 * close. Without it the settlement has no CLV.
 */
export function gradeBet(
  bet: TrackedBet,
  games: readonly ResultsFeedGame[],
  closes?: GameCloses,
): TrackedBet {
  const closeOf = (leg: GameLeg, game: ResultsFeedGame): number | null | undefined => {
    if (!closes) return null;
    const markets = closes.get(game.event_id);
    return markets === undefined ? undefined : legClosingProbability(leg, game, markets);
  };
  /** An open leg graded on its final with its close (null: no close), or the leg itself while they are not known. */
  const gradeOpenLeg = (leg: ParlayLeg): ParlayLeg => {
    if (leg.result !== null) return leg;
    const game = findGame(leg, games, bet.placed_at);
    const result = game ? gradeLegOnGame(leg, game) : null;
    if (!game || result === null) return leg;
    const close = closeOf(leg, game);
    if (close === undefined) return leg;
    return { ...leg, result, ...(closes ? { closing_probability: close } : {}) };
  };
  /**
   * The ticket's CLV from its legs' closes: a graded leg's own, an open leg's from its game's close once the game has
   * started (decision 310: `startedLegClose`, as POST /v1/grade reads a pending leg's close from the history).
   */
  const ticketClv = (legs: readonly ParlayLeg[]) =>
    ticketClvPct(
      bet.decimal_odds,
      legs.map((leg) =>
        leg.result !== null ? leg.closing_probability : closes ? startedLegClose(leg, closes) : undefined,
      ),
    );
  if (bet.settlement !== null) {
    // A parlay settled before its other games ended (a lost leg): those legs still take their results and closes as
    // their games end (decision 297), and the ticket its CLV once every other game has started (decision 310). Its
    // result and money stay; a CLV measured while a game was in play is measured again from its final's close.
    const s = bet.settlement;
    if (!closes || s.settled_by === 'hand' || !bet.legs?.some((leg) => leg.result === null)) return bet;
    const legs = bet.legs.map(gradeOpenLeg);
    const clv = ticketClv(legs) ?? s.clv_pct;
    if (legs.every((leg, k) => leg === bet.legs![k]) && clv === s.clv_pct) return bet;
    return { ...bet, legs, settlement: { ...s, clv_pct: clv } };
  }
  const single = singleLeg(bet);
  if (single) {
    const game = findGame(bet, games, bet.placed_at);
    const result = game ? gradeLegOnGame(single, game) : null;
    if (!game || result === null) return bet;
    const close = closeOf(single, game);
    if (close === undefined) return bet;
    const money = settle(bet.stake as Cents, bet.decimal_odds, result);
    return {
      ...bet,
      settlement: {
        result,
        ...money,
        clv_pct: ticketClvPct(bet.decimal_odds, [close]),
        settled_at: game.completed_at,
        settled_by: 'results',
      },
    };
  }
  let latest = '';
  let changed = false;
  const legs = (bet.legs ?? []).map((leg) => {
    const graded = gradeOpenLeg(leg);
    if (graded === leg) return leg;
    changed = true;
    const completed = findGame(leg, games, bet.placed_at)!.completed_at;
    if (completed > latest) latest = completed;
    return graded;
  });
  if (!changed) return bet;
  const ticket = settleTicket(
    bet.stake as Cents,
    bet.decimal_odds,
    legs.map((leg) => ({
      result: leg.result,
      ...(leg.decimal_odds !== null ? { decimal: leg.decimal_odds } : {}),
    })),
  );
  return {
    ...bet,
    legs,
    settlement:
      ticket === null
        ? null
        : {
            result: ticket.result,
            payout: ticket.payout,
            profit: ticket.profit,
            clv_pct: ticketClv(legs),
            settled_at: latest,
            settled_by: 'results',
          },
  };
}

/**
 * The bet's settlement from the finished games (the rules of grading.ts), or null while they do not decide it (its
 * game is not among `games`, a leg is still open, or the bet names a side its market does not have).
 */
export function gradeTracked(
  bet: TrackedBet,
  games: readonly ResultsFeedGame[],
  closes?: GameCloses,
): Settlement | null {
  return gradeBet({ ...bet, settlement: null }, games, closes).settlement;
}

/**
 * The games whose close the open bets wait on (decision 289): the game of each open leg that the results grade, when
 * `known` does not have its close yet; a parlay settled lost before its other games ended waits on theirs (decision
 * 297). With `now` (the results' time, unix ms), a parlay lost early — settled so, or lost on a final of `games` now —
 * also asks for the games of its open legs not final that have started by their start time (or have none), by event
 * id (decision 310: the answer leaves out a game not started; its close gives the ticket its CLV before those games
 * end). `known` should hold finals' closes only, so that a started game is asked again and its final's close read.
 * Event ids, each once.
 */
export function closesWanted(
  bets: readonly TrackedBet[],
  games: readonly ResultsFeedGame[],
  known: GameCloses,
  now?: number,
): string[] {
  const ids = new Set<string>();
  for (const bet of bets) {
    // A settled parlay's open legs too (lost early: the ticket's CLV waits on their closes, decision 297).
    if (bet.settlement !== null && (bet.settlement.settled_by === 'hand' || !bet.legs)) continue;
    const single = singleLeg(bet);
    const legs: GameLeg[] = single ? [single] : (bet.legs ?? []).filter((leg) => leg.result === null);
    let lost = bet.settlement !== null;
    const notFinal: GameLeg[] = [];
    for (const leg of legs) {
      const game = findGame(leg, games, bet.placed_at);
      if (!game) {
        notFinal.push(leg);
        continue;
      }
      const result = gradeLegOnGame(leg, game);
      if (result === 'lost') lost = true;
      if (!known.has(game.event_id) && result !== null) ids.add(game.event_id);
    }
    if (now === undefined || !lost || single) continue;
    for (const leg of notFinal) {
      const start = Date.parse(leg.starts_at ?? '');
      if (leg.event_id === null || known.has(leg.event_id)) continue;
      if (Number.isFinite(start) && (start > now || now - start > CLOSE_WAIT_MS)) continue;
      ids.add(leg.event_id);
    }
  }
  return [...ids];
}

/** Grades every open bet on `games`; the list itself when nothing changed (no needless write). */
export function settleFromResults(
  bets: readonly TrackedBet[],
  games: readonly ResultsFeedGame[],
  closes?: GameCloses,
): TrackedBet[] {
  let changed = false;
  const next = bets.map((bet) => {
    const graded = gradeBet(bet, games, closes);
    if (graded !== bet) changed = true;
    return graded;
  });
  return changed ? next : (bets as TrackedBet[]);
}

/** A bet settled by the bettor (a game the results do not carry, or a book's own ruling): the whole ticket. */
export function settleByHand(bet: TrackedBet, result: GradeResult, at: string): TrackedBet {
  const money = settle(bet.stake as Cents, bet.decimal_odds, result);
  return {
    ...bet,
    settlement: {
      result,
      payout: money.payout,
      profit: money.profit,
      clv_pct: bet.settlement?.clv_pct ?? null,
      settled_at: at,
      settled_by: 'hand',
    },
  };
}

/**
 * One POST /v1/grade leg (a spread's line back to the home team's; a prop's player by id, else by name; a parlay leg's
 * own price as its decimal odds).
 */
function requestLeg(leg: GameLeg, decimal: number | null) {
  const spec = leg.market === 'prop' ? { point: leg.line } : gameSpecOf(leg);
  return {
    event_id: leg.event_id ?? '',
    market: leg.market,
    ...(leg.prop ? { stat: leg.prop.stat, player: leg.prop.player_id ?? leg.prop.player } : {}),
    period: leg.period,
    ...(spec.point !== null ? { line: spec.point } : {}),
    outcome: leg.outcome,
    // The leg's own price as typed (decimal), so that the API reprices a dropped leg and measures the leg's CLV with
    // the very figure the tracker uses (decision 297; through American odds they differed in the last cent).
    ...(decimal !== null ? { decimal_odds: decimal } : {}),
  };
}

/** Whether POST /v1/grade can grade the bet: every game it is on has an event id (none typed by hand). */
export function gradeableByApi(bet: TrackedBet): boolean {
  return bet.legs ? bet.legs.every((leg) => leg.event_id !== null) : bet.event_id !== null;
}

/** The bet as POST /v1/grade takes it: a single's one leg, or a parlay's legs with the prices known. */
export function gradeRequestBet(bet: TrackedBet) {
  const single = singleLeg(bet);
  return {
    legs: single
      ? [requestLeg(single, null)]
      : (bet.legs ?? []).map((leg) => requestLeg(leg, leg.decimal_odds)),
    decimal_odds: bet.decimal_odds,
    stake: bet.stake / 100,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Summary

export interface Totals {
  bets: number;
  settled: number;
  open: number;
  won: number;
  lost: number;
  /** Pushed or void (stake back). */
  returned: number;
  /** Staked on settled bets (cents). */
  staked: number;
  /** Profit of the settled bets (cents). */
  profit: number;
  /** Profit over the settled stake, in percent; null with nothing settled. */
  roiPct: number | null;
  /** Average CLV of the bets whose CLV is known, in percent; null when none is. */
  avgClvPct: number | null;
  clvBets: number;
}

function totalsOf(bets: readonly TrackedBet[]): Totals {
  const out: Totals = {
    bets: bets.length,
    settled: 0,
    open: 0,
    won: 0,
    lost: 0,
    returned: 0,
    staked: 0,
    profit: 0,
    roiPct: null,
    avgClvPct: null,
    clvBets: 0,
  };
  let clvSum = 0;
  for (const bet of bets) {
    const s = bet.settlement;
    if (!s) {
      out.open += 1;
      continue;
    }
    out.settled += 1;
    out.staked += bet.stake;
    out.profit += s.profit;
    if (s.result === 'won' || s.result === 'half_won') out.won += 1;
    else if (s.result === 'lost' || s.result === 'half_lost') out.lost += 1;
    else out.returned += 1;
    if (s.clv_pct !== null) {
      clvSum += s.clv_pct;
      out.clvBets += 1;
    }
  }
  if (out.staked > 0) out.roiPct = roundTo((out.profit / out.staked) * 100, 2);
  if (out.clvBets > 0) out.avgClvPct = roundTo(clvSum / out.clvBets, 2);
  return out;
}

export interface Breakdown {
  key: string;
  totals: Totals;
}

function breakdown(bets: readonly TrackedBet[], keyOf: (bet: TrackedBet) => string): Breakdown[] {
  const groups = new Map<string, TrackedBet[]>();
  for (const bet of bets) {
    const key = keyOf(bet);
    const list = groups.get(key);
    if (list) list.push(bet);
    else groups.set(key, [bet]);
  }
  return [...groups]
    .map(([key, list]) => ({ key, totals: totalsOf(list) }))
    .sort((a, b) => b.totals.bets - a.totals.bets || (a.key < b.key ? -1 : 1));
}

/** One point of the cumulative profit line: after the `index`-th settled bet (by settle time), the profit so far. */
export interface ProfitPoint {
  at: string;
  profit: number;
}

export interface TrackerSummary {
  totals: Totals;
  bySport: Breakdown[];
  byBook: Breakdown[];
  byKind: Breakdown[];
  /** Settled bets in settle order, each with the running profit (cents). */
  curve: ProfitPoint[];
}

export function summarize(bets: readonly TrackedBet[]): TrackerSummary {
  const settled = bets
    .filter((bet) => bet.settlement !== null)
    .sort((a, b) => (a.settlement!.settled_at < b.settlement!.settled_at ? -1 : 1));
  let running = 0;
  const curve = settled.map((bet) => {
    running += bet.settlement!.profit;
    return { at: bet.settlement!.settled_at, profit: running };
  });
  return {
    totals: totalsOf(bets),
    bySport: breakdown(bets, (bet) => bet.sport || 'Other'),
    byBook: breakdown(bets, (bet) => bet.book),
    byKind: breakdown(bets, (bet) => bet.kind),
    curve,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// CSV and JSON files

/** The CSV's columns, in order (money in dollars, odds decimal and American). */
export const CSV_COLUMNS = [
  'id',
  'group',
  'kind',
  'placed_at',
  'sport',
  'league',
  'event_id',
  'away',
  'home',
  'starts_at',
  'market',
  'period',
  'line',
  'outcome',
  'selection',
  'book',
  'decimal_odds',
  'american_odds',
  'stake',
  'result',
  'payout',
  'profit',
  'clv_pct',
  'settled_at',
  'settled_by',
  'stat',
  'player',
  'player_id',
  'legs',
] as const;
/** The columns a file must have: those of the first exports (game-line singles); props and parlays added the rest. */
const CSV_REQUIRED = CSV_COLUMNS.slice(0, CSV_COLUMNS.indexOf('settled_by') + 1);

function csvCell(value: string): string {
  // A cell starting with = + - @ is prefixed with ' so a spreadsheet does not run it as a formula (CSV injection),
  // unless it is a number.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The bets as CSV (RFC 4180, CRLF line ends, a header row). */
export function betsToCsv(bets: readonly TrackedBet[]): string {
  const rows = bets.map((bet) => {
    const s = bet.settlement;
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: bet.id,
      group: bet.group ?? '',
      kind: bet.kind,
      placed_at: bet.placed_at,
      sport: bet.sport,
      league: bet.league,
      event_id: bet.event_id ?? '',
      away: bet.away,
      home: bet.home,
      starts_at: bet.starts_at ?? '',
      market: bet.market,
      period: bet.period,
      line: bet.line === null ? '' : String(bet.line),
      outcome: bet.outcome ?? '',
      selection: bet.selection,
      book: bet.book,
      decimal_odds: String(bet.decimal_odds),
      american_odds: bet.american_odds,
      stake: dollars(bet.stake),
      result: s?.result ?? '',
      payout: s ? dollars(s.payout) : '',
      profit: s ? dollars(s.profit) : '',
      clv_pct: s?.clv_pct === null || s === null ? '' : String(s.clv_pct),
      settled_at: s?.settled_at ?? '',
      settled_by: s?.settled_by ?? '',
      stat: bet.prop?.stat ?? '',
      player: bet.prop?.player ?? '',
      player_id: bet.prop?.player_id ?? '',
      // A parlay's legs as JSON in one cell (quoted by csvCell).
      legs: bet.legs ? JSON.stringify(bet.legs) : '',
    };
    return CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

/** Parses CSV text (RFC 4180: quoted cells, doubled quotes, CRLF or LF) into rows of cells. */
export function parseCsv(input: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const source = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  while (i < source.length) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
    } else cell += ch;
    i += 1;
  }
  if (quoted) throw new TrackerFileError('The CSV file ends inside a quoted cell.');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}

/** A file the tracker cannot import, with why (the list is left as it was). */
export class TrackerFileError extends Error {
  override name = 'TrackerFileError';
}

const unformula = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);
const centsOf = (value: string) => Math.round(Number(value) * 100);

function rowToBet(cells: Record<string, string>): unknown {
  const get = (column: string) => unformula(cells[column] ?? '');
  const nullable = (column: string) => (get(column) === '' ? null : get(column));
  const number = (column: string) => (get(column) === '' ? null : Number(get(column)));
  const settlement =
    get('result') === ''
      ? null
      : {
          result: get('result'),
          payout: centsOf(get('payout')),
          profit: centsOf(get('profit')),
          clv_pct: number('clv_pct'),
          settled_at: get('settled_at'),
          settled_by: get('settled_by'),
        };
  let legs: unknown;
  if (get('legs') !== '') {
    try {
      legs = JSON.parse(get('legs'));
    } catch {
      legs = 'not JSON';
    }
  }
  return {
    ...(get('stat') !== ''
      ? { prop: { stat: get('stat'), player: get('player'), player_id: nullable('player_id') } }
      : {}),
    ...(legs !== undefined ? { legs } : {}),
    id: get('id'),
    group: nullable('group'),
    kind: get('kind'),
    placed_at: get('placed_at'),
    sport: get('sport'),
    league: get('league'),
    event_id: nullable('event_id'),
    away: get('away'),
    home: get('home'),
    starts_at: nullable('starts_at'),
    market: get('market'),
    period: get('period'),
    line: number('line'),
    outcome: nullable('outcome'),
    selection: get('selection'),
    book: get('book'),
    decimal_odds: Number(get('decimal_odds')),
    american_odds: get('american_odds'),
    stake: centsOf(get('stake')),
    settlement,
  };
}

/** What is wrong with a field, in words (zod/mini carries no messages of its own). */
function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? 'it is empty'
        : `it must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    case 'too_big':
      return `it must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_type':
      return `a ${issue.expected} is expected`;
    case 'invalid_value':
      return `it must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return 'it is not valid';
  }
}

function checked(raw: unknown, where: string): TrackedBet {
  const parsed = TrackedBetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join('.') : 'the bet';
    throw new TrackerFileError(`${where}: ${field} is not valid (${issueText(issue)}).`);
  }
  const bet = parsed.data;
  // The line rule (spreads, totals and over/under props need a line; moneyline, 1X2 and yes/no props none, as POST
  // /v1/grade rules), outcomes of the market, parlays with legs and singles without.
  const problem = betProblem(bet);
  if (problem) throw new TrackerFileError(`${where}: ${problem}.`);
  return bet;
}

/** Bets from a CSV export; throws TrackerFileError saying which row and field is wrong. */
export function betsFromCsv(input: string): TrackedBet[] {
  const rows = parseCsv(input);
  const header = rows[0];
  if (!header) throw new TrackerFileError('The CSV file is empty.');
  const missing = CSV_REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new TrackerFileError(`The CSV file has no ${missing.slice(0, 3).join(', ')} column.`);
  if (rows.length - 1 > MAX_TRACKED_BETS)
    throw new TrackerFileError(`The CSV file has more than ${MAX_TRACKED_BETS} bets.`);
  return rows.slice(1).map((cells, index) => {
    if (cells.length !== header.length)
      throw new TrackerFileError(`Row ${index + 2}: ${cells.length} cells, the header has ${header.length}.`);
    return checked(
      rowToBet(Object.fromEntries(header.map((column, k) => [column, cells[k]!]))),
      `Row ${index + 2}`,
    );
  });
}

/** The bets as the JSON export. */
export function betsToJson(bets: readonly TrackedBet[]): string {
  const file: TrackerFile = { format: 'sharpline-bets', version: 2, bets: [...bets] };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Bets from a JSON export; throws TrackerFileError saying what is wrong. */
export function betsFromJson(input: string): TrackedBet[] {
  let raw: unknown;
  try {
    raw = JSON.parse(input);
  } catch {
    throw new TrackerFileError('The file is not JSON.');
  }
  const head = z
    .object({
      format: z.literal('sharpline-bets'),
      version: z.union([z.literal(1), z.literal(2)]),
      bets: z.array(z.unknown()),
    })
    .safeParse(raw);
  if (!head.success)
    throw new TrackerFileError(
      'The JSON file is not a Sharpline bet export (format "sharpline-bets", version 1 or 2).',
    );
  if (head.data.bets.length > MAX_TRACKED_BETS)
    throw new TrackerFileError(`The JSON file has more than ${MAX_TRACKED_BETS} bets.`);
  return head.data.bets.map((bet, index) => checked(bet, `Bet ${index + 1}`));
}

/** Bets from an export file, CSV or JSON by its content. */
export function betsFromFile(input: string): TrackedBet[] {
  const start = input.replace(/^\ufeff/, '').trimStart();
  if (start === '') throw new TrackerFileError('The file is empty.');
  return start.startsWith('{') ? betsFromJson(start) : betsFromCsv(input);
}

/** A leg's fair closing probability in `markets` (its prop's player by id when it is a prop), as the API finds it. */
function closeOfLeg(
  markets: Parameters<typeof closingProbability>[0],
  leg: GameLeg,
  playerId: string | undefined,
) {
  return closingProbability(markets, {
    market: leg.market,
    period: leg.period,
    line: leg.market === 'prop' ? leg.line : gameSpecOf(leg).point,
    outcome: leg.outcome,
    ...(playerId !== undefined ? { stat: leg.prop!.stat, playerId } : {}),
  });
}
