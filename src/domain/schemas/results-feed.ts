import { z } from 'zod/mini';
import { PERIODS, type Period } from '../markets.ts';
import { text } from './finder-feed.ts';

// The public results feed (issue 57, decision 256): GET /tools/results.json, read by the /betting-tools/bet-tracker
// page to grade the bets a visitor tracks without a key. Every game finished in the last three days with its final
// score period by period, as bets settle on it (docs/grading.md). GET /v1/scores has the same finals on every plan, and
// live scores on the plans with scores and grading.

const ScoreSchema = z.object({ home: z.int(), away: z.int() });

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
  periods: z.partialRecord(z.enum(PERIODS as unknown as [Period, ...Period[]]), ScoreSchema),
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
