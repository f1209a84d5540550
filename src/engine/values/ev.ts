import { EV_MIN_BOOKS, marketEv, type EvChoice, type MarketFair, type EvQuote } from '#domain/ev.ts';
import type { OddsEvent } from '#domain/markets.ts';
import { shinInto } from '#domain/devig.ts';
import type { AmericanOdds, DecimalOdds } from '#domain/odds.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { PositiveEvPrice } from '#domain/values.ts';
import { isUsable } from '../scanner.ts';
import {
  insertionSort,
  judged,
  NO_ROWS,
  popcount,
  rowsScratch,
  slotsScratch,
  type AgeLimits,
  type MarketMemo,
} from './memos.ts';
import {
  BOOK_COUNT,
  priceAt,
  pricesOf,
  type MarketState,
  type OddsStore,
  type StoredPrice,
} from '../store.ts';

// Positive EV of one market (decision 163): `judgeEv`, the versioned judge (any horizon, any de-vig method and
// reference: the REST boards'), and `judgeEvHot`, the scan's judge of the newest prices from the market's hot block
// (values/scanner.ts). Both give the same rows on the newest prices; values/scanner.test.ts checks it on every scan.

/** One positive-EV price (a domain value, `PositiveEvPrice`) of one of the store's markets. */
export interface EvRow extends PositiveEvPrice {
  /** The market of the price (its spec and player, for the stream's filters). */
  market: MarketState;
}

/** One market's judgement: its rows, whether it has a published fair, and until when it holds. */
export interface EvJudgement {
  rows: EvRow[];
  fair: boolean;
  /** The first instant at which a price it used turns stale (Infinity when that cannot change anything). */
  validUntil: number;
}

const NO_EV: EvJudgement = { rows: [], fair: false, validUntil: Infinity };

/**
 * One market's positive-EV rows as visible at `at` (undefined: the newest prices), judged at `instant`. A market
 * without a published fair has no rows, and losing prices cannot give it one: it holds for ever (`validUntil`
 * Infinity) until one of its prices changes.
 */
export function judgeEv(
  store: OddsStore,
  event: OddsEvent,
  market: MarketState,
  at: number | undefined,
  instant: number,
  limits: AgeLimits,
  minBooks = EV_MIN_BOOKS,
  choice?: EvChoice,
): EvJudgement {
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes: (EvQuote<SportsbookKey> & { version: StoredPrice })[] = [];
  let validUntil = Infinity;
  const ways = market.outcomes.length;
  for (let outcome = 0; outcome < ways; outcome += 1) {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      quotes.push({ book: version.book, outcome, decimal: version.decimal, version });
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
    }
  }
  if (quotes.length < minBooks * 2) return NO_EV;
  const { fair, prices } = marketEv(quotes, ways, { minBooks, ...(choice && { choice }) });
  if (!fair) return NO_EV;
  const source = choice && fair;
  const rows: EvRow[] = [];
  for (const priced of prices) {
    const version = priced.version;
    rows.push(
      evRow(
        event,
        market,
        priced.outcome,
        version,
        priced.fairProbability,
        fair.books,
        priced.evPct,
        instant,
        undefined,
        source,
      ),
    );
  }
  return { rows, fair: true, validUntil };
}

/** One positive-EV row: the price's fields copied (the store updates a price's object in place). */
function evRow(
  event: OddsEvent,
  market: MarketState,
  outcomeIndex: number,
  version: StoredPrice,
  fairProbability: number,
  books: number,
  evPct: number,
  instant: number,
  knownId?: string,
  /** What the fair came from, when not the default (`EV_METHOD`, `EV_REFERENCE`). */
  source?: Pick<MarketFair, 'method' | 'reference' | 'fallback'>,
): ScanEvRow {
  const book = version.book;
  const row = new ScanEvRow();
  // The same price's id as before when the scan knows it (no string built and hashed again).
  row.id = knownId ?? `${market.key}|${market.outcomes[outcomeIndex]!}|${book}`;
  row.event = event;
  row.market = market;
  row.outcomeIndex = outcomeIndex;
  row.eventId = event.id;
  row.league = event.league;
  row.live = event.live;
  row.type = market.spec.type;
  row.book = book;
  row.evPct = evPct;
  row.updatedAt = version.updatedAt;
  row.decimal = version.decimal;
  row.american = version.american;
  row.desktop = version.links.desktop;
  row.mobile = version.links.mobile;
  row.fairProbability = fairProbability;
  row.fairBooks = books;
  row.startsAt = event.startsAt;
  row.instant = instant;
  row.fairSource = source;
  return row;
}

/** A row as a class (every row of one shape), with the scanner's marks (`Tracked`). */
class ScanEvRow implements EvRow {
  id = '';
  event!: OddsEvent;
  market!: MarketState;
  outcomeIndex = 0;
  eventId = '';
  league = '';
  live = false;
  type = '';
  book = '' as SportsbookKey;
  evPct = 0;
  updatedAt = 0;
  decimal = 0 as DecimalOdds;
  american = 0 as AmericanOdds;
  desktop: string | null = null;
  mobile: string | null = null;
  fairProbability = 0;
  fairBooks = 0;
  startsAt = 0;
  instant = 0;
  fairSource: Pick<MarketFair, 'method' | 'reference' | 'fallback'> | undefined = undefined;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces: EvRow | null | undefined = undefined;
}

/**
 * Whether two rows of one id differ in what a stream client is told: the price (odds, links), the fair, the EV or the
 * event. A re-quote at the same odds (a new `updated_at`) is not a change: `price` events carry the times.
 */
export function evRowChanged(a: EvRow, b: EvRow): boolean {
  return (
    a.decimal !== b.decimal ||
    a.american !== b.american ||
    a.desktop !== b.desktop ||
    a.mobile !== b.mobile ||
    a.fairProbability !== b.fairProbability ||
    a.fairBooks !== b.fairBooks ||
    a.live !== b.live ||
    a.startsAt !== b.startsAt
  );
}

/** Scratch arrays of the fast judges (the scan is synchronous: one set serves every judgement). */
let usableScratch = new Float64Array(4 * BOOK_COUNT);
const columnScratch = new Float64Array(BOOK_COUNT);
let mediansScratch = new Float64Array(4);
/** Each side's best usable price, and the fair probabilities of a judgement. */
let mostScratch = new Float64Array(4);
let fairScratch = new Float64Array(4);

/**
 * `judgeEv` of the newest prices (at undefined), read from the market's hot block (decimals and book times) into
 * scratch arrays, with Shin's solve skipped when the consensus medians did not move and a held row kept when nothing it
 * shows changed: the same rows (values/scanner.test.ts compares them on every scan). Returns the rows (the memo's own list when
 * every row was kept, in order) and sets `judged`. An outcome whose fair probability is not in (0, 1] has no EV, as in
 * `judgeEv` (the additive method's 0; Shin's on a degenerate board): the scan's only judge of the default choice
 * (decision 274). The memo's rows are left to the caller.
 */
export function judgeEvHot(
  market: MarketState,
  instant: number,
  limits: AgeLimits,
  memo: MarketMemo,
  minBooks = EV_MIN_BOOKS,
): EvRow[] {
  const maxAge = memo.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const ways = memo.ways;
  const n = ways * BOOK_COUNT;
  const hot = market.hot;
  const at = market.at;
  if (usableScratch.length < n) usableScratch = new Float64Array(n);
  const usable = usableScratch;
  if (mostScratch.length < ways) mostScratch = new Float64Array(ways);
  const most = mostScratch;
  let count = 0;
  let validUntil = Infinity;
  // One pass: each usable price (0: suspended, not quoted, or too old), the books pricing every side with valid odds
  // (marketFair's complete rows, as a mask), and each side's best price.
  let completeMask = (1 << BOOK_COUNT) - 1;
  for (let o = 0; o < ways; o += 1) {
    let sideMask = 0;
    let best = 0;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      const i = o * BOOK_COUNT + slot;
      const decimal = hot[at + i]!;
      const updatedAt = hot[at + n + i]!;
      if (decimal !== 0 && instant - updatedAt <= maxAge) {
        usable[i] = decimal;
        count += 1;
        if (updatedAt + maxAge + 1 < validUntil) validUntil = updatedAt + maxAge + 1;
        if (Number.isFinite(decimal) && decimal > 1) {
          sideMask |= 1 << slot;
          if (decimal > best) best = decimal;
        }
      } else usable[i] = 0;
    }
    completeMask &= sideMask;
    most[o] = best;
  }
  judged.slots = NO_ROWS;
  judged.validUntil = Infinity;
  if (count < minBooks * 2 || ways < 2) return NO_ROWS;
  const complete = popcount(completeMask);
  if (complete < minBooks) return NO_ROWS;
  if (mediansScratch.length < ways) mediansScratch = new Float64Array(ways);
  const medians = mediansScratch;
  for (let o = 0; o < ways; o += 1) {
    let k = 0;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1)
      if (completeMask & (1 << slot)) columnScratch[k++] = 1 / usable[o * BOOK_COUNT + slot]!;
    insertionSort(columnScratch, k);
    const middle = k >> 1;
    medians[o] =
      k % 2 === 1 ? columnScratch[middle]! : (columnScratch[middle - 1]! + columnScratch[middle]!) / 2;
  }
  if (fairScratch.length < ways) fairScratch = new Float64Array(ways);
  const probabilities = fairScratch;
  const same =
    memo.fitWays === ways &&
    memo.m0 === medians[0] &&
    memo.m1 === medians[1] &&
    (ways < 3 || memo.m2 === medians[2]);
  if (same) {
    probabilities[0] = memo.f0;
    probabilities[1] = memo.f1;
    if (ways === 3) probabilities[2] = memo.f2;
  } else {
    shinInto(medians, ways, probabilities);
    memo.fitWays = ways <= 3 ? ways : 0;
    memo.m0 = medians[0]!;
    memo.m1 = medians[1]!;
    memo.f0 = probabilities[0]!;
    memo.f1 = probabilities[1]!;
    if (ways === 3) {
      memo.m2 = medians[2]!;
      memo.f2 = probabilities[2]!;
    }
  }
  judged.validUntil = validUntil;
  // No side's best price beats its fair (and the fair is one `judgeEv` accepts): no row, no pass over the prices.
  let any = false;
  for (let o = 0; o < ways; o += 1) {
    const p = probabilities[o]!;
    if (!(p > 0 && p <= 1)) continue;
    if ((p * most[o]! - 1) * 100 > 0) any = true;
  }
  if (!any) return NO_ROWS;
  const found = rowsScratch as EvRow[];
  const foundSlots = slotsScratch;
  let held = 0;
  // Whether every row so far is the memo's row at the same place (then its list is returned as it is).
  let unchanged = true;
  for (let i = 0; i < n; i += 1) {
    const decimal = usable[i]!;
    if (!(Number.isFinite(decimal) && decimal > 1)) continue;
    const o = (i / BOOK_COUNT) | 0;
    const fairProbability = probabilities[o]!;
    if (!(fairProbability > 0 && fairProbability <= 1)) continue;
    const pct = (fairProbability * decimal - 1) * 100;
    if (!(pct > 0)) continue;
    const version = priceAt(market, i)!;
    let row: EvRow | undefined;
    const before = memo.slots.indexOf(i);
    // The held row of this price (its id is the price's: no other row of the set has it).
    let previous: EvRow | null = null;
    if (before >= 0) {
      const kept = memo.rows[before]!;
      previous = kept;
      if (
        kept.decimal === decimal &&
        kept.american === version.american &&
        kept.updatedAt === version.updatedAt &&
        kept.desktop === version.links.desktop &&
        kept.mobile === version.links.mobile &&
        kept.fairProbability === fairProbability &&
        kept.fairBooks === complete &&
        kept.evPct === pct &&
        kept.live === memo.live &&
        kept.startsAt === memo.startsAt
      )
        row = kept;
    }
    if (row === undefined) {
      const made = evRow(
        market.owner.event,
        market,
        o,
        version,
        fairProbability,
        complete,
        pct,
        instant,
        previous?.id,
      );
      made.replaces = previous;
      row = made;
    }
    if (unchanged && memo.rows[held] !== row) unchanged = false;
    found[held] = row;
    foundSlots[held] = i;
    held += 1;
  }
  judged.validUntil = validUntil;
  if (held === 0) return NO_ROWS;
  if (unchanged && held === memo.rows.length) {
    judged.slots = memo.slots;
    return memo.rows;
  }
  const rows = found.slice(0, held);
  // marketEv's order: best EV first, then the book's key (the order of the stream's entries); an insertion sort of
  // the rows and their slots together (a market has a few).
  const sortedSlots = foundSlots.slice(0, held);
  for (let i = 1; i < rows.length; i += 1) {
    const row = rows[i]!;
    const slot = sortedSlots[i]!;
    let j = i - 1;
    while (j >= 0 && evOrder(rows[j]!, row) > 0) {
      rows[j + 1] = rows[j]!;
      sortedSlots[j + 1] = sortedSlots[j]!;
      j -= 1;
    }
    rows[j + 1] = row;
    sortedSlots[j + 1] = slot;
  }
  judged.slots = sortedSlots;
  return rows;
}

/** Best EV first, then the book's key. */
function evOrder(a: EvRow, b: EvRow): number {
  return b.evPct - a.evPct || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0);
}
