import { FIRST_FETCH_META } from '#domain/site.ts';

// A prerendered page's first request, sent by its script loader as the page's scripts start, after the first paint and
// beside the chunks (scripts/lib/prerendered-scripts.ts, docs/decisions/186): a page whose first content is a feed
// names the feed in its route's `meta` (`firstFetchMeta`), and its fetcher takes the answer (`takeFirstFetch`) instead
// of asking only once React has hydrated the page.

/** What the loader leaves on `window`: the address it asked (the meta's content), when, and the answer. */
interface LoaderFetch {
  url: string;
  askedAt: number;
  response: Promise<Response>;
}

/** An answer asked for longer ago than this when the page first reads it (a tab left in the background) is not used. */
export const FIRST_FETCH_MAX_AGE_MS = 5_000;

/** The route's meta descriptor naming `url` (without its `?t=`) as the page's first request. */
export function firstFetchMeta(url: string) {
  return { name: FIRST_FETCH_META, content: url };
}

/** The answer the loader asked `url` for, once, if it was asked under FIRST_FETCH_MAX_AGE_MS ago. */
export function takeFirstFetch(url: string): Promise<Response> | undefined {
  if (typeof window === 'undefined') return undefined;
  const holder = window as { sharplineFirstFetch?: LoaderFetch };
  const first = holder.sharplineFirstFetch;
  if (!first || first.url !== url) return undefined;
  delete holder.sharplineFirstFetch;
  return Date.now() - first.askedAt <= FIRST_FETCH_MAX_AGE_MS ? first.response : undefined;
}
