import type { IntegerDistribution, MiddleChances } from '#domain/middles.ts';
import type { ScanOptions } from '../scanner.ts';
import type { EventState, MarketState } from '../store.ts';
import type { EvRow } from './ev.ts';
import type { LazyMiddleRow, MiddleQuote, MiddleRow } from './middles.ts';

// What the value scan (values/scanner.ts) remembers between judgements, kept on the markets and games themselves, and
// what its hot judges (values/ev.ts, values/middles.ts) share: scratch space and small helpers. The scan is
// synchronous: one set of scratch arrays serves every judgement.

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
 * A game's middle markets as the hot judge reads them, built when the game gains a market: each market's line, σ and
 * sides, and the pairs of markets whose lines can middle.
 */
export interface GameLayout {
  markets: MarketState[];
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
  /** Per middle market (`BOOK_COUNT * 3` each) and book slot: high decimal, low decimal, the centre estimate they gave. */
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
 * The rows (and EV slots) a hot judge finds, before it knows whether they are the held ones: a new array is made only
 * when they are not (most judgements of a quiet market, and many of a busy one, keep every row).
 */
export const rowsScratch: (EvRow | MiddleRow)[] = [];
export const slotsScratch: number[] = [];
/** What a hot judge hands back beside its rows: until when they hold, and (EV) their price slots. */
export const judged = { validUntil: Infinity, slots: NO_ROWS as number[] };

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
