import { toEventDto, toPlayerDto } from '#domain/event-dto.ts';
import { specLabel, specOutcomeLabel } from '#domain/market-labels.ts';
import { sideId, type BookPrice, type MarketType, type OddsEvent, type Period } from '#domain/markets.ts';
import { formatAmerican, roundTo } from '#domain/odds.ts';
import { normalizePlayerName } from '#domain/player-matching.ts';
import type { Player, PropStatKey } from '#domain/props.ts';
import type { PlayerDto } from '#domain/schemas/api/common.ts';
import type { EventOddsDto, MarketDto, PriceDto } from '#domain/schemas/api/odds.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { GameScoreDto } from '#domain/schemas/api/scores.ts';
import type { GameScore } from '#engine/scores.ts';
import { pricesOf, type MarketState, type OddsStore, type StoredPrice } from '#engine/store.ts';
import type { DeflatedPiece } from './gzip-join.ts';

// Read models of the paid API over the engine's store. Every read takes `at`: undefined for real-time plans, or the
// plan's horizon (now − delay) for delayed ones, in which case each price is the newest version the engine had
// received by then and that the book had stamped by then; versions after the horizon are never shown.

export interface EventFilters {
  league?: string | undefined;
  live?: boolean | undefined;
  startsAfter?: number | undefined;
  startsBefore?: number | undefined;
}

export function matchesEvent(event: OddsEvent, filters: EventFilters): boolean {
  if (filters.league !== undefined && event.league !== filters.league) return false;
  if (filters.live !== undefined && event.live !== filters.live) return false;
  if (filters.startsAfter !== undefined && event.startsAt < filters.startsAfter) return false;
  if (filters.startsBefore !== undefined && event.startsAt > filters.startsBefore) return false;
  return true;
}

/** Events by start time, then id (a stable order for clients that page through them). */
export function listEvents(store: OddsStore, filters: EventFilters): OddsEvent[] {
  return store
    .events()
    .filter((event) => matchesEvent(event, filters))
    .sort((a, b) => a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The version of a price visible at `at` (undefined: the newest). */
export function visibleVersion(
  store: OddsStore,
  newest: StoredPrice,
  at: number | undefined,
): StoredPrice | null {
  return at === undefined ? newest : store.versionAt(newest, at, true);
}

export function toPriceDto(price: BookPrice): PriceDto {
  return {
    book: price.book,
    american: formatAmerican(price.american),
    decimal: price.decimal,
    implied_prob: roundTo(1 / price.decimal, 6),
    updated_at: new Date(price.updatedAt).toISOString(),
    suspended: price.suspended,
    links: { desktop: price.links.desktop, mobile: price.links.mobile },
  };
}

/** The value of one /v1 filter; a list parameter arrives as a set. */
export type FilterValue = string | boolean | ReadonlySet<string> | undefined;

/**
 * The key of a combination of /v1 filters, for what requests or streams with equal filters share (the /v1/odds answer
 * cache, the stream's filter groups and their shared snapshots): sets are sorted, so `books=a,b` and `books=b,a` are one
 * key, and an absent filter is null. Each caller passes its filters in one fixed order.
 */
/** A number filter as `filterKey` takes it: `2` and `2.0` parse to one number and give one key. */
export const numberKey = (value: number | undefined): string | undefined =>
  value === undefined ? undefined : String(value);

export function filterKey(values: readonly FilterValue[]): string {
  return JSON.stringify(
    values.map((value) => (typeof value === 'object' ? [...value].sort() : (value ?? null))),
  );
}

export interface OddsFilters {
  markets?: ReadonlySet<MarketType> | undefined;
  period?: Period | undefined;
  books?: ReadonlySet<SportsbookKey> | undefined;
  mainOnly?: boolean | undefined;
  /** Props of one player only (by id or name, see `playerFilter`); game lines are left out. */
  player?: PlayerFilter | undefined;
  /** Props of these stats only; game lines are left out. */
  stats?: ReadonlySet<PropStatKey> | undefined;
}

export type { PlayerDto };

export { toPlayerDto };

/** The players of an event's roster, in the order they joined. */
export function eventPlayers(store: OddsStore, event: OddsEvent): PlayerDto[] {
  const state = store.eventState(event.id);
  if (!state) return [];
  return [...state.players.values()].map((entry) => toPlayerDto(entry.player, event));
}

/**
 * The `player` filter of /v1: a player id (exact), or a name compared as player matching compares names (case,
 * accents, punctuation and suffixes ignored: `normalizePlayerName`), so "lebron james" and "LeBron James" are one.
 */
export interface PlayerFilter {
  /** As given (trimmed): compared with player ids, and the filter's cache key. */
  readonly query: string;
  /** Its normalised name ('' when nothing of it is a letter or digit: then only ids match). */
  readonly name: string;
}

export function playerFilter(query: string | undefined): PlayerFilter | undefined {
  if (query === undefined) return undefined;
  const trimmed = query.trim();
  return { query: trimmed, name: normalizePlayerName(trimmed) };
}

/** Normalised names of roster entries (a market's player object is the roster's own, held while the event lasts). */
const normalisedNames = new WeakMap<Player, string>();

export function normalisedName(player: Player): string {
  let name = normalisedNames.get(player);
  if (name === undefined) normalisedNames.set(player, (name = normalizePlayerName(player.name)));
  return name;
}

export function matchesPlayer(player: Player | undefined, filter: PlayerFilter): boolean {
  if (!player) return false;
  return player.id === filter.query || (filter.name !== '' && normalisedName(player) === filter.name);
}

/** Whether a market passes the market filters (type, period, player, stat) of /v1/odds and the stream's snapshot. */
export function matchesMarket(market: MarketState, filters: OddsFilters): boolean {
  const spec = market.spec;
  if (filters.markets && !filters.markets.has(spec.type)) return false;
  if (filters.period && spec.period !== filters.period) return false;
  if (filters.player || filters.stats) {
    if (spec.type !== 'prop') return false;
    if (filters.stats && !filters.stats.has(spec.stat)) return false;
    if (filters.player && !matchesPlayer(market.player, filters.player)) return false;
  }
  return true;
}

/** One market as visible at `at`, or null when no book had quoted it by then. `main` is decided by the caller. */
export function marketView(
  store: OddsStore,
  event: OddsEvent,
  market: MarketState,
  at: number | undefined,
  books: ReadonlySet<SportsbookKey> | undefined,
): MarketDto | null {
  let any = false;
  const outcomes = market.outcomes.map((outcome, index) => {
    const prices: PriceDto[] = [];
    for (const newest of pricesOf(market, index)) {
      if (books && !books.has(newest.book)) continue;
      const version = visibleVersion(store, newest, at);
      if (version) prices.push(toPriceDto(version));
    }
    prices.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
    if (prices.length > 0) any = true;
    return { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player), prices };
  });
  if (!any) return null;
  const spec = market.spec;
  if (spec.type === 'prop') {
    return {
      key: market.key,
      type: spec.type,
      period: spec.period,
      stat: spec.stat,
      // The engine sets the player of every prop market it makes (store.marketFor); the fallback only keeps the
      // answer valid should one ever lack it.
      player: market.player
        ? toPlayerDto(market.player, event)
        : { id: spec.playerId, name: spec.playerId, team: null },
      point: spec.point,
      label: specLabel(spec, market.player),
      main: true,
      outcomes,
    };
  }
  // Game lines carry no `stat` or `player` key at all (not null): their JSON is what it was before props.
  return {
    key: market.key,
    type: spec.type,
    period: spec.period,
    point: spec.point,
    label: specLabel(spec),
    main: true,
    outcomes,
  };
}

/** The group a line competes in for `main`: its type and period, and for a prop its stat and player too. */
function mainGroup(market: MarketDto): string {
  return market.type === 'prop'
    ? `prop|${market.period}|${market.stat}|${market.player?.id}`
    : `${market.type}|${market.period}`;
}

/**
 * Marks the main line of each (type, period), and of each (player, stat, period) for props: the point quoted on every
 * outcome by the most books; ties go to the line whose prices are closest to even, then to the smaller absolute
 * point. Moneyline, 1X2 and yes/no props (no point) are always main.
 */
export function markMainLines(markets: MarketDto[]): void {
  const groups = new Map<string, MarketDto[]>();
  for (const market of markets) {
    if (market.point === null) continue;
    const key = mainGroup(market);
    const group = groups.get(key);
    if (group) group.push(market);
    else groups.set(key, [market]);
  }
  for (const group of groups.values()) {
    let best: { market: MarketDto; books: number; skew: number } | undefined;
    for (const market of group) {
      market.main = false;
      const bookSets = market.outcomes.map((outcome) => new Set(outcome.prices.map((price) => price.book)));
      const books = [...bookSets[0]!].filter((book) => bookSets.every((set) => set.has(book))).length;
      const averages = market.outcomes.map(
        (outcome) =>
          outcome.prices.reduce((sum, price) => sum + price.implied_prob, 0) /
          Math.max(1, outcome.prices.length),
      );
      const skew = Math.abs((averages[0] ?? 0) - (averages[1] ?? 0));
      const better =
        !best ||
        books > best.books ||
        (books === best.books && skew < best.skew) ||
        (books === best.books &&
          skew === best.skew &&
          Math.abs(market.point!) < Math.abs(best.market.point!));
      if (better) best = { market, books, skew };
    }
    if (best) best.market.main = true;
  }
}

export function eventOdds(
  store: OddsStore,
  event: OddsEvent,
  at: number | undefined,
  filters: OddsFilters,
): EventOddsDto | null {
  const markets: MarketDto[] = [];
  for (const market of store.markets(event.id)) {
    if (!matchesMarket(market, filters)) continue;
    // Main lines are decided over every book, whatever books the client asked for.
    const view = marketView(store, event, market, at, undefined);
    if (view) markets.push(view);
  }
  markMainLines(markets);
  const out: MarketDto[] = [];
  for (const market of markets) {
    if (filters.mainOnly && !market.main) continue;
    if (filters.books) {
      const outcomes = market.outcomes.map((outcome) => ({
        ...outcome,
        prices: outcome.prices.filter((price) => filters.books!.has(price.book)),
      }));
      if (outcomes.every((outcome) => outcome.prices.length === 0)) continue;
      out.push({ ...market, outcomes });
    } else out.push(market);
  }
  if (out.length === 0) return null;
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { event: toEventDto(event), markets: out };
}

export interface ArbFilters {
  live?: boolean | undefined;
  league?: string | undefined;
  minEdge?: number | undefined;
  books?: ReadonlySet<string> | undefined;
  /** Market types (`prop` for player props): an arb without `market_type` (an older snapshot) passes none. */
  markets?: ReadonlySet<string> | undefined;
}

export function filterArbs(arbs: readonly Arb[], store: OddsStore, filters: ArbFilters): Arb[] {
  return arbs.filter((arb) => {
    if (filters.live !== undefined && arb.event.live !== filters.live) return false;
    if (filters.minEdge !== undefined && arb.edge_pct < filters.minEdge) return false;
    if (filters.books && !arb.sides.every((side) => filters.books!.has(side.sportsbook))) return false;
    if (filters.markets && (arb.market_type === undefined || !filters.markets.has(arb.market_type)))
      return false;
    if (filters.league !== undefined && store.event(arb.event.id)?.league !== filters.league) return false;
    return true;
  });
}

/**
 * The store's market an arb was found in, by its first side's id (the hash of the market's key, outcome and book: see
 * `sideId`); undefined when the store no longer holds it. The feed's Arb carries the market's type and label only, so
 * the stream's filters on period, stat and player find the market here (issue 56).
 */
export function arbMarket(store: OddsStore, arb: Arb): MarketState | undefined {
  const side = arb.sides[0];
  if (!side) return undefined;
  const book = side.sportsbook as SportsbookKey;
  for (const market of store.markets(arb.event.id)) {
    if (arb.market_type !== undefined && market.spec.type !== arb.market_type) continue;
    for (const outcome of market.outcomes)
      if (sideId(arb.event.id, market.spec, outcome, book) === side.id) return market;
  }
  return undefined;
}

/**
 * One event's odds as cached JSON bytes. `id` is unique per rendering (a new one whenever the event's odds are
 * rendered again), so a list of ids identifies a league answer's content; `piece` is made on the first request
 * that accepts gzip and then shared by every later one.
 */
export interface OddsPart {
  readonly id: number;
  readonly raw: Buffer;
  /** Its raw deflate piece with CRC (gzip-join.ts), made on first use. */
  piece?: DeflatedPiece;
}

let nextPartId = 1;

/**
 * Rendered JSON of `eventOdds` per event, filters and instant, so that a league's odds cost a concatenation of cached
 * bytes rather than a rebuild per request. Real-time entries are dropped when a price of their event changes. Delayed
 * entries are keyed by their horizon floored to the second (never later than the plan allows) and are immutable: no
 * version received after that instant can ever be visible at it. Only the current second's delayed entries are kept.
 */
export class OddsJsonCache {
  private readonly realTime = new Map<string, Map<string, OddsPart | null>>();
  private delayed = new Map<string, OddsPart | null>();
  private delayedSecond = Number.NaN;
  private readonly unsubscribe: () => void;
  hits = 0;
  misses = 0;

  constructor(
    store: OddsStore,
    /** The store a read at `at` uses (the engine's `storeAt`); by default `store` for every instant. */
    private readonly storeAt: (at: number | undefined) => OddsStore = () => store,
  ) {
    this.unsubscribe = store.subscribe((change) => this.realTime.delete(change.eventId));
  }

  /** The horizon a delayed read should use: `at` floored to the second (undefined stays real time). */
  static floor(at: number | undefined): number | undefined {
    return at === undefined ? undefined : Math.floor(at / 1000) * 1000;
  }

  /** The event's odds as JSON bytes, or null when nothing is visible. `at` must already be floored. */
  get(event: OddsEvent, at: number | undefined, filters: OddsFilters, filterKey: string): OddsPart | null {
    const key = `${filterKey}|${event.live}|${event.startsAt}`;
    let entries: Map<string, OddsPart | null> | undefined;
    if (at === undefined) {
      entries = this.realTime.get(event.id);
      if (!entries) this.realTime.set(event.id, (entries = new Map()));
    } else {
      if (at !== this.delayedSecond) {
        this.delayed = new Map();
        this.delayedSecond = at;
      }
      entries = this.delayed;
    }
    const entryKey = at === undefined ? key : `${event.id}|${key}`;
    const cached = entries.get(entryKey);
    if (cached !== undefined) {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const odds = eventOdds(this.storeAt(at), event, at, filters);
    const part = odds ? { id: nextPartId++, raw: Buffer.from(JSON.stringify(odds)) } : null;
    // Bounded: a client cycling through filter combinations cannot grow it without limit.
    if (entries.size >= 256) entries.clear();
    entries.set(entryKey, part);
    return part;
  }

  close(): void {
    this.unsubscribe();
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A game's score as GET /v1/scores and the stream's `score` events give it (a final with its box score, if any). */
export function scoreDto(score: GameScore): GameScoreDto {
  return {
    event_id: score.eventId,
    league: score.league,
    home_team: score.home.name,
    away_team: score.away.name,
    commence_time: iso(score.startsAt),
    status: score.status,
    score: score.score,
    periods: { ...score.periods, full: score.score },
    clock: score.clock,
    updated_at: iso(score.updatedAt),
    completed_at: score.completedAt === null ? null : iso(score.completedAt),
    periods_reported: score.periodScores,
    players:
      score.players?.map((player) => ({
        player_id: player.id,
        name: player.name,
        team: player.team === '' ? null : player.team,
        played: player.played,
        periods: player.periods,
      })) ?? null,
  };
}
