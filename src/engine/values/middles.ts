import { LEAGUES, type GameMarketSpec, type LeagueKey, type OddsEvent } from '#domain/markets.ts';
import {
  distributionCentre,
  highSideChance,
  isMiddle,
  isMiddleLines,
  referenceMedian,
  type CentreChoice,
  type CentreSource,
  modelMiddleChances,
  middleEv,
  MIDDLE_MIN_BOOKS,
  publishedChances,
  publishedPct,
  type IntegerDistribution,
  type LineQuote,
  type MiddleChances,
  type MiddleVariable,
} from '#domain/middles.ts';
import {
  propCentre,
  propCentreBy,
  propMiddleChances,
  propModelName,
  propStatModel,
  type PropLineQuote,
  type PropStatModel,
} from '#domain/prop-middles.ts';
import type { PropMarketSpec } from '#domain/props.ts';
import { normalQuantile } from '#domain/mvn.ts';
import { roundTo, type AmericanOdds, type DecimalOdds } from '#domain/odds.ts';
import { CENTRE_STEP, gameDistributions } from '#domain/score-distributions.ts';
import { SGP_GAME_PRIORS } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { MiddlePair, MiddleQuote as MiddleQuoteValue } from '#domain/values.ts';
import {
  insertionSort,
  judged,
  NO_ROWS,
  popcount,
  rowsScratch,
  type AgeLimits,
  type GameLayout,
  type GameMemo,
  type MarketMemo,
  type PriceView,
} from './memos.ts';
import { BOOK_COUNT, BOOKS_BY_SLOT, PRICE_ROW, type EventState, type MarketState } from '../store.ts';

// Middles of one game's full-game spreads and totals (decision 167) and of one player's prop lines (decision 189): one
// judge each (decision 281), `gameMiddles` and `propFamilyMiddles`. Both read a view of each market's prices
// (`PriceView`: the market itself, its newest prices; or `pricesAt`, the versions at a horizon) and take the de-vig
// method and reference of the centres (decision 206; the default without one). The value scan (values/scanner.ts)
// calls them on the newest prices, `gameMiddles` with the game's memo; the boards' other choices (src/server/middles/
// board.ts) at the slot, with memos of the judgement's own. Their reference model is tests/support/value-judges.ts.

/** What a middle's lines are on: a game's margin or total, or a player's stat (a prop middle). */
type RowVariable = MiddleVariable | 'stat';

/** A usable price, its fields copied (the store updates a price's object in place; a row may be read later). */
export interface MiddleQuote extends MiddleQuoteValue {
  market: MarketState;
}

/** One middle (a domain value, `MiddlePair`) of the store's markets. */
export interface MiddleRow extends MiddlePair {
  readonly high: MiddleQuote;
  readonly low: MiddleQuote;
}

/** Per line and side, the best prices of this many distinct books are paired (two: so a pair can avoid one book). */
const BEST_PER_LINE = 2;

/** Whether a market can be a side of a middle: a full-game spread or total with a point. */
export function isMiddleMarket(market: MarketState): boolean {
  const spec = market.spec;
  return spec.period === 'full' && (spec.type === 'spread' || spec.type === 'total') && spec.point !== null;
}

/** Whether a market can be a side of a player-prop middle: an over/under prop with a line, of a stat with a model. */
export function isPropMiddleMarket(market: MarketState): boolean {
  const spec = market.spec;
  if (spec.type !== 'prop' || spec.point === null) return false;
  const league = market.owner.event.league;
  return (
    Object.prototype.hasOwnProperty.call(LEAGUES, league) && propStatModel(league, spec.stat) !== undefined
  );
}

/** A prop market's family: one player's stat in one period, every line of it (the markets one prop middle pairs). */
export function propFamilyKey(spec: PropMarketSpec): string {
  return `${spec.playerId}|${spec.stat}|${spec.period}`;
}

/**
 * Every middle of one prop family (`propFamilyKey`: one player, stat and period, the markets its lines), judged at
 * `instant` from each market's view (`viewOf`: by default the market itself, its newest prices; `pricesAt`: the
 * versions at a horizon), its centre by `choice` (undefined: the default); and until when they hold (the first used
 * price to turn stale; Infinity when the family has no centre, which losing prices cannot give it).
 */
export function propFamilyMiddles(
  event: OddsEvent,
  markets: readonly MarketState[],
  viewOf: (market: MarketState) => PriceView = ownPrices,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
): { rows: MiddleRow[]; validUntil: number } {
  const rows: MiddleRow[] = [];
  const first = markets[0];
  if (first === undefined || !Object.prototype.hasOwnProperty.call(LEAGUES, event.league))
    return { rows, validUntil: Infinity };
  const spec = first.spec as PropMarketSpec;
  const model = propStatModel(event.league, spec.stat);
  if (model === undefined || !someMiddleLines(markets)) return { rows, validUntil: Infinity };
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes: MiddleQuote[] = [];
  let validUntil = Infinity;
  for (const market of markets) {
    const until = usableQuotes(market, viewOf(market), 'total', instant, maxAge, quotes);
    if (until < validUntil) validUntil = until;
  }
  const by = choice && propCentreBy(model, propLineQuotes(quotes), choice, minBooks);
  const centre = choice ? by?.centre : propCentre(model, propLineQuotes(quotes), minBooks);
  if (centre === undefined) return { rows, validUntil: Infinity };
  pairs(quotes, (high, low) => {
    const chances = propMiddleChances(model, centre, high.line, low.line);
    rows.push(propMiddleRow(event, spec, model, centre, chances, high, low, instant, by?.source));
  });
  return { rows, validUntil };
}

/**
 * Whether two of the markets' lines leave a whole number between them (`isMiddleLines` of the lowest and the highest):
 * a family hung at one line, or at lines less than one apart, has no middle whatever its prices, and is not priced.
 */
function someMiddleLines(markets: readonly MarketState[]): boolean {
  let low = Infinity;
  let high = -Infinity;
  for (const market of markets) {
    const point = market.spec.point!;
    if (point < low) low = point;
    if (point > high) high = point;
  }
  return isMiddleLines(low, high);
}

/** An event's player-prop middles, family by family (what a board judges for a choice other than the default). */
export function eventPropMiddles(
  event: OddsEvent,
  markets: readonly MarketState[],
  viewOf: (market: MarketState) => PriceView,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
): MiddleRow[] {
  const rows: MiddleRow[] = [];
  for (const family of propFamilies(markets).values())
    for (const row of propFamilyMiddles(event, family, viewOf, instant, limits, minBooks, choice).rows)
      rows.push(row);
  return rows;
}

/** The prop middle markets grouped by family. */
export function propFamilies(markets: Iterable<MarketState>): Map<string, MarketState[]> {
  const families = new Map<string, MarketState[]>();
  for (const market of markets) {
    if (!isPropMiddleMarket(market)) continue;
    const key = propFamilyKey(market.spec as PropMarketSpec);
    const family = families.get(key);
    if (family) family.push(market);
    else families.set(key, [market]);
  }
  return families;
}

/** Each book's over and under of one line, for the centre's estimate. */
function propLineQuotes(quotes: readonly MiddleQuote[]): PropLineQuote[] {
  return lineQuotes(quotes).map((q) => ({ book: q.book, line: q.line, over: q.high, under: q.low }));
}

function propMiddleRow(
  event: OddsEvent,
  spec: PropMarketSpec,
  model: PropStatModel,
  centre: number,
  chances: MiddleChances,
  high: MiddleQuote,
  low: MiddleQuote,
  instant: number,
  source?: CentreSource,
): LazyMiddleRow {
  const id = `${event.id}|prop|${spec.period}|${spec.playerId}|${spec.stat}|${high.book}:${high.line}|${low.book}:${low.line}`;
  const row = new LazyMiddleRow(
    id,
    event,
    'stat',
    instant,
    high,
    low,
    publishedChances(chances),
    middleEv(high.decimal, low.decimal, chances),
    centre,
    propModelName(model),
  );
  return withSource(row, source);
}

/** Whether two rows of one id differ in what a stream client is told: either side's odds or links, the chances, the EV or the event. */
export function middleRowChanged(a: MiddleRow, b: MiddleRow): boolean {
  return (
    a.publishedEvPct !== b.publishedEvPct ||
    a.probability !== b.probability ||
    a.live !== b.live ||
    a.pushHigh !== b.pushHigh ||
    a.pushLow !== b.pushLow ||
    a.startsAt !== b.startsAt ||
    roundTo(a.centre, 2) !== roundTo(b.centre, 2) ||
    quoteChanged(a.high, b.high) ||
    quoteChanged(a.low, b.low)
  );
}

function quoteChanged(a: MiddleQuote, b: MiddleQuote): boolean {
  return (
    a.decimal !== b.decimal || a.american !== b.american || a.desktop !== b.desktop || a.mobile !== b.mobile
  );
}

/** Without a total market a game's distributions take the league's typical total (the SGP model's prior). */
function defaultTotal(league: LeagueKey): number {
  return SGP_GAME_PRIORS[league].meanTotal;
}

/** The high side of a spread is home (margin > −point), of a total the over; the low side away or under. */
function sideOf(market: MarketState, outcome: number): 'high' | 'low' | undefined {
  const key = market.outcomes[outcome];
  if (key === 'home' || key === 'over') return 'high';
  if (key === 'away' || key === 'under') return 'low';
  return undefined;
}

/**
 * Adds the market's usable quotes in `view` to `out` (outcome by outcome, in the order the books first quoted it);
 * returns when the first of them turns stale.
 */
function usableQuotes(
  market: MarketState,
  view: PriceView,
  variable: MiddleVariable,
  instant: number,
  maxAge: number,
  out: MiddleQuote[],
): number {
  const point = (market.spec as GameMarketSpec).point!;
  const line = variable === 'margin' ? -point + 0 : point;
  const hot = view.hot;
  const cells = view.cells;
  let validUntil = Infinity;
  for (let outcome = 0; outcome < market.quoted.length; outcome += 1) {
    for (const slot of market.quoted[outcome]!) {
      const i = outcome * BOOK_COUNT + slot;
      const decimal = hot[view.at + i]!;
      const updatedAt = hot[view.at + cells + i]!;
      if (decimal === 0 || !(instant - updatedAt <= maxAge)) continue;
      if (updatedAt + maxAge + 1 < validUntil) validUntil = updatedAt + maxAge + 1;
      const links = view.links[i]!;
      out.push({
        market,
        outcome,
        line,
        book: BOOKS_BY_SLOT[slot]!,
        decimal: decimal as DecimalOdds,
        american: hot[view.at + view.columns + i * PRICE_ROW + 1]! as AmericanOdds,
        updatedAt,
        desktop: links.desktop,
        mobile: links.mobile,
      });
    }
  }
  return validUntil;
}

/** A market's newest prices: its own hot block. */
const ownPrices = (market: MarketState): PriceView => market;

/** Each book's two sides of one line, for the centre's estimate. */
function lineQuotes(quotes: readonly MiddleQuote[]): LineQuote[] {
  const byBookLine = new Map<string, LineQuote>();
  for (const quote of quotes) {
    const side = sideOf(quote.market, quote.outcome);
    if (!side) continue;
    const key = `${quote.book}|${quote.line}`;
    let entry = byBookLine.get(key);
    if (!entry) byBookLine.set(key, (entry = { book: quote.book, line: quote.line, high: 0, low: 0 }));
    entry[side] = quote.decimal;
  }
  return [...byBookLine.values()].filter((q) => q.high > 1 && q.low > 1);
}

/** The best `BEST_PER_LINE` books per line and side, then every high/low pair of two books whose lines leave a gap (`isMiddle`). */
function pairs(quotes: readonly MiddleQuote[], emit: (high: MiddleQuote, low: MiddleQuote) => void): void {
  const best = { high: new Map<number, MiddleQuote[]>(), low: new Map<number, MiddleQuote[]>() };
  for (const quote of quotes) {
    const side = sideOf(quote.market, quote.outcome);
    if (!side) continue;
    const lines = best[side];
    let list = lines.get(quote.line);
    if (list === undefined) {
      list = [];
      lines.set(quote.line, list);
    }
    let sameBook = -1;
    for (let i = 0; i < list.length; i += 1)
      if (list[i]!.book === quote.book) {
        sameBook = i;
        break;
      }
    if (sameBook >= 0) {
      if (list[sameBook]!.decimal >= quote.decimal) continue;
      list.splice(sameBook, 1);
    }
    list.push(quote);
    list.sort(byBestQuote);
    // The line's best few, kept in place (the list is this call's own).
    if (list.length > BEST_PER_LINE) list.length = BEST_PER_LINE;
  }
  for (const [highLine, highs] of best.high) {
    for (const [lowLine, lows] of best.low) {
      if (!isMiddle(highLine, lowLine)) continue;
      for (const high of highs) {
        for (const low of lows) {
          if (high.book !== low.book) emit(high, low);
        }
      }
    }
  }
}

/** Higher decimal first, then the book's name. */
function byBestQuote(a: MiddleQuote, b: MiddleQuote): number {
  return b.decimal - a.decimal || (a.book < b.book ? -1 : 1);
}

function middleRow(
  event: OddsEvent,
  variable: MiddleVariable,
  centre: number,
  chances: MiddleChances,
  high: MiddleQuote,
  low: MiddleQuote,
  instant: number,
  knownId?: string,
  published: MiddleChances = publishedChances(chances),
  ev: number = middleEv(high.decimal, low.decimal, chances),
): LazyMiddleRow {
  // The same pair's id as before when the scan knows it (no string built and hashed again).
  const id =
    knownId ??
    `${event.id}|${variable === 'margin' ? 'spread' : 'total'}|full|${high.book}:${high.line}|${low.book}:${low.line}`;
  return new LazyMiddleRow(id, event, variable, instant, high, low, published, ev, centre);
}

/** The row with what its centre was estimated from, when a request chose other than the default. */
function withSource(row: LazyMiddleRow, source: CentreSource | undefined): LazyMiddleRow {
  row.source = source;
  return row;
}

/**
 * A middle as a class that keeps only what its answer needs (the event's record as it was judged, both quotes, the
 * published chances, the EV and the centre) and derives the rest (no copied field: the scan makes thousands of these
 * a second).
 */
export class LazyMiddleRow implements MiddleRow {
  /** The book slots of its two sides (the judge finds a pair's last row by them). */
  hs = -1;
  ls = -1;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces: MiddleRow | null | undefined = undefined;
  constructor(
    readonly id: string,
    /** The event's record when judged (a changed record is a new object). */
    readonly event: OddsEvent,
    readonly variable: RowVariable,
    readonly instant: number,
    readonly high: MiddleQuote,
    readonly low: MiddleQuote,
    readonly published: MiddleChances,
    /** EV as a fraction, full precision. */
    readonly ev: number,
    readonly centre: number,
    /** A prop middle's model (`propModelName`); a game's is its league's (`middleModel`). */
    readonly propModel?: 'prop-poisson' | 'prop-normal',
  ) {}
  /** What the centre was estimated from, when not the default (`MIDDLE_CENTRE_DEFAULT`). */
  source: CentreSource | undefined = undefined;
  get eventId(): string {
    return this.event.id;
  }
  get league(): string {
    return this.event.league;
  }
  get live(): boolean {
    return this.event.live;
  }
  get startsAt(): number {
    return this.event.startsAt;
  }
  get type(): string {
    return this.variable === 'margin' ? 'spread' : this.variable === 'stat' ? 'prop' : 'total';
  }
  get books(): readonly [SportsbookKey, SportsbookKey] {
    return [this.high.book, this.low.book];
  }
  get evPct(): number {
    return this.ev * 100;
  }
  get publishedEvPct(): number {
    return publishedPct(this.ev);
  }
  get probability(): number {
    return this.published.middle;
  }
  get pushHigh(): number {
    return this.published.pushHigh;
  }
  get pushLow(): number {
    return this.published.pushLow;
  }
}

/** A game's full-game spread and total markets (the sides middles pair). */
export function middleMarkets(state: EventState): MarketState[] {
  const markets: MarketState[] = [];
  for (const market of state.markets.values()) if (isMiddleMarket(market)) markets.push(market);
  return markets;
}

/** One book's line and chance of the high side by a choice's method (`referenceMedian` reads the book). */
interface BookEstimate {
  book: SportsbookKey;
  line: number;
  p: number;
}

/** A game's centre estimates per variable (grown as needed). */
let marginScratch: Float64Array = new Float64Array(64);
let totalScratch: Float64Array = new Float64Array(64);
/** Each default estimate's line and de-vigged chance of the high side (the same index), for the distributions' fit. */
let marginLines: Float64Array = new Float64Array(64);
let marginChances: Float64Array = new Float64Array(64);
let totalLines: Float64Array = new Float64Array(64);
let totalChances: Float64Array = new Float64Array(64);
/** Where each estimate's book and line are in the game's `estimates` (its fit is kept there). */
let marginAt: Int32Array = new Int32Array(64);
let totalAt: Int32Array = new Int32Array(64);
/** Per middle market and side (0 high, 1 low): its best two usable slots (-1: none). */
let bestScratch = new Int32Array(16);

function grown(values: Float64Array): Float64Array {
  const next = new Float64Array(values.length * 2);
  next.set(values);
  return next;
}

function grownInts(values: Int32Array): Int32Array {
  const next = new Int32Array(values.length * 2);
  next.set(values);
  return next;
}

/** Values per book and line in a game memo's `estimates` (`GameMemo.estimates`). */
const ESTIMATE_FIELDS = 5;

/**
 * The centre fitted from the book and line at `at` of the game's estimates (its prices are there): kept there with
 * the other centre's key (`distributionCentre` reads a total's held margin to its step, so the key is the step; a
 * margin's bracket reads the held total itself, so the key is the total), fitted again when the prices or the key
 * moved (NaN: the prices moved), from the fit kept before (decision 285: a centre near the answer). The same number
 * `distributionCentre` returns for them, without a key string made and looked up.
 */
function fittedAt(
  estimates: Float64Array,
  at: number,
  league: LeagueKey,
  variable: MiddleVariable,
  line: number,
  p: number,
  other: number,
): number {
  const key = variable === 'total' ? Math.round(other / CENTRE_STEP) : other;
  if (estimates[at + 3] === key) return estimates[at + 4]!;
  const fitted = distributionCentre(league, variable, line, p, other, estimates[at + 4]);
  estimates[at + 3] = key;
  estimates[at + 4] = fitted;
  return fitted;
}

/** The median of the first `length` values (sorted in place). */
function medianOf(values: Float64Array, length: number): number {
  insertionSort(values, length);
  const mid = length >> 1;
  return length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** The game's layout: its middle markets (in the store's order), their lines, σ and sides, and the pairs that can middle. */
function gameLayout(
  state: EventState,
  league: LeagueKey,
  memoOf: (market: MarketState) => MarketMemo,
  viewOf: (market: MarketState) => PriceView,
): GameLayout {
  const markets = middleMarkets(state);
  const count = markets.length;
  const prior = SGP_GAME_PRIORS[league];
  const layout: GameLayout = {
    markets,
    views: markets.map(viewOf),
    memos: markets.map(memoOf),
    spread: new Uint8Array(count),
    line: new Float64Array(count),
    sigma: new Float64Array(count),
    high: new Int8Array(count).fill(-1),
    low: new Int8Array(count).fill(-1),
    pairs: new Int32Array(0),
  };
  for (let m = 0; m < count; m += 1) {
    const market = markets[m]!;
    const spread = market.spec.type === 'spread';
    const point = (market.spec as GameMarketSpec).point!;
    layout.spread[m] = spread ? 1 : 0;
    layout.line[m] = spread ? -point + 0 : point;
    layout.sigma[m] = spread ? prior.sigmaMargin : prior.sigmaTotal;
    for (let o = 0; o < market.outcomes.length; o += 1) {
      const side = sideOf(market, o);
      if (side === 'high' && layout.high[m]! < 0) layout.high[m] = o;
      else if (side === 'low' && layout.low[m]! < 0) layout.low[m] = o;
    }
  }
  const pairs: number[] = [];
  for (let mh = 0; mh < count; mh += 1) {
    if (layout.high[mh]! < 0) continue;
    for (let ml = 0; ml < count; ml += 1) {
      if (layout.low[ml]! < 0 || layout.spread[ml] !== layout.spread[mh]) continue;
      if (isMiddleLines(layout.line[mh]!, layout.line[ml]!)) pairs.push(mh, ml);
    }
  }
  layout.pairs = Int32Array.from(pairs);
  return layout;
}

/**
 * Every middle of one game's full-game spreads and totals (decision 167), judged at `instant` from each market's view
 * (`viewOf`: by default the market itself, its newest prices; `pricesAt`: the versions at a horizon): per book and line
 * an estimate of the centre from its two prices (kept in the game's memo while they stay), the centres the medians of
 * those estimates (at least `minBooks` books a variable), the game's distributions at them, and every pair of two
 * books' opposite sides whose lines leave a gap (the best two books per line and side); a row the memo holds is kept
 * when nothing it shows moved. With `choice` (decision 206) each book's two prices are de-vigged by its method
 * (`highSideChance`) and the median is taken over its reference's estimates (`referenceMedian`), and each row names
 * where its centre came from: a memo serves one choice (the scan's the default; a board's other choices a memo made
 * for the judgement, `judgementMemo`). Returns the rows and sets `judged.validUntil` (the first used price to turn
 * stale; Infinity when the game has no centre); the game's rows are left to the caller.
 */
export function gameMiddles(
  event: OddsEvent,
  game: GameMemo,
  memoOf: (market: MarketState) => MarketMemo,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
  viewOf: (market: MarketState) => PriceView = ownPrices,
): MiddleRow[] {
  judged.validUntil = Infinity;
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return NO_ROWS;
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  // Whether the layout is built now while the game holds rows (not in `pairRows`: they are then looked up by id).
  let fresh = false;
  if (game.layout === undefined || game.marketCount !== game.state.markets.size) {
    fresh = game.rows.length > 0;
    game.layout = gameLayout(game.state, league, memoOf, viewOf);
    game.marketCount = game.state.markets.size;
    const pairs = game.layout.pairs.length >> 1;
    game.pairRows = new Array<LazyMiddleRow | undefined>(pairs * 4).fill(undefined);
    game.pairChances = new Array<MiddleChances | undefined>(pairs).fill(undefined);
    game.pairPublished = new Array<MiddleChances | undefined>(pairs).fill(undefined);
    game.pairCentres = new Float64Array(pairs * 2);
    game.estimates = new Float64Array(game.layout.markets.length * BOOK_COUNT * ESTIMATE_FIELDS).fill(
      Number.NaN,
    );
  }
  const layout = game.layout;
  const markets = layout.markets;
  const count = markets.length;
  if (bestScratch.length < count * 4) bestScratch = new Int32Array(count * 4);
  const best = bestScratch;
  let validUntil = Infinity;
  let marginBooks = 0;
  let totalBooks = 0;
  let marginCount = 0;
  let totalCount = 0;
  // With a choice: each estimate's book (`referenceMedian` picks the reference's), the method's chance of the high side.
  const chosen = choice && { margin: [] as BookEstimate[], total: [] as BookEstimate[] };
  for (let m = 0; m < count; m += 1) {
    const view = layout.views[m]!;
    const spread = layout.spread[m] === 1;
    const line = layout.line[m]!;
    const sigma = layout.sigma[m]!;
    const n = layout.memos[m]!.ways * BOOK_COUNT;
    const hot = view.hot;
    const at = view.at;
    const highOutcome = layout.high[m]!;
    const lowOutcome = layout.low[m]!;
    for (let i = 0; i < n; i += 1) {
      const decimal = hot[at + i]!;
      const updatedAt = hot[at + n + i]!;
      if (decimal !== 0 && instant - updatedAt <= maxAge && updatedAt + maxAge + 1 < validUntil)
        validUntil = updatedAt + maxAge + 1;
    }
    let h0 = -1;
    let h1 = -1;
    let l0 = -1;
    let l1 = -1;
    const estimates = game.estimates;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      let dh = 0;
      let dl = 0;
      if (highOutcome >= 0) {
        const i = highOutcome * BOOK_COUNT + slot;
        const d = hot[at + i]!;
        if (d !== 0 && instant - hot[at + n + i]! <= maxAge) dh = d;
      }
      if (lowOutcome >= 0) {
        const i = lowOutcome * BOOK_COUNT + slot;
        const d = hot[at + i]!;
        if (d !== 0 && instant - hot[at + n + i]! <= maxAge) dl = d;
      }
      // Best two per side: higher decimal first, then the lower slot (the book's key order).
      if (dh !== 0) {
        if (h0 < 0 || dh > hot[at + highOutcome * BOOK_COUNT + h0]!) {
          h1 = h0;
          h0 = slot;
        } else if (h1 < 0 || dh > hot[at + highOutcome * BOOK_COUNT + h1]!) h1 = slot;
      }
      if (dl !== 0) {
        if (l0 < 0 || dl > hot[at + lowOutcome * BOOK_COUNT + l0]!) {
          l1 = l0;
          l0 = slot;
        } else if (l1 < 0 || dl > hot[at + lowOutcome * BOOK_COUNT + l1]!) l1 = slot;
      }
      // The centre's estimate from this book's two prices of the line: the normal one (`line + σ·Φ⁻¹(p)`, p de-vigged
      // multiplicatively) holds the other variable while each is fitted under the league's distributions (decision
      // 284); with a choice, the book's line and its method's chance are kept for that fit.
      if (dh > 1 && dl > 1 && Number.isFinite(line)) {
        const at = (m * BOOK_COUNT + slot) * ESTIMATE_FIELDS;
        let estimate: number;
        if (estimates[at] === dh && estimates[at + 1] === dl) estimate = estimates[at + 2]!;
        else {
          estimate = line + sigma * normalQuantile(1 / dh / (1 / dh + 1 / dl));
          estimates[at] = dh;
          estimates[at + 1] = dl;
          estimates[at + 2] = estimate;
          // The fit kept for the old prices no longer holds (it stays as a centre near the next).
          estimates[at + 3] = Number.NaN;
        }
        // A book pricing both sides counts towards `minBooks` even when a choice's method leaves it no estimate.
        const p = chosen === undefined ? 1 / dh / (1 / dh + 1 / dl) : highSideChance(dh, dl, choice!.method);
        if (chosen !== undefined && p !== undefined)
          (spread ? chosen.margin : chosen.total).push({ book: BOOKS_BY_SLOT[slot]!, line, p });
        if (spread) {
          if (marginCount === marginScratch.length) {
            marginScratch = grown(marginScratch);
            marginLines = grown(marginLines);
            marginChances = grown(marginChances);
            marginAt = grownInts(marginAt);
          }
          marginAt[marginCount] = at;
          marginLines[marginCount] = line;
          marginChances[marginCount] = p ?? Number.NaN;
          marginScratch[marginCount++] = estimate;
          marginBooks |= 1 << slot;
        } else {
          if (totalCount === totalScratch.length) {
            totalScratch = grown(totalScratch);
            totalLines = grown(totalLines);
            totalChances = grown(totalChances);
            totalAt = grownInts(totalAt);
          }
          totalAt[totalCount] = at;
          totalLines[totalCount] = line;
          totalChances[totalCount] = p ?? Number.NaN;
          totalScratch[totalCount++] = estimate;
          totalBooks |= 1 << slot;
        }
      }
    }
    best[m * 4] = h0;
    best[m * 4 + 1] = h1;
    best[m * 4 + 2] = l0;
    best[m * 4 + 3] = l1;
  }
  let margin: number | undefined;
  let total: number | undefined;
  let sources: { margin?: CentreSource | undefined; total?: CentreSource | undefined } | undefined;
  // The normal estimates' median holds the margin while the total is fitted under the league's distributions, then
  // the margin is fitted at that total (decision 284); the reference model in tests/support does the same.
  const heldMargin = marginCount > 0 ? medianOf(marginScratch, marginCount) : 0;
  if (chosen === undefined) {
    if (popcount(totalBooks) >= minBooks) {
      for (let i = 0; i < totalCount; i += 1)
        totalScratch[i] = fittedAt(
          game.estimates,
          totalAt[i]!,
          league,
          'total',
          totalLines[i]!,
          totalChances[i]!,
          heldMargin,
        );
      total = medianOf(totalScratch, totalCount);
    }
    if (popcount(marginBooks) >= minBooks) {
      const heldTotal = total ?? defaultTotal(league);
      for (let i = 0; i < marginCount; i += 1)
        marginScratch[i] = fittedAt(
          game.estimates,
          marginAt[i]!,
          league,
          'margin',
          marginLines[i]!,
          marginChances[i]!,
          heldTotal,
        );
      margin = medianOf(marginScratch, marginCount);
    }
  } else {
    const fitted = (variable: 'margin' | 'total', of: readonly BookEstimate[], other: number) =>
      of.map((each) => ({
        book: each.book,
        value: distributionCentre(league, variable, each.line, each.p, other),
      }));
    const byTotal =
      popcount(totalBooks) >= minBooks
        ? referenceMedian(fitted('total', chosen.total, heldMargin), choice!)
        : undefined;
    const heldTotal = byTotal?.centre ?? defaultTotal(league);
    const byMargin =
      popcount(marginBooks) >= minBooks
        ? referenceMedian(fitted('margin', chosen.margin, heldTotal), choice!)
        : undefined;
    margin = byMargin?.centre;
    total = byTotal?.centre;
    sources = { margin: byMargin?.source, total: byTotal?.source };
  }
  judged.validUntil = validUntil;
  if (margin === undefined && total === undefined) {
    judged.validUntil = Infinity;
    game.pairRows.fill(undefined);
    settleQuotes(layout);
    return NO_ROWS;
  }
  const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
  // Every league's distributions depend on both centres (score-distributions.ts): kept while both stay.
  {
    const cached = game.distributions;
    if (
      cached.margin === undefined ||
      cached.margin.margin !== centres.margin ||
      cached.margin.total !== centres.total
    )
      game.distributions = {};
  }
  const pairs = layout.pairs;
  const pairRows = game.pairRows;
  const rows = rowsScratch as MiddleRow[];
  let held = 0;
  let unchanged = true;
  for (let p = 0; p < pairs.length >> 1; p += 1) {
    const mh = pairs[p * 2]!;
    const ml = pairs[p * 2 + 1]!;
    const spread = layout.spread[mh] === 1;
    const centre = spread ? margin : total;
    if (centre === undefined || best[mh * 4]! < 0 || best[ml * 4 + 2]! < 0) {
      for (let k = 0; k < 4; k += 1) pairRows[p * 4 + k] = undefined;
      continue;
    }
    const variable: MiddleVariable = spread ? 'margin' : 'total';
    const high = markets[mh]!;
    const low = markets[ml]!;
    const highLine = layout.line[mh]!;
    const lowLine = layout.line[ml]!;
    const highOutcome = layout.high[mh]!;
    const lowOutcome = layout.low[ml]!;
    const highMemo = layout.memos[mh]!;
    const lowMemo = layout.memos[ml]!;
    // One line pair's chances serve its (up to four) pairs of books, and are kept while the centres they depend on
    // stay (both: every league's distributions depend on the margin and the total).
    let chances = game.pairChances[p];
    let published = game.pairPublished[p];
    const keyA = centres.margin;
    const keyB = centres.total;
    if (chances === undefined || game.pairCentres[p * 2] !== keyA || game.pairCentres[p * 2 + 1] !== keyB) {
      chances = modelMiddleChances(
        league,
        variable,
        centres,
        highLine,
        lowLine,
        gameDistributionOf(game, league, centres, variable),
      );
      published = publishedChances(chances);
      game.pairChances[p] = chances;
      game.pairPublished[p] = published;
      game.pairCentres[p * 2] = keyA;
      game.pairCentres[p * 2 + 1] = keyB;
    }
    // This judgement's rows of the pair, then the positions (a, b) the last one left.
    let k = 0;
    const last0 = pairRows[p * 4];
    const last1 = pairRows[p * 4 + 1];
    const last2 = pairRows[p * 4 + 2];
    const last3 = pairRows[p * 4 + 3];
    for (let a = 0; a < 2; a += 1) {
      const hs = best[mh * 4 + a]!;
      if (hs < 0) continue;
      for (let b = 0; b < 2; b += 1) {
        const ls = best[ml * 4 + 2 + b]!;
        if (ls < 0 || ls === hs) continue;
        const highQuote = slotQuote(highMemo, high, layout.views[mh]!, highOutcome, highLine, hs);
        const lowQuote = slotQuote(lowMemo, low, layout.views[ml]!, lowOutcome, lowLine, ls);
        const ev = middleEv(highQuote.decimal, lowQuote.decimal, chances);
        // The last judgement's row of the same two books, wherever the books then ranked.
        const before =
          last0?.hs === hs && last0.ls === ls
            ? last0
            : last1?.hs === hs && last1.ls === ls
              ? last1
              : last2?.hs === hs && last2.ls === ls
                ? last2
                : last3?.hs === hs && last3.ls === ls
                  ? last3
                  : undefined;
        // A held row is kept when nothing it shows moved: the same quotes, the same published chances, EV and
        // centre, the same event record. Its full-precision EV and centre may lag by less than what is published.
        const row =
          before !== undefined &&
          before.high === highQuote &&
          before.low === lowQuote &&
          before.probability === published!.middle &&
          before.pushHigh === published!.pushHigh &&
          before.pushLow === published!.pushLow &&
          before.publishedEvPct === publishedPct(ev) &&
          roundTo(before.centre, 2) === roundTo(centre, 2) &&
          before.live === event.live &&
          before.startsAt === event.startsAt
            ? before
            : middleRow(
                event,
                variable,
                centre,
                chances,
                highQuote,
                lowQuote,
                instant,
                before?.id,
                published,
                ev,
              );
        if (sources !== undefined) row.source = sources[variable];
        row.hs = hs;
        row.ls = ls;
        // A new row replaces the pair's last row of the same books; none when the layout is this judgement's (the
        // game's rows are then looked up by id).
        if (row !== before) row.replaces = fresh ? undefined : (before ?? null);
        pairRows[p * 4 + k] = row;
        k += 1;
        if (unchanged && game.rows[held] !== row) unchanged = false;
        rows[held] = row;
        held += 1;
      }
    }
    for (; k < 4; k += 1) pairRows[p * 4 + k] = undefined;
  }
  settleQuotes(layout);
  if (held === 0) return NO_ROWS;
  if (unchanged && held === game.rows.length) return game.rows;
  return rows.slice(0, held);
}

/** The game's distribution of `variable` at its centres, computed once (both variables) while they stay. */
function gameDistributionOf(
  game: GameMemo,
  league: LeagueKey,
  centres: { margin: number; total: number },
  variable: MiddleVariable,
): IntegerDistribution {
  let kept = game.distributions[variable];
  if (kept === undefined) {
    const both = gameDistributions(league, centres);
    game.distributions.margin = { margin: centres.margin, total: centres.total, distribution: both.margin };
    game.distributions.total = { margin: centres.margin, total: centres.total, distribution: both.total };
    kept = game.distributions[variable]!;
  }
  return kept.distribution;
}

/**
 * The quote of a market's slot, kept in its memo while the price stays (a price's object is updated in place by the
 * store, so a quote copies it): one object serves every pair the price is a side of, scan after scan.
 */
function slotQuote(
  memo: MarketMemo,
  market: MarketState,
  view: PriceView,
  outcome: number,
  line: number,
  slot: number,
): MiddleQuote {
  const index = outcome * BOOK_COUNT + slot;
  const quotes = (memo.quotes ??= []);
  const held = quotes[index];
  const bit = index < 31 ? 1 << index : -1;
  if (held !== undefined && (memo.quoteDirty & bit) === 0) return held;
  // The price's columns (store.ts `MarketState.hot`), read without making an object of them.
  const hot = view.hot;
  const row = view.at + view.columns + index * PRICE_ROW;
  const decimal = hot[row]!;
  const american = hot[row + 1]!;
  const updatedAt = hot[view.at + view.cells + index]!;
  const links = view.links[index]!;
  const quote =
    held !== undefined &&
    held.decimal === decimal &&
    held.american === american &&
    held.updatedAt === updatedAt &&
    held.desktop === links.desktop &&
    held.mobile === links.mobile
      ? held
      : {
          market,
          outcome,
          line,
          book: BOOKS_BY_SLOT[slot]!,
          decimal: decimal as DecimalOdds,
          american: american as AmericanOdds,
          updatedAt,
          desktop: links.desktop,
          mobile: links.mobile,
        };
  quotes[index] = quote;
  if (bit !== -1) memo.quoteDirty &= ~bit;
  return quote;
}

/**
 * After a game's judgement: the quotes of slots that took a new price and were not read again are dropped (the next
 * judgement that needs them makes them anew), and every slot's bit is clear.
 */
function settleQuotes(layout: GameLayout): void {
  for (const memo of layout.memos) {
    const dirty = memo.quoteDirty;
    if (dirty === 0) continue;
    memo.quoteDirty = 0;
    const quotes = memo.quotes;
    if (quotes === undefined) continue;
    if (dirty === -1) quotes.length = 0;
    else for (let index = 0; index < 31; index += 1) if (dirty & (1 << index)) quotes[index] = undefined;
  }
}
