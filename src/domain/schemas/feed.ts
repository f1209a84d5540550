import { z } from 'zod';

// The arbitrage feed of SPEC §3 ("Arbitrage feed", "Arb", "Side") and §7 call 2, shared by the engine that
// publishes it, the server route that serves it and the page that polls it.

export const TeamSchema = z.object({
  id: z.string().min(1).max(128),
  name: z.string().min(1).max(200),
  abbreviation: z.string().min(1).max(16),
});

export const ArbEventSchema = z.object({
  id: z.string().min(1).max(200),
  teams: z.object({ away: TeamSchema, home: TeamSchema }),
  live: z.boolean(),
  /** ISO 8601 start time. */
  date: z.string().optional(),
});

export const SideLinksSchema = z.object({
  desktop: z.string().nullable().optional(),
  mobile: z.string().nullable().optional(),
});

export const SideSchema = z.object({
  id: z.string().min(1).max(200),
  sportsbook: z.string().min(1).max(64),
  /** Outcome name as the book shows it, e.g. "Boston Celtics" or "Over 221.5". */
  name: z.string().max(200),
  /** American odds text, e.g. "+150" or "-110". */
  price: z.string().min(1).max(16),
  selection: z.object({ name: z.string().max(200) }),
  decimal_odds: z.number().finite().gt(1),
  implied_prob: z.number().finite().gt(0).lt(1),
  links: SideLinksSchema,
});

export const ArbSchema = z.object({
  event: ArbEventSchema,
  /** Market label, e.g. "Moneyline", "Spread", "Total Points". */
  market: z.string().min(1).max(200),
  sides: z.array(SideSchema).min(2).max(3),
  edge_pct: z.number().finite(),
});

export const FEED_SOURCES = ['simulator', 'the-odds-api', 'replay', 'sample'] as const;
export type FeedSource = (typeof FEED_SOURCES)[number];

export const ArbFeedSchema = z.object({
  /** Unix seconds. */
  generated_at: z.number().int().nonnegative(),
  arbs: z.array(ArbSchema),
  /** Where the prices come from; the page labels simulator and sample data as demo data. */
  source: z.enum(FEED_SOURCES).optional(),
});

/** The feed with its arbs left unchecked, for a reader that validates each arb on its own (the arbitrage page). */
export const ArbFeedEnvelopeSchema = ArbFeedSchema.extend({ arbs: z.array(z.unknown()) });

export type Team = z.infer<typeof TeamSchema>;
export type ArbEvent = z.infer<typeof ArbEventSchema>;
export type Side = z.infer<typeof SideSchema>;
export type Arb = z.infer<typeof ArbSchema>;
export type ArbFeed = z.infer<typeof ArbFeedSchema>;
