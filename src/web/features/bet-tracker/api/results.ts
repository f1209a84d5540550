import type { ClosingMarket } from '#domain/closing.ts';
import {
  CLOSING_EVENTS_MAX,
  ClosingFeedSchema,
  ResultsFeedSchema,
  type ResultsFeed,
} from '#domain/schemas/results-feed.ts';

// The bet tracker's public results (GET /tools/results.json, decision 256): finals of the last three days, no key.

export const RESULTS_PATH = '/tools/results.json';

export async function fetchResults(signal?: AbortSignal): Promise<ResultsFeed> {
  const response = await fetch(RESULTS_PATH, { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`The results could not be read (${response.status}).`);
  const parsed = ResultsFeedSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error('The results could not be read.');
  return parsed.data;
}

/**
 * The fair close of finished games and of games started (GET /tools/closing.json, decisions 289 and 310), at most
 * CLOSING_EVENTS_MAX a request.
 */
export const CLOSING_PATH = '/tools/closing.json';

/** The closes of `eventIds`, by event id; a game the answer leaves out has not started (or is not known). */
export async function fetchCloses(
  eventIds: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, ClosingMarket[]>> {
  const closes = new Map<string, ClosingMarket[]>();
  for (let start = 0; start < eventIds.length; start += CLOSING_EVENTS_MAX) {
    const ids = eventIds.slice(start, start + CLOSING_EVENTS_MAX);
    const response = await fetch(`${CLOSING_PATH}?events=${ids.map(encodeURIComponent).join(',')}`, {
      headers: { Accept: 'application/json' },
      signal,
    });
    if (!response.ok) throw new Error(`The closing lines could not be read (${response.status}).`);
    const parsed = ClosingFeedSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error('The closing lines could not be read.');
    for (const game of parsed.data.games) closes.set(game.event_id, game.markets);
  }
  return closes;
}
