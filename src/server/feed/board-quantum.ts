// The finder boards' reading scaffold (decisions 163, 167, 273): a board is built at most once per slot of time per
// horizon and variant, every request of the slot sharing it. A real-time board's slot is the engine's last value scan
// (the sets as of it, at most a second old); a delayed board's is its horizon's second, so every request of that
// second gets the same answer, and each plan's delay keeps its own board. A variant (issue 55: a de-vig method and
// reference other than the default, decision 206) keeps its own board per horizon too. A board not read for a few
// seconds is dropped when another is built, so variants asked once do not stay in memory.

import type { OddsStore } from '#engine/store.ts';
import type { ValueSets } from '#engine/values/scanner.ts';

/** What the value boards read: the store (a non-default choice is judged from it) and the value scan's sets. */
export interface ValueBoardSource {
  storeAt(at: number | undefined): OddsStore;
  /** The value scan's sets (undefined where the engine keeps none: an ingest instance, which serves no API). */
  readonly values: { readonly scannedAt: number; at(time: number): ValueSets | undefined } | undefined;
}

/** A delayed horizon's slot: its second (the scan's period, decision 170). */
export const DELAYED_SLOT_MS = 1_000;

/** How long a board unread is kept (ms of the reader's clock). */
const KEPT_UNREAD_MS = 5_000;

export class SlotBoards<R> {
  private readonly cache = new Map<string, { slot: number; readAt: number; result: R }>();
  /** Boards built (not served from the cache). */
  computed = 0;

  /** The board named `key` as of `slot` (an instant), built by `build` unless this slot's is kept. */
  read(key: string, slot: number, now: number, build: () => R): R {
    const cached = this.cache.get(key);
    if (cached && cached.slot === slot) {
      cached.readAt = now;
      return cached.result;
    }
    for (const [other, board] of this.cache)
      if (now - board.readAt > KEPT_UNREAD_MS) this.cache.delete(other);
    const result = build();
    this.cache.set(key, { slot, readAt: now, result });
    this.computed += 1;
    return result;
  }

  /** Boards held (the default's and the variants', per horizon). */
  get size(): number {
    return this.cache.size;
  }
}

/** The cache key of a horizon (undefined: real time) as a reader at `now` names it: its delay in seconds. */
export function horizonKey(horizon: number | undefined, now: number): string {
  return horizon === undefined ? 'now' : `delay:${Math.round((now - horizon) / 1000)}`;
}

/**
 * The instant a value board at `horizon` (undefined: real time) reflects: the scan's last in real time (`now` before
 * any), the horizon's second when delayed.
 */
export function valueSlot(engine: ValueBoardSource, horizon: number | undefined, now: number): number {
  if (horizon !== undefined) return Math.floor(horizon / DELAYED_SLOT_MS) * DELAYED_SLOT_MS;
  const scannedAt = engine.values?.scannedAt ?? Number.NEGATIVE_INFINITY;
  return scannedAt === Number.NEGATIVE_INFINITY ? now : scannedAt;
}
