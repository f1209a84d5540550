import { MIDDLE_MIN_BOOKS, type CentreChoice } from '#domain/middles.ts';
import type { ScanOptions } from '#engine/scanner.ts';
import type { MarketState, OddsStore } from '#engine/store.ts';
import {
  eventMiddles,
  eventPropMiddles,
  isMiddleMarket,
  isPropMiddleMarket,
  type MiddleRow,
} from '#engine/values/middles.ts';
import { BOARD_QUANTUM_MS, QuantumBoards } from '../feed/board-quantum.ts';

export type { MiddleRow } from '#engine/values/middles.ts';

// The middles board (issue 36, decisions 167 and 189): every pair of opposite full-game spread or total sides, or of
// one player's over and under (a prop), at two books whose lines leave a gap where both win, priced on the sport's
// score distribution or the stat's model (src/domain/middles.ts, src/domain/prop-middles.ts), for
// GET /v1/middles. Built like the EV board (src/server/ev/board.ts): computed from the store on request, once per
// quantum per horizon (250 ms real time, 1 s delayed), the filters picking rows from it. A delayed reader sees each
// price as it was at its horizon. Only prices the arbitrage scanner would use count (not suspended, not stale). A
// request naming a de-vig method or reference for the centres other than the default (multiplicative, the consensus:
// issue 55, decision 206) reads a board of its own, once per quantum per horizon and choice.

export interface MiddlesBoardResult {
  at: number;
  /** Every middle, best EV first. */
  rows: MiddleRow[];
}

export const MIDDLES_QUANTUM_MS = BOARD_QUANTUM_MS;

export interface MiddlesBoardSource {
  storeAt(at: number | undefined): OddsStore;
}

export class MiddlesBoard {
  private readonly boards = new QuantumBoards<MiddlesBoardResult, CentreChoice>(
    (at, now, choice) => this.compute(at, now, choice),
    (choice) => `${choice.method}|${choice.reference}`,
  );

  constructor(
    private readonly engine: MiddlesBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = MIDDLE_MIN_BOOKS,
  ) {}

  /**
   * The board at `horizon` (undefined: real time at `now`), computed at most once per quantum (`QuantumBoards`), its
   * centres by `choice` (undefined: the default, multiplicative on the consensus).
   */
  read(horizon: number | undefined, now: number, choice?: CentreChoice): MiddlesBoardResult {
    return this.boards.read(horizon, now, choice);
  }

  /** Boards computed (not served from the cache). */
  get computed(): number {
    return this.boards.computed;
  }

  compute(at: number | undefined, now: number, choice?: CentreChoice): MiddlesBoardResult {
    const store = this.engine.storeAt(at);
    const instant = at ?? now;
    // Full-game spreads and totals, and over/under props, grouped by event.
    const byEvent = new Map<string, { game: MarketState[]; props: MarketState[] }>();
    for (const market of store.allMarkets()) {
      const game = isMiddleMarket(market);
      if (!game && !isPropMiddleMarket(market)) continue;
      let markets = byEvent.get(market.eventId);
      if (!markets) byEvent.set(market.eventId, (markets = { game: [], props: [] }));
      (game ? markets.game : markets.props).push(market);
    }
    const rows: MiddleRow[] = [];
    for (const [eventId, markets] of byEvent) {
      const event = store.event(eventId);
      if (!event) continue;
      if (markets.game.length > 0)
        for (const row of eventMiddles(
          store,
          event,
          markets.game,
          at,
          instant,
          this.scan,
          this.minBooks,
          choice,
        ).rows)
          rows.push(row);
      if (markets.props.length > 0)
        for (const row of eventPropMiddles(
          store,
          event,
          markets.props,
          at,
          instant,
          this.scan,
          this.minBooks,
          choice,
        ))
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
