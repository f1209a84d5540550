import { ResultsFeedSchema, type ResultsFeed } from '#domain/schemas/results-feed.ts';

// The bet tracker's public results (GET /tools/results.json, decision 256): finals of the last three days, no key.

export const RESULTS_PATH = '/tools/results.json';

export async function fetchResults(signal?: AbortSignal): Promise<ResultsFeed> {
  const response = await fetch(RESULTS_PATH, { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`The results could not be read (${response.status}).`);
  const parsed = ResultsFeedSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error('The results could not be read.');
  return parsed.data;
}
