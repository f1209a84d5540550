import { specOutcomes } from '#domain/market-labels.ts';
import type { AmericanOdds, DecimalOdds } from '#domain/odds.ts';
import {
  LEAGUES,
  isMarketAllowed,
  marketKey,
  type BookPrice,
  type MarketSpec,
  type OddsEvent,
  type OutcomeKey,
  type PriceLinks,
} from '#domain/markets.ts';
import { indexRoster, type RosterIndex, type SingleMatch } from '#domain/player-matching.ts';
import { PROP_STAT_KEYS, propSpecProblem, type Player, type PropStatKey } from '#domain/props.ts';
import { SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { PRICE_PRESENT, PRICE_SUSPENDED, VersionRing } from './versions.ts';

// The odds store: current prices per event, market, outcome and book, with their update times, plus a short
// history per price (a chain of earlier versions by time of receipt) so delayed readers (the paid API's Starter and
// Pro plans) can see the market exactly as it was known at an earlier instant.

/** A new version's odds, book time and suspension (`OddsStore.update`). */
export type NewVersion = Pick<BookPrice, 'american' | 'decimal' | 'updatedAt' | 'suspended'>;

/**
 * A price's newest version as readers get it (`priceAt`, `pricesOf`): the store holds it in its market's columns (see
 * `MarketState.hot`), and makes this object, a copy of them, when a reader asks (decision 198). What it replaced, and
 * its own earlier receipts (re-confirmations: same odds, suspension and links), are entries of the store's version
 * ring while readers inside the history window may need them (versions.ts).
 */
export interface StoredPrice extends BookPrice {
  /** Its chain's latest entry in the store's version ring; -1 when the window needs none. */
  history: number;
}

export interface MarketState {
  key: string;
  eventId: string;
  spec: MarketSpec;
  /** A prop's player (the event roster's entry); undefined for game lines. */
  player?: Player;
  outcomes: readonly OutcomeKey[];
  /** Prices per market: `outcomes.length * BOOK_COUNT`, one for each outcome and book (`outcome * BOOK_COUNT + slot`). */
  cells: number;
  /**
   * The market's newest prices, as numbers (issue 37, decision 198): a price is its index
   * `i = outcome * BOOK_COUNT + bookSlot(book)`, the same in each part of the block (from `at`). Applying an update
   * reads and writes numbers of this block and the price's links (`links`), no object per price: there is none (readers
   * get copies, `priceAt`). The parts:
   * - from 0, what the scanner reads: each price's decimal, 0 while suspended or before the book quotes;
   * - from `cells`, its book time;
   * - from `2 * cells`, what the last scan saw per outcome (`lastScanAt`, two numbers an outcome): the books among the
   *   best prices (a bit per book slot, `1 << slot`), then the worst of those best decimals (0 when fewer than the
   *   scan's top count were usable). When the outcomes' best prices alone could not pass the floor, "the best prices"
   *   are each outcome's single best (the record then says: nothing below these can matter);
   * - from `columns` (`priceColumns`), a row of `PRICE_ROW` numbers per price (the row of price `i` at
   *   `columns + i * PRICE_ROW`): its decimal (kept while suspended), its American odds, its time of receipt, its
   *   chain's latest entry in the version ring (-1: none), and its flags (0 before the book quotes, else
   *   `PRICE_PRESENT`, with `PRICE_SUSPENDED` while suspended). A row rather than five more columns: an update reads
   *   and writes all five, in one or two cache lines.
   */
  hot: Float64Array;
  /** Where the market's price columns start in its block (`priceColumns`). */
  columns: number;
  /** Each price's links, by its index (undefined before the book quotes). */
  links: (PriceLinks | undefined)[];
  /** Per outcome, the slots of the books that quoted it, in the order they first did (the order readers list). */
  quoted: number[][];
  /**
   * Where the market's block starts in `hot`: the blocks of many markets share one array of the store's pool (`HotPool`),
   * so the block's entry `i` is `hot[at + i]`. A market that left the store holds a copy of its block of its own
   * (`at` 0): the pool gives its place to a new market, and whoever still holds the old one reads what it last had.
   */
  at: number;
  /** Whether the market was scanned since it was created (before that, the last scan's part of `hot` means nothing). */
  scanned: boolean;
  /**
   * Whether the last scan found that the outcomes' best usable prices alone could not pass the floor (its record holds
   * each outcome's best). While no price rises above its outcome's recorded best, none can: prices falling, turning
   * stale or suspended only lower the bests, so the recorded ones stay an upper bound (the engine does not re-scan).
   */
  bounded: boolean;
  /** The engine's round in which the market was last marked for a re-scan (`DirtyMarkets`; 0: never, −round: unmarked). */
  dirtyRound: number;
  /** Feed fragments that depend only on the event and market (the scanner's cache). */
  feedCache?: unknown;
  /** The event's state that holds the market (its `removed` says whether the market is still in the store). */
  owner: EventState;
  /** What the value scan remembers of the market (values/), kept on it: no lookup by key. */
  valueMemo?: unknown;
}

export interface EventState {
  event: OddsEvent;
  markets: Map<string, MarketState>;
  /** The same markets by numeric code (`marketCode`): the per-update lookup, with no key string to build or hash. */
  byCode: Map<number, MarketState>;
  /** The event's players by id, in the order they joined (`propMarketCode` numbers them by that order). */
  players: Map<string, { player: Player; index: number }>;
  /** The roster prepared for matching, rebuilt when a player joins; null before the first player. */
  rosterIndex: RosterIndex | null;
  /**
   * A book's naming of a player → the match, so a repeated quote matches without normalising: a naming without an id
   * by its name, then its team ('' for none), with no key to build per quote; one with an id the roster does not hold
   * by one key of id, name and team. `matchCount` counts both (at most 10,000 are kept).
   */
  nameMatches: Map<string, Map<string, SingleMatch>>;
  playerMatches: Map<string, SingleMatch>;
  matchCount: number;
  /** Set when the event leaves the store: whoever kept this state must look the event up again. */
  removed?: boolean;
  /** What the value scan remembers of the game (values/). */
  valueMemo?: unknown;
}

/**
 * The sportsbooks in key order: a price's slot within its outcome. Slot order is key order, so comparing slots ranks
 * books exactly as comparing their keys does (the scanner's tie-break).
 */
const BOOKS_BY_KEY: readonly SportsbookKey[] = [...SPORTSBOOK_KEYS].sort();
/** The sportsbook of each slot. */
export const BOOKS_BY_SLOT: readonly SportsbookKey[] = BOOKS_BY_KEY;
export const BOOK_COUNT = BOOKS_BY_KEY.length;
const BOOK_SLOTS = new Map<string, number>(BOOKS_BY_KEY.map((book, slot) => [book, slot]));
if (BOOK_COUNT > 31) throw new Error('the last scan holds one bit per book slot: at most 31 books');

/**
 * Where the last scan's record starts in a market's hot block: outcome `o`'s best books at `at + o`, its worst best
 * decimal at `at + ways + o`.
 */
export function lastScanAt(ways: number): number {
  return ways * BOOK_COUNT * 2;
}

/** A sportsbook's slot (0 … BOOK_COUNT − 1); -1 for a key that is no sportsbook. */
export function bookSlot(book: string): number {
  return BOOK_SLOTS.get(book) ?? -1;
}

/** The most players one event keeps (several event messages each add up to MAX_ROSTER of ingest.ts). */
export const MAX_EVENT_PLAYERS = 1000;

/** A game line's type, and a period, as the numbers `marketCode` and `propMarketCode` combine (ingestion reads them). */
export const TYPE_CODES: Readonly<Record<Exclude<MarketSpec['type'], 'prop'>, number>> = {
  moneyline: 0,
  spread: 1,
  total: 2,
  '1x2': 3,
};
export const PERIOD_CODES: Readonly<Record<MarketSpec['period'], number>> = {
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

const STAT_CODES = new Map<PropStatKey, number>(PROP_STAT_KEYS.map((stat, index) => [stat, index]));

/**
 * A prop market's number within its event (the period as `PERIOD_CODES` numbers it), unique per (stat, period, player,
 * point) and never equal to a game line's (props are negative): stats < 32, periods < 16, prop points are halves up to
 * 999.5 (code < 2048), players numbered in the event (safe integers up to 2^53 / 2^20, far beyond MAX_EVENT_PLAYERS).
 */
export function propMarketCode(
  stat: PropStatKey,
  periodCode: number,
  playerIndex: number,
  point: number | null,
): number {
  const pointCode = point === null ? 0 : point * 2 + 1;
  return -(1 + STAT_CODES.get(stat)! + 32 * (periodCode + 16 * (pointCode + 2048 * playerIndex)));
}

/**
 * A number unique per (type, period, point) within an event (`TYPE_CODES`, `PERIOD_CODES`); points are halves within
 * ±500.
 */
export function marketCode(typeCode: number, periodCode: number, point: number | null): number {
  return typeCode + periodCode * 4 + (point === null ? 0 : point * 2 + 2001) * 64;
}

export interface PriceChange {
  eventId: string;
  marketKey: string;
  spec: MarketSpec;
  /** A prop's player; undefined for game lines. */
  player?: Player;
  price: BookPrice;
  /** The version this price replaced (null: the book's first price for this outcome since the event was stored). */
  previous: BookPrice | null;
}

export type PriceListener = (change: PriceChange) => void;

/** A fixture created or changed (start time, live), or removed with its markets (ended or withdrawn). */
export type EventChange =
  | { kind: 'upsert'; event: OddsEvent }
  | {
      kind: 'remove';
      eventId: string;
      markets: readonly MarketState[];
      /**
       * The engine was emptied (a leadership change, or an api instance starting over from a full entry), not the
       * event ended: the market did not change, so the odds history records nothing for it (issue 19).
       */
      cleared: boolean;
    };

export type EventListener = (change: EventChange) => void;

/** A market's hot block: what the scanner reads, the last scan's record, then the price columns (`MarketState.hot`). */
export function hotBlockSize(ways: number): number {
  return ways * (BOOK_COUNT * (2 + PRICE_ROW) + 2);
}

/** The numbers of a price's row in its market's block (`MarketState.hot`). */
export const PRICE_ROW = 5;

/** Where a market's price columns start in its hot block. */
export function priceColumns(ways: number): number {
  return ways * (BOOK_COUNT * 2 + 2);
}

/** A copy of a price's columns (`MarketState.hot`), as the object readers get. */
function readPrice(market: MarketState, outcome: number, slot: number): StoredPrice {
  const index = outcome * BOOK_COUNT + slot;
  const hot = market.hot;
  const at = market.at + market.columns + index * PRICE_ROW;
  return {
    book: BOOKS_BY_KEY[slot]!,
    outcome: market.outcomes[outcome]!,
    american: hot[at + 1]! as AmericanOdds,
    decimal: hot[at]! as DecimalOdds,
    links: market.links[index]!,
    updatedAt: hot[market.at + market.cells + index]!,
    receivedAt: hot[at + 2]!,
    suspended: (hot[at + 4]! & PRICE_SUSPENDED) !== 0,
    history: hot[at + 3]!,
  };
}

/**
 * The newest price of a book for an outcome, by index (`outcome * BOOK_COUNT + bookSlot(book)`), as an object of
 * its own (a copy of the columns); undefined: none.
 */
export function priceAt(market: MarketState, index: number): StoredPrice | undefined {
  if (market.links[index] === undefined) return undefined;
  const outcome = (index / BOOK_COUNT) | 0;
  return readPrice(market, outcome, index - outcome * BOOK_COUNT);
}

/**
 * The newest price at `index` as listeners get it (a `BookPrice`, without the version ring's `history`), read straight
 * from the columns: a price change made two `StoredPrice`s and two copies without `history` by object rest (issue 59:
 * a few per cent of the idle server's main thread). The price must be present (`priceAt` not undefined).
 */
function bookPriceAt(market: MarketState, index: number): BookPrice {
  const outcome = (index / BOOK_COUNT) | 0;
  const hot = market.hot;
  const at = market.at + market.columns + index * PRICE_ROW;
  return {
    book: BOOKS_BY_KEY[index - outcome * BOOK_COUNT]!,
    outcome: market.outcomes[outcome]!,
    american: hot[at + 1]! as AmericanOdds,
    decimal: hot[at]! as DecimalOdds,
    links: market.links[index]!,
    updatedAt: hot[market.at + market.cells + index]!,
    receivedAt: hot[at + 2]!,
    suspended: (hot[at + 4]! & PRICE_SUSPENDED) !== 0,
  };
}

/** An outcome's newest prices (copies of the columns), in the order the books first quoted it. */
export function pricesOf(market: MarketState, outcome: number): StoredPrice[] {
  return market.quoted[outcome]!.map((slot) => readPrice(market, outcome, slot));
}

/** A price's flags in the columns (`PRICE_PRESENT`, `PRICE_SUSPENDED`; 0: the book has not quoted it). */
export function priceFlags(market: MarketState, index: number): number {
  return market.hot[market.at + market.columns + index * PRICE_ROW + 4]!;
}

/** A market's `hot` until the pool gives it a block. */
const NO_HOT = new Float64Array(0);

/** The pool's arrays hold this many numbers each (512 KiB): ~8,000 two-way markets' blocks. */
const HOT_CHUNK = 65_536;

/**
 * The markets' hot blocks, in a few large arrays instead of one typed array per market (issue 37): no ArrayBuffer of
 * its own per market for the collector to track, and the blocks of markets made together lie side by side. A block is
 * never moved while its market is in the store; a market's removal gives the pool its block back (zeroed, for the
 * next market of its size) and the market a copy of its own.
 */
class HotPool {
  private chunk = new Float64Array(HOT_CHUNK);
  private used = 0;
  /** Freed blocks by size: the array, then the start, of each. */
  private readonly free = new Map<number, { chunks: Float64Array[]; starts: number[] }>();

  /** A zeroed block of `size` numbers: its array and start. */
  take(size: number, into: { hot: Float64Array; at: number }): void {
    const free = this.free.get(size);
    if (free !== undefined && free.starts.length > 0) {
      into.hot = free.chunks.pop()!;
      into.at = free.starts.pop()!;
      return;
    }
    if (size > HOT_CHUNK) {
      into.hot = new Float64Array(size);
      into.at = 0;
      return;
    }
    if (this.used + size > HOT_CHUNK) {
      this.chunk = new Float64Array(HOT_CHUNK);
      this.used = 0;
    }
    into.hot = this.chunk;
    into.at = this.used;
    this.used += size;
  }

  /** Takes a block back: the market gets a copy of it, and the place is zeroed for the next market of its size. */
  give(market: MarketState, size: number): void {
    const { hot, at } = market;
    market.hot = hot.slice(at, at + size);
    market.at = 0;
    if (size > HOT_CHUNK) return;
    hot.fill(0, at, at + size);
    let free = this.free.get(size);
    if (free === undefined) {
      free = { chunks: [], starts: [] };
      this.free.set(size, free);
    }
    free.chunks.push(hot);
    free.starts.push(at);
  }
}

export class OddsStore {
  private hotPool = new HotPool();
  private eventsById = new Map<string, EventState>();
  private marketsByKey = new Map<string, MarketState>();
  private readonly listeners = new Set<PriceListener>();
  private readonly eventListeners = new Set<EventListener>();

  private versions: VersionRing;

  constructor(private readonly historyMs: number) {
    this.versions = new VersionRing(historyMs);
  }

  /**
   * Moves every fixture, price and version to a new store, which nobody subscribes to and nothing changes any more,
   * and goes on empty with its subscribers (an `api` instance following a new ingest leader: delayed readers still
   * read the previous leader's market from the store handed over; decision 146). No change is announced.
   */
  handOver(): OddsStore {
    const retired = new OddsStore(this.historyMs);
    retired.eventsById = this.eventsById;
    retired.marketsByKey = this.marketsByKey;
    retired.versions = this.versions;
    retired.hotPool = this.hotPool;
    this.hotPool = new HotPool();
    this.eventsById = new Map();
    this.marketsByKey = new Map();
    this.versions = new VersionRing(this.historyMs);
    return retired;
  }

  /** Earlier versions and receipts held for delayed readers. */
  get versionCount(): number {
    return this.versions.size;
  }

  /**
   * The version of a price as known at `at`: the newest receipt at or before it (and, with `updatedBy`, whose book
   * time is too); null when the window holds none. An earlier version is returned as a copy.
   */
  versionAt(newest: StoredPrice, at: number, updatedBy = false): StoredPrice | null {
    return this.versions.versionAt(newest, at, updatedBy);
  }

  /** Every version of a price inside the window, newest first (tests and diagnostics). */
  versionChain(newest: StoredPrice): StoredPrice[] {
    return this.versions.chain(newest);
  }

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
    for (let outcome = 0; outcome < market.outcomes.length; outcome += 1) {
      for (const newest of pricesOf(market, outcome)) {
        const version = at === undefined ? newest : this.versions.versionAt(newest, at, false);
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
      state = {
        event,
        markets: new Map(),
        byCode: new Map(),
        players: new Map(),
        rosterIndex: null,
        nameMatches: new Map(),
        playerMatches: new Map(),
        matchCount: 0,
        removed: false,
        valueMemo: undefined,
      };
      this.eventsById.set(event.id, state);
    }
    for (const listener of this.eventListeners) listener({ kind: 'upsert', event });
    return state;
  }

  removeEvent(id: string, cleared = false): MarketState[] {
    const state = this.eventsById.get(id);
    if (!state) return [];
    this.eventsById.delete(id);
    state.removed = true;
    for (const key of state.markets.keys()) this.marketsByKey.delete(key);
    const markets = [...state.markets.values()];
    for (const market of markets) this.hotPool.give(market, hotBlockSize(market.outcomes.length));
    for (const listener of this.eventListeners) listener({ kind: 'remove', eventId: id, markets, cleared });
    return markets;
  }

  /**
   * Adds players to the event's roster (a player already held keeps his entry: a roster only grows while the event
   * lasts, so a market's player never changes). Returns how many joined.
   */
  addPlayers(eventState: EventState, players: readonly Player[]): number {
    let added = 0;
    for (const player of players) {
      if (eventState.players.has(player.id) || eventState.players.size >= MAX_EVENT_PLAYERS) continue;
      eventState.players.set(player.id, { player, index: eventState.players.size });
      added += 1;
    }
    if (added > 0) {
      const event = eventState.event;
      eventState.rosterIndex = indexRoster({
        players: [...eventState.players.values()].map((entry) => entry.player),
        homeTeamId: event.home.id,
        awayTeamId: event.away.id,
      });
      eventState.nameMatches.clear();
      eventState.playerMatches.clear();
      eventState.matchCount = 0;
    }
    return added;
  }

  /**
   * The event's market for a code, created on first use; undefined when the event's league does not offer it (a
   * two-way moneyline where draws exist, a 1X2 where they do not, a prop stat, period or line it does not have).
   */
  marketFor(
    eventState: EventState,
    code: number,
    spec: MarketSpec,
    player?: Player,
  ): MarketState | undefined {
    let market = eventState.byCode.get(code);
    if (!market) {
      const league = eventState.event.league;
      if (
        spec.type === 'prop'
          ? propSpecProblem(league, spec) !== null
          : !isMarketAllowed(LEAGUES[league], spec)
      )
        return undefined;
      const key = marketKey(eventState.event.id, spec);
      const outcomes = specOutcomes(spec);
      market = {
        key,
        eventId: eventState.event.id,
        spec,
        outcomes,
        cells: outcomes.length * BOOK_COUNT,
        hot: NO_HOT,
        columns: priceColumns(outcomes.length),
        links: new Array<PriceLinks | undefined>(outcomes.length * BOOK_COUNT).fill(undefined),
        quoted: outcomes.map(() => []),
        at: 0,
        scanned: false,
        bounded: false,
        dirtyRound: 0,
        owner: eventState,
        // Every field a market gets is in its first shape (the player, the caches): one hidden class for all of
        // them, so that the scans' reads stay monomorphic.
        player: player ?? undefined,
        feedCache: undefined,
        valueMemo: undefined,
      };
      this.hotPool.take(hotBlockSize(outcomes.length), market);
      this.marketsByKey.set(key, market);
      eventState.markets.set(key, market);
      eventState.byCode.set(code, market);
    }
    return market;
  }

  /**
   * Stores a book's first price for an outcome of the market (validated upstream), at `index`
   * (`outcomeIndex * BOOK_COUNT + bookSlot(book)`): later versions update it (`update`, `confirm`).
   */
  put(
    market: MarketState,
    index: number,
    outcomeIndex: number,
    book: SportsbookKey,
    next: NewVersion,
    links: PriceLinks,
    now: number,
  ): void {
    if (market.links[index] !== undefined) throw new Error(`${book} already quotes this outcome: update it`);
    market.quoted[outcomeIndex]!.push(index - outcomeIndex * BOOK_COUNT);
    market.hot[market.at + market.columns + index * PRICE_ROW + 3] = -1;
    this.write(market, index, next, links, now);
    if (this.listeners.size > 0) {
      const change: PriceChange = {
        eventId: market.eventId,
        marketKey: market.key,
        spec: market.spec,
        player: market.player,
        price: bookPriceAt(market, index),
        previous: null,
      };
      for (const listener of this.listeners) listener(change);
    }
  }

  /**
   * A new version of a price the market holds at `index` (validated upstream): the version it replaces joins the
   * version ring, and the columns take `next`'s odds, book time and suspension, and `links`. Listeners hear the change
   * with copies of both versions. The new fields come in an object (the engine passes its checked message) rather
   * than as arguments: a number read from an object and passed to a call that is not inlined is boxed on the heap,
   * copied from object to object it is not.
   */
  update(market: MarketState, index: number, next: NewVersion, links: PriceLinks, now: number): void {
    const before = this.listeners.size > 0 ? bookPriceAt(market, index) : null;
    const at = market.at + market.columns + index * PRICE_ROW;
    this.versions.replaceAt(
      market.hot,
      at,
      1,
      market.at + market.cells + index,
      market.links[index]!,
      links,
      now,
    );
    this.write(market, index, next, links, now);
    if (before) this.notify(market, index, before);
  }

  /**
   * A re-confirmation of the newest version at `index` (same odds, suspension and links; a book time not earlier): the
   * receipt it had joins the version ring and it takes this receipt's times (`next.updatedAt`, `now`). Listeners hear
   * it as a change whose `previous` is the version as it was.
   */
  confirm(market: MarketState, index: number, next: Pick<NewVersion, 'updatedAt'>, now: number): void {
    const before = this.listeners.size > 0 ? bookPriceAt(market, index) : null;
    const hot = market.hot;
    const links = market.links[index]!;
    const at = market.at + market.columns + index * PRICE_ROW;
    const updatedAt = market.at + market.cells + index;
    this.versions.replaceAt(hot, at, 1, updatedAt, links, links, now);
    hot[at + 2] = now;
    hot[updatedAt] = next.updatedAt;
    if (before) this.notify(market, index, before);
  }

  /** Writes a version into the price's columns (and its decimal, 0 while suspended, where the scanner reads it). */
  private write(market: MarketState, index: number, next: NewVersion, links: PriceLinks, now: number): void {
    const hot = market.hot;
    const at = market.at + market.columns + index * PRICE_ROW;
    const suspended = next.suspended;
    hot[at] = next.decimal;
    hot[at + 1] = next.american;
    hot[at + 2] = now;
    hot[at + 4] = suspended ? PRICE_PRESENT | PRICE_SUSPENDED : PRICE_PRESENT;
    hot[market.at + index] = suspended ? 0 : next.decimal;
    hot[market.at + market.cells + index] = next.updatedAt;
    // Most versions keep their links: no pointer stored (and no write barrier run) for them.
    if (market.links[index] !== links) market.links[index] = links;
  }

  /** Tells the listeners that the price at `index` replaced `before` (a copy of it as it was). */
  private notify(market: MarketState, index: number, before: BookPrice): void {
    const change: PriceChange = {
      eventId: market.eventId,
      marketKey: market.key,
      spec: market.spec,
      player: market.player,
      price: bookPriceAt(market, index),
      previous: before,
    };
    for (const listener of this.listeners) listener(change);
  }
}

function stripHistory(price: StoredPrice): BookPrice {
  const { history: _history, ...rest } = price;
  return rest;
}
