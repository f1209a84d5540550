import {
  EV_MIN_BOOKS,
  EV_METHOD,
  EV_REFERENCE,
  isDefaultEvChoice,
  type EvChoice,
  type MarketFair,
} from '#domain/ev.ts';
import type { OddsEvent, PriceLinks } from '#domain/markets.ts';
import { shinInto } from '#domain/devig.ts';
import { referenceFair } from '#domain/history.ts';
import type { AmericanOdds, DecimalOdds } from '#domain/odds.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { PositiveEvPrice } from '#domain/values.ts';
import {
  insertionSort,
  judged,
  NO_ROWS,
  popcount,
  rowsScratch,
  slotsScratch,
  type AgeLimits,
  type MarketMemo,
  type PriceView,
} from './memos.ts';
import { BOOK_COUNT, BOOKS_BY_SLOT, PRICE_ROW, type MarketState } from '../store.ts';

// Positive EV of one market (decision 163): `judgeEv`, the one judge (decision 281). It reads a view of the market's
// prices (`PriceView`: the newest, the market's own hot block; or the versions at a horizon copied into a block of the
// same layout) and takes the de-vig method and reference (decision 206; the default without one). The value scan
// (values/scanner.ts) calls it on the newest prices with the market's memo; the boards' other choices and benches at a
// horizon (src/server/ev/board.ts) with a memo of their own. Its reference model is tests/support/value-judges.ts.

/** One positive-EV price (a domain value, `PositiveEvPrice`) of one of the store's markets. */
export interface EvRow extends PositiveEvPrice {
  /** The market of the price (its spec and player, for the stream's filters). */
  market: MarketState;
}

/** One positive-EV row: the price's fields copied (the store updates a price's object in place). */
function evRow(
  event: OddsEvent,
  market: MarketState,
  outcomeIndex: number,
  book: SportsbookKey,
  decimal: number,
  american: number,
  updatedAt: number,
  links: PriceLinks,
  fairProbability: number,
  books: number,
  evPct: number,
  instant: number,
  knownId?: string,
  /** What the fair came from, when a choice was asked for (`EV_METHOD`, `EV_REFERENCE` by default). */
  source?: Pick<MarketFair, 'method' | 'reference' | 'fallback'>,
): ScanEvRow {
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
  row.updatedAt = updatedAt;
  row.decimal = decimal as DecimalOdds;
  row.american = american as AmericanOdds;
  row.desktop = links.desktop;
  row.mobile = links.mobile;
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
 * One market's positive-EV rows, judged at `instant` from `view` (the market itself: its newest prices; `pricesAt`: the
 * versions at a horizon), read into scratch arrays: the usable prices (not suspended, not older than the event's age
 * limit), the books pricing every side (at least `minBooks`), per outcome the median implied probability across them,
 * de-vigged by Shin's method (skipped when the medians did not move since the memo's last judgement), and every price
 * beating its outcome's fair; a row the memo holds is kept when nothing it shows changed. With `choice` (decision 206)
 * the medians are taken across its reference's books (`referenceFair`: the sharp books, one book, or the consensus when
 * it cannot) and de-vigged by its method, and each row names what its fair came from. An outcome whose fair is not in
 * (0, 1] has no EV (the additive method's 0). Returns the rows (the memo's own list when every row was kept, in order)
 * and sets `judged` (their price slots, until when they hold); the memo's rows are left to the caller.
 */
export function judgeEv(
  market: MarketState,
  view: PriceView,
  instant: number,
  limits: AgeLimits,
  memo: MarketMemo,
  minBooks = EV_MIN_BOOKS,
  choice?: EvChoice,
): EvRow[] {
  const maxAge = memo.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const ways = memo.ways;
  const n = ways * BOOK_COUNT;
  const hot = view.hot;
  const at = view.at;
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
  judged.fair = false;
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
  let source: MarketFair | undefined;
  if (choice !== undefined && !isDefaultEvChoice(choice)) {
    // The reference's medians, de-vigged by the method (`marketFair` with a choice): no memo of them.
    const pricing: { book: SportsbookKey; decimals: number[] }[] = [];
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      if (!(completeMask & (1 << slot))) continue;
      const decimals: number[] = [];
      for (let o = 0; o < ways; o += 1) decimals.push(usable[o * BOOK_COUNT + slot]!);
      pricing.push({ book: BOOKS_BY_SLOT[slot]!, decimals });
    }
    const fair = referenceFair(pricing, choice);
    if (!fair) return NO_ROWS;
    source = {
      probabilities: fair.probabilities,
      books: complete,
      method: fair.method,
      reference: fair.reference,
      fallback: fair.fallback,
    };
    for (let o = 0; o < ways; o += 1) probabilities[o] = fair.probabilities[o]!;
  } else if (
    memo.fitWays === ways &&
    memo.m0 === medians[0] &&
    memo.m1 === medians[1] &&
    (ways < 3 || memo.m2 === medians[2])
  ) {
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
  // The default asked for by name is named in the rows.
  if (choice !== undefined && source === undefined)
    source = {
      probabilities: Array.from(probabilities.subarray(0, ways)),
      books: complete,
      method: EV_METHOD,
      reference: EV_REFERENCE,
      fallback: null,
    };
  judged.validUntil = validUntil;
  judged.fair = true;
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
    // The price's American odds, book time and links, from the view (no object made of them).
    const american = hot[at + view.columns + i * PRICE_ROW + 1]!;
    const updatedAt = hot[at + n + i]!;
    const links = view.links[i]!;
    let row: EvRow | undefined;
    const before = memo.slots.indexOf(i);
    // The held row of this price (its id is the price's: no other row of the set has it).
    let previous: EvRow | null = null;
    if (before >= 0) {
      const kept = memo.rows[before]!;
      previous = kept;
      if (
        kept.decimal === decimal &&
        kept.american === american &&
        kept.updatedAt === updatedAt &&
        kept.desktop === links.desktop &&
        kept.mobile === links.mobile &&
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
        BOOKS_BY_SLOT[i - o * BOOK_COUNT]!,
        decimal,
        american,
        updatedAt,
        links,
        fairProbability,
        complete,
        pct,
        instant,
        previous?.id,
        source,
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
