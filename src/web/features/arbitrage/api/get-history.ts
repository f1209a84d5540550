import type { Arb } from '#domain/schemas/feed.ts';
import type { HistoryTeaser } from '#domain/schemas/history-teaser.ts';
import { publicConfig } from '#web/config.ts';
import { usePolledQuery } from './use-polled-query.ts';

// The price-history teaser of an arb (issue 13): GET /tools/history.json?event=<event id>&sides=<side ids> on the
// odds API host that serves /tools/arbs.json, public and cached 30 s. Fetched once when a row's history is opened
// (never polled), validated with the shared zod/mini schema, which loads with it, like the feed's (get-arbs.ts).
// The chart module (uPlot) loads in parallel with the answer: one loading state and one error state cover both.

export class HistoryRequestError extends Error {
  override name = 'HistoryRequestError';
}

export function historyUrl(arb: Arb, host: string = publicConfig.oddsApiHost): string {
  const query = new URLSearchParams({
    event: arb.event.id,
    sides: arb.sides.map((side) => side.id).join(','),
  });
  return `${host.replace(/\/+$/, '')}/tools/history.json?${query.toString().replace(/%2C/g, ',')}`;
}

type HistorySchema = { parse(input: unknown): HistoryTeaser };
let schema: Promise<HistorySchema> | undefined;
function loadSchema(): Promise<HistorySchema> {
  // jitless before the schema is built: the site's CSP has no 'unsafe-eval' (decision 060).
  schema ??= import('zod/mini')
    .then(({ config }) => {
      config({ jitless: true });
      return import('#domain/schemas/history-teaser.ts');
    })
    .then((module) => module.HistoryTeaserSchema)
    .catch((error: unknown) => {
      schema = undefined; // tried again on the next opening
      throw error;
    });
  return schema;
}

export async function fetchHistory(
  arb: Arb,
  { signal }: { signal?: AbortSignal } = {},
): Promise<HistoryTeaser> {
  const parser = loadSchema();
  parser.catch(() => undefined); // awaited below
  const response = await fetch(historyUrl(arb), { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new HistoryRequestError(`Server error: ${response.status}`);
  const body: unknown = await response.json();
  return (await parser).parse(body);
}

/** Fetches the history of `arb` and the `load`ed module together, once, when the calling component mounts. */
export function useHistory<M>(arb: Arb, load: () => Promise<M>) {
  return usePolledQuery({
    queryKey: ['history', arb.event.id, ...arb.sides.map((side) => side.id)],
    queryFn: ({ signal }) =>
      Promise.all([fetchHistory(arb, { signal }), load()]).then(([history, module]) => ({ history, module })),
    refetchInterval: false,
  });
}
