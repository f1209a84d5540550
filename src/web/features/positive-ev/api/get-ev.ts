import type { EvFeed } from '#domain/schemas/ev-feed.ts';
import { finderFeedOptions, useFinderFeed } from '#web/lib/finder-feed.ts';

// GET /tools/ev.json?t=<ms> (docs/product.md §7): the public positive-EV feed, delayed and coarse (decision 163),
// read as the middles page reads its own (src/web/lib/finder-feed.ts).

export const EV_FEED_PATH = '/tools/ev.json';

export const evQueryOptions = finderFeedOptions<EvFeed>(EV_FEED_PATH, 'positive-EV', () =>
  import('#domain/schemas/ev-feed.ts').then((module) => module.EvFeedSchema),
);

export const useEvFeed = (options = evQueryOptions()) => useFinderFeed(options);
