import type { PropMarketSpec } from '#domain/props.ts';
import { evRowChanged, judgeEv, type EvRow } from './ev.ts';
import {
  gameMemo,
  judged,
  marketMemo,
  NO_ROWS,
  type AgeLimits,
  type FamilyMemo,
  type GameMemo,
  type MarketMemo,
  type MiddleOwner,
} from './memos.ts';
import {
  gameMiddles,
  isMiddleMarket,
  isPropMiddleMarket,
  middleRowChanged,
  propFamilyKey,
  propFamilyMiddles,
  type MiddleRow,
} from './middles.ts';
import type { EventState, MarketState } from '../store.ts';

// The incremental scan of positive EV (decision 163) and middles (decision 167) beside the arbitrage scan (decision
// 170). A market's EV is judged in ./ev.ts, a game's or prop family's middles in ./middles.ts, what the scan remembers
// of them is ./memos.ts. The engine's `ValueScanner` keeps the sets up to date on every tick, judging again only what
// changed, with the judges of ./ev.ts and ./middles.ts on the newest prices and the memos, and keeps their history: the
// REST routes, the pages' feeds and the stream read them (decision 274). The same judges, on the prices at a horizon
// and without the scan's memos, serve the de-vig methods and references other than the default (decision 281:
// src/server/ev/board.ts, src/server/middles/board.ts); the tests' reference model is tests/support/value-judges.ts:
//
// - a market's EV depends on that market's prices only: it is judged again when one of its prices is accepted (a new
//   version or a re-confirmation), when its event's record changes, or when one of the prices it used turns stale;
// - a game's middles depend on every full-game spread and total of the game (the centre is a median over all their
//   lines, and the NFL model takes both centres): they are judged again, all of them, when any of those markets is,
//   or when a price they used turns stale.
//
// Rows have stable ids (a price's `market|outcome|book`, a pair's event, type, books and lines), and each scan reports
// what was added or changed and what was removed: the stream's `ev`/`ev_removed` and `middle`/`middle_removed` events.
// What the scanner remembers is kept on the markets and games themselves (their `valueMemo`), each holding exactly its
// rows of the sets (decision 185): no map by key or id is looked up on the way.

export interface ValueOptions {
  /** Keep the positive-EV set. */
  ev: boolean;
  /** Keep the middles set. */
  middles: boolean;
  /**
   * Judge at most once per this many ms (default 1,000): the scan runs on the first tick of each slot of this length
   * (the delayed plans' one-second slots, decision 150), judging what changed since the last one; a market updated on
   * every tick of the slot is judged once.
   */
  periodMs: number;
}

/** What one scan changed: rows added or changed (for the stream), and rows removed. */
export interface ValueChanges {
  at: number;
  ev: EvRow[];
  evRemoved: EvRow[];
  middles: MiddleRow[];
  middlesRemoved: MiddleRow[];
}

/** The sets as they were at some instant (a delayed reader's). */
export interface ValueSets {
  at: number;
  ev: readonly EvRow[];
  middles: readonly MiddleRow[];
}

/**
 * What a row carries for the scanner: whether it is in its set, the scan that last produced it, and the held row of
 * the same id it replaces as its judge knew it (null: the judge knows there is none; undefined: unknown, looked up).
 */
interface Tracked {
  held: boolean;
  mark: number;
  replaces: unknown;
}

export class ValueScanner {
  /** The positive-EV prices now (each held by its market's memo). */
  readonly ev: HeldRows<EvRow> = new HeldRows(() => this.heldMarkets.owners);
  /** The middles now (each held by its game's memo). */
  readonly middles: HeldRows<MiddleRow> = new HeldRows(() => this.heldGames.owners);
  /**
   * The memos (markets, games) whose rows or staleness can change without a new price (`HeldRegistry`): one dense
   * array each to run through a scan.
   */
  private readonly heldMarkets = new HeldRegistry<MarketMemo>(1024);
  private readonly heldGames = new HeldRegistry<MiddleOwner>(256);
  /** What waits for the next scan: memos with a new price, turned stale, or gone from the store. */
  private dirtyMarkets: MarketMemo[] = [];
  private dirtyGames: MiddleOwner[] = [];
  /** Memos are this generation's; a reset starts the next (older memos are then only read to clear what they held). */
  private generation = 0;
  /** How many market memos were made (their `sequence`). */
  private sequence = 0;
  /** The number of the current `applyRows` (rows carry the last that produced them). */
  private stamp = 0;
  private readonly history: ValueHistory;
  private lastChangeAt = Number.NEGATIVE_INFINITY;
  /** When the scan last ran (-Infinity: never, or the next tick must run it). */
  private ranAt = Number.NEGATIVE_INFINITY;
  private readonly periodMs: number;
  private readonly memoOf = (market: MarketState): MarketMemo => {
    let memo = market.valueMemo as MarketMemo | undefined;
    if (memo === undefined || memo.generation !== this.generation) {
      memo = marketMemo(market, isMiddleMarket(market), this.generation, (this.sequence += 1));
      if (this.options.middles && isPropMiddleMarket(market)) memo.family = this.familyOf(market);
      market.valueMemo = memo;
    }
    return memo;
  };

  constructor(
    readonly options: Pick<ValueOptions, 'ev' | 'middles'> & Partial<ValueOptions>,
    private readonly limits: AgeLimits,
    historyMs: number,
    historyStepMs: number,
  ) {
    this.history = new ValueHistory(historyMs, historyStepMs);
    this.periodMs = options.periodMs ?? 1_000;
  }

  /** When the last scan ran: the instant the sets are judged at. */
  get scannedAt(): number {
    return this.ranAt;
  }

  /**
   * A price of the market was accepted (a new version, or a re-confirmation of a price that was not usable), at
   * `index` of its slots when known.
   */
  touch(market: MarketState, index = -1): void {
    const memo = this.memoOf(market);
    if (index >= 0) memo.quoteDirty |= index < 31 ? 1 << index : -1;
    if (this.options.ev && !memo.dirty) {
      memo.dirty = true;
      this.dirtyMarkets.push(memo);
    }
    if (this.options.middles) {
      if (memo.middle) this.markGame(this.gameOf(market.owner));
      else if (memo.family !== undefined) this.markGame(memo.family);
    }
  }

  /** The event's record changed (live, start): every market of it is judged again. */
  touchEvent(state: EventState): void {
    for (const market of state.markets.values()) {
      const memo = this.memoOf(market);
      memo.live = state.event.live;
      memo.startsAt = state.event.startsAt;
      this.touch(market);
    }
  }

  /** The markets left the store (their event ended, or the engine was emptied): what they held leaves the sets. */
  drop(markets: readonly MarketState[]): void {
    for (const market of markets) {
      const memo = market.valueMemo as MarketMemo | undefined;
      if (memo !== undefined && memo.generation === this.generation) {
        memo.gone = true;
        this.markMarket(memo);
        if (memo.family !== undefined && !memo.family.gone) {
          memo.family.gone = true;
          this.markGame(memo.family);
        }
      }
      const game = market.owner.valueMemo as GameMemo | undefined;
      if (game !== undefined && game.generation === this.generation && !game.gone) {
        game.gone = true;
        this.markGame(game);
      }
    }
  }

  /** Everything held leaves the sets at the next scan (the engine starts over), which the next tick runs. */
  reset(): void {
    for (const memo of this.dirtyMarkets) memo.dirty = false;
    for (const game of this.dirtyGames) game.dirty = false;
    this.dirtyMarkets = [];
    this.dirtyGames = [];
    for (const memo of this.heldMarkets.owners) {
      if (memo === undefined) continue;
      memo.gone = true;
      this.markMarket(memo);
    }
    for (const game of this.heldGames.owners) {
      if (game === undefined) continue;
      game.gone = true;
      this.markGame(game);
    }
    this.generation += 1;
    this.ranAt = Number.NEGATIVE_INFINITY;
  }

  /** Whether a scan at `now` runs: the first of each period's slot (decision 170). */
  due(now: number): boolean {
    return (
      this.ranAt === Number.NEGATIVE_INFINITY ||
      Math.floor(now / this.periodMs) !== Math.floor(this.ranAt / this.periodMs)
    );
  }

  /**
   * On the first tick of each period's slot: judges again what changed or turned stale since the last scan, at `now`,
   * and brings the sets up to date. Returns what changed, or undefined when nothing did (or the slot was scanned).
   */
  scan(now: number): ValueChanges | undefined {
    if (!this.due(now)) return undefined;
    this.ranAt = now;
    // What turned stale.
    this.heldMarkets.stale(now, this.markMarket);
    this.heldGames.stale(now, this.markGame);
    if (this.dirtyMarkets.length === 0 && this.dirtyGames.length === 0) return undefined;
    const changes: ValueChanges = { at: now, ev: [], evRemoved: [], middles: [], middlesRemoved: [] };
    // The sets as they stood are kept for delayed readers before the first change of a new step.
    this.history.keep(this.lastChangeAt, now, this);
    const dirtyMarkets = this.dirtyMarkets;
    this.dirtyMarkets = [];
    // In the order the memos were made (markets of one game together, objects made together near each other in
    // memory), not the order prices came in: fewer cache misses.
    dirtyMarkets.sort(bySequence);
    for (const memo of dirtyMarkets) {
      memo.dirty = false;
      const market = memo.market;
      let rows: EvRow[];
      let slots: number[];
      let until: number;
      // A market that left the store was dropped (`drop`, `reset`): its memo says so, no event record is read.
      if (memo.gone || memo.generation !== this.generation) {
        rows = NO_ROWS;
        slots = NO_ROWS;
        until = Infinity;
      } else {
        rows = judgeEv(market, market, now, this.limits, memo);
        slots = judged.slots;
        until = judged.validUntil;
      }
      this.ev.count += applyRows(
        memo.rows,
        rows,
        changes.ev,
        changes.evRemoved,
        evRowChanged,
        (this.stamp += 1),
      );
      memo.rows = rows;
      memo.slots = slots;
      this.heldMarkets.hold(memo, rows.length > 0 || until !== Infinity ? until : undefined);
    }
    const dirtyGames = this.dirtyGames;
    this.dirtyGames = [];
    dirtyGames.sort(bySequence);
    for (const game of dirtyGames) {
      game.dirty = false;
      const state = game.state;
      let rows: MiddleRow[];
      let until: number;
      if (game.gone || state.removed || game.generation !== this.generation) {
        rows = NO_ROWS;
        until = Infinity;
      } else if (game.kind === 'family') {
        const family = propFamilyMiddles(state.event, game.markets, undefined, now, this.limits);
        rows = family.rows;
        until = family.validUntil;
      } else {
        rows = gameMiddles(state.event, game, this.memoOf, now, this.limits);
        until = judged.validUntil;
      }
      this.middles.count += applyRows(
        game.rows,
        rows,
        changes.middles,
        changes.middlesRemoved,
        middleRowChanged,
        (this.stamp += 1),
      );
      game.rows = rows;
      this.heldGames.hold(game, rows.length > 0 || until !== Infinity ? until : undefined);
    }
    const changed =
      changes.ev.length + changes.evRemoved.length + changes.middles.length + changes.middlesRemoved.length >
      0;
    if (!changed) return undefined;
    this.lastChangeAt = now;
    return changes;
  }

  private readonly markMarket = (memo: MarketMemo): void => {
    if (memo.dirty) return;
    memo.dirty = true;
    this.dirtyMarkets.push(memo);
  };

  private readonly markGame = (game: MiddleOwner): void => {
    if (game.dirty) return;
    game.dirty = true;
    this.dirtyGames.push(game);
  };

  /** The game's memo (kept on its state). */
  private gameOf(state: EventState): GameMemo {
    let game = state.valueMemo as GameMemo | undefined;
    if (game === undefined || game.generation !== this.generation) {
      game = gameMemo(state, this.generation, (this.sequence += 1));
      state.valueMemo = game;
    }
    return game;
  }

  /** The prop family of a prop middle market (kept on its game's memo), the market joined to it. */
  private familyOf(market: MarketState): FamilyMemo {
    const game = this.gameOf(market.owner);
    const families = (game.families ??= new Map());
    const key = propFamilyKey(market.spec as PropMarketSpec);
    let family = families.get(key);
    if (family === undefined) {
      family = {
        kind: 'family',
        generation: this.generation,
        sequence: (this.sequence += 1),
        state: market.owner,
        index: -1,
        dirty: false,
        gone: false,
        rows: NO_ROWS,
        markets: [],
      };
      families.set(key, family);
    }
    family.markets.push(market);
    return family;
  }

  /** The sets as a reader at `time` sees them (the newest kept at or before it); undefined when none that old is kept. */
  at(time: number): ValueSets | undefined {
    if (this.lastChangeAt <= time) return this.current();
    return this.history.at(time);
  }

  /** The sets now. */
  current(): ValueSets {
    return {
      at: this.lastChangeAt,
      ev: heldRows(this.heldMarkets.owners, this.ev.count),
      middles: heldRows(this.heldGames.owners, this.middles.count),
    };
  }
}

/**
 * Replaces an owner's rows, `before` by `after` (the rows it holds are the set's: no other owner has their ids): rows
 * new or changed (`evRowChanged`, `middleRowChanged`) go to the changes, rows no longer produced are removed. A row
 * that changed nothing a client is told still replaces the held one (its times are the newer); a row kept as it was
 * (the same object, already held) costs nothing. A new row's predecessor is the one its judge named
 * (`Tracked.replaces`), or else the held row of its id. Returns how many more rows the owner holds.
 */
function applyRows<R extends EvRow | MiddleRow>(
  before: readonly R[],
  after: readonly R[],
  added: R[],
  removed: R[],
  changed: (a: R, b: R) => boolean,
  stamp: number,
): number {
  if (before.length === 0 && after.length === 0) return 0;
  let byId: Map<string, R> | undefined;
  for (const row of after) {
    const tracked = row as unknown as Tracked;
    tracked.mark = stamp;
    if (tracked.held) continue;
    const known = tracked.replaces as R | null | undefined;
    tracked.replaces = undefined;
    let previous: R | undefined;
    if (known === undefined) {
      byId ??= new Map(before.map((held) => [held.id, held]));
      previous = byId.get(row.id);
      if (previous !== undefined && !(previous as unknown as Tracked).held) previous = undefined;
    } else previous = known ?? undefined;
    if (previous === undefined || changed(previous, row)) added.push(row);
    if (previous !== undefined) (previous as unknown as Tracked).held = false;
    tracked.held = true;
  }
  if (before === after) return 0;
  for (const row of before) {
    const tracked = row as unknown as Tracked;
    if (!tracked.held || tracked.mark === stamp) continue;
    tracked.held = false;
    removed.push(row);
  }
  return after.length - before.length;
}

/**
 * Every row the owners hold, in the registry's order: `count` of them (the set's size; the array is made at its length,
 * not grown).
 */
function heldRows<R>(owners: readonly ({ rows: readonly R[] } | undefined)[], count: number): R[] {
  const rows = new Array<R>(count);
  let at = 0;
  // Indexed loops: this runs once a scan over thousands of owners, often before it is optimised (an iterator's
  // results would then be allocated).
  for (let o = 0; o < owners.length; o += 1) {
    const owner = owners[o];
    if (owner === undefined) continue;
    const held = owner.rows;
    for (let i = 0; i < held.length; i += 1) rows[at++] = held[i]!;
  }
  // The count is the scan's own tally of the same rows; should they ever differ, the array holds what was found.
  rows.length = at;
  return rows;
}

/** The rows the owners hold: a read-only view, in the registry's order. */
export class HeldRows<R extends EvRow | MiddleRow> {
  /** How many (kept by the scan). */
  count = 0;
  constructor(private readonly owners: () => readonly ({ rows: readonly R[] } | undefined)[]) {}
  get size(): number {
    return this.count;
  }
  *values(): IterableIterator<R> {
    for (const owner of this.owners()) if (owner !== undefined) yield* owner.rows;
  }
  *keys(): IterableIterator<string> {
    for (const row of this.values()) yield row.id;
  }
}

function bySequence(a: { sequence: number }, b: { sequence: number }): number {
  return a.sequence - b.sequence;
}

/**
 * The owners (market or game memos) whose judgement holds rows or can turn stale, each at its `index`, with until when
 * it holds beside it in one `Float64Array` (a scan runs through it); freed places are reused.
 */
class HeldRegistry<T extends { index: number; rows: readonly unknown[] }> {
  readonly owners: (T | undefined)[] = [];
  private until: Float64Array;
  private readonly free: number[] = [];

  constructor(capacity: number) {
    this.until = new Float64Array(capacity).fill(Infinity);
  }

  /** Registers the owner's judgement as holding until `until` (undefined: nothing it holds can change alone). */
  hold(owner: T, until: number | undefined): void {
    if (until === undefined) {
      if (owner.index >= 0) {
        this.owners[owner.index] = undefined;
        this.until[owner.index] = Infinity;
        this.free.push(owner.index);
        owner.index = -1;
      }
      return;
    }
    if (owner.index < 0) {
      owner.index = this.free.pop() ?? this.owners.length;
      if (owner.index === this.owners.length) this.owners.push(undefined);
      if (owner.index >= this.until.length) {
        const next = new Float64Array(this.until.length * 2).fill(Infinity);
        next.set(this.until);
        this.until = next;
      }
      this.owners[owner.index] = owner;
    }
    this.until[owner.index] = until;
  }

  /** Calls `mark` with each owner whose judgement no longer holds at `now`. */
  stale(now: number, mark: (owner: T) => void): void {
    const until = this.until;
    for (let i = 0; i < this.owners.length; i += 1) if (until[i]! <= now) mark(this.owners[i]!);
  }
}

/**
 * The sets as they stood at the end of each `stepMs` slot of time over the last `historyMs`: before the first change
 * of a new slot, the sets as the previous change left them are kept (one copy of their rows a step at most, only
 * while they change). A delayed reader gets the newest kept at or before its horizon, as the arbs' history does
 * (decision 150).
 */
class ValueHistory {
  private readonly items: ValueSets[] = [];

  constructor(
    private readonly historyMs: number,
    private readonly stepMs: number,
  ) {}

  keep(lastChangeAt: number, now: number, scanner: ValueScanner): void {
    if (lastChangeAt === Number.NEGATIVE_INFINITY) {
      if (this.items.length === 0) this.items.push({ at: lastChangeAt, ev: [], middles: [] });
    } else if (Math.floor(lastChangeAt / this.stepMs) !== Math.floor(now / this.stepMs)) {
      const last = this.items[this.items.length - 1];
      if (!last || last.at !== lastChangeAt) this.items.push({ ...scanner.current(), at: lastChangeAt });
    }
    const horizon = now - this.historyMs;
    let drop = 0;
    while (drop + 1 < this.items.length && this.items[drop + 1]!.at <= horizon) drop += 1;
    if (drop > 0) this.items.splice(0, drop);
  }

  at(time: number): ValueSets | undefined {
    let lo = 0;
    let hi = this.items.length - 1;
    let found: ValueSets | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const item = this.items[mid]!;
      if (item.at <= time) {
        found = item;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}
