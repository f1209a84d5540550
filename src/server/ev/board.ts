import { EV_MIN_BOOKS, type EvChoice } from '#domain/ev.ts';
import type { OddsEvent } from '#domain/markets.ts';
import type { ScanOptions } from '#engine/scanner.ts';
import type { MarketState, OddsStore } from '#engine/store.ts';
import { judgeEv, type EvJudgement, type EvRow } from '#engine/values/ev.ts';
import { BOARD_QUANTUM_MS, QuantumBoards } from '../feed/board-quantum.ts';
import { evPriceDto } from '#domain/ev-dto.ts';

export type { EvRow } from '#engine/values/ev.ts';

// The positive-EV board (issue 36, decision 163): every price on the board with positive EV against its market's
// consensus fair (src/domain/ev.ts), for the paid API (GET /v1/ev) and the public page's feed (GET /tools/ev.json).
// Computed from the store on request, not inside the engine's scan (so ingest throughput is untouched), and kept for
// one quantum of time per horizon: every request of a quantum (250 ms in real time, 1 s for a delayed horizon) shares
// one pass over the board, and filters only pick rows from it. A real-time pass judges again only the markets that
// changed (a price accepted, their event changed) or whose used prices turned stale; the others keep their rows.
//
// A request naming a de-vig method or reference other than the default (Shin's, the consensus: issue 55, decision 206)
// reads a board of its own, computed whole (no market's judgement kept from pass to pass) once per quantum per horizon
// and choice: the precomputed real-time path stays the default's.
//
// A price counts, both towards the fair and as a candidate, when the arbitrage scanner would use it: not suspended
// and not older than the event's age limit (60 s pre-match, 10 s live by default). A delayed reader sees each price
// as it was at its horizon (the newest version received and stamped by then), exactly as /v1/odds shows it.

export interface EvBoardResult {
  /** The instant the rows reflect (unix ms). */
  at: number;
  /** Every row with EV above 0, best EV first. */
  rows: EvRow[];
  /** Markets with a published fair (enough books), and markets looked at: for benches and diagnostics. */
  fairMarkets: number;
  markets: number;
}

/** How long one computed board serves requests, per kind of horizon. */
export const EV_QUANTUM_MS = BOARD_QUANTUM_MS;

export interface EvBoardSource {
  /** The real-time store, whose changes mark markets to judge again. */
  readonly store: OddsStore;
  storeAt(at: number | undefined): OddsStore;
}

export class EvBoard {
  private readonly boards = new QuantumBoards<EvBoardResult, EvChoice>(
    (at, now, choice) => this.compute(at, now, choice),
    (choice) => `${choice.method}|${choice.reference}`,
  );
  /** Each market's rows of the last real-time pass (a market's state object lasts as long as the market). */
  private readonly judged = new WeakMap<MarketState, Judged>();
  /** Markets with a price accepted, and events changed, since the last real-time pass. */
  private readonly dirtyMarkets = new Set<string>();
  private readonly dirtyEvents = new Set<string>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly engine: EvBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = EV_MIN_BOOKS,
  ) {
    this.unsubscribe.push(
      engine.store.subscribe((change) => this.dirtyMarkets.add(change.marketKey)),
      engine.store.subscribeEvents((change) =>
        this.dirtyEvents.add(change.kind === 'upsert' ? change.event.id : change.eventId),
      ),
    );
  }

  /** Stops listening to the store. */
  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /**
   * The board at `horizon` (undefined: real time at `now`), computed at most once per quantum (`QuantumBoards`), its
   * fairs by `choice` (undefined: the default, Shin's method on the consensus).
   */
  read(horizon: number | undefined, now: number, choice?: EvChoice): EvBoardResult {
    return this.boards.read(horizon, now, choice);
  }

  /** Boards computed (not served from the cache). */
  get computed(): number {
    return this.boards.computed;
  }

  /**
   * One pass over the board as visible at `at` (undefined: the newest prices at `now`). In real time, a market whose
   * prices and event did not change since the last real-time pass, and none of whose used prices has turned stale
   * since, keeps its rows (their ages brought up to date): only changed markets are judged again. A `choice` other
   * than the default judges every market (its rows are not kept).
   */
  compute(at: number | undefined, now: number, choice?: EvChoice): EvBoardResult {
    const store = this.engine.storeAt(at);
    const instant = at ?? now;
    if (choice) return this.computeWhole(store, at, instant, choice);
    const realTime = at === undefined;
    const rows: EvRow[] = [];
    let fairMarkets = 0;
    let markets = 0;
    for (const market of store.allMarkets()) {
      const event = store.event(market.eventId);
      if (!event) continue;
      markets += 1;
      let judged = realTime ? this.judged.get(market) : undefined;
      if (
        judged === undefined ||
        instant >= judged.validUntil ||
        this.dirtyMarkets.has(market.key) ||
        this.dirtyEvents.has(market.eventId)
      ) {
        judged = this.judge(store, event, market, at, instant);
        if (realTime) this.judged.set(market, judged);
      } else {
        for (const row of judged.rows)
          evPriceDto(row).price.age_seconds = Math.max(0, Math.floor((instant - row.updatedAt) / 1000));
      }
      if (judged.fair) fairMarkets += 1;
      for (const row of judged.rows) rows.push(row);
    }
    if (realTime) {
      this.dirtyMarkets.clear();
      this.dirtyEvents.clear();
    }
    rows.sort(evOrder);
    return { at: instant, rows, fairMarkets, markets };
  }

  /** Every market judged by `choice`. */
  private computeWhole(
    store: OddsStore,
    at: number | undefined,
    instant: number,
    choice: EvChoice,
  ): EvBoardResult {
    const rows: EvRow[] = [];
    let fairMarkets = 0;
    let markets = 0;
    for (const market of store.allMarkets()) {
      const event = store.event(market.eventId);
      if (!event) continue;
      markets += 1;
      const judged = judgeEv(store, event, market, at, instant, this.scan, this.minBooks, choice);
      if (judged.fair) fairMarkets += 1;
      for (const row of judged.rows) rows.push(row);
    }
    rows.sort(evOrder);
    return { at: instant, rows, fairMarkets, markets };
  }

  /** One market's rows as visible at `at`, and until when they hold (the first used price to turn stale). */
  private judge(
    store: OddsStore,
    event: OddsEvent,
    market: MarketState,
    at: number | undefined,
    instant: number,
  ): Judged {
    return judgeEv(store, event, market, at, instant, this.scan, this.minBooks);
  }
}

/** Best EV first, then by id. */
const evOrder = (a: EvRow, b: EvRow) => b.evPct - a.evPct || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One market's judgement, kept for real-time passes while it holds. */
type Judged = EvJudgement;

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
