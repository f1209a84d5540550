import { floorTo } from '#domain/arbitrage.ts';
import { toEventDto, toPlayerDto } from '#domain/event-dto.ts';
import {
  EV_METHOD,
  EV_MIN_BOOKS,
  EV_REFERENCE,
  marketEv,
  type EvChoice,
  type MarketFair,
  publishedEvPct,
  publishedFairProbability,
  type EvQuote,
} from '#domain/ev.ts';
import { specLabel, specOutcomeLabel } from '#domain/market-labels.ts';
import { LEAGUES, type GameMarketSpec, type LeagueKey, type OddsEvent } from '#domain/markets.ts';
import {
  DEFAULT_CENTRE_SOURCE,
  isMiddle,
  isMiddleLines,
  marketCentre,
  marketCentreBy,
  type CentreChoice,
  type CentreSource,
  modelMiddleChances,
  middleEv,
  middleGap,
  middleModel,
  middleReturns,
  middleStakesCents,
  MIDDLE_MIN_BOOKS,
  publishedChances,
  publishedPct,
  type IntegerDistribution,
  type LineQuote,
  type MiddleChances,
  type MiddleVariable,
} from '#domain/middles.ts';
import { shinInto } from '#domain/devig.ts';
import {
  propCentre,
  propCentreBy,
  propMiddleChances,
  propModelName,
  propStatModel,
  type PropLineQuote,
  type PropStatModel,
} from '#domain/prop-middles.ts';
import { propStatLabel, type PropMarketSpec } from '#domain/props.ts';
import { normalQuantile } from '#domain/mvn.ts';
import {
  formatAmerican,
  formatAmericanAtMost,
  roundTo,
  type AmericanOdds,
  type DecimalOdds,
} from '#domain/odds.ts';
import type { EvPriceDto } from '#domain/schemas/api/ev.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import { gameDistributions } from '#domain/score-distributions.ts';
import { SGP_GAME_PRIORS } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { isUsable, type ScanOptions } from './scanner.ts';
import {
  BOOK_COUNT,
  BOOKS_BY_SLOT,
  PRICE_ROW,
  priceAt,
  pricesOf,
  type EventState,
  type MarketState,
  type OddsStore,
  type StoredPrice,
} from './store.ts';

// Positive EV (decision 163) and middles (decision 167) of one market or one event, and their incremental scan beside
// the arbitrage scan (decision 170). The boards of the REST routes (src/server/ev/board.ts,
// src/server/middles/board.ts) judge markets with the same functions, on request and at any horizon; the engine's
// `ValueScanner` keeps the real-time sets up to date on every tick, judging again only what changed:
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

type AgeLimits = Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>;

/** What a middle's lines are on: a game's margin or total, or a player's stat (a prop middle). */
type RowVariable = MiddleVariable | 'stat';

// ---------------------------------------------------------------------------------------------------------------
// Positive EV of one market.

/** One positive-EV price: the answer's DTO (built on first read), with what the filters and the stream read. */
export interface EvRow {
  /** `market|outcome|book`: the same price keeps it while it lasts. */
  id: string;
  readonly dto: EvPriceDto;
  /** The market of the price (its spec and player, for the stream's filters). */
  market: MarketState;
  eventId: string;
  league: string;
  live: boolean;
  type: string;
  book: SportsbookKey;
  /** EV in percent, full precision. */
  evPct: number;
  /** The price's book time (its age is counted from it). */
  updatedAt: number;
  /** What the stream compares (`evRowChanged`). */
  decimal: number;
  american: number;
  desktop: string | null;
  mobile: string | null;
  fairProbability: number;
  fairBooks: number;
  startsAt: number;
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

/** One positive-EV row: the price's fields copied (the store updates a price's object in place), its DTO built on first read. */
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
): LazyEvRow {
  const book = version.book;
  const american = version.american;
  const decimal = version.decimal;
  const updatedAt = version.updatedAt;
  const desktop = version.links.desktop;
  const mobile = version.links.mobile;
  const build = (): EvPriceDto => {
    const outcome = market.outcomes[outcomeIndex]!;
    return {
      id: `${market.key}|${outcome}|${book}`,
      event: toEventDto(event),
      market: {
        key: market.key,
        type: market.spec.type,
        period: market.spec.period,
        point: market.spec.point,
        label: specLabel(market.spec, market.player),
      },
      outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
      book,
      price: {
        american: formatAmerican(american),
        decimal,
        updated_at: new Date(updatedAt).toISOString(),
        age_seconds: Math.max(0, Math.floor((instant - updatedAt) / 1000)),
        links: { desktop, mobile },
      },
      fair: {
        probability: publishedFairProbability(fairProbability),
        decimal: floorTo(1 / fairProbability, 4),
        american: formatAmericanAtMost(1 / fairProbability),
        books,
        method: source?.method ?? EV_METHOD,
        reference: source?.reference ?? EV_REFERENCE,
        reference_fallback: source?.fallback ?? null,
      },
      ev_pct: publishedEvPct(decimal, fairProbability),
    };
  };
  const row = new LazyEvRow(build);
  // The same price's id as before when the scan knows it (no string built and hashed again).
  row.id = knownId ?? `${market.key}|${market.outcomes[outcomeIndex]!}|${book}`;
  row.market = market;
  row.eventId = event.id;
  row.league = event.league;
  row.live = event.live;
  row.type = market.spec.type;
  row.book = book;
  row.evPct = evPct;
  row.updatedAt = updatedAt;
  row.decimal = decimal;
  row.american = american;
  row.desktop = desktop;
  row.mobile = mobile;
  row.fairProbability = fairProbability;
  row.fairBooks = books;
  row.startsAt = event.startsAt;
  return row;
}

/**
 * A row with its DTO built on first read: a class, so that the getter is the prototype's (an object literal with a
 * getter defines it on every row, which costs more than the rest of the row).
 */
class LazyEvRow implements EvRow {
  id = '';
  market!: MarketState;
  eventId = '';
  league = '';
  live = false;
  type = '';
  book = '' as SportsbookKey;
  evPct = 0;
  updatedAt = 0;
  decimal = 0;
  american = 0;
  desktop: string | null = null;
  mobile: string | null = null;
  fairProbability = 0;
  fairBooks = 0;
  startsAt = 0;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces: EvRow | null | undefined = undefined;
  private built: EvPriceDto | undefined;
  constructor(private readonly build: () => EvPriceDto) {}
  get dto(): EvPriceDto {
    return (this.built ??= this.build());
  }
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

// ---------------------------------------------------------------------------------------------------------------
// Middles of one game.

/** A usable price, its fields copied (the store updates a price's object in place; a row may be read later). */
export interface MiddleQuote {
  market: MarketState;
  outcome: number;
  /** The line on the variable. */
  line: number;
  book: SportsbookKey;
  decimal: DecimalOdds;
  american: AmericanOdds;
  updatedAt: number;
  desktop: string | null;
  mobile: string | null;
}

export interface MiddleRow {
  id: string;
  /** The answer's DTO, built on first read (most rows are never answered). */
  readonly dto: MiddleDto;
  eventId: string;
  league: string;
  live: boolean;
  type: string;
  books: readonly [SportsbookKey, SportsbookKey];
  /** EV in percent, full precision, and as published. */
  evPct: number;
  publishedEvPct: number;
  /** The chance of the gap as published. */
  probability: number;
  /** The two sides, the distribution's centre, the push chances and the start (what the stream compares). */
  high: MiddleQuote;
  low: MiddleQuote;
  centre: number;
  pushHigh: number;
  pushLow: number;
  startsAt: number;
}

/** Per line and side, the best prices of this many distinct books are paired (two: so a pair can avoid one book). */
const BEST_PER_LINE = 2;
const STAKE_EXAMPLE_CENTS = 10_000;

/** Whether a market can be a side of a middle: a full-game spread or total with a point. */
export function isMiddleMarket(market: MarketState): boolean {
  const spec = market.spec;
  return spec.period === 'full' && (spec.type === 'spread' || spec.type === 'total') && spec.point !== null;
}

/**
 * Every middle of one game as visible at `at` (undefined: the newest prices), judged at `instant`, from its full-game
 * spread and total markets; and until when they hold (the first used price to turn stale; Infinity when the game has
 * no centre, which losing prices cannot give it).
 */
export function eventMiddles(
  store: OddsStore,
  event: OddsEvent,
  markets: readonly MarketState[],
  at: number | undefined,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
): { rows: MiddleRow[]; validUntil: number } {
  const rows: MiddleRow[] = [];
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return { rows, validUntil: Infinity };
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes = { spread: [] as MiddleQuote[], total: [] as MiddleQuote[] };
  let validUntil = Infinity;
  for (const market of markets) {
    const type = market.spec.type as 'spread' | 'total';
    const until = usableQuotes(
      store,
      market,
      type === 'spread' ? 'margin' : 'total',
      at,
      instant,
      maxAge,
      quotes[type],
    );
    if (until < validUntil) validUntil = until;
  }
  // A centre choice other than the default (`MIDDLE_CENTRE_DEFAULT`) says where each centre came from.
  const by = choice && {
    margin: marketCentreBy(league, 'margin', lineQuotes(quotes.spread), choice, minBooks),
    total: marketCentreBy(league, 'total', lineQuotes(quotes.total), choice, minBooks),
  };
  const margin = by ? by.margin?.centre : marketCentre(league, 'margin', lineQuotes(quotes.spread), minBooks);
  const total = by ? by.total?.centre : marketCentre(league, 'total', lineQuotes(quotes.total), minBooks);
  if (margin === undefined && total === undefined) return { rows, validUntil: Infinity };
  const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
  // The game's distributions are computed once, and only when a pair needs them.
  let both: ReturnType<typeof gameDistributions> | undefined;
  for (const [type, variable, centre] of [
    ['spread', 'margin', margin],
    ['total', 'total', total],
  ] as const) {
    if (centre === undefined) continue;
    pairs(quotes[type], (high, low) => {
      const chances = modelMiddleChances(
        league,
        variable,
        centres,
        high.line,
        low.line,
        (both ??= gameDistributions(league, centres))[variable],
      );
      const row = middleRow(event, variable, centre, chances, high, low, instant);
      rows.push(by ? withSource(row, by[variable]?.source) : row);
    });
  }
  return { rows, validUntil };
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
 * Every middle of one prop family (`propFamilyKey`: one player, stat and period, the markets its lines) as visible at
 * `at` (undefined: the newest prices), judged at `instant`; and until when they hold, as `eventMiddles`.
 */
export function propFamilyMiddles(
  store: OddsStore,
  event: OddsEvent,
  markets: readonly MarketState[],
  at: number | undefined,
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
    const until = usableQuotes(store, market, 'total', at, instant, maxAge, quotes);
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

/** An event's player-prop middles, family by family (what the REST board and the tests recompute). */
export function eventPropMiddles(
  store: OddsStore,
  event: OddsEvent,
  markets: readonly MarketState[],
  at: number | undefined,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
): MiddleRow[] {
  const rows: MiddleRow[] = [];
  for (const family of propFamilies(markets).values())
    for (const row of propFamilyMiddles(store, event, family, at, instant, limits, minBooks, choice).rows)
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

/** Adds the market's usable quotes to `out`; returns when the first of them turns stale. */
function usableQuotes(
  store: OddsStore,
  market: MarketState,
  variable: MiddleVariable,
  at: number | undefined,
  instant: number,
  maxAge: number,
  out: MiddleQuote[],
): number {
  const point = (market.spec as GameMarketSpec).point!;
  const line = variable === 'margin' ? -point + 0 : point;
  let validUntil = Infinity;
  market.quoted.forEach((_, outcome) => {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
      out.push({
        market,
        outcome,
        line,
        book: version.book,
        decimal: version.decimal,
        american: version.american,
        updatedAt: version.updatedAt,
        desktop: version.links.desktop,
        mobile: version.links.mobile,
      });
    }
  });
  return validUntil;
}

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
    const list = best[side].get(quote.line) ?? [];
    const sameBook = list.findIndex((q) => q.book === quote.book);
    if (sameBook >= 0) {
      if (list[sameBook]!.decimal >= quote.decimal) continue;
      list.splice(sameBook, 1);
    }
    list.push(quote);
    list.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
    best[side].set(quote.line, list.slice(0, BEST_PER_LINE));
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
 * A middle with its DTO built on first read: a class that keeps only what the DTO needs (the event's record as it was
 * judged, both quotes, the published chances, the EV and the centre) and derives the rest (no closure a row, no
 * copied field: the scan makes thousands of these a second).
 */
class LazyMiddleRow implements MiddleRow {
  /** The book slots of its two sides (the hot judge finds a pair's last row by them). */
  hs = -1;
  ls = -1;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces: MiddleRow | null | undefined = undefined;
  private built: MiddleDto | undefined;
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
  get dto(): MiddleDto {
    return (this.built ??= middleDto(this));
  }
}

function middleDto(row: LazyMiddleRow): MiddleDto {
  const { event, variable, instant, published, ev } = row;
  const league = event.league as LeagueKey;
  const { high, low } = row;
  const dh = high.decimal;
  const dl = low.decimal;
  const returns = middleReturns(dh, dl);
  const gap = middleGap(high.line, low.line);
  const [highCents, lowCents] = middleStakesCents(STAKE_EXAMPLE_CENTS, dh, dl);
  const returnsPct = {
    middle: publishedPct(returns.hit),
    push_high: publishedPct(returns.pushHigh),
    push_low: publishedPct(returns.pushLow),
    miss: publishedPct(returns.miss),
  };
  const spec = high.market.spec;
  const player = high.market.player;
  const market: MiddleDto['market'] =
    spec.type === 'prop'
      ? {
          type: 'prop',
          period: spec.period,
          variable: 'stat',
          stat: spec.stat,
          label: propStatLabel(player ?? { name: spec.playerId }, spec),
          player: toPlayerDto(player ?? { id: spec.playerId, name: spec.playerId, team: '' }, event),
        }
      : {
          type: row.type as 'spread' | 'total',
          period: 'full',
          variable: variable as MiddleVariable,
          label: row.type === 'spread' ? 'Spread' : 'Total',
        };
  return {
    id: row.id,
    event: toEventDto(event),
    market,
    high: middleSide(event, high, instant, returns.stakeShareHigh),
    low: middleSide(event, low, instant, 1 - returns.stakeShareHigh),
    gap: { from: gap[0]!, to: gap[gap.length - 1]! },
    pushes: {
      high: Number.isInteger(high.line) ? high.line : null,
      low: Number.isInteger(low.line) ? low.line : null,
    },
    probability: {
      middle: published.middle,
      push_high: published.pushHigh,
      push_low: published.pushLow,
      miss: published.miss,
    },
    returns_pct: returnsPct,
    worst_case_pct: Math.min(returnsPct.middle, returnsPct.push_high, returnsPct.push_low, returnsPct.miss),
    ev_pct: publishedPct(ev),
    stakes: { total_cents: STAKE_EXAMPLE_CENTS, high_cents: highCents, low_cents: lowCents },
    model: row.propModel ?? middleModel(league),
    centre: roundTo(row.centre, 2),
    centre_from: centreFrom(row.source ?? DEFAULT_CENTRE_SOURCE),
  };
}

const centreFrom = (source: CentreSource): MiddleDto['centre_from'] => ({
  method: source.method,
  reference: source.reference,
  reference_fallback: source.fallback,
});

function middleSide(event: OddsEvent, quote: MiddleQuote, instant: number, share: number): MiddleDto['high'] {
  const { market } = quote;
  const outcome = market.outcomes[quote.outcome]!;
  return {
    book: quote.book,
    market_key: market.key,
    point: (market.spec as GameMarketSpec).point!,
    outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
    line: quote.line,
    price: {
      american: formatAmerican(quote.american),
      decimal: quote.decimal,
      updated_at: new Date(quote.updatedAt).toISOString(),
      age_seconds: Math.max(0, Math.floor((instant - quote.updatedAt) / 1000)),
      links: { desktop: quote.desktop, mobile: quote.mobile },
    },
    stake_share: roundTo(share, 6),
  };
}

/** A game's full-game spread and total markets (the sides middles pair). */
export function middleMarkets(state: EventState): MarketState[] {
  const markets: MarketState[] = [];
  for (const market of state.markets.values()) if (isMiddleMarket(market)) markets.push(market);
  return markets;
}

// ---------------------------------------------------------------------------------------------------------------
// The incremental scan.

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

/** An empty row list, shared (never written). */
const NO_ROWS: never[] = [];

/**
 * What the scanner remembers of a market between judgements, kept on the market (`valueMemo`): the positive-EV rows
 * it holds in the set (exactly those, with their price slots, to keep a row's object when nothing it shows changed),
 * the consensus medians and their fair probabilities (Shin's solve is skipped when the medians did not move), and per
 * book slot the last centre estimate and quote of a middle market's line.
 */
interface MarketMemo {
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
  /** Whether its rows came from `judgeEv` (their slots unknown: the next judgement looks their ids up). */
  lookup: boolean;
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
interface GameLayout {
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
interface GameMemo {
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
interface FamilyMemo {
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
type MiddleOwner = GameMemo | FamilyMemo;

interface CachedDistribution {
  margin: number;
  total: number;
  distribution: IntegerDistribution;
}

/** Scratch arrays of the fast judges (the scan is synchronous: one set serves every judgement). */
let usableScratch = new Float64Array(4 * BOOK_COUNT);
const columnScratch = new Float64Array(BOOK_COUNT);
let mediansScratch = new Float64Array(4);
/** Each side's best usable price, and the fair probabilities of a judgement. */
let mostScratch = new Float64Array(4);
let fairScratch = new Float64Array(4);
/** A game's centre estimates per variable (grown as needed). */
let marginScratch: Float64Array = new Float64Array(64);
let totalScratch: Float64Array = new Float64Array(64);
/** Per middle market and side (0 high, 1 low): its best two usable slots (-1: none). */
let bestScratch = new Int32Array(16);
/**
 * The rows (and EV slots) a hot judge finds, before it knows whether they are the held ones: a new array is made only
 * when they are not (most judgements of a quiet market, and many of a busy one, keep every row).
 */
const rowsScratch: (EvRow | MiddleRow)[] = [];
const slotsScratch: number[] = [];
/** What a hot judge hands back beside its rows: until when they hold, and (EV) their price slots. */
const judged = { validUntil: Infinity, slots: NO_ROWS as number[] };

function insertionSort(values: Float64Array, length: number): void {
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

/**
 * `judgeEv` of the newest prices (at undefined), read from the market's hot block (decimals and book times) into
 * scratch arrays, with Shin's solve skipped when the consensus medians did not move and a held row kept when nothing it
 * shows changed: the same rows (values.test.ts compares them on every scan). Returns the rows (the memo's own list when
 * every row was kept, in order) and sets `judged`; undefined when the fair is outside what `judgeEv` accepts (it throws
 * there; the caller asks it). The memo's rows are left to the caller.
 */
function judgeEvHot(
  market: MarketState,
  instant: number,
  limits: AgeLimits,
  memo: MarketMemo,
  minBooks = EV_MIN_BOOKS,
): EvRow[] | undefined {
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
    if (!(p > 0 && p <= 1)) return undefined;
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
    if (!(fairProbability > 0 && fairProbability <= 1)) return undefined;
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
      made.replaces = memo.lookup ? undefined : previous;
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

function grown(values: Float64Array): Float64Array {
  const next = new Float64Array(values.length * 2);
  next.set(values);
  return next;
}

/** The median of the first `length` values (sorted in place). */
function medianOf(values: Float64Array, length: number): number {
  insertionSort(values, length);
  const mid = length >> 1;
  return length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

function popcount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count += 1;
  return count;
}

/** The game's layout: its middle markets (in the store's order), their lines, σ and sides, and the pairs that can middle. */
function gameLayout(
  state: EventState,
  league: LeagueKey,
  memoOf: (market: MarketState) => MarketMemo,
): GameLayout {
  const markets = middleMarkets(state);
  const count = markets.length;
  const prior = SGP_GAME_PRIORS[league];
  const layout: GameLayout = {
    markets,
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
 * `eventMiddles` of the newest prices, read from the markets' hot blocks: no quote objects, each book's centre
 * estimate kept while its two prices stay, the chances kept while the centres stay, and a held row kept when neither
 * side's price nor the published chances changed. The same rows (values.test.ts compares them on every scan). Returns
 * the rows and sets `judged.validUntil`; the game's rows are left to the caller.
 */
function eventMiddlesHot(
  event: OddsEvent,
  game: GameMemo,
  memoOf: (market: MarketState) => MarketMemo,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
): MiddleRow[] {
  judged.validUntil = Infinity;
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return NO_ROWS;
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  // Whether the layout is built now while the game holds rows (not in `pairRows`: they are then looked up by id).
  let fresh = false;
  if (game.layout === undefined || game.marketCount !== game.state.markets.size) {
    fresh = game.rows.length > 0;
    game.layout = gameLayout(game.state, league, memoOf);
    game.marketCount = game.state.markets.size;
    const pairs = game.layout.pairs.length >> 1;
    game.pairRows = new Array<LazyMiddleRow | undefined>(pairs * 4).fill(undefined);
    game.pairChances = new Array<MiddleChances | undefined>(pairs).fill(undefined);
    game.pairPublished = new Array<MiddleChances | undefined>(pairs).fill(undefined);
    game.pairCentres = new Float64Array(pairs * 2);
    game.estimates = new Float64Array(game.layout.markets.length * BOOK_COUNT * 3);
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
  for (let m = 0; m < count; m += 1) {
    const market = markets[m]!;
    const spread = layout.spread[m] === 1;
    const line = layout.line[m]!;
    const sigma = layout.sigma[m]!;
    const n = layout.memos[m]!.ways * BOOK_COUNT;
    const hot = market.hot;
    const at = market.at;
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
      // The centre's estimate from this book's two prices of the line.
      if (dh > 1 && dl > 1 && Number.isFinite(line)) {
        const at = (m * BOOK_COUNT + slot) * 3;
        let estimate: number;
        if (estimates[at] === dh && estimates[at + 1] === dl) estimate = estimates[at + 2]!;
        else {
          const p = 1 / dh / (1 / dh + 1 / dl);
          estimate = line + sigma * normalQuantile(p);
          estimates[at] = dh;
          estimates[at + 1] = dl;
          estimates[at + 2] = estimate;
        }
        if (spread) {
          if (marginCount === marginScratch.length) marginScratch = grown(marginScratch);
          marginScratch[marginCount++] = estimate;
          marginBooks |= 1 << slot;
        } else {
          if (totalCount === totalScratch.length) totalScratch = grown(totalScratch);
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
  const margin = popcount(marginBooks) >= minBooks ? medianOf(marginScratch, marginCount) : undefined;
  const total = popcount(totalBooks) >= minBooks ? medianOf(totalScratch, totalCount) : undefined;
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
        const highQuote = slotQuote(highMemo, high, highOutcome, highLine, hs);
        const lowQuote = slotQuote(lowMemo, low, lowOutcome, lowLine, ls);
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
  const hot = market.hot;
  const row = market.at + market.columns + index * PRICE_ROW;
  const decimal = hot[row]!;
  const american = hot[row + 1]!;
  const updatedAt = hot[market.at + market.cells + index]!;
  const links = market.links[index]!;
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
      memo = {
        generation: this.generation,
        sequence: (this.sequence += 1),
        market,
        middle: isMiddleMarket(market),
        index: -1,
        dirty: false,
        gone: false,
        rows: NO_ROWS,
        slots: NO_ROWS,
        lookup: false,
        fitWays: 0,
        m0: 0,
        m1: 0,
        m2: 0,
        f0: 0,
        f1: 0,
        f2: 0,
        live: market.owner.event.live,
        startsAt: market.owner.event.startsAt,
        ways: market.outcomes.length,
        quoteDirty: 0,
        quotes: undefined,
        family: undefined,
      };
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
  scan(store: OddsStore, now: number): ValueChanges | undefined {
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
      let lookup = false;
      // A market that left the store was dropped (`drop`, `reset`): its memo says so, no event record is read.
      if (memo.gone || memo.generation !== this.generation) {
        rows = NO_ROWS;
        slots = NO_ROWS;
        until = Infinity;
      } else {
        const hot = judgeEvHot(market, now, this.limits, memo);
        if (hot !== undefined) {
          rows = hot;
          slots = judged.slots;
          until = judged.validUntil;
        } else {
          const slow = judgeEv(store, market.owner.event, market, undefined, now, this.limits);
          rows = slow.rows;
          slots = rows.map(() => -1);
          until = slow.validUntil;
          lookup = true;
        }
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
      memo.lookup = lookup;
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
        const family = propFamilyMiddles(store, state.event, game.markets, undefined, now, this.limits);
        rows = family.rows;
        until = family.validUntil;
      } else {
        rows = eventMiddlesHot(state.event, game, this.memoOf, now, this.limits);
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
      game = {
        kind: 'game',
        generation: this.generation,
        sequence: (this.sequence += 1),
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
