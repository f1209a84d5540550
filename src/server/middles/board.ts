import { MIDDLE_MIN_BOOKS, type CentreChoice } from '#domain/middles.ts';
import type { ScanOptions } from '#engine/scanner.ts';
import type { MarketState } from '#engine/store.ts';
import { beginViews, gameMemo, judgementMemo, pricesAt } from '#engine/values/memos.ts';
import {
  eventPropMiddles,
  gameMiddles,
  isMiddleMarket,
  isPropMiddleMarket,
  type MiddleRow,
} from '#engine/values/middles.ts';
import { horizonKey, SlotBoards, valueSlot, type ValueBoardSource } from '../feed/board-quantum.ts';

export type { MiddleRow } from '#engine/values/middles.ts';

// The middles board (issue 36, decisions 167, 189 and 273): every pair of opposite full-game spread or total sides, or
// of one player's over and under (a prop), at two books whose lines leave a gap where both win, priced on the sport's
// score distribution or the stat's model (src/domain/middles.ts, src/domain/prop-middles.ts), for GET /v1/middles and
// the public page's feed. Read like the EV board (src/server/ev/board.ts): the engine's value scan's middles set as of
// its last slot in real time, as it stood at the horizon's second when delayed (`ValueScanner.at`), sorted once per
// slot and horizon; nothing is judged here for the default choice. A request naming a de-vig method or reference for
// the centres other than the default (multiplicative, the consensus: issue 55, decision 206) is judged on request by
// the engine's judges of middles (`gameMiddles`, `propFamilyMiddles`: decision 281) from the prices as they were at the
// slot (`pricesAt`), with memos of their own, kept per choice, horizon and slot. Only prices the
// arbitrage scanner would use count (not suspended, not stale).

export interface MiddlesBoardResult {
  at: number;
  /** Every middle, best EV first. */
  rows: MiddleRow[];
}

export class MiddlesBoard {
  private readonly boards = new SlotBoards<MiddlesBoardResult>();

  constructor(
    private readonly engine: ValueBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = MIDDLE_MIN_BOOKS,
  ) {}

  /**
   * The board at `horizon` (undefined: real time at `now`), its centres by `choice` (undefined: the default,
   * multiplicative on the consensus): the scan's set as of its slot, or judged by `choice` at that slot, built once a
   * slot.
   */
  read(horizon: number | undefined, now: number, choice?: CentreChoice): MiddlesBoardResult {
    const slot = valueSlot(this.engine, horizon, now);
    const key = horizonKey(horizon, now) + (choice ? `|${choice.method}|${choice.reference}` : '');
    return this.boards.read(key, slot, now, () => ({
      at: slot,
      rows: choice
        ? this.judgeAll(slot, choice)
        : [...(this.engine.values?.at(slot)?.middles ?? [])].sort(middleOrder),
    }));
  }

  /** Boards built (not served from the cache). */
  get computed(): number {
    return this.boards.computed;
  }

  /**
   * Every middle judged at `at` (each price as it was then), centres by `choice` (undefined:
   * the default): what a non-default choice costs, for benches too.
   */
  judgeAll(at: number, choice?: CentreChoice): MiddleRow[] {
    const store = this.engine.storeAt(at);
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
    const viewAt = (market: MarketState) => pricesAt(store, market, at);
    for (const [eventId, markets] of byEvent) {
      const state = store.eventState(eventId);
      if (!state) continue;
      beginViews();
      if (markets.game.length > 0) {
        // Memos of this judgement's own (the layout asks once a market).
        const memoOf = (market: MarketState) => judgementMemo(market, true);
        for (const row of gameMiddles(
          state.event,
          gameMemo(state),
          memoOf,
          at,
          this.scan,
          this.minBooks,
          choice,
          viewAt,
        ))
          rows.push(row);
      }
      beginViews();
      if (markets.props.length > 0)
        for (const row of eventPropMiddles(
          state.event,
          markets.props,
          viewAt,
          at,
          this.scan,
          this.minBooks,
          choice,
        ))
          rows.push(row);
    }
    return rows.sort(middleOrder);
  }
}

/** Best EV first, then by id. */
const middleOrder = (a: MiddleRow, b: MiddleRow) =>
  b.evPct - a.evPct || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

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
