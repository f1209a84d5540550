import { z } from 'zod/mini';
import { PERIODS, type Period } from '../markets.ts';
import { PROP_STAT_KEYS } from '../props.ts';
import { text } from './finder-feed.ts';

// The public results feed (issue 57, decision 256): GET /tools/results.json, read by the /betting-tools/bet-tracker
// page to grade the bets a visitor tracks without a key. Every game finished in the last three days with its final
// score period by period, as bets settle on it (docs/grading.md). GET /v1/scores has the same finals on every plan, and
// live scores on the plans with scores and grading.

const ScoreSchema = z.object({ home: z.int(), away: z.int() });
const PeriodKeySchema = z.enum(PERIODS as unknown as [Period, ...Period[]]);

/**
 * One player of a final's box score, as much as grading his props needs: his id (as the props name him), his name
 * (a prop typed by hand names him so), and his figure of each stat he had a prop on, per period; `periods` null: he
 * did not play (every prop on him is void).
 */
export const ResultsFeedPlayerSchema = z.object({
  id: text(200),
  name: text(200),
  periods: z.nullable(z.partialRecord(PeriodKeySchema, z.partialRecord(z.enum(PROP_STAT_KEYS), z.int()))),
});

export const ResultsFeedGameSchema = z.object({
  event_id: text(200),
  sport: text(32),
  league: text(64),
  home_team: text(200),
  away_team: text(200),
  /** ISO 8601 start. */
  commence_time: text(40),
  /** ISO 8601: when the result became final. */
  completed_at: text(40),
  /** Each period played, keyed as markets name periods; `full` is the score the game's bets settle on. */
  periods: z.partialRecord(PeriodKeySchema, ScoreSchema),
  /**
   * False when the source scores only the whole game (The Odds API): bets on a period of it are not graded, as
   * POST /v1/grade's `not_graded`. Absent in answers made before it was carried (read as true).
   */
  periods_reported: z.optional(z.boolean()),
  /**
   * The box score: every player the source priced props on; null when the source gives none (The Odds API), and then
   * props on the game stay open. Absent in answers made before box scores were carried.
   */
  players: z.optional(z.nullable(z.array(ResultsFeedPlayerSchema))),
});

export const ResultsFeedSchema = z.object({
  /** Where the games come from: `simulator` is demo data (the page says so). */
  source: text(32),
  /** Unix seconds: when this answer was made. */
  generated_at: z.int(),
  /** How far back finals are kept, in hours. */
  window_hours: z.int(),
  games: z.array(ResultsFeedGameSchema),
});

export type ResultsFeed = z.infer<typeof ResultsFeedSchema>;
export type ResultsFeedGame = z.infer<typeof ResultsFeedGameSchema>;
export type ResultsFeedPlayer = z.infer<typeof ResultsFeedPlayerSchema>;

/**
 * One market's fair close (decision 289; `ClosingMarket` in src/domain/closing.ts): its type, period, line (a spread's
 * is the home team's; null without one), a prop's stat and player id, and each outcome's fair closing probability.
 */
export const ClosingMarketSchema = z.object({
  market: text(32),
  period: text(16),
  line: z.nullable(z.number()),
  stat: z.optional(text(64)),
  player: z.optional(text(200)),
  fair: z.record(text(16), z.number().check(z.gte(0), z.lte(1))),
});

/**
 * GET /tools/closing.json?events=…: the fair close of the results feed's finals (decision 289) and of games started
 * but not final (in play, their closing lines taken; decision 310), as POST /v1/grade measures CLV against it. A game
 * not started (or unknown) is left out; a game whose markets were never priced before its start has an empty list.
 */
/** The most events one GET /tools/closing.json asks for. */
export const CLOSING_EVENTS_MAX = 50;

export const ClosingFeedSchema = z.object({
  /** The book the fair probabilities are devigged from (the consensus when it did not price a market). */
  reference: text(64),
  /** The devig method. */
  method: text(32),
  games: z.array(z.object({ event_id: text(200), markets: z.array(ClosingMarketSchema) })),
});

export type ClosingFeed = z.infer<typeof ClosingFeedSchema>;
