import type { FastifyInstance } from 'fastify';
import { LEG_MARKETS } from '#domain/bet-tracker.ts';
import type { ClosingMarket } from '#domain/closing.ts';
import type { HistoryEvent } from '../history/service.ts';
import { closingMarkets, fairChoice } from './history-reads.ts';

// The fair close of finished games (decision 289), as GET /tools/closing.json and GET /v1/scores?closing=true carry it
// and POST /v1/grade measures CLV against it (`closingMarkets`: the server's reference book and devig). A final's close
// does not change: each is read from the history once (the markets a bet can be tracked on) and kept, at most
// CLOSES_KEPT finals per app, the oldest read dropped first. The caller passes only finals.
//
// A game started but not final (decision 310) has its close too: the history takes a game's closing lines once its
// start has passed (the last prices at or before it) and marks the event `closed_at` in the same transaction; it takes
// them again only when the start moves later (`closed_at` cleared, then set anew at the new start). So whether such a
// game has started is read again at most every STARTED_CLOSE_MS (`startedCloses`, the event's row), and its close is
// read again only when its `closed_at` differs from the one it was read under: a start moved later is seen within
// STARTED_CLOSE_MS, and the series are not read again every time.

/** Finals whose close is kept once read. */
const CLOSES_KEPT = 5_000;
const kept = new WeakMap<FastifyInstance, Map<string, ClosingMarket[]>>();

/** How long a started game's close (or that the game has not started) is held: the public answers' hold. */
export const STARTED_CLOSE_MS = 15_000;
/** Games not final held at once. */
const STARTED_KEPT = 5_000;
/** A game not asked for this long after its hold ended is forgotten (its close read again if asked). */
const STARTED_FORGET_MS = 10 * 60_000;
interface HeldClose {
  until: number;
  /** The event's `closedAt` the close was read under (null: not started, no close). */
  closedAt: number | null;
  markets: ClosingMarket[] | null;
}
const held = new WeakMap<FastifyInstance, Map<string, HeldClose>>();

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

/**
 * Whether a game not final has started as its close needs (decision 310): the history has taken its closing lines
 * (`closedAt`: its start has passed and has not moved later since) and it is in play, by the history (`liveAt`) or the
 * scoreboard (a live score).
 */
export function hasStarted(app: FastifyInstance, event: HistoryEvent | undefined, now: number): boolean {
  if (!event || event.closedAt === null || event.startsAt > now) return false;
  return event.liveAt !== null || app.engine.scores.get(event.id)?.status === 'live';
}

/**
 * The close of each game of `ids` (none final) that has started (`hasStarted`), games not started left out. Per game,
 * at most every STARTED_CLOSE_MS: its event read (one `events` read for those not held), and its close read (one
 * `series` read) only when its `closedAt` is not the one its held close was read under.
 */
export async function startedCloses(
  app: FastifyInstance,
  ids: readonly string[],
  now: number,
): Promise<Map<string, ClosingMarket[]>> {
  let games = held.get(app);
  if (!games) held.set(app, (games = new Map()));
  const missing = [...new Set(ids)].filter((id) => !(now < (games.get(id)?.until ?? 0)));
  if (missing.length > 0) {
    const events = await app.history.events(missing);
    const started = new Set(missing.filter((id) => hasStarted(app, events.get(id), now)));
    const closedAt = (id: string) => events.get(id)?.closedAt ?? null;
    /** Closes held that are still the history's (read under the same `closedAt`). */
    const still = new Map<string, ClosingMarket[]>();
    for (const id of started) {
      const before = games.get(id);
      if (before?.markets && before.closedAt === closedAt(id)) still.set(id, before.markets);
    }
    const stale = [...started].filter((id) => !still.has(id));
    const read =
      stale.length > 0
        ? closingMarkets(
            await app.history.series(stale, { markets: { keys: [], types: [...LEG_MARKETS] } }),
            closeChoice(app),
          )
        : new Map<string, ClosingMarket[]>();
    const until = now + STARTED_CLOSE_MS;
    for (const [id, game] of games) if (now - game.until > STARTED_FORGET_MS) games.delete(id);
    for (const id of missing) {
      const markets = started.has(id) ? (still.get(id) ?? read.get(id) ?? []) : null;
      games.delete(id);
      games.set(id, { until, closedAt: started.has(id) ? closedAt(id) : null, markets });
      if (games.size > STARTED_KEPT) games.delete(games.keys().next().value!);
    }
  }
  const out = new Map<string, ClosingMarket[]>();
  for (const id of ids) {
    const markets = games.get(id)?.markets;
    if (markets) out.set(id, markets);
  }
  return out;
}
