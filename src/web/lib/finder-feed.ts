import { useCallback, useEffect, useRef, useState } from 'react';
import { publicConfig } from '#web/config.ts';
import { takeFirstFetch } from '#web/lib/first-fetch.ts';
import { fetchWithKey } from '#web/lib/keyed-fetch.ts';

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

/** Loads the feed's zod/mini schema module once, after zod/mini is set jitless (tried again after a failure). */
function parserLoader<T>(schema: () => Promise<FeedParser<T>>): () => Promise<FeedParser<T>> {
  let parser: Promise<FeedParser<T>> | undefined;
  return () =>
    (parser ??= import('zod/mini')
      .then(({ config }) => {
        config({ jitless: true });
        return schema();
      })
      .catch((error: unknown) => {
        parser = undefined;
        throw error;
      }));
}

/** The feed's fetcher: `schema` imports the feed's zod/mini schema module, once, after zod/mini is set jitless. */
export function feedFetcher<T>(path: string, what: string, schema: () => Promise<FeedParser<T>>) {
  const loadParser = parserLoader(schema);
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

/**
 * A pasted key's fetcher (decision 224): the paid API's answer at this site's relative `apiPath`, the key only in
 * X-Api-Key, made into the feed's shape by `toFeed` and checked by the feed's schema, so that the page draws it as it
 * draws the free feed. A refusal throws a KeyedFeedError (src/web/lib/keyed-fetch.ts).
 */
export function keyedFeedFetcher<T>(
  apiPath: string,
  schema: () => Promise<FeedParser<T>>,
  toFeed: (answer: never) => unknown,
) {
  const loadParser = parserLoader(schema);
  return async ({ signal, key }: { signal?: AbortSignal; key: string }): Promise<T> => {
    const loading = loadParser();
    loading.catch(() => undefined);
    const { body } = await fetchWithKey(apiPath, key, signal);
    return (await loading).parse(toFeed(JSON.parse(body) as never));
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

/**
 * A finder feed's query options: the public feed (`feedFetcher`), or with a pasted key the paid API's answer
 * (`keyed`), keyed by path, host and key, every FINDER_REFRESH_MS (4 a minute: far under any plan's rate).
 */
export function finderFeedOptions<T>(
  path: string,
  what: string,
  schema: () => Promise<FeedParser<T>>,
  keyed?: { apiPath: string; toFeed: (answer: never) => unknown },
): (apiKey?: string | null) => FinderFeedOptions<T> {
  const fetchFeed = feedFetcher(path, what, schema);
  const fetchKeyed = keyed ? keyedFeedFetcher(keyed.apiPath, schema, keyed.toFeed) : undefined;
  return (apiKey = null) => ({
    queryKey: [path, publicConfig.oddsApiHost, apiKey],
    queryFn: ({ signal }) =>
      apiKey && fetchKeyed ? fetchKeyed({ signal, key: apiKey }) : fetchFeed({ signal }),
    refetchInterval: FINDER_REFRESH_MS,
  });
}

/**
 * The feed, fetched on mount and every `refetchInterval` while the tab is visible; the last good answer is kept. A new
 * `queryKey` (a key pasted or forgotten) starts over: its first answer is fetched at once, and no answer of the
 * previous key is shown or stored.
 */
export function useFinderFeed<T>(options: FinderFeedOptions<T>): FinderFeedResult<T> {
  const identity = JSON.stringify(options.queryKey);
  const [state, setState] = useState<{ identity: string; data?: T; error?: unknown }>({ identity });
  const [fetching, setFetching] = useState(true);
  const queryFn = useRef(options.queryFn);
  const current = useRef(identity);
  const inFlight = useRef<string | null>(null);
  useEffect(() => {
    queryFn.current = options.queryFn;
    current.current = identity;
  });

  const refetch = useCallback(() => {
    if (inFlight.current === identity) return;
    inFlight.current = identity;
    setFetching(true);
    const abort = new AbortController();
    queryFn
      .current({ signal: abort.signal })
      .then(
        (feed) => {
          if (current.current === identity) setState({ identity, data: feed });
        },
        (reason: unknown) => {
          if (current.current !== identity) return;
          setState((previous) => ({
            identity,
            ...(previous.identity === identity && previous.data !== undefined ? { data: previous.data } : {}),
            error: reason,
          }));
        },
      )
      .finally(() => {
        if (inFlight.current === identity) inFlight.current = null;
        if (current.current === identity) setFetching(false);
      });
  }, [identity]);

  useEffect(() => {
    refetch();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refetch();
    }, options.refetchInterval);
    return () => clearInterval(timer);
  }, [refetch, options.refetchInterval]);

  const mine = state.identity === identity ? state : undefined;
  const data = mine?.data;
  const error = mine?.error;
  return { data, error, isPending: data === undefined && error === undefined, isFetching: fetching, refetch };
}
