import { z } from 'zod/mini';
import { FeedLegSchema } from './feed.ts';
import { FEED_HEAD, FeedEventSchema, FeedLinksSchema, text } from './finder-feed.ts';

// The public middles feed (issue 36, decisions 167 and 169): GET /tools/middles.json, read by the
// /betting-tools/middles page. Delayed and coarse like the positive-EV feed: the board as it was `delay_seconds` ago,
// its best `MIDDLES_FEED_MAX_ROWS` middles by EV only, chances to three places, EV and the worst case to one decimal.
// The paid API's GET /v1/middles has every middle, in real time on real-time plans, at full precision.

/** The most middles the public feed carries (the best EV first). */
export const MIDDLES_FEED_MAX_ROWS = 100;

const probability = z.number().check(z.gte(0), z.lte(1));

export const MiddleFeedSideSchema = z.object({
  book: text(64),
  /** The side as a bettor reads it: "Kansas City Chiefs -2.5", "Over 44.5". */
  name: text(200),
  /** The line on the margin (home − away) or the total: the high side wins above it, the low side below it. */
  line: z.number(),
  american: text(16),
  decimal: z.number().check(z.gt(1)),
  links: FeedLinksSchema,
  /** The bet this side is a game line or a prop: what the bet tracker grades. */
  leg: z.optional(FeedLegSchema),
});

export const MiddleFeedRowSchema = z.object({
  /** Stable per (event, market type, both books and lines). */
  id: text(400),
  event: FeedEventSchema,
  /** `spread` or `total` (full game), or `prop` (one player's stat in one period). */
  market_type: text(32),
  /** As a bettor reads it: "Spread", "Total", "LeBron James Points", "LeBron James 1st Quarter Points". */
  market_label: text(200),
  /** The side that wins above its line (home spread side, over) and the one that wins below it (away, under). */
  high: MiddleFeedSideSchema,
  low: MiddleFeedSideSchema,
  /** The final margins, totals or stat figures on which both sides win, inclusive. */
  gap: z.object({ from: z.int(), to: z.int() }),
  /** The chance of landing in the gap, and of each side pushing (3 places), from the score model. */
  probability: probability,
  push_high: probability,
  push_low: probability,
  /** The pair's EV at the equal-payout split, in percent, one decimal, rounded down. */
  ev_pct: z.number(),
  /** What a miss returns at the equal-payout split, in percent, one decimal, rounded down (negative: a loss). */
  worst_case_pct: z.number(),
  /** The league's score model (`scoreModelName`, decision 264); for props `prop-poisson` or `prop-normal` (decision 189). */
  model: text(32),
});

export const MiddlesFeedSchema = z.object({
  ...FEED_HEAD,
  min_books: z.int(),
  /** How many middles the board had at `as_of` (the feed carries the best `MIDDLES_FEED_MAX_ROWS`). */
  total: z.int(),
  middles: z.array(MiddleFeedRowSchema),
});

export type MiddlesFeed = z.infer<typeof MiddlesFeedSchema>;
export type MiddleFeedRow = z.infer<typeof MiddleFeedRowSchema>;
