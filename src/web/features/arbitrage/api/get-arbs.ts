import { arbKey } from '#domain/arb-feed.ts';
import type { ArbFeed } from '#domain/schemas/feed.ts';
import { publicConfig } from '#web/config.ts';
import { FIRST_FETCH_MAX_AGE_MS, takeFirstFetch } from '#web/lib/first-fetch.ts';
import { fetchWithKey } from '#web/lib/keyed-fetch.ts';
import { SLICE_MS, yieldToMain } from '#web/lib/yield-to-main.ts';
import { nextHighlights, type HighlightBatch } from '../hooks/use-new-arb-highlights.ts';
import { createFeedReader } from './feed-reader.ts';
import { usePolledQuery, type PolledQueryOptions } from './use-polled-query.ts';

// docs/product.md §7 call 2 and §8 "Arbitrage feed": GET /tools/arbs.json?t=<ms> on the odds API host. A non-OK status or a
// network failure is caught and the built-in sample data is used silently; anything that throws after the response
// arrived (unreadable JSON, an envelope that is not a feed) reaches the page's 'Error Loading Data' view. An arb that
// fails the shared schema is left out and counted, not fatal (docs/decisions/064).

export interface ArbsResult {
  feed: ArbFeed;
  /** True when the built-in sample data stands in for the feed. */
  sample: boolean;
  /** Why the sample data is shown (docs/product.md §8 messages); never displayed, kept for diagnostics and tests. */
  fallbackReason?: string;
  /** `arbKey` of each arb, in feed order. */
  keys: readonly string[];
  /** Arbs of the answer that failed the schema and were left out of `feed`. */
  invalidArbs: number;
  /** `Date.now()` when the answer was read. */
  receivedAt: number;
  /** New-arb highlights, worked out when the result is stored (`mergeArbsResult`). */
  highlights: readonly HighlightBatch[];
  /** With a pasted key: what its plan gets (GET /v1/arbs, decision 213); absent for the public feed. */
  plan?: KeyedView;
}

/** What /v1/arbs said of the key's plan. */
export interface KeyedView {
  /** How late the arbs above `delayedAboveEdgePct` are (0: every arb in real time). */
  delaySeconds: number;
  delayedAboveEdgePct: number | null;
  /** The key's requests per minute (`X-RateLimit-Limit`), which the page's refresh keeps well under. */
  perMinute: number | null;
}

// zod tries `new Function` when it builds an object schema unless told not to; the site's CSP has no 'unsafe-eval',
// so the attempt would only produce a CSP violation (reported by browsers and Lighthouse) before zod falls back. The
// schema module is therefore loaded after this setting, on the first fetch and in parallel with it. One reader serves
// every fetch, so each validates only the arbs that changed since the previous one (feed-reader.ts).
// The load starts on first use, never at module evaluation: prerendering evaluates this module, and an import still in
// flight when React Router deletes the server build made the build fail (docs/decisions/007).
type FeedReader = ReturnType<typeof createFeedReader>;
let feedReader: Promise<FeedReader> | undefined;
function loadFeedReader(): Promise<FeedReader> {
  feedReader ??= import('zod/mini')
    .then(({ config }) => {
      config({ jitless: true });
      return import('#domain/schemas/feed.ts');
    })
    .then(({ ArbFeedEnvelopeSchema, ArbSchema }) =>
      createFeedReader({ envelope: ArbFeedEnvelopeSchema, arb: ArbSchema }),
    )
    .catch((error: unknown) => {
      feedReader = undefined; // a chunk that failed to load is tried again on the next fetch
      throw error;
    });
  return feedReader;
}

export const NETWORK_ERROR_MESSAGE =
  'Network error - unable to connect to API. This may be due to CORS restrictions or network connectivity issues.';

export class FeedRequestError extends Error {
  override name = 'FeedRequestError';
}

/** The feed's address without its `t`. */
export function arbsFeedUrl(host: string = publicConfig.oddsApiHost): string {
  return `${host.replace(/\/+$/, '')}/tools/arbs.json`;
}

export function arbsUrl(nowMs: number, host: string = publicConfig.oddsApiHost): string {
  return `${arbsFeedUrl(host)}?t=${nowMs}`;
}

/** Marks of one refresh, measured by bench/arbitrage-page.bench.ts: fetch start, response body read, feed parsed. */
export const REFRESH_MARK = 'arbs:fetch-start';
export const RECEIVED_MARK = 'arbs:received';
export const PARSED_MARK = 'arbs:parsed';

/** A feed request's answer, or the FeedRequestError that makes the page fall back to the sample data. */
async function checkedFeed(request: Promise<Response>, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await request;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new FeedRequestError(NETWORK_ERROR_MESSAGE, { cause: error });
  }
  if (!response.ok) throw new FeedRequestError(`Server error: ${response.status} - ${response.statusText}`);
  return response;
}

function requestFeed(signal?: AbortSignal): Promise<Response> {
  return checkedFeed(fetch(arbsUrl(Date.now()), { headers: { Accept: 'application/json' }, signal }), signal);
}

/**
 * The page's first answer, asked for before React has hydrated the page: the one the page's script loader sent as the
 * page's scripts started (src/web/lib/first-fetch.ts, docs/decisions/186), or, for a visitor who came by a link inside
 * the site, one sent when the route module is evaluated, before the route renders.
 */
let earlyFeed: { askedAt: number; response: Promise<Response> } | undefined;

export function requestFirstFeedEarly(): void {
  if (typeof window === 'undefined' || earlyFeed) return; // prerendering evaluates the route module too
  const fromLoader = takeFirstFetch(arbsFeedUrl());
  const response = fromLoader ? checkedFeed(fromLoader) : requestFeed();
  response.catch(() => undefined); // read (and its failure handled) by the first fetchArbs
  earlyFeed = { askedAt: Date.now(), response };
  loadFeedReader().catch(() => undefined);
}

/** The early answer, once, if it is recent enough. */
function takeEarlyFeed(): Promise<Response> | undefined {
  const early = earlyFeed;
  if (!early) return undefined;
  earlyFeed = { askedAt: -Infinity, response: early.response }; // used once; the module asks early only once
  return Date.now() - early.askedAt <= FIRST_FETCH_MAX_AGE_MS ? early.response : undefined;
}

/** The arbs of a pasted key's plan: GET /v1/arbs on this site's API, the key only in `X-Api-Key` (decision 213). */
async function fetchKeyedArbs(key: string, signal?: AbortSignal): Promise<ArbsResult> {
  const reader = loadFeedReader();
  reader.catch(() => undefined);
  const { body, response } = await fetchWithKey('/v1/arbs', key, signal);
  const { feed, keys, invalid } = await (await reader).readInSlices(body, yieldToMain, SLICE_MS);
  const view = JSON.parse(body) as { delay_seconds?: unknown; delayed_above_edge_pct?: unknown };
  const perMinute = Number(response.headers.get('x-ratelimit-limit'));
  return {
    feed,
    sample: false,
    keys,
    invalidArbs: invalid,
    receivedAt: Date.now(),
    highlights: [],
    plan: {
      delaySeconds: typeof view.delay_seconds === 'number' ? view.delay_seconds : 0,
      delayedAboveEdgePct:
        typeof view.delayed_above_edge_pct === 'number' ? view.delayed_above_edge_pct : null,
      perMinute: Number.isFinite(perMinute) && perMinute > 0 ? perMinute : null,
    },
  };
}

/**
 * How often a key's arbs may refresh: the page's interval, slowed so that it takes at most half the key's requests
 * per minute (Starter's 30 a minute: every 4 s), leaving the rest to the customer's own code.
 */
export function keyedInterval(interval: number, perMinute: number | null): number {
  if (perMinute === null) return Math.max(interval, 4_000);
  return Math.max(interval, Math.ceil((2 * 60_000) / perMinute));
}

export async function fetchArbs({
  signal,
  key,
}: { signal?: AbortSignal; key?: string | null } = {}): Promise<ArbsResult> {
  if (key) return fetchKeyedArbs(key, signal);
  performance.mark(REFRESH_MARK);
  const reader = loadFeedReader();
  reader.catch(() => undefined); // awaited below; a fetch that falls back to the sample data never reads it
  let response: Response;
  try {
    response = await (takeEarlyFeed() ?? requestFeed(signal));
  } catch (error) {
    if (!(error instanceof FeedRequestError)) throw error;
    // The sample data is only for a feed that cannot be read: loaded then, not with the page.
    const { sampleFeed } = await import('./sample-feed.ts');
    const feed = sampleFeed(Date.now());
    return {
      feed,
      sample: true,
      fallbackReason: error.message,
      keys: feed.arbs.map(arbKey),
      invalidArbs: 0,
      receivedAt: Date.now(),
      highlights: [],
    };
  }
  const body = await response.text();
  performance.mark(RECEIVED_MARK);
  // In slices: the first answer brings every arb new (300 on the demo board, ~280 KB), whose parsing and validation in
  // one go was a long task of the page's load; later answers re-read only the arbs that changed.
  const { feed, keys, invalid } = await (await reader).readInSlices(body, yieldToMain, SLICE_MS);
  performance.mark(PARSED_MARK);
  return { feed, sample: false, keys, invalidArbs: invalid, receivedAt: Date.now(), highlights: [] };
}

/** Stores a new result: the previous result's highlights carry on and the arbs it lacked become a new batch. */
export function mergeArbsResult(previous: ArbsResult | undefined, next: ArbsResult): ArbsResult {
  return { ...next, highlights: nextHighlights(previous, next) };
}

export function arbsQueryOptions({
  refetchInterval,
  apiKey = null,
}: {
  refetchInterval: number | false;
  /** A pasted key: the page reads its plan's /v1/arbs instead of the public feed. */
  apiKey?: string | null;
}): PolledQueryOptions<ArbsResult> {
  return {
    queryKey: ['arbs', publicConfig.oddsApiHost, apiKey],
    queryFn: ({ signal }) => fetchArbs({ signal, key: apiKey }),
    refetchInterval,
    merge: mergeArbsResult,
  };
}

export function useArbs(options: { refetchInterval: number | false; apiKey?: string | null }) {
  return usePolledQuery(arbsQueryOptions(options));
}
