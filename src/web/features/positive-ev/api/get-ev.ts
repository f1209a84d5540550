import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvFeed, EvFeedSchema } from '#domain/schemas/ev-feed.ts';
import { publicConfig } from '#web/config.ts';

// GET /tools/ev.json?t=<ms> (docs/product.md §7): the public positive-EV feed, delayed and coarse (decision 163). The
// schema (zod/mini, jitless: the site's CSP has no 'unsafe-eval') loads with the first fetch, not with the page.
// A failed refresh keeps the last good feed; the first failure shows the page's error view.

/** How often the page asks again while visible: the feed's prices are minutes old, so seconds matter little. */
export const EV_REFRESH_MS = 15_000;

export function evUrl(nowMs: number, host: string = publicConfig.oddsApiHost): string {
  return `${host.replace(/\/+$/, '')}/tools/ev.json?t=${nowMs}`;
}

let schema: Promise<typeof EvFeedSchema> | undefined;
function loadSchema() {
  schema ??= import('zod/mini')
    .then(({ config }) => {
      config({ jitless: true });
      return import('#domain/schemas/ev-feed.ts');
    })
    .then((module) => module.EvFeedSchema)
    .catch((error: unknown) => {
      schema = undefined;
      throw error;
    });
  return schema;
}

export async function fetchEv({ signal }: { signal?: AbortSignal } = {}): Promise<EvFeed> {
  const parser = loadSchema();
  const response = await fetch(evUrl(Date.now()), { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`The positive-EV feed answered ${response.status}`);
  const body: unknown = await response.json();
  return (await parser).parse(body);
}

export interface EvQueryOptions {
  queryKey: readonly unknown[];
  queryFn: (context: { signal: AbortSignal }) => Promise<EvFeed>;
  refetchInterval: number;
}

export function evQueryOptions(): EvQueryOptions {
  return {
    queryKey: ['ev', publicConfig.oddsApiHost],
    queryFn: ({ signal }) => fetchEv({ signal }),
    refetchInterval: EV_REFRESH_MS,
  };
}

export interface EvQueryResult {
  data: EvFeed | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => void;
}

/** The feed, fetched on mount and every `refetchInterval` while the tab is visible; the last good answer is kept. */
export function useEvFeed(options: EvQueryOptions = evQueryOptions()): EvQueryResult {
  const [data, setData] = useState<EvFeed>();
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
