import type { IntegerDistribution, MiddleChances } from '#domain/middles.ts';
import type { ScanOptions } from '../scanner.ts';
import {
  hotBlockSize,
  priceAt,
  PRICE_ROW,
  type EventState,
  type MarketState,
  type OddsStore,
} from '../store.ts';
import { PRICE_PRESENT, PRICE_SUSPENDED } from '../versions.ts';
import type { PriceLinks } from '#domain/markets.ts';
import type { EvRow } from './ev.ts';
import type { LazyMiddleRow, MiddleQuote, MiddleRow } from './middles.ts';

// What the value scan (values/scanner.ts) remembers between judgements, kept on the markets and games themselves; what
// the judges (values/ev.ts, values/middles.ts) read, a view of each market's prices (`PriceView`: the newest, or a
// horizon's copied by `pricesAt`); and what they share: scratch space and small helpers. Judging is synchronous: one
// set of scratch arrays serves every judgement.

export type AgeLimits = Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>;

/** An empty row list, shared (never written). */
export const NO_ROWS: never[] = [];

/**
 * What the scanner remembers of a market between judgements, kept on the market (`valueMemo`): the positive-EV rows
 * it holds in the set (exactly those, with their price slots, to keep a row's object when nothing it shows changed),
 * the consensus medians and their fair probabilities (Shin's solve is skipped when the medians did not move), and per
 * book slot the last centre estimate and quote of a middle market's line.
 */
export interface MarketMemo {
  /** The scanner's generation that made it: after a reset, older memos are not read. */
  generation: number;
  /** Its place in the order memos were made. */
  sequence: number;
  market: MarketState;
  /** Whether the market can be a side of a middle. */
  middle: boolean;
  /** Its place in the scanner's registry of held judgements (`HeldRegistry`), -1 while it holds nothing. */
  index: number;
  /** Whether it waits in the dirty list; whether its market left the store. */
  dirty: boolean;
  gone: boolean;
  rows: EvRow[];
  slots: number[];
  /**
   * The consensus medians of its last judgement and their fair probabilities, on the memo itself (no array to visit;
   * markets of up to three sides): `fitWays` sides (0: none kept).
   */
  fitWays: number;
  m0: number;
  m1: number;
  m2: number;
  f0: number;
  f1: number;
  f2: number;
  /** The event's live flag and start as last told (`touchEvent`): the judge reads no event record. */
  live: boolean;
  startsAt: number;
  /** The number of its outcomes. */
  ways: number;
  /**
   * The price slots (bit `index`) that took a new price since the game's last judgement (middle markets only; all
   * bits when an index is beyond 30): a quote is kept, without reading its price, while its bit is clear.
   */
  quoteDirty: number;
  /** Per outcome and book slot: the price's quote as middles show it (middle markets only). */
  quotes: (MiddleQuote | undefined)[] | undefined;
  /** The prop family of a prop middle market (undefined for any other, or with the middles set off). */
  family: FamilyMemo | undefined;
}

/**
 * A game's middle markets as the judge reads them, built when the game gains a market: each market's line, σ and
 * sides, and the pairs of markets whose lines can middle.
 */
export interface GameLayout {
  markets: MarketState[];
  /** What the judge reads of each market's prices (the markets themselves in the scan: their newest prices). */
  views: PriceView[];
  memos: MarketMemo[];
  spread: Uint8Array;
  line: Float64Array;
  sigma: Float64Array;
  /** The outcome index of each market's high and low side (-1: none). */
  high: Int8Array;
  low: Int8Array;
  /** Pairs of markets (high side, low side), flattened. */
  pairs: Int32Array;
}

/** What the scanner remembers of a game, kept on its state (`valueMemo`). */
export interface GameMemo {
  kind: 'game';
  generation: number;
  sequence: number;
  state: EventState;
  index: number;
  dirty: boolean;
  gone: boolean;
  /** The layout, and how many markets the game had when it was built (a game's markets are only ever added). */
  layout: GameLayout | undefined;
  marketCount: number;
  distributions: { margin?: CachedDistribution; total?: CachedDistribution };
  /** The rows it holds in the set. */
  rows: MiddleRow[];
  /** Per pair of markets, up to four rows (best two books a side): the rows of the last judgement. */
  pairRows: (LazyMiddleRow | undefined)[];
  /**
   * Per middle market (`BOOK_COUNT * 5` each) and book slot: high decimal, low decimal, the normal centre estimate they
   * gave, and the centre fitted from them under the distributions with the other centre's key it was fitted at
   * (middles.ts `fittedAt`; a key of NaN: the fit is for older prices, a centre near the next).
   */
  estimates: Float64Array;
  /** Per pair: the chances of the last judgement, as computed and as published, and the centres they were for. */
  pairChances: (MiddleChances | undefined)[];
  pairPublished: (MiddleChances | undefined)[];
  pairCentres: Float64Array;
  /** The game's prop families (`propFamilyKey`), made as their markets' memos are. */
  families: Map<string, FamilyMemo> | undefined;
}

/**
 * What the scanner remembers of a prop family (one player's stat in one period, every line of it): its markets, and
 * the middles it holds. Judged again, whole, when any of its markets takes a price (`propFamilyMiddles`).
 */
export interface FamilyMemo {
  kind: 'family';
  generation: number;
  sequence: number;
  state: EventState;
  index: number;
  dirty: boolean;
  gone: boolean;
  rows: MiddleRow[];
  markets: MarketState[];
}

/** What holds middles: a game (its spreads and totals) or a prop family. */
export type MiddleOwner = GameMemo | FamilyMemo;

export interface CachedDistribution {
  margin: number;
  total: number;
  distribution: IntegerDistribution;
}

/**
 * The rows (and EV slots) a judge finds, before it knows whether they are the held ones: a new array is made only
 * when they are not (most judgements of a quiet market, and many of a busy one, keep every row).
 */
export const rowsScratch: (EvRow | MiddleRow)[] = [];
export const slotsScratch: number[] = [];
/**
 * What a judge hands back beside its rows: until when they hold, and (EV) their price slots and whether the market
 * has a published fair.
 */
export const judged = { validUntil: Infinity, slots: NO_ROWS as number[], fair: false };

/**
 * A market's prices as the judges read them (decision 281): a block of the market's layout (`MarketState.hot`: from
 * `at`, each price's decimal, 0 while suspended or unquoted; from `at + cells`, its book time; from `at + columns`,
 * its row of `PRICE_ROW` numbers) and each price's links. The newest prices are the market itself; a horizon's are
 * the versions visible then, copied into a scratch block of the same layout (`pricesAt`).
 */
export interface PriceView {
  hot: Float64Array;
  at: number;
  cells: number;
  columns: number;
  links: readonly (PriceLinks | undefined)[];
}

/** Where horizons' views are copied: one block, grown when a judgement needs more (a view keeps the block it got). */
let viewBlock = new Float64Array(4096);
let viewUsed = 0;

/**
 * The market's prices as they were known at `at` (each price's version with its book time then too,
 * `OddsStore.versionAt`), copied into the views' scratch block: valid until the next `beginViews`. A judge copies
 * what it keeps (its rows hold numbers and quotes, never the block).
 */
export function pricesAt(store: OddsStore, market: MarketState, at: number): PriceView {
  const size = hotBlockSize(market.outcomes.length);
  if (viewUsed + size > viewBlock.length) {
    viewBlock = new Float64Array(Math.max(viewBlock.length * 2, size * 4));
    viewUsed = 0;
  }
  const hot = viewBlock;
  const base = viewUsed;
  viewUsed += size;
  hot.fill(0, base, base + size);
  const links = new Array<PriceLinks | undefined>(market.cells).fill(undefined);
  for (let i = 0; i < market.cells; i += 1) {
    const newest = priceAt(market, i);
    if (newest === undefined) continue;
    const version = store.versionAt(newest, at, true);
    if (!version) continue;
    const row = base + market.columns + i * PRICE_ROW;
    hot[base + i] = version.suspended ? 0 : version.decimal;
    hot[base + market.cells + i] = version.updatedAt;
    hot[row] = version.decimal;
    hot[row + 1] = version.american;
    hot[row + 2] = version.receivedAt;
    hot[row + 3] = version.history;
    hot[row + 4] = version.suspended ? PRICE_SUSPENDED : PRICE_PRESENT;
    links[i] = version.links;
  }
  return { hot, at: base, cells: market.cells, columns: market.columns, links };
}

/** The views' scratch block is free again (a judgement of a horizon starts). */
export function beginViews(): void {
  viewUsed = 0;
}

/**
 * A memo of its own for one judgement outside the scan (a horizon's, or a choice other than the default): nothing
 * held, nothing remembered, so the judge keeps no row and makes every quote anew.
 */
export function judgementMemo(market: MarketState, middle: boolean): MarketMemo {
  return marketMemo(market, middle);
}

/** A market's memo with nothing remembered: the scan's (its generation and place), or one judgement's (`generation` -1). */
export function marketMemo(market: MarketState, middle: boolean, generation = -1, sequence = 0): MarketMemo {
  const event = market.owner.event;
  return {
    generation,
    sequence,
    market,
    middle,
    index: -1,
    dirty: false,
    gone: false,
    rows: NO_ROWS,
    slots: NO_ROWS,
    fitWays: 0,
    m0: 0,
    m1: 0,
    m2: 0,
    f0: 0,
    f1: 0,
    f2: 0,
    live: event.live,
    startsAt: event.startsAt,
    ways: market.outcomes.length,
    quoteDirty: 0,
    quotes: undefined,
    family: undefined,
  };
}

/** A game's memo with nothing remembered: the scan's (its generation and place), or one judgement's (`generation` -1). */
export function gameMemo(state: EventState, generation = -1, sequence = 0): GameMemo {
  return {
    kind: 'game',
    generation,
    sequence,
    state,
    index: -1,
    dirty: false,
    gone: false,
    layout: undefined,
    marketCount: -1,
    distributions: {},
    rows: NO_ROWS,
    pairRows: [],
    pairChances: [],
    pairPublished: [],
    pairCentres: new Float64Array(0),
    estimates: new Float64Array(0),
    families: undefined,
  };
}

export function insertionSort(values: Float64Array, length: number): void {
  for (let i = 1; i < length; i += 1) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j -= 1;
    }
    values[j + 1] = v;
  }
}

export function popcount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count += 1;
  return count;
}
