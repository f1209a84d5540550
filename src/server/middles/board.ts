import { toEventDto } from '#domain/event-dto.ts';
import { specOutcomeLabel } from '#domain/market-labels.ts';
import { LEAGUES, type GameMarketSpec, type LeagueKey, type OddsEvent } from '#domain/markets.ts';
import {
  isMiddle,
  marketCentre,
  middleChances,
  middleEv,
  middleGap,
  middleModel,
  middleReturns,
  middleStakesCents,
  nflScoreDistributions,
  MIDDLE_MIN_BOOKS,
  publishedChances,
  publishedPct,
  scoreDistribution,
  type IntegerDistribution,
  type LineQuote,
  type MiddleVariable,
} from '#domain/middles.ts';
import { formatAmerican, roundTo } from '#domain/odds.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import { SGP_GAME_PRIORS } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { isUsable, type ScanOptions } from '#engine/scanner.ts';
import type { MarketState, OddsStore, StoredPrice } from '#engine/store.ts';

// The middles board (issue 36, decision 167): every pair of opposite full-game spread or total sides at two books
// whose lines leave a gap where both win, priced on the sport's score distribution (src/domain/middles.ts), for
// GET /v1/middles. Built like the EV board (src/server/ev/board.ts): computed from the store on request, once per
// quantum per horizon (250 ms real time, 1 s delayed), the filters picking rows from it. A delayed reader sees each
// price as it was at its horizon. Only prices the arbitrage scanner would use count (not suspended, not stale).

export interface MiddleRow {
  id: string;
  /** The answer's DTO, built on first read (most rows are never answered). */
  readonly dto: MiddleDto;
  league: string;
  live: boolean;
  type: string;
  books: readonly [SportsbookKey, SportsbookKey];
  /** EV in percent, full precision, and as published. */
  evPct: number;
  publishedEvPct: number;
  /** The chance of the gap as published. */
  probability: number;
}

export interface MiddlesBoardResult {
  at: number;
  /** Every middle, best EV first. */
  rows: MiddleRow[];
}

export const MIDDLES_QUANTUM_MS = { realTime: 250, delayed: 1000 } as const;
/** Per line and side, the best prices of this many distinct books are paired (two: so a pair can avoid one book). */
const BEST_PER_LINE = 2;
const STAKE_EXAMPLE_CENTS = 10_000;

export interface MiddlesBoardSource {
  storeAt(at: number | undefined): OddsStore;
}

/** A usable price, its fields copied (the store updates a price's object in place; a row may be read later). */
interface Quote {
  market: MarketState;
  outcome: number;
  /** The line on the variable. */
  line: number;
  version: Pick<StoredPrice, 'book' | 'decimal' | 'american' | 'updatedAt'> & {
    links: { desktop: string | null; mobile: string | null };
  };
}

export class MiddlesBoard {
  private readonly cache = new Map<string, { quantum: number; result: MiddlesBoardResult }>();
  computed = 0;

  constructor(
    private readonly engine: MiddlesBoardSource,
    private readonly scan: Pick<ScanOptions, 'maxAgePreMatchMs' | 'maxAgeLiveMs'>,
    private readonly minBooks = MIDDLE_MIN_BOOKS,
  ) {}

  read(horizon: number | undefined, now: number): MiddlesBoardResult {
    const realTime = horizon === undefined;
    const quantumMs = realTime ? MIDDLES_QUANTUM_MS.realTime : MIDDLES_QUANTUM_MS.delayed;
    const quantum = Math.floor((realTime ? now : horizon) / quantumMs);
    const key = realTime ? 'now' : `delay:${Math.round((now - horizon) / 1000)}`;
    const cached = this.cache.get(key);
    if (cached && cached.quantum === quantum) return cached.result;
    const result = this.compute(realTime ? undefined : quantum * quantumMs, now);
    this.cache.set(key, { quantum, result });
    this.computed += 1;
    return result;
  }

  compute(at: number | undefined, now: number): MiddlesBoardResult {
    const store = this.engine.storeAt(at);
    const instant = at ?? now;
    // Full-game spreads and totals, grouped by event.
    const byEvent = new Map<string, { spread: MarketState[]; total: MarketState[] }>();
    for (const market of store.allMarkets()) {
      const spec = market.spec as GameMarketSpec;
      if (spec.period !== 'full' || (spec.type !== 'spread' && spec.type !== 'total') || spec.point === null)
        continue;
      let entry = byEvent.get(market.eventId);
      if (!entry) byEvent.set(market.eventId, (entry = { spread: [], total: [] }));
      entry[spec.type].push(market);
    }
    const rows: MiddleRow[] = [];
    for (const [eventId, families] of byEvent) {
      const event = store.event(eventId);
      if (!event || !Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) continue;
      const league = event.league as LeagueKey;
      const maxAge = event.live ? this.scan.maxAgeLiveMs : this.scan.maxAgePreMatchMs;
      const quotes = {
        spread: families.spread.flatMap((m) => usableQuotes(store, m, 'margin', at, instant, maxAge)),
        total: families.total.flatMap((m) => usableQuotes(store, m, 'total', at, instant, maxAge)),
      };
      const margin = marketCentre(league, 'margin', lineQuotes(quotes.spread), this.minBooks);
      const total = marketCentre(league, 'total', lineQuotes(quotes.total), this.minBooks);
      const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
      // The distributions are computed once per event, and only when a pair needs them (the NFL's are the costly ones).
      let nfl: ReturnType<typeof nflScoreDistributions> | undefined;
      const distributionOf = (variable: MiddleVariable): IntegerDistribution =>
        league === 'nfl'
          ? (nfl ??= nflScoreDistributions(centres.margin, centres.total))[variable]
          : scoreDistribution(league, variable, centres);
      for (const [type, variable, centre] of [
        ['spread', 'margin', margin],
        ['total', 'total', total],
      ] as const) {
        if (centre === undefined) continue;
        let distribution: IntegerDistribution | undefined;
        pairs(quotes[type], (high, low) => {
          distribution ??= distributionOf(variable);
          rows.push(row(event, type, variable, centre, league, distribution, high, low, instant));
        });
      }
    }
    rows.sort((a, b) => b.evPct - a.evPct || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { at: instant, rows };
  }
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

function usableQuotes(
  store: OddsStore,
  market: MarketState,
  variable: MiddleVariable,
  at: number | undefined,
  instant: number,
  maxAge: number,
): Quote[] {
  const point = (market.spec as GameMarketSpec).point!;
  const line = variable === 'margin' ? -point + 0 : point;
  const out: Quote[] = [];
  market.prices.forEach((byBook, outcome) => {
    for (const newest of byBook.values()) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
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
  return out;
}

/** Each book's two sides of one line, for the centre's estimate. */
function lineQuotes(quotes: readonly Quote[]): LineQuote[] {
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
function pairs(quotes: readonly Quote[], emit: (high: Quote, low: Quote) => void): void {
  const best = { high: new Map<number, Quote[]>(), low: new Map<number, Quote[]>() };
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

function row(
  event: OddsEvent,
  type: 'spread' | 'total',
  variable: MiddleVariable,
  centre: number,
  league: LeagueKey,
  distribution: IntegerDistribution,
  high: Quote,
  low: Quote,
  instant: number,
): MiddleRow {
  const chances = middleChances(high.line, low.line, distribution);
  const dh = high.version.decimal;
  const dl = low.version.decimal;
  const ev = middleEv(dh, dl, chances);
  const published = publishedChances(chances);
  const id = `${event.id}|${type}|full|${high.version.book}:${high.line}|${low.version.book}:${low.line}`;
  let dto: MiddleDto | undefined;
  const build = (): MiddleDto => {
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
      id,
      event: toEventDto(event),
      market: { type, period: 'full', variable },
      high: side(event, high, instant, returns.stakeShareHigh),
      low: side(event, low, instant, 1 - returns.stakeShareHigh),
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
      centre: roundTo(centre, 2),
    };
  };
  return {
    id,
    league: event.league,
    live: event.live,
    type,
    books: [high.version.book, low.version.book],
    evPct: ev * 100,
    publishedEvPct: publishedPct(ev),
    probability: published.middle,
    get dto() {
      return (dto ??= build());
    },
  };
}

function side(event: OddsEvent, quote: Quote, instant: number, share: number): MiddleDto['high'] {
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

export interface MiddlesFilters {
  league?: string | undefined;
  live?: boolean | undefined;
  types?: ReadonlySet<string> | undefined;
  /** Pairs whose both books are among these. */
  books?: ReadonlySet<string> | undefined;
  /** Published `probability.middle` at least this. */
  minProbability?: number | undefined;
  /** Published `ev_pct` at least this. */
  minEv?: number | undefined;
}

export function filterMiddles(rows: readonly MiddleRow[], filters: MiddlesFilters): MiddleRow[] {
  return rows.filter(
    (row) =>
      (filters.league === undefined || row.league === filters.league) &&
      (filters.live === undefined || row.live === filters.live) &&
      (filters.types === undefined || filters.types.has(row.type)) &&
      (filters.books === undefined || (filters.books.has(row.books[0]) && filters.books.has(row.books[1]))) &&
      (filters.minProbability === undefined || row.probability >= filters.minProbability) &&
      (filters.minEv === undefined || row.publishedEvPct >= filters.minEv),
  );
}
