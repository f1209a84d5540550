import { EV_MIN_BOOKS, type EvChoice } from '#domain/ev.ts';
import type { ScanOptions } from '#engine/scanner.ts';
import { judgeEv, type EvRow } from '#engine/values/ev.ts';
import { beginViews, judged, judgementMemo, pricesAt } from '#engine/values/memos.ts';
import { horizonKey, SlotBoards, valueSlot, type ValueBoardSource } from '../feed/board-quantum.ts';
import { evPriceDto } from '#domain/ev-dto.ts';

export type { EvRow } from '#engine/values/ev.ts';

// The positive-EV board (issue 36, decisions 163, 273): every price on the board with positive EV against its market's
// consensus fair (src/domain/ev.ts), for the paid API (GET /v1/ev) and the public page's feed (GET /tools/ev.json).
// One cache (issue 58): the board is the engine's value scan's positive-EV set (src/engine/values/scanner.ts), which
// runs wherever the API is served. In real time it is the set as of the scan's last slot (the first tick of each
// second: at most a second old), its ages counted to that scan; a delayed reader gets the set as it stood at its
// horizon's second (`ValueScanner.at`, the sets' history), its ages counted to that second. Nothing is judged here for
// the default choice: the rows are only sorted, once per slot and horizon, and filters pick rows from them.
//
// A request naming a de-vig method or reference other than the default (Shin's, the consensus: issue 55, decision 206)
// is judged on request by the engine's one judge of EV (`judgeEv`, decision 281), every market from its prices as they
// were at the slot (`pricesAt`: the last scan's instant in real time, the horizon's second when delayed) with a memo of
// its own, and kept per choice, horizon and slot.
//
// A price counts, both towards the fair and as a candidate, when the arbitrage scanner would use it: not suspended
// and not older than the event's age limit (60 s pre-match, 10 s live by default).

export interface EvBoardResult {
  /** The instant the rows reflect (unix ms): the scan's, or the delayed horizon's second. */
  at: number;
  /** Every row with EV above 0, best EV first. */
  rows: EvRow[];
}

export class EvBoard {
  private readonly boards = new SlotBoards<EvBoardResult>();

  constructor(
    private readonly engine: ValueBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = EV_MIN_BOOKS,
  ) {}

  /**
   * The board at `horizon` (undefined: real time at `now`), its fairs by `choice` (undefined: the default, Shin's
   * method on the consensus): the scan's set as of its slot, or judged by `choice` at that slot, built once a slot.
   */
  read(horizon: number | undefined, now: number, choice?: EvChoice): EvBoardResult {
    const slot = valueSlot(this.engine, horizon, now);
    const key = horizonKey(horizon, now) + (choice ? `|${choice.method}|${choice.reference}` : '');
    return this.boards.read(key, slot, now, () =>
      choice
        ? this.judgeAll(slot, choice)
        : { at: slot, rows: [...(this.engine.values?.at(slot)?.ev ?? [])].sort(evOrder) },
    );
  }

  /** Boards built (not served from the cache). */
  get computed(): number {
    return this.boards.computed;
  }

  /**
   * Every market judged at `at` (each price as it was then), by `choice` (undefined: the
   * default), with how many markets had a published fair: what a non-default choice costs, for benches too.
   */
  judgeAll(at: number, choice?: EvChoice): EvBoardResult & { fairMarkets: number; markets: number } {
    const store = this.engine.storeAt(at);
    const rows: EvRow[] = [];
    let fairMarkets = 0;
    let markets = 0;
    for (const market of store.allMarkets()) {
      const event = store.event(market.eventId);
      if (!event) continue;
      markets += 1;
      beginViews();
      const found = judgeEv(
        market,
        pricesAt(store, market, at),
        at,
        this.scan,
        judgementMemo(market, false),
        this.minBooks,
        choice,
      );
      if (judged.fair) fairMarkets += 1;
      for (const row of found) rows.push(row);
    }
    rows.sort(evOrder);
    return { at, rows, fairMarkets, markets };
  }
}

/** Best EV first, then by id. */
const evOrder = (a: EvRow, b: EvRow) => b.evPct - a.evPct || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface EvFilters {
  league?: string | undefined;
  live?: boolean | undefined;
  types?: ReadonlySet<string> | undefined;
  books?: ReadonlySet<string> | undefined;
  /** Rows whose published `ev_pct` is at least this. */
  minEv?: number | undefined;
}

export function filterEv(rows: readonly EvRow[], filters: EvFilters): EvRow[] {
  return rows.filter(
    (row) =>
      (filters.league === undefined || row.league === filters.league) &&
      (filters.live === undefined || row.live === filters.live) &&
      (filters.types === undefined || filters.types.has(row.type)) &&
      (filters.books === undefined || filters.books.has(row.book)) &&
      (filters.minEv === undefined || evPriceDto(row).ev_pct >= filters.minEv),
  );
}
