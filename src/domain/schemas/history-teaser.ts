import { z } from 'zod/mini';

// The public odds-history teaser of issue 13: GET /tools/history.json?event=<event id>&sides=<side id>,<side id>[,…]
// answers each side's price at every minute boundary of (at most) the last hour. Shared by the server route that
// serves it (src/server/history/) and the arbitrage page that charts it. Written with zod/mini like schemas/feed.ts,
// so the page loads only the few checks it uses.

/** At most one hour of one-minute points, both ends included (3600 / 60 + 1). */
export const HISTORY_TEASER_MAX_POINTS = 61;
/** The interval of the teaser's points, in seconds. */
export const HISTORY_TEASER_INTERVAL_S = 60;

const unixSeconds = z.int().check(z.nonnegative());

/**
 * `[unix seconds, American odds, decimal odds]`: the price in force at that minute, both prices null while the book
 * was suspended or had no price (a gap, never to be interpolated).
 */
export const HistoryPointSchema = z.tuple([
  unixSeconds,
  z.nullable(z.number()),
  z.nullable(z.number().check(z.gt(1))),
]);

export const HistorySideSchema = z.object({
  /** The feed's `side.id`. */
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Sportsbook key, e.g. "fanduel". */
  book: z.string().check(z.minLength(1), z.maxLength(64)),
  /** Outcome key, e.g. "home", "away", "over". */
  outcome: z.string().check(z.maxLength(200)),
  points: z.array(HistoryPointSchema).check(z.maxLength(HISTORY_TEASER_MAX_POINTS)),
});

export const HistoryTeaserSchema = z.object({
  /** The feed's `arb.event.id`. */
  event: z.string().check(z.minLength(1), z.maxLength(200)),
  from: unixSeconds,
  to: unixSeconds,
  interval_s: z.literal(HISTORY_TEASER_INTERVAL_S),
  /** The sides asked for that history knows; the others are left out. */
  sides: z.array(HistorySideSchema).check(z.maxLength(3)),
});

export type HistoryPoint = z.infer<typeof HistoryPointSchema>;
export type HistorySide = z.infer<typeof HistorySideSchema>;
export type HistoryTeaser = z.infer<typeof HistoryTeaserSchema>;
