import { MIDDLE_MIN_BOOKS } from '#domain/middles.ts';
import type { ScanOptions } from '#engine/scanner.ts';
import type { MarketState, OddsStore } from '#engine/store.ts';
import { eventMiddles, isMiddleMarket, type MiddleRow } from '#engine/values.ts';

export type { MiddleRow } from '#engine/values.ts';

// The middles board (issue 36, decision 167): every pair of opposite full-game spread or total sides at two books
// whose lines leave a gap where both win, priced on the sport's score distribution (src/domain/middles.ts), for
// GET /v1/middles. Built like the EV board (src/server/ev/board.ts): computed from the store on request, once per
// quantum per horizon (250 ms real time, 1 s delayed), the filters picking rows from it. A delayed reader sees each
// price as it was at its horizon. Only prices the arbitrage scanner would use count (not suspended, not stale).

export interface MiddlesBoardResult {
  at: number;
  /** Every middle, best EV first. */
  rows: MiddleRow[];
}

export const MIDDLES_QUANTUM_MS = { realTime: 250, delayed: 1000 } as const;

export interface MiddlesBoardSource {
  storeAt(at: number | undefined): OddsStore;
}

export class MiddlesBoard {
  private readonly cache = new Map<string, { quantum: number; result: MiddlesBoardResult }>();
  computed = 0;

  constructor(
    private readonly engine: MiddlesBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = MIDDLE_MIN_BOOKS,
  ) {}

  read(horizon: number | undefined, now: number): MiddlesBoardResult {
    const realTime = horizon === undefined;
    const quantumMs = realTime ? MIDDLES_QUANTUM_MS.realTime : MIDDLES_QUANTUM_MS.delayed;
    const quantum = Math.floor((realTime ? now : horizon) / quantumMs);
    const key = realTime ? 'now' : `delay:${Math.round((now - horizon) / 1000)}`;
    const cached = this.cache.get(key);
    if (cached && cached.quantum === quantum) return cached.result;
    const result = this.compute(realTime ? undefined : quantum * quantumMs, now);
    this.cache.set(key, { quantum, result });
    this.computed += 1;
    return result;
  }

  compute(at: number | undefined, now: number): MiddlesBoardResult {
    const store = this.engine.storeAt(at);
    const instant = at ?? now;
    // Full-game spreads and totals, grouped by event.
    const byEvent = new Map<string, MarketState[]>();
    for (const market of store.allMarkets()) {
      if (!isMiddleMarket(market)) continue;
      const markets = byEvent.get(market.eventId);
      if (markets) markets.push(market);
      else byEvent.set(market.eventId, [market]);
    }
    const rows: MiddleRow[] = [];
    for (const [eventId, markets] of byEvent) {
      const event = store.event(eventId);
      if (!event) continue;
      for (const row of eventMiddles(store, event, markets, at, instant, this.scan, this.minBooks).rows)
        rows.push(row);
    }
    rows.sort((a, b) => b.evPct - a.evPct || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { at: instant, rows };
  }
}

export interface MiddlesFilters {
  league?: string | undefined;
  live?: boolean | undefined;
  types?: ReadonlySet<string> | undefined;
  /** Pairs whose both books are among these. */
  books?: ReadonlySet<string> | undefined;
  /** Published `probability.middle` at least this. */
  minProbability?: number | undefined;
  /** Published `ev_pct` at least this. */
  minEv?: number | undefined;
}

export function filterMiddles(rows: readonly MiddleRow[], filters: MiddlesFilters): MiddleRow[] {
  return rows.filter(
    (row) =>
      (filters.league === undefined || row.league === filters.league) &&
      (filters.live === undefined || row.live === filters.live) &&
      (filters.types === undefined || filters.types.has(row.type)) &&
      (filters.books === undefined || (filters.books.has(row.books[0]) && filters.books.has(row.books[1]))) &&
      (filters.minProbability === undefined || row.probability >= filters.minProbability) &&
      (filters.minEv === undefined || row.publishedEvPct >= filters.minEv),
  );
}
