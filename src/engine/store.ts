import {
  LEAGUES,
  isMarketAllowed,
  marketKey,
  outcomesOf,
  type BookPrice,
  type MarketSpec,
  type OddsEvent,
  type OutcomeKey,
} from '#domain/markets.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';

// The odds store: current prices per event, market, outcome and book, with their update times, plus a short
// history per price (a chain of earlier versions by time of receipt) so delayed readers (the paid API's Starter and
// Pro plans) can see the market exactly as it was known at an earlier instant.

export interface StoredPrice extends BookPrice {
  /** The version this one replaced, while it is still inside the history window. */
  previous: StoredPrice | null;
}

export interface MarketState {
  key: string;
  eventId: string;
  spec: MarketSpec;
  outcomes: readonly OutcomeKey[];
  /** One map per outcome (same order as `outcomes`), book → newest price. */
  prices: Map<SportsbookKey, StoredPrice>[];
  /** What the last scan saw per outcome: the books among the best prices, and the worst of those best decimals. */
  lastScan?: { books: Set<string>[]; kth: number[] };
  /** Feed fragments that depend only on the event and market (the scanner's cache). */
  feedCache?: unknown;
}

export interface EventState {
  event: OddsEvent;
  markets: Map<string, MarketState>;
  /** The same markets by numeric code (`marketCode`): the per-update lookup, with no key string to build or hash. */
  byCode: Map<number, MarketState>;
}

const TYPE_CODES: Readonly<Record<MarketSpec['type'], number>> = {
  moneyline: 0,
  spread: 1,
  total: 2,
  '1x2': 3,
};
const PERIOD_CODES: Readonly<Record<MarketSpec['period'], number>> = {
  full: 0,
  h1: 1,
  h2: 2,
  q1: 3,
  q2: 4,
  q3: 5,
  q4: 6,
  p1: 7,
  p2: 8,
  p3: 9,
  f5: 10,
};

/** A number unique per (type, period, point) within an event; points are halves within ±500. */
export function marketCode(
  type: MarketSpec['type'],
  period: MarketSpec['period'],
  point: number | null,
): number {
  return TYPE_CODES[type] + PERIOD_CODES[period] * 4 + (point === null ? 0 : point * 2 + 2001) * 64;
}

export interface PriceChange {
  eventId: string;
  marketKey: string;
  spec: MarketSpec;
  price: BookPrice;
  /** The version this price replaced (null: the book's first price for this outcome since the event was stored). */
  previous: BookPrice | null;
}

export type PriceListener = (change: PriceChange) => void;

/** A fixture created or changed (start time, live), or removed with its markets (ended or withdrawn). */
export type EventChange =
  { kind: 'upsert'; event: OddsEvent } | { kind: 'remove'; eventId: string; markets: readonly MarketState[] };

export type EventListener = (change: EventChange) => void;

export class OddsStore {
  private readonly eventsById = new Map<string, EventState>();
  private readonly marketsByKey = new Map<string, MarketState>();
  private readonly listeners = new Set<PriceListener>();
  private readonly eventListeners = new Set<EventListener>();

  constructor(private readonly historyMs: number) {}

  get eventCount(): number {
    return this.eventsById.size;
  }

  get marketCount(): number {
    return this.marketsByKey.size;
  }

  events(): OddsEvent[] {
    return [...this.eventsById.values()].map((state) => state.event);
  }

  event(id: string): OddsEvent | undefined {
    return this.eventsById.get(id)?.event;
  }

  eventState(id: string): EventState | undefined {
    return this.eventsById.get(id);
  }

  markets(eventId: string): MarketState[] {
    return [...(this.eventsById.get(eventId)?.markets.values() ?? [])];
  }

  market(key: string): MarketState | undefined {
    return this.marketsByKey.get(key);
  }

  allMarkets(): IterableIterator<MarketState> {
    return this.marketsByKey.values();
  }

  /**
   * Prices of one market as known at `at` (unix ms; default: now): for each outcome and book, the newest version
   * received at or before `at`. Versions older than the history window are gone, so `at` should lie inside it.
   */
  prices(key: string, at?: number): BookPrice[] {
    const market = this.marketsByKey.get(key);
    if (!market) return [];
    const out: BookPrice[] = [];
    for (const byBook of market.prices) {
      for (const newest of byBook.values()) {
        let version: StoredPrice | null = newest;
        if (at !== undefined) while (version && version.receivedAt > at) version = version.previous;
        if (version) out.push(stripHistory(version));
      }
    }
    return out;
  }

  /** Called for every accepted price (the paid API's stream subscribes here). Returns the unsubscribe function. */
  subscribe(listener: PriceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called for every fixture created, changed or removed (the odds history subscribes here). */
  subscribeEvents(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  upsertEvent(event: OddsEvent): EventState {
    const existing = this.eventsById.get(event.id);
    let state: EventState;
    if (existing) {
      existing.event = event;
      state = existing;
    } else {
      state = { event, markets: new Map(), byCode: new Map() };
      this.eventsById.set(event.id, state);
    }
    for (const listener of this.eventListeners) listener({ kind: 'upsert', event });
    return state;
  }

  removeEvent(id: string): MarketState[] {
    const state = this.eventsById.get(id);
    if (!state) return [];
    this.eventsById.delete(id);
    for (const key of state.markets.keys()) this.marketsByKey.delete(key);
    const markets = [...state.markets.values()];
    for (const listener of this.eventListeners) listener({ kind: 'remove', eventId: id, markets });
    return markets;
  }

  /**
   * The event's market for a code, created on first use; undefined when the event's league does not offer it (a
   * two-way moneyline where draws exist, a 1X2 where they do not).
   */
  marketFor(eventState: EventState, code: number, spec: MarketSpec): MarketState | undefined {
    let market = eventState.byCode.get(code);
    if (!market) {
      if (!isMarketAllowed(LEAGUES[eventState.event.league], spec)) return undefined;
      const key = marketKey(eventState.event.id, spec);
      const outcomes = outcomesOf(spec.type);
      market = { key, eventId: eventState.event.id, spec, outcomes, prices: outcomes.map(() => new Map()) };
      this.marketsByKey.set(key, market);
      eventState.markets.set(key, market);
      eventState.byCode.set(code, market);
    }
    return market;
  }

  /** Stores a price (validated upstream) in its market, keeping the versions inside the history window. */
  put(market: MarketState, outcomeIndex: number, price: StoredPrice, now: number): void {
    const byBook = market.prices[outcomeIndex]!;
    const previous = byBook.get(price.book) ?? null;
    price.previous = previous;
    // Keep the newest version received at or before the window start; drop anything older.
    const horizon = now - this.historyMs;
    let version: StoredPrice | null = previous;
    while (version && version.receivedAt > horizon) version = version.previous;
    if (version) version.previous = null;
    byBook.set(price.book, price);
    if (this.listeners.size > 0) {
      const change: PriceChange = {
        eventId: market.eventId,
        marketKey: market.key,
        spec: market.spec,
        price: stripHistory(price),
        previous,
      };
      for (const listener of this.listeners) listener(change);
    }
  }
}

function stripHistory(price: StoredPrice): BookPrice {
  const { previous: _previous, ...rest } = price;
  return rest;
}
