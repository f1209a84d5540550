import type { FastifyInstance } from 'fastify';
import { LEG_MARKETS } from '#domain/bet-tracker.ts';
import type { ClosingMarket } from '#domain/closing.ts';
import { closingMarkets, fairChoice } from './history-reads.ts';

// The fair close of finished games (decision 289), as GET /tools/closing.json and GET /v1/scores?closing=true carry it
// and POST /v1/grade measures CLV against it (`closingMarkets`: the server's reference book and devig). A final's close
// does not change: each is read from the history once (the markets a bet can be tracked on) and kept, at most
// CLOSES_KEPT finals per app, the oldest read dropped first. The caller passes only finals.

/** Finals whose close is kept once read. */
const CLOSES_KEPT = 5_000;
const kept = new WeakMap<FastifyInstance, Map<string, ClosingMarket[]>>();

/** The reference book and devig method the closes are made with. */
export function closeChoice(app: FastifyInstance) {
  return fairChoice(app.config.CLV_REFERENCE_BOOK, {});
}

/** The close of each final of `ids` (an empty list when nothing of it was priced before its start). */
export async function finalCloses(
  app: FastifyInstance,
  ids: readonly string[],
): Promise<Map<string, ClosingMarket[]>> {
  let closes = kept.get(app);
  if (!closes) kept.set(app, (closes = new Map()));
  const missing = [...new Set(ids)].filter((id) => !closes.has(id));
  if (missing.length > 0) {
    const series = await app.history.series(missing, { markets: { keys: [], types: [...LEG_MARKETS] } });
    const read = closingMarkets(series, closeChoice(app));
    for (const id of missing) {
      closes.set(id, read.get(id) ?? []);
      if (closes.size > CLOSES_KEPT) closes.delete(closes.keys().next().value!);
    }
  }
  return new Map(ids.map((id) => [id, closes.get(id) ?? []]));
}
