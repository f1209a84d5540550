import { z } from 'zod/mini';

// What the public finder feeds share (GET /tools/ev.json and GET /tools/middles.json, read by the positive-EV and
// middles pages): bounded text, the event as a row carries it, a price's bet links. zod/mini, as the feeds' schemas.

export const text = (max: number) => z.string().check(z.maxLength(max));

/** An event as the public finder feeds carry it (the positive-EV and middles pages). */
export const FeedEventSchema = z.object({
  id: text(200),
  league: text(64),
  sport: text(32),
  home: text(200),
  away: text(200),
  /** ISO 8601 start time. */
  starts_at: text(40),
  live: z.boolean(),
});

export const FeedLinksSchema = z.object({ desktop: z.nullable(text(2000)), mobile: z.nullable(text(2000)) });

/** The fields every finder feed starts with: where the prices come from and the instant they reflect. */
export const FEED_HEAD = {
  /** Where the prices come from: `simulator` is demo data, never real odds (the page says so). */
  source: text(32),
  /** Unix seconds: the instant the prices reflect (now minus `delay_seconds`). */
  as_of: z.int(),
  delay_seconds: z.int(),
};

/** What the pages read from any finder feed's head. */
export interface FinderFeedHead {
  source: string;
  as_of: number;
  delay_seconds: number;
  total: number;
}

export type FeedEvent = z.infer<typeof FeedEventSchema>;
