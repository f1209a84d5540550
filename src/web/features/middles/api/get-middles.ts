import { middleFeedRow } from '#domain/finder-rows.ts';
import type { MiddlesResponse } from '#domain/schemas/api/middles.ts';
import type { MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { finderFeedOptions, useFinderFeed } from '#web/lib/finder-feed.ts';

// GET /tools/middles.json?t=<ms> (docs/product.md §7): the public middles feed, delayed and coarse (decision 169),
// read as the positive-EV page reads its own (src/web/lib/finder-feed.ts). With a pasted key (decision 224):
// GET /v1/middles with it, every middle its plan gets (up to the route's 1,000), as fresh as its plan, drawn by the
// same rows.

export const MIDDLES_FEED_PATH = '/tools/middles.json';
export const MIDDLES_KEYED_PATH = '/v1/middles?limit=1000';

/** A /v1/middles answer in the public feed's shape. */
export function middlesAnswerAsFeed(answer: MiddlesResponse): MiddlesFeed {
  return {
    source: answer.source,
    as_of: Math.floor(Date.parse(answer.as_of) / 1000),
    delay_seconds: answer.delay_seconds,
    min_books: answer.min_books,
    total: answer.total,
    middles: answer.middles.map((middle) => middleFeedRow(middle)),
  };
}

export const middlesQueryOptions = finderFeedOptions<MiddlesFeed>(
  MIDDLES_FEED_PATH,
  'middles',
  () => import('#domain/schemas/middles-feed.ts').then((module) => module.MiddlesFeedSchema),
  { apiPath: MIDDLES_KEYED_PATH, toFeed: middlesAnswerAsFeed },
);

export const useMiddlesFeed = (apiKey: string | null = null) => useFinderFeed(middlesQueryOptions(apiKey));
