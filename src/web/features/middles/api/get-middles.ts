import type { MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { finderFeedOptions, useFinderFeed } from '#web/lib/finder-feed.ts';

// GET /tools/middles.json?t=<ms> (docs/product.md §7): the public middles feed, delayed and coarse (decision 169),
// read as the positive-EV page reads its own (src/web/lib/finder-feed.ts).

export const MIDDLES_FEED_PATH = '/tools/middles.json';

export const middlesQueryOptions = finderFeedOptions<MiddlesFeed>(MIDDLES_FEED_PATH, 'middles', () =>
  import('#domain/schemas/middles-feed.ts').then((module) => module.MiddlesFeedSchema),
);

export const useMiddlesFeed = (options = middlesQueryOptions()) => useFinderFeed(options);
