import type { MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { publicConfig } from '#web/config.ts';
import {
  feedFetcher,
  FINDER_REFRESH_MS,
  useFinderFeed,
  type FinderFeedOptions,
  type FinderFeedResult,
} from '#web/lib/finder-feed.ts';

// GET /tools/middles.json?t=<ms> (docs/product.md §7): the public middles feed, delayed and coarse (decision 169),
// read as the positive-EV page reads its own (src/web/lib/finder-feed.ts).

export const fetchMiddles = feedFetcher<MiddlesFeed>('/tools/middles.json', 'middles', () =>
  import('#domain/schemas/middles-feed.ts').then((module) => module.MiddlesFeedSchema),
);

export function middlesQueryOptions(): FinderFeedOptions<MiddlesFeed> {
  return {
    queryKey: ['middles', publicConfig.oddsApiHost],
    queryFn: ({ signal }) => fetchMiddles({ signal }),
    refetchInterval: FINDER_REFRESH_MS,
  };
}

export function useMiddlesFeed(options = middlesQueryOptions()): FinderFeedResult<MiddlesFeed> {
  return useFinderFeed(options);
}
