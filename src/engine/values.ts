import { floorTo } from '#domain/arbitrage.ts';
import { toEventDto } from '#domain/event-dto.ts';
import {
  EV_METHOD,
  EV_MIN_BOOKS,
  EV_REFERENCE,
  marketEv,
  publishedEvPct,
  publishedFairProbability,
  type EvQuote,
} from '#domain/ev.ts';
import { specLabel, specOutcomeLabel } from '#domain/market-labels.ts';
import { LEAGUES, type GameMarketSpec, type LeagueKey, type OddsEvent } from '#domain/markets.ts';
import {
  isMiddle,
  isMiddleLines,
  marketCentre,
  modelMiddleChances,
  middleEv,
  middleGap,
  middleModel,
  middleReturns,
  middleStakesCents,
  MIDDLE_MIN_BOOKS,
  nflCalibratedDistributions,
  publishedChances,
  publishedPct,
  type IntegerDistribution,
  type LineQuote,
  type MiddleChances,
  type MiddleVariable,
} from '#domain/middles.ts';
import { shinInto } from '#domain/devig.ts';
import { normalQuantile } from '#domain/mvn.ts';
import { formatAmerican, formatAmericanAtMost, roundTo } from '#domain/odds.ts';
import type { EvPriceDto } from '#domain/schemas/api/ev.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import { SGP_GAME_PRIORS } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { isUsable, type ScanOptions } from './scanner.ts';
import { BOOK_COUNT, type EventState, type MarketState, type OddsStore, type StoredPrice } from './store.ts';

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
// The sets are keyed by stable ids (a price's `market|outcome|book`, a pair's event, type, books and lines), and each
// scan reports what was added or changed and what was removed: the stream's `ev`/`ev_removed` and
// `middle`/`middle_removed` events.

type AgeLimits = Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>;

// ---------------------------------------------------------------------------------------------------------------
// Positive EV of one market.

/** One positive-EV price: the answer's DTO (built on first read), with what the filters and the stream read. */
export interface EvRow {
  /** `market|outcome|book`: the same price keeps it while it lasts. */
  id: string;
  readonly dto: EvPriceDto;
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
): EvJudgement {
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes: (EvQuote<SportsbookKey> & { version: StoredPrice })[] = [];
  let validUntil = Infinity;
  const ways = market.outcomes.length;
  for (let outcome = 0; outcome < ways; outcome += 1) {
    for (const newest of market.prices[outcome]!.values()) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      quotes.push({ book: version.book, outcome, decimal: version.decimal, version });
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
    }
  }
  if (quotes.length < minBooks * 2) return NO_EV;
  const { fair, prices } = marketEv(quotes, ways, { minBooks });
  if (!fair) return NO_EV;
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
): EvRow {
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
        method: EV_METHOD,
        reference: EV_REFERENCE,
      },
      ev_pct: publishedEvPct(decimal, fairProbability),
    };
  };
  const row = new LazyEvRow(build);
  row.id = `${market.key}|${market.outcomes[outcomeIndex]!}|${book}`;
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
  version: Pick<StoredPrice, 'book' | 'decimal' | 'american' | 'updatedAt'> & {
    links: { desktop: string | null; mobile: string | null };
  };
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
  const margin = marketCentre(league, 'margin', lineQuotes(quotes.spread), minBooks);
  const total = marketCentre(league, 'total', lineQuotes(quotes.total), minBooks);
  if (margin === undefined && total === undefined) return { rows, validUntil: Infinity };
  const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
  // The NFL's distributions are computed once per game, and only when a pair needs them; the other leagues' chances
  // are in closed form.
  let nfl: ReturnType<typeof nflCalibratedDistributions> | undefined;
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
        league === 'nfl'
          ? (nfl ??= nflCalibratedDistributions(centres.margin, centres.total))[variable]
          : undefined,
      );
      rows.push(middleRow(event, type, variable, centre, league, chances, high, low, instant));
    });
  }
  return { rows, validUntil };
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
    a.version.decimal !== b.version.decimal ||
    a.version.american !== b.version.american ||
    a.version.links.desktop !== b.version.links.desktop ||
    a.version.links.mobile !== b.version.links.mobile
  );
}

/** Without a total market the NFL drive model takes the league's typical total (the SGP model's prior). */
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
  market.prices.forEach((byBook, outcome) => {
    for (const newest of byBook.values()) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
      out.push({
        market,
        outcome,
        line,
        version: {
          book: version.book,
          decimal: version.decimal,
          american: version.american,
          updatedAt: version.updatedAt,
          links: { desktop: version.links.desktop, mobile: version.links.mobile },
        },
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
    const key = `${quote.version.book}|${quote.line}`;
    let entry = byBookLine.get(key);
    if (!entry)
      byBookLine.set(key, (entry = { book: quote.version.book, line: quote.line, high: 0, low: 0 }));
    entry[side] = quote.version.decimal;
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
    const sameBook = list.findIndex((q) => q.version.book === quote.version.book);
    if (sameBook >= 0) {
      if (list[sameBook]!.version.decimal >= quote.version.decimal) continue;
      list.splice(sameBook, 1);
    }
    list.push(quote);
    list.sort((a, b) => b.version.decimal - a.version.decimal || (a.version.book < b.version.book ? -1 : 1));
    best[side].set(quote.line, list.slice(0, BEST_PER_LINE));
  }
  for (const [highLine, highs] of best.high) {
    for (const [lowLine, lows] of best.low) {
      if (!isMiddle(highLine, lowLine)) continue;
      for (const high of highs) {
        for (const low of lows) {
          if (high.version.book !== low.version.book) emit(high, low);
        }
      }
    }
  }
}

function middleRow(
  event: OddsEvent,
  type: 'spread' | 'total',
  variable: MiddleVariable,
  centre: number,
  league: LeagueKey,
  chances: MiddleChances,
  high: MiddleQuote,
  low: MiddleQuote,
  instant: number,
  knownId?: string,
  published: MiddleChances = publishedChances(chances),
  ev: number = middleEv(high.version.decimal, low.version.decimal, chances),
): MiddleRow {
  const row = new LazyMiddleRow(event, variable, league, instant, high, low, published, ev);
  // The same pair's id as before when the scan knows it (no string built and hashed again).
  row.id =
    knownId ?? `${event.id}|${type}|full|${high.version.book}:${high.line}|${low.version.book}:${low.line}`;
  row.eventId = event.id;
  row.league = event.league;
  row.live = event.live;
  row.type = type;
  row.books = [high.version.book, low.version.book];
  row.evPct = ev * 100;
  row.publishedEvPct = publishedPct(ev);
  row.probability = published.middle;
  row.centre = centre;
  row.pushHigh = published.pushHigh;
  row.pushLow = published.pushLow;
  row.startsAt = event.startsAt;
  return row;
}

/**
 * A middle with its DTO built on first read: a class whose fields hold what the DTO needs (no closure a row: a
 * closure and its context cost more than the rest of the row).
 */
class LazyMiddleRow implements MiddleRow {
  id = '';
  eventId = '';
  league = '';
  live = false;
  type = '';
  books: readonly [SportsbookKey, SportsbookKey] = ['' as SportsbookKey, '' as SportsbookKey];
  evPct = 0;
  publishedEvPct = 0;
  probability = 0;
  centre = 0;
  pushHigh = 0;
  pushLow = 0;
  startsAt = 0;
  private built: MiddleDto | undefined;
  constructor(
    private readonly event: OddsEvent,
    private readonly variable: MiddleVariable,
    private readonly leagueKey: LeagueKey,
    private readonly instant: number,
    readonly high: MiddleQuote,
    readonly low: MiddleQuote,
    private readonly published: MiddleChances,
    private readonly ev: number,
  ) {}
  get dto(): MiddleDto {
    return (this.built ??= middleDto(this));
  }
  /** The fields `middleDto` reads. */
  get parts() {
    return {
      event: this.event,
      variable: this.variable,
      league: this.leagueKey,
      instant: this.instant,
      published: this.published,
      ev: this.ev,
    };
  }
}

function middleDto(row: LazyMiddleRow): MiddleDto {
  const { event, variable, league, instant, published, ev } = row.parts;
  const { high, low } = row;
  const dh = high.version.decimal;
  const dl = low.version.decimal;
  const returns = middleReturns(dh, dl);
  const gap = middleGap(high.line, low.line);
  const [highCents, lowCents] = middleStakesCents(STAKE_EXAMPLE_CENTS, dh, dl);
  const returnsPct = {
    middle: publishedPct(returns.hit),
    push_high: publishedPct(returns.pushHigh),
    push_low: publishedPct(returns.pushLow),
    miss: publishedPct(returns.miss),
  };
  return {
    id: row.id,
    event: toEventDto(event),
    market: { type: row.type as 'spread' | 'total', period: 'full', variable },
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
    model: middleModel(league),
    centre: roundTo(row.centre, 2),
  };
}

function middleSide(event: OddsEvent, quote: MiddleQuote, instant: number, share: number): MiddleDto['high'] {
  const { market, version } = quote;
  const outcome = market.outcomes[quote.outcome]!;
  return {
    book: version.book,
    market_key: market.key,
    point: (market.spec as GameMarketSpec).point!,
    outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
    line: quote.line,
    price: {
      american: formatAmerican(version.american),
      decimal: version.decimal,
      updated_at: new Date(version.updatedAt).toISOString(),
      age_seconds: Math.max(0, Math.floor((instant - version.updatedAt) / 1000)),
      links: { desktop: version.links.desktop, mobile: version.links.mobile },
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

/** What a market (EV) or a game (middles) holds in the sets, and until when. */
interface Held {
  ids: string[];
  validUntil: number;
}

/**
 * What the scanner remembers of a market between judgements (the fast path's caches): the rows it holds (to keep the
 * same object when nothing a row shows changed), the consensus medians and their fair probabilities (Shin's solve is
 * skipped when the medians did not move), and per book slot the last centre estimate of a middle market's line.
 */
interface MarketMemo {
  rows: EvRow[];
  slots: number[];
  medians: Float64Array | undefined;
  fair: Float64Array | undefined;
  /** Per book slot: high decimal, low decimal, the estimate they gave (middle markets only). */
  estimates: Float64Array | undefined;
  /** Per outcome and book slot: the price's quote as middles show it (middle markets only). */
  quotes?: (MiddleQuote | undefined)[];
}

/** What the scanner remembers of a game: its middle markets, its distributions by centre, its rows by pair. */
interface GameMemo {
  /** The game's middle markets (a game's markets are only ever added) and how many markets it had then. */
  markets: MarketState[];
  marketCount: number;
  distributions: { margin?: CachedDistribution; total?: CachedDistribution };
  /** Rows by pair: high market and slot, low market and slot (indices in `markets`). */
  rows: Map<number, MiddleRow>;
}

interface CachedDistribution {
  margin: number;
  total: number;
  distribution: IntegerDistribution;
}

/** Scratch arrays of the fast judges (the scan is synchronous: one set serves every judgement). */
let usableScratch = new Float64Array(4 * BOOK_COUNT);
const columnScratch = new Float64Array(BOOK_COUNT);
let mediansScratch = new Float64Array(4);
/** A game's centre estimates per variable (grown as needed). */
let marginScratch: Float64Array = new Float64Array(64);
let totalScratch: Float64Array = new Float64Array(64);
/** Per middle market and side (0 high, 1 low): its best two usable slots (-1: none). */
let bestScratch = new Int32Array(16);

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
 * shows changed: the same rows (values.test.ts compares them on every scan). Undefined when the fair is outside what
 * `judgeEv` accepts (it throws there; the caller asks it).
 */
function judgeEvHot(
  event: OddsEvent,
  market: MarketState,
  instant: number,
  limits: AgeLimits,
  memo: MarketMemo,
  minBooks = EV_MIN_BOOKS,
): EvJudgement | undefined {
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const ways = market.outcomes.length;
  const n = ways * BOOK_COUNT;
  const hot = market.hot;
  if (usableScratch.length < n) usableScratch = new Float64Array(n);
  const usable = usableScratch;
  let count = 0;
  let validUntil = Infinity;
  for (let i = 0; i < n; i += 1) {
    const decimal = hot[i]!;
    const updatedAt = hot[n + i]!;
    // 0: suspended, or not quoted (isUsable's first half); then its age.
    if (decimal !== 0 && instant - updatedAt <= maxAge) {
      usable[i] = decimal;
      count += 1;
      if (updatedAt + maxAge + 1 < validUntil) validUntil = updatedAt + maxAge + 1;
    } else usable[i] = 0;
  }
  if (count < minBooks * 2 || ways < 2) return NO_EV;
  // The books pricing every side with valid odds (marketFair's complete rows).
  let complete = 0;
  let completeMask = 0;
  for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
    let every = true;
    for (let o = 0; o < ways; o += 1) {
      const d = usable[o * BOOK_COUNT + slot]!;
      if (!(Number.isFinite(d) && d > 1)) {
        every = false;
        break;
      }
    }
    if (every) {
      complete += 1;
      completeMask |= 1 << slot;
    }
  }
  if (complete < minBooks) return NO_EV;
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
  let fair = memo.fair;
  let same = memo.medians !== undefined && fair !== undefined;
  if (same) for (let o = 0; o < ways; o += 1) if (memo.medians![o] !== medians[o]) same = false;
  if (!same) {
    memo.medians ??= new Float64Array(ways);
    fair = memo.fair ??= new Float64Array(ways);
    memo.medians.set(medians.subarray(0, ways));
    shinInto(medians, ways, fair);
  }
  const probabilities = fair!;
  let rows: EvRow[] | undefined;
  let slots: number[] | undefined;
  for (let i = 0; i < n; i += 1) {
    const decimal = usable[i]!;
    if (!(Number.isFinite(decimal) && decimal > 1)) continue;
    const o = (i / BOOK_COUNT) | 0;
    const fairProbability = probabilities[o]!;
    if (!(fairProbability > 0 && fairProbability <= 1)) return undefined;
    const pct = (fairProbability * decimal - 1) * 100;
    if (!(pct > 0)) continue;
    const version = market.slots[i]!;
    let row: EvRow | undefined;
    const before = memo.slots.indexOf(i);
    if (before >= 0) {
      const kept = memo.rows[before]!;
      if (
        kept.decimal === decimal &&
        kept.american === version.american &&
        kept.updatedAt === version.updatedAt &&
        kept.desktop === version.links.desktop &&
        kept.mobile === version.links.mobile &&
        kept.fairProbability === fairProbability &&
        kept.fairBooks === complete &&
        kept.evPct === pct &&
        kept.live === event.live &&
        kept.startsAt === event.startsAt
      )
        row = kept;
    }
    row ??= evRow(event, market, o, version, fairProbability, complete, pct, instant);
    (rows ??= []).push(row);
    (slots ??= []).push(i);
  }
  if (!rows) {
    memo.rows = [];
    memo.slots = [];
    return { rows: [], fair: true, validUntil };
  }
  if (rows.length > 1) {
    // marketEv's order: best EV first, then the book's key (the order of the stream's entries).
    const unsorted = rows;
    const unsortedSlots = slots!;
    const order = unsorted.map((_, index) => index);
    order.sort((x, y) => {
      const a = unsorted[x]!;
      const b = unsorted[y]!;
      return b.evPct - a.evPct || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0);
    });
    rows = order.map((index) => unsorted[index]!);
    slots = order.map((index) => unsortedSlots[index]!);
  }
  memo.rows = rows;
  memo.slots = slots!;
  return { rows, fair: true, validUntil };
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

/**
 * `eventMiddles` of the newest prices, read from the markets' hot blocks: no quote objects, each book's centre
 * estimate kept while its two prices stay, the distributions kept while the centres stay, and a held row kept when
 * neither side's price nor the distribution changed. The same rows (values.test.ts compares them on every scan).
 */
function eventMiddlesHot(
  event: OddsEvent,
  game: GameMemo,
  memoOf: (market: MarketState) => MarketMemo,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
): { rows: MiddleRow[]; validUntil: number } {
  const rows: MiddleRow[] = [];
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return { rows, validUntil: Infinity };
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const prior = SGP_GAME_PRIORS[league];
  const markets = game.markets;
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
    const spread = market.spec.type === 'spread';
    const point = (market.spec as GameMarketSpec).point!;
    const line = spread ? -point + 0 : point;
    const sigma = spread ? prior.sigmaMargin : prior.sigmaTotal;
    const ways = market.outcomes.length;
    const n = ways * BOOK_COUNT;
    const hot = market.hot;
    // The outcomes of each side (a spread's home or a total's over is high).
    let highOutcome = -1;
    let lowOutcome = -1;
    for (let o = 0; o < ways; o += 1) {
      const side = sideOf(market, o);
      if (side === 'high' && highOutcome < 0) highOutcome = o;
      else if (side === 'low' && lowOutcome < 0) lowOutcome = o;
    }
    for (let i = 0; i < n; i += 1) {
      const decimal = hot[i]!;
      const updatedAt = hot[n + i]!;
      if (decimal !== 0 && instant - updatedAt <= maxAge && updatedAt + maxAge + 1 < validUntil)
        validUntil = updatedAt + maxAge + 1;
    }
    let h0 = -1;
    let h1 = -1;
    let l0 = -1;
    let l1 = -1;
    let estimates: Float64Array | undefined;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      let dh = 0;
      let dl = 0;
      if (highOutcome >= 0) {
        const i = highOutcome * BOOK_COUNT + slot;
        const d = hot[i]!;
        if (d !== 0 && instant - hot[n + i]! <= maxAge) dh = d;
      }
      if (lowOutcome >= 0) {
        const i = lowOutcome * BOOK_COUNT + slot;
        const d = hot[i]!;
        if (d !== 0 && instant - hot[n + i]! <= maxAge) dl = d;
      }
      // Best two per side: higher decimal first, then the lower slot (the book's key order).
      if (dh !== 0) {
        if (h0 < 0 || dh > hot[highOutcome * BOOK_COUNT + h0]!) {
          h1 = h0;
          h0 = slot;
        } else if (h1 < 0 || dh > hot[highOutcome * BOOK_COUNT + h1]!) h1 = slot;
      }
      if (dl !== 0) {
        if (l0 < 0 || dl > hot[lowOutcome * BOOK_COUNT + l0]!) {
          l1 = l0;
          l0 = slot;
        } else if (l1 < 0 || dl > hot[lowOutcome * BOOK_COUNT + l1]!) l1 = slot;
      }
      // The centre's estimate from this book's two prices of the line.
      if (dh > 1 && dl > 1 && Number.isFinite(line)) {
        estimates ??= memoOf(market).estimates ??= new Float64Array(BOOK_COUNT * 3);
        const at = slot * 3;
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
  if (margin === undefined && total === undefined) {
    game.rows.clear();
    return { rows, validUntil: Infinity };
  }
  const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
  // The NFL's distributions are kept while both centres stay (the other leagues' chances are in closed form).
  if (league === 'nfl') {
    const cached = game.distributions;
    if (
      cached.margin === undefined ||
      cached.margin.margin !== centres.margin ||
      cached.margin.total !== centres.total
    )
      game.distributions = {};
  }
  const kept = game.rows;
  const next = new Map<number, MiddleRow>();
  for (let mh = 0; mh < count; mh += 1) {
    const high = markets[mh]!;
    const spread = high.spec.type === 'spread';
    const variable: MiddleVariable = spread ? 'margin' : 'total';
    const centre = spread ? margin : total;
    if (centre === undefined || best[mh * 4]! < 0) continue;
    const highPoint = (high.spec as GameMarketSpec).point!;
    const highLine = spread ? -highPoint + 0 : highPoint;
    let highOutcome = -1;
    for (let o = 0; o < high.outcomes.length && highOutcome < 0; o += 1)
      if (sideOf(high, o) === 'high') highOutcome = o;
    const highMemo = memoOf(high);
    for (let ml = 0; ml < count; ml += 1) {
      const low = markets[ml]!;
      if (low.spec.type !== high.spec.type || best[ml * 4 + 2]! < 0) continue;
      const lowPoint = (low.spec as GameMarketSpec).point!;
      const lowLine = spread ? -lowPoint + 0 : lowPoint;
      if (!isMiddleLines(highLine, lowLine)) continue;
      let lowOutcome = -1;
      for (let o = 0; o < low.outcomes.length && lowOutcome < 0; o += 1)
        if (sideOf(low, o) === 'low') lowOutcome = o;
      const lowMemo = memoOf(low);
      // One line pair's chances serve its (up to four) pairs of books.
      let chances: MiddleChances | undefined;
      let published: MiddleChances | undefined;
      for (let a = 0; a < 2; a += 1) {
        const hs = best[mh * 4 + a]!;
        if (hs < 0) continue;
        for (let b = 0; b < 2; b += 1) {
          const ls = best[ml * 4 + 2 + b]!;
          if (ls < 0 || ls === hs) continue;
          const key = ((mh * BOOK_COUNT + hs) * 4096 + ml) * BOOK_COUNT + ls;
          const highQuote = slotQuote(highMemo, high, highOutcome, highLine, hs);
          const lowQuote = slotQuote(lowMemo, low, lowOutcome, lowLine, ls);
          chances ??= modelMiddleChances(
            league,
            variable,
            centres,
            highLine,
            lowLine,
            league === 'nfl' ? nflDistributionOf(game, centres, variable) : undefined,
          );
          published ??= publishedChances(chances);
          const ev = middleEv(highQuote.version.decimal, lowQuote.version.decimal, chances);
          const before = kept.get(key);
          // A held row is kept when nothing it shows moved: the same quotes, the same published chances, EV and
          // centre, the same event record. Its full-precision EV and centre may lag by less than what is published.
          const row =
            before !== undefined &&
            before.high === highQuote &&
            before.low === lowQuote &&
            before.probability === published.middle &&
            before.pushHigh === published.pushHigh &&
            before.pushLow === published.pushLow &&
            before.publishedEvPct === publishedPct(ev) &&
            roundTo(before.centre, 2) === roundTo(centre, 2) &&
            before.live === event.live &&
            before.startsAt === event.startsAt
              ? before
              : middleRow(
                  event,
                  spread ? 'spread' : 'total',
                  variable,
                  centre,
                  league,
                  chances,
                  highQuote,
                  lowQuote,
                  instant,
                  before?.id,
                  published,
                  ev,
                );
          next.set(key, row);
          rows.push(row);
        }
      }
    }
  }
  game.rows = next;
  return { rows, validUntil };
}

/** The game's NFL distribution of `variable` at its centres, computed once (both variables) while they stay. */
function nflDistributionOf(
  game: GameMemo,
  centres: { margin: number; total: number },
  variable: MiddleVariable,
): IntegerDistribution {
  let kept = game.distributions[variable];
  if (kept === undefined) {
    const both = nflCalibratedDistributions(centres.margin, centres.total);
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
  const price = market.slots[index]!;
  const quotes = (memo.quotes ??= []);
  const held = quotes[index];
  if (held !== undefined && sameQuote(held, price)) return held;
  return (quotes[index] = quoteOf(market, outcome, line, price));
}

function sameQuote(quote: MiddleQuote, price: StoredPrice): boolean {
  const version = quote.version;
  return (
    version.decimal === price.decimal &&
    version.american === price.american &&
    version.updatedAt === price.updatedAt &&
    version.links.desktop === price.links.desktop &&
    version.links.mobile === price.links.mobile
  );
}

function quoteOf(market: MarketState, outcome: number, line: number, version: StoredPrice): MiddleQuote {
  return {
    market,
    outcome,
    line,
    version: {
      book: version.book,
      decimal: version.decimal,
      american: version.american,
      updatedAt: version.updatedAt,
      links: { desktop: version.links.desktop, mobile: version.links.mobile },
    },
  };
}

export class ValueScanner {
  /** The positive-EV prices now, by id. */
  readonly ev = new Map<string, EvRow>();
  /** The middles now, by id. */
  readonly middles = new Map<string, MiddleRow>();
  private readonly evHeld = new Map<MarketState, Held>();
  private readonly middlesHeld = new Map<string, Held>();
  private readonly marketMemos = new Map<MarketState, MarketMemo>();
  private readonly gameMemos = new Map<string, GameMemo>();
  private readonly dirtyMarkets = new Set<MarketState>();
  private readonly dirtyEvents = new Set<string>();
  /** Markets and games gone from the store since the last scan: their rows leave the sets. */
  private readonly goneMarkets = new Set<MarketState>();
  private readonly goneEvents = new Set<string>();
  private readonly history: ValueHistory;
  private lastChangeAt = Number.NEGATIVE_INFINITY;
  /** When the scan last ran (-Infinity: never, or the next tick must run it). */
  private ranAt = Number.NEGATIVE_INFINITY;
  private readonly periodMs: number;
  private readonly memoOf = (market: MarketState): MarketMemo => {
    let memo = this.marketMemos.get(market);
    if (!memo) {
      memo = { rows: [], slots: [], medians: undefined, fair: undefined, estimates: undefined };
      this.marketMemos.set(market, memo);
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

  /** A price of the market was accepted (a new version or a re-confirmation). */
  touch(market: MarketState): void {
    if (this.options.ev) this.dirtyMarkets.add(market);
    if (this.options.middles && isMiddleMarket(market)) this.dirtyEvents.add(market.eventId);
  }

  /** The event's record changed (live, start): every market of it is judged again. */
  touchEvent(state: EventState): void {
    for (const market of state.markets.values()) this.touch(market);
  }

  /** The markets left the store (their event ended, or the engine was emptied). */
  drop(markets: readonly MarketState[]): void {
    for (const market of markets) {
      this.dirtyMarkets.delete(market);
      this.marketMemos.delete(market);
      if (this.evHeld.has(market)) this.goneMarkets.add(market);
      if (this.middlesHeld.has(market.eventId)) this.goneEvents.add(market.eventId);
      this.gameMemos.delete(market.eventId);
    }
  }

  /** Everything held leaves the sets at the next scan (the engine starts over), which the next tick runs. */
  reset(): void {
    this.dirtyMarkets.clear();
    this.dirtyEvents.clear();
    this.marketMemos.clear();
    this.gameMemos.clear();
    for (const market of this.evHeld.keys()) this.goneMarkets.add(market);
    for (const eventId of this.middlesHeld.keys()) this.goneEvents.add(eventId);
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
    // What turned stale: forEach, no entry pairs allocated.
    this.evHeld.forEach((held, market) => {
      if (held.validUntil <= now) this.dirtyMarkets.add(market);
    });
    this.middlesHeld.forEach((held, eventId) => {
      if (held.validUntil <= now) this.dirtyEvents.add(eventId);
    });
    if (
      this.dirtyMarkets.size === 0 &&
      this.dirtyEvents.size === 0 &&
      this.goneMarkets.size === 0 &&
      this.goneEvents.size === 0
    )
      return undefined;
    const changes: ValueChanges = { at: now, ev: [], evRemoved: [], middles: [], middlesRemoved: [] };
    // The sets as they stood are kept for delayed readers before the first change of a new step.
    this.history.keep(this.lastChangeAt, now, this);
    for (const market of this.goneMarkets)
      this.replace(this.evHeld, market, this.ev, [], Infinity, changes, 'ev');
    this.goneMarkets.clear();
    for (const eventId of this.goneEvents)
      this.replace(this.middlesHeld, eventId, this.middles, [], Infinity, changes, 'middles');
    this.goneEvents.clear();
    for (const market of this.dirtyMarkets) {
      const event = store.event(market.eventId);
      const judged =
        event && store.market(market.key) === market
          ? (judgeEvHot(event, market, now, this.limits, this.memoOf(market)) ??
            judgeEv(store, event, market, undefined, now, this.limits))
          : NO_EV;
      this.replace(this.evHeld, market, this.ev, judged.rows, judged.validUntil, changes, 'ev');
    }
    this.dirtyMarkets.clear();
    for (const eventId of this.dirtyEvents) {
      const state = store.eventState(eventId);
      const judged = state
        ? eventMiddlesHot(state.event, this.gameMemo(state), this.memoOf, now, this.limits)
        : { rows: [], validUntil: Infinity };
      this.replace(
        this.middlesHeld,
        eventId,
        this.middles,
        judged.rows,
        judged.validUntil,
        changes,
        'middles',
      );
    }
    this.dirtyEvents.clear();
    const changed =
      changes.ev.length + changes.evRemoved.length + changes.middles.length + changes.middlesRemoved.length >
      0;
    if (!changed) return undefined;
    this.lastChangeAt = now;
    return changes;
  }

  /** The game's memo, its middle markets brought up to date when it gained markets. */
  private gameMemo(state: EventState): GameMemo {
    let memo = this.gameMemos.get(state.event.id);
    if (!memo) {
      memo = { markets: [], marketCount: -1, distributions: {}, rows: new Map() };
      this.gameMemos.set(state.event.id, memo);
    }
    if (memo.marketCount !== state.markets.size) {
      memo.markets = middleMarkets(state);
      memo.marketCount = state.markets.size;
      // The rows are keyed by the markets' places in the list.
      memo.rows.clear();
    }
    return memo;
  }

  /**
   * Replaces what `owner` holds in `set` with `rows`: rows new or changed (`evRowChanged`, `middleRowChanged`) go to
   * the changes, ids no longer produced are removed. A row that changed nothing a client is told still replaces the
   * held one (its times are the newer); a row kept as it was (the same object) changes nothing.
   */
  private replace<K, R extends EvRow | MiddleRow>(
    heldBy: Map<K, Held>,
    owner: K,
    set: Map<string, R>,
    rows: readonly R[],
    validUntil: number,
    changes: ValueChanges,
    kind: 'ev' | 'middles',
  ): void {
    const held = heldBy.get(owner);
    const added = kind === 'ev' ? (changes.ev as R[]) : (changes.middles as R[]);
    const removed = kind === 'ev' ? (changes.evRemoved as R[]) : (changes.middlesRemoved as R[]);
    const ids: string[] = [];
    for (const row of rows) {
      const id = row.id;
      const before = set.get(id);
      ids.push(id);
      if (before === row) continue;
      if (
        before === undefined ||
        (kind === 'ev'
          ? evRowChanged(before as EvRow, row as EvRow)
          : middleRowChanged(before as MiddleRow, row as MiddleRow))
      )
        added.push(row);
      set.set(id, row);
    }
    if (held && held.ids.length > 0) {
      // Small lists (a market's prices) are searched; a game's many pairs are looked up.
      const kept = ids.length > 16 ? new Set(ids) : undefined;
      for (const id of held.ids) {
        if (kept ? kept.has(id) : ids.includes(id)) continue;
        const before = set.get(id);
        if (before) {
          removed.push(before);
          set.delete(id);
        }
      }
    }
    if (ids.length === 0 && validUntil === Infinity) heldBy.delete(owner);
    else if (held) {
      held.ids = ids;
      held.validUntil = validUntil;
    } else heldBy.set(owner, { ids, validUntil });
  }

  /** The sets as a reader at `time` sees them (the newest kept at or before it); undefined when none that old is kept. */
  at(time: number): ValueSets | undefined {
    if (this.lastChangeAt <= time) return this.current();
    return this.history.at(time);
  }

  /** The sets now. */
  current(): ValueSets {
    return { at: this.lastChangeAt, ev: [...this.ev.values()], middles: [...this.middles.values()] };
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
