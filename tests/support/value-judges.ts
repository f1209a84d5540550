import { EV_MIN_BOOKS, marketEv, type EvChoice, type EvQuote } from '#domain/ev.ts';
import { LEAGUES, type GameMarketSpec, type LeagueKey, type OddsEvent } from '#domain/markets.ts';
import {
  isMiddle,
  isMiddleLines,
  marketCentre,
  marketCentreBy,
  middleEv,
  MIDDLE_MIN_BOOKS,
  modelMiddleChances,
  normalMarketCentre,
  publishedChances,
  type CentreChoice,
  type LineQuote,
  type MiddleVariable,
} from '#domain/middles.ts';
import {
  propCentre,
  propCentreBy,
  propMiddleChances,
  propModelName,
  propStatModel,
  type PropLineQuote,
} from '#domain/prop-middles.ts';
import type { PropMarketSpec } from '#domain/props.ts';
import { gameDistributions } from '#domain/score-distributions.ts';
import { SGP_GAME_PRIORS } from '#domain/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { isUsable } from '#engine/scanner.ts';
import { pricesOf, type MarketState, type OddsStore, type StoredPrice } from '#engine/store.ts';
import type { EvRow } from '#engine/values/ev.ts';
import type { AgeLimits } from '#engine/values/memos.ts';
import {
  isPropMiddleMarket,
  LazyMiddleRow,
  propFamilyKey,
  type MiddleQuote,
  type MiddleRow,
} from '#engine/values/middles.ts';

// The reference model of the value judges (decision 281; decision 152 keeps models in tests/): positive EV of a market
// and the middles of a game or a prop family, written plainly over the store's price objects and the domain's rules
// (`marketEv`, `marketCentre`/`marketCentreBy`, `modelMiddleChances`, `propCentre`/`propCentreBy`), at any horizon
// (each price's version then, `OddsStore.versionAt`) and any de-vig method and reference. These were the app's
// "versioned judges" until issue 58 made the one judge per idea in src/engine/values/ read a view of the prices; the
// property tests of src/engine/values/scanner.test.ts check that the app's judges find exactly what these find, on
// the newest prices (the scan's sets) and at earlier horizons by every kind of choice (the boards' calls).

/** One market's positive-EV rows as visible at `at` (undefined: the newest prices), judged at `instant`. */
export function referenceEv(
  store: OddsStore,
  event: OddsEvent,
  market: MarketState,
  at: number | undefined,
  instant: number,
  limits: AgeLimits,
  minBooks = EV_MIN_BOOKS,
  choice?: EvChoice,
): { rows: EvRow[]; fair: boolean } {
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes: (EvQuote<SportsbookKey> & { version: StoredPrice })[] = [];
  const ways = market.outcomes.length;
  for (let outcome = 0; outcome < ways; outcome += 1) {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      quotes.push({ book: version.book, outcome, decimal: version.decimal, version });
    }
  }
  if (quotes.length < minBooks * 2) return { rows: [], fair: false };
  const { fair, prices } = marketEv(quotes, ways, { minBooks, ...(choice && { choice }) });
  if (!fair) return { rows: [], fair: false };
  const rows = prices.map((priced): EvRow => ({
    id: `${market.key}|${market.outcomes[priced.outcome]!}|${priced.version.book}`,
    event,
    market,
    outcomeIndex: priced.outcome,
    eventId: event.id,
    league: event.league,
    live: event.live,
    type: market.spec.type,
    book: priced.version.book,
    evPct: priced.evPct,
    updatedAt: priced.version.updatedAt,
    decimal: priced.version.decimal,
    american: priced.version.american,
    desktop: priced.version.links.desktop,
    mobile: priced.version.links.mobile,
    fairProbability: priced.fairProbability,
    fairBooks: fair.books,
    startsAt: event.startsAt,
    instant,
    fairSource: choice && fair,
  }));
  return { rows, fair: true };
}

/** Every middle of one game's full-game spreads and totals (`markets`) as visible at `at`, judged at `instant`. */
export function referenceGameMiddles(
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
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return rows;
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes = { spread: [] as MiddleQuote[], total: [] as MiddleQuote[] };
  for (const market of markets) {
    const type = market.spec.type as 'spread' | 'total';
    usableQuotes(store, market, type === 'spread' ? 'margin' : 'total', at, instant, maxAge, quotes[type]);
  }
  // Each centre fitted under the league's distributions with the other held (decision 284): the total at the margin's
  // normal estimate, then the margin at that total.
  const spreadQuotes = lineQuotes(quotes.spread);
  const totalQuotes = lineQuotes(quotes.total);
  const heldMargin = normalMarketCentre(league, 'margin', spreadQuotes) ?? 0;
  const byTotal = choice && marketCentreBy(league, 'total', totalQuotes, choice, minBooks, heldMargin);
  const total = choice ? byTotal?.centre : marketCentre(league, 'total', totalQuotes, minBooks, heldMargin);
  const heldTotal = total ?? defaultTotal(league);
  const byMargin = choice && marketCentreBy(league, 'margin', spreadQuotes, choice, minBooks, heldTotal);
  const margin = choice
    ? byMargin?.centre
    : marketCentre(league, 'margin', spreadQuotes, minBooks, heldTotal);
  const by = choice && { margin: byMargin, total: byTotal };
  if (margin === undefined && total === undefined) return rows;
  const centres = { margin: margin ?? 0, total: total ?? defaultTotal(league) };
  const both = gameDistributions(league, centres);
  for (const [type, variable, centre] of [
    ['spread', 'margin', margin],
    ['total', 'total', total],
  ] as const) {
    if (centre === undefined) continue;
    pairs(quotes[type], (high, low) => {
      const chances = modelMiddleChances(league, variable, centres, high.line, low.line, both[variable]);
      const row = new LazyMiddleRow(
        `${event.id}|${type}|full|${high.book}:${high.line}|${low.book}:${low.line}`,
        event,
        variable,
        instant,
        high,
        low,
        publishedChances(chances),
        middleEv(high.decimal, low.decimal, chances),
        centre,
      );
      row.source = by?.[variable]?.source;
      rows.push(row);
    });
  }
  return rows;
}

/** An event's player-prop middles, family by family (one player's stat in one period, every line of it). */
export function referencePropMiddles(
  store: OddsStore,
  event: OddsEvent,
  markets: readonly MarketState[],
  at: number | undefined,
  instant: number,
  limits: AgeLimits,
  minBooks = MIDDLE_MIN_BOOKS,
  choice?: CentreChoice,
): MiddleRow[] {
  const families = new Map<string, MarketState[]>();
  for (const market of markets) {
    if (!isPropMiddleMarket(market)) continue;
    const key = propFamilyKey(market.spec as PropMarketSpec);
    families.set(key, [...(families.get(key) ?? []), market]);
  }
  const rows: MiddleRow[] = [];
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return rows;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  for (const family of families.values()) {
    const spec = family[0]!.spec as PropMarketSpec;
    const model = propStatModel(event.league, spec.stat)!;
    const points = family.map((market) => market.spec.point!);
    if (!isMiddleLines(Math.min(...points), Math.max(...points))) continue;
    const quotes: MiddleQuote[] = [];
    for (const market of family) usableQuotes(store, market, 'total', at, instant, maxAge, quotes);
    const lines: PropLineQuote[] = lineQuotes(quotes).map((q) => ({
      book: q.book,
      line: q.line,
      over: q.high,
      under: q.low,
    }));
    const by = choice && propCentreBy(model, lines, choice, minBooks);
    const centre = choice ? by?.centre : propCentre(model, lines, minBooks);
    if (centre === undefined) continue;
    pairs(quotes, (high, low) => {
      const chances = propMiddleChances(model, centre, high.line, low.line);
      const row = new LazyMiddleRow(
        `${event.id}|prop|${spec.period}|${spec.playerId}|${spec.stat}|${high.book}:${high.line}|${low.book}:${low.line}`,
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
      row.source = by?.source;
      rows.push(row);
    });
  }
  return rows;
}

function defaultTotal(league: LeagueKey): number {
  return SGP_GAME_PRIORS[league].meanTotal;
}

/** The high side of a spread is home, of a total or a prop the over; the low side away or under. */
function sideOf(market: MarketState, outcome: number): 'high' | 'low' | undefined {
  const key = market.outcomes[outcome];
  if (key === 'home' || key === 'over') return 'high';
  if (key === 'away' || key === 'under') return 'low';
  return undefined;
}

/** Adds the market's usable quotes as visible at `at` to `out`. */
function usableQuotes(
  store: OddsStore,
  market: MarketState,
  variable: MiddleVariable,
  at: number | undefined,
  instant: number,
  maxAge: number,
  out: MiddleQuote[],
): void {
  const point = (market.spec as GameMarketSpec).point!;
  const line = variable === 'margin' ? -point + 0 : point;
  market.quoted.forEach((_, outcome) => {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === undefined ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
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

/** The best two books per line and side, then every high/low pair of two books whose lines leave a gap. */
function pairs(quotes: readonly MiddleQuote[], emit: (high: MiddleQuote, low: MiddleQuote) => void): void {
  const best = { high: new Map<number, MiddleQuote[]>(), low: new Map<number, MiddleQuote[]>() };
  for (const quote of quotes) {
    const side = sideOf(quote.market, quote.outcome);
    if (!side) continue;
    const list = (best[side].get(quote.line) ?? []).filter(
      (q) => q.book !== quote.book || q.decimal >= quote.decimal,
    );
    if (list.some((q) => q.book === quote.book)) continue;
    list.push(quote);
    list.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
    best[side].set(quote.line, list.slice(0, 2));
  }
  for (const [highLine, highs] of best.high)
    for (const [lowLine, lows] of best.low) {
      if (!isMiddle(highLine, lowLine)) continue;
      for (const high of highs) for (const low of lows) if (high.book !== low.book) emit(high, low);
    }
}
