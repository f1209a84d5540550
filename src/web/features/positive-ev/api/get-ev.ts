import { evFeedRow } from '#domain/finder-rows.ts';
import type { EvResponse } from '#domain/schemas/api/ev.ts';
import type { EvFeed } from '#domain/schemas/ev-feed.ts';
import { finderFeedOptions, useFinderFeed } from '#web/lib/finder-feed.ts';

// GET /tools/ev.json?t=<ms> (docs/product.md §7): the public positive-EV feed, delayed and coarse (decision 163),
// read as the middles page reads its own (src/web/lib/finder-feed.ts). With a pasted key (decision 224): GET /v1/ev
// with it, every price its plan gets (up to the route's 1,000), as fresh as its plan, drawn by the same rows.

export const EV_FEED_PATH = '/tools/ev.json';
export const EV_KEYED_PATH = '/v1/ev?limit=1000';

/** A /v1/ev answer in the public feed's shape. */
export function evAnswerAsFeed(answer: EvResponse): EvFeed {
  return {
    source: answer.source,
    as_of: Math.floor(Date.parse(answer.as_of) / 1000),
    delay_seconds: answer.delay_seconds,
    method: answer.method,
    reference: answer.reference,
    min_books: answer.min_books,
    total: answer.total,
    prices: answer.prices.map((price) => evFeedRow(price)),
  };
}

export const evQueryOptions = finderFeedOptions<EvFeed>(
  EV_FEED_PATH,
  'positive-EV',
  () => import('#domain/schemas/ev-feed.ts').then((module) => module.EvFeedSchema),
  { apiPath: EV_KEYED_PATH, toFeed: evAnswerAsFeed },
);

export const useEvFeed = (apiKey: string | null = null) => useFinderFeed(evQueryOptions(apiKey));
