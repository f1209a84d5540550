import type { EvFeed } from '#domain/schemas/ev-feed.ts';
import { publicConfig } from '#web/config.ts';
import {
  feedFetcher,
  FINDER_REFRESH_MS,
  useFinderFeed,
  type FinderFeedOptions,
  type FinderFeedResult,
} from '#web/lib/finder-feed.ts';

// GET /tools/ev.json?t=<ms> (docs/product.md §7): the public positive-EV feed, delayed and coarse (decision 163),
// read as the middles page reads its own (src/web/lib/finder-feed.ts).

export const fetchEv = feedFetcher<EvFeed>('/tools/ev.json', 'positive-EV', () =>
  import('#domain/schemas/ev-feed.ts').then((module) => module.EvFeedSchema),
);

export function evQueryOptions(): FinderFeedOptions<EvFeed> {
  return {
    queryKey: ['ev', publicConfig.oddsApiHost],
    queryFn: ({ signal }) => fetchEv({ signal }),
    refetchInterval: FINDER_REFRESH_MS,
  };
}

export function useEvFeed(options = evQueryOptions()): FinderFeedResult<EvFeed> {
  return useFinderFeed(options);
}
