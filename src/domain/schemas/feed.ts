import { z } from 'zod/mini';

// The arbitrage feed of docs/product.md §3 ("Arbitrage feed", "Arb", "Side") and §7 call 2, shared by the engine that
// publishes it, the server route that serves it and the page that polls it. Written with zod/mini, the same
// validator with functions instead of methods: the page loads 7 KB of it instead of zod's 24 KB (decision 063). Its
// schemas compose with the full zod's (the API's schemas in schemas/api/ embed them).

/** A string of `min` to `max` characters. */
const text = (min: number, max: number) =>
  min > 0 ? z.string().check(z.minLength(min), z.maxLength(max)) : z.string().check(z.maxLength(max));

export const TeamSchema = z.object({
  id: text(1, 128),
  name: text(1, 200),
  abbreviation: text(1, 16),
});

export const ArbEventSchema = z.object({
  id: text(1, 200),
  teams: z.object({ away: TeamSchema, home: TeamSchema }),
  live: z.boolean(),
  /** ISO 8601 start time. */
  date: z.optional(z.string()),
  /**
   * The sport (a `SportKey` of src/domain/markets.ts: "basketball", "soccer"…) and the league id as /v1/leagues names
   * it ("nba", "epl"…), for the page's filters (issue 14). Optional: older snapshots and the page's sample data have
   * none. Plain strings, as /v1 has them, so a sport or league added later does not invalidate an older page's arbs.
   */
  sport: z.optional(text(1, 32)),
  league: z.optional(text(1, 64)),
});

export const SideLinksSchema = z.object({
  desktop: z.optional(z.nullable(z.string())),
  mobile: z.optional(z.nullable(z.string())),
});

/**
 * What a bet on a row's side is, as POST /v1/grade and the bet tracker read it (issue 57): the market's type, its
 * period, its line (a spread's is the home team's, as in market keys; null for moneyline, 1X2 and yes/no props) and
 * the outcome key; a player prop (`market` "prop", decision 282) adds its `stat`, `player_id` and the player's name
 * as `player`. Plain strings, as `market_type`, so a value added later does not invalidate an older page's rows.
 */
export const FeedLegSchema = z.object({
  market: text(1, 32),
  period: text(1, 8),
  line: z.nullable(z.number()),
  outcome: text(1, 16),
  stat: z.optional(text(1, 64)),
  player_id: z.optional(text(1, 200)),
  player: z.optional(text(0, 200)),
});

export const SideSchema = z.object({
  id: text(1, 200),
  sportsbook: text(1, 64),
  /** Outcome name as the book shows it, e.g. "Boston Celtics" or "Over 221.5". */
  name: text(0, 200),
  /** American odds text, e.g. "+150" or "-110". */
  price: text(1, 16),
  selection: z.object({ name: text(0, 200) }),
  decimal_odds: z.number().check(z.gt(1)),
  implied_prob: z.number().check(z.gt(0), z.lt(1)),
  links: SideLinksSchema,
  /** The bet this side is (absent in older snapshots and the sample data). */
  leg: z.optional(FeedLegSchema),
});

export const ArbSchema = z.object({
  event: ArbEventSchema,
  /** Market label, e.g. "Moneyline", "Spread -3.5 / +3.5", "LeBron James Points Over/Under 27.5". */
  market: text(1, 200),
  /**
   * The market's type as /v1 names it: "moneyline", "spread", "total", "1x2" or "prop" (a player prop), for the page's
   * market filter (decision 121). Optional: older snapshots and the sample data have none (the page then reads the
   * label). A plain string, so a type added later does not invalidate an older page's arbs.
   */
  market_type: z.optional(text(1, 32)),
  sides: z.array(SideSchema).check(z.minLength(2), z.maxLength(3)),
  edge_pct: z.number(),
  /** Present and true when edge_pct is above the plausible ceiling (ARB_MAX_EDGE_PCT): likely a bad price, not an arb. */
  suspect: z.optional(z.boolean()),
  /**
   * Unix seconds: when the engine first published this arb key (`arbKey`) with a positive edge. It survives snapshots
   * and edge changes, and resets when the arb leaves the feed or its edge falls to 0 or below; absent for near-arbs
   * (edge ≤ 0), and in older snapshots and the sample data (decision 116).
   */
  found_at: z.optional(z.int().check(z.nonnegative())),
});

export const FEED_SOURCES = ['simulator', 'the-odds-api', 'replay', 'sample'] as const;
export type FeedSource = (typeof FEED_SOURCES)[number];

/**
 * What the public feed says of the arbs above the free tier's edge cap (decision 210): the cap and, per arb, only what
 * the page needs to count it under its tabs and filters. Absent from feeds without a cap (and the sample data).
 */
export const AboveCapSchema = z.object({
  edge_pct: z.number(),
  arbs: z.array(
    z.object({
      live: z.boolean(),
      books: z.array(text(1, 64)),
      league: z.optional(text(1, 64)),
      market_type: z.optional(text(1, 32)),
      /** Above ARB_MAX_EDGE_PCT: most often a bad price (the page counts it only when it shows suspect arbs). */
      suspect: z.optional(z.boolean()),
    }),
  ),
});

const feedShape = {
  /** Unix seconds. */
  generated_at: z.int().check(z.nonnegative()),
  /** Where the prices come from; the page labels simulator and sample data as demo data. */
  source: z.optional(z.enum(FEED_SOURCES)),
  above_cap: z.optional(AboveCapSchema),
};

export const ArbFeedSchema = z.object({ ...feedShape, arbs: z.array(ArbSchema) });

/** The feed with its arbs left unchecked, for a reader that validates each arb on its own (the arbitrage page). */
export const ArbFeedEnvelopeSchema = z.object({ ...feedShape, arbs: z.array(z.unknown()) });

export type Team = z.infer<typeof TeamSchema>;
export type ArbEvent = z.infer<typeof ArbEventSchema>;
export type Side = z.infer<typeof SideSchema>;
export type FeedLeg = z.infer<typeof FeedLegSchema>;
export type Arb = z.infer<typeof ArbSchema>;
export type ArbFeed = z.infer<typeof ArbFeedSchema>;
export type AboveCap = z.infer<typeof AboveCapSchema>;
