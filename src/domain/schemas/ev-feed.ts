import { z } from 'zod/mini';
import { FeedLegSchema } from './feed.ts';
import { FEED_HEAD, FeedEventSchema, FeedLinksSchema, text } from './finder-feed.ts';

// The public positive-EV feed (issue 36, decision 163): GET /tools/ev.json, read by the /betting-tools/positive-ev page.
// Delayed and coarse on purpose: the board as it was `delay_seconds` ago (the cheapest plan's delay), its best
// `EV_FEED_MAX_ROWS` prices only, EV to one decimal and fair probabilities to three places. The paid API's GET /v1/ev
// has every price, in real time for real-time plans, at full precision. Written with zod/mini like schemas/feed.ts.

/** The most prices the public feed carries (the best EV first). */
export const EV_FEED_MAX_ROWS = 100;

export const EvFeedRowSchema = z.object({
  /** Stable per (market, outcome, book). */
  id: text(400),
  event: FeedEventSchema,
  /** Market type as /v1 names it: moneyline, spread, total, 1x2, prop. */
  market_type: text(32),
  /** "Moneyline", "Spread -3.5", "LeBron James Points Over/Under 27.5". */
  market: text(200),
  /** The outcome as a bettor reads it: "Boston Celtics", "Over 221.5". */
  outcome: text(200),
  book: text(64),
  /** The book's American odds as text ("+125") and its decimal odds. */
  american: text(16),
  decimal: z.number().check(z.gt(1)),
  /** Fair probability, 3 places, and the fair price in American odds (rounded down to the point). */
  fair_prob: z.number().check(z.gt(0), z.lt(1)),
  fair_american: text(16),
  /** How many books priced every side (the consensus behind the fair). */
  books: z.int(),
  /** EV in percent, one decimal, rounded down. */
  ev_pct: z.number(),
  links: FeedLinksSchema,
  /** The bet this price is a game line or a prop: what the bet tracker grades. */
  leg: z.optional(FeedLegSchema),
});

export const EvFeedSchema = z.object({
  ...FEED_HEAD,
  /** `shin` over the `consensus` of every book pricing every side. */
  method: text(32),
  reference: text(32),
  min_books: z.int(),
  /** How many prices had positive EV at `as_of` (the feed carries the best `EV_FEED_MAX_ROWS`). */
  total: z.int(),
  prices: z.array(EvFeedRowSchema),
});

export type EvFeed = z.infer<typeof EvFeedSchema>;
export type EvFeedRow = z.infer<typeof EvFeedRowSchema>;
