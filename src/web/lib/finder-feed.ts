import { useCallback, useEffect, useRef, useState } from 'react';
import { publicConfig } from '#web/config.ts';
import { takeFirstFetch } from '#web/lib/first-fetch.ts';

// What the public finder pages (positive EV, middles; decisions 163 and 169) share to read their delayed feeds
// (GET /tools/ev.json, GET /tools/middles.json): the URL, a fetcher whose zod/mini schema (jitless: the site's CSP has
// no 'unsafe-eval') loads with the first fetch rather than with the page, and a polling hook. A failed refresh keeps
// the last good feed; the first failure shows the page's error view.

/** How often a finder page asks again while visible: the feeds' prices are minutes old, so seconds matter little. */
export const FINDER_REFRESH_MS = 15_000;

/** The feed's address without its `t` (the page's first request names it: src/web/lib/first-fetch.ts). */
export function finderFeedBase(path: string, host: string = publicConfig.oddsApiHost): string {
  return `${host.replace(/\/+$/, '')}${path}`;
}

export function finderFeedUrl(path: string, nowMs: number, host: string = publicConfig.oddsApiHost): string {
  return `${finderFeedBase(path, host)}?t=${nowMs}`;
}

export interface FeedParser<T> {
  parse: (body: unknown) => T;
}

/** The feed's fetcher: `schema` imports the feed's zod/mini schema module, once, after zod/mini is set jitless. */
export function feedFetcher<T>(path: string, what: string, schema: () => Promise<FeedParser<T>>) {
  let parser: Promise<FeedParser<T>> | undefined;
  const loadParser = () =>
    (parser ??= import('zod/mini')
      .then(({ config }) => {
        config({ jitless: true });
        return schema();
      })
      .catch((error: unknown) => {
        parser = undefined;
        throw error;
      }));
  return async ({ signal }: { signal?: AbortSignal } = {}): Promise<T> => {
    const loading = loadParser();
    // The page's first answer may have been asked for by the page's script loader already (decision 186).
    const response = await (takeFirstFetch(finderFeedBase(path)) ??
      fetch(finderFeedUrl(path, Date.now()), { headers: { Accept: 'application/json' }, signal }));
    if (!response.ok) throw new Error(`The ${what} feed answered ${response.status}`);
    const body: unknown = await response.json();
    return (await loading).parse(body);
  };
}

export interface FinderFeedOptions<T> {
  queryKey: readonly unknown[];
  queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  refetchInterval: number;
}

export interface FinderFeedResult<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => void;
}

/** A finder feed's query options: its fetcher (`feedFetcher`), keyed by path and host, every FINDER_REFRESH_MS. */
export function finderFeedOptions<T>(
  path: string,
  what: string,
  schema: () => Promise<FeedParser<T>>,
): () => FinderFeedOptions<T> {
  const fetchFeed = feedFetcher(path, what, schema);
  return () => ({
    queryKey: [path, publicConfig.oddsApiHost],
    queryFn: ({ signal }) => fetchFeed({ signal }),
    refetchInterval: FINDER_REFRESH_MS,
  });
}

/** The feed, fetched on mount and every `refetchInterval` while the tab is visible; the last good answer is kept. */
export function useFinderFeed<T>(options: FinderFeedOptions<T>): FinderFeedResult<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [fetching, setFetching] = useState(true);
  const queryFn = useRef(options.queryFn);
  const busy = useRef(false);

  const refetch = useCallback(() => {
    if (busy.current) return;
    busy.current = true;
    setFetching(true);
    const abort = new AbortController();
    queryFn
      .current({ signal: abort.signal })
      .then(
        (feed) => {
          setData(feed);
          setError(undefined);
        },
        (reason: unknown) => setError(reason),
      )
      .finally(() => {
        busy.current = false;
        setFetching(false);
      });
  }, []);

  useEffect(() => {
    refetch();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refetch();
    }, options.refetchInterval);
    return () => clearInterval(timer);
  }, [refetch, options.refetchInterval]);

  return { data, error, isPending: data === undefined && error === undefined, isFetching: fetching, refetch };
}
