import type { OddsEvent, PriceLinks } from '#domain/markets.ts';
import type { Arb, FeedSource } from '#domain/schemas/feed.ts';
import { EventRegistry } from './events.ts';
import { FoundAt } from './found-at.ts';
import {
  Intake,
  type CheckedEnd,
  type CheckedEvent,
  type CheckedMessage,
  type CheckedPrice,
  type IngestLimits,
} from './ingest.ts';
import type { DropCounters, DropReason } from './messages.ts';
import { ArbsJson, cappedFeedBody, SnapshotHistory, type PastSnapshot, type Snapshot } from './publisher.ts';
import {
  DEFAULT_SCAN_OPTIONS,
  maxAgeFor,
  rankArbs,
  rankResults,
  rescanMarkets,
  type MarketResult,
  type ScanOptions,
} from './scanner.ts';
import { matchPlayer, type SingleMatch } from '#domain/player-matching.ts';
import type { Player } from '#domain/props.ts';
import {
  BOOK_COUNT,
  lastScanAt,
  marketCode,
  OddsStore,
  propMarketCode,
  type EventState,
  type MarketState,
  PRICE_ROW,
} from './store.ts';
import { ScoreBoard } from './scores.ts';
import { PRICE_SUSPENDED } from './versions.ts';
import { ValueScanner, type ValueChanges, type ValueOptions, type ValueSets } from './values/scanner.ts';

// The odds engine: hands what sources send to the intake (ingest.ts), applies the checked messages to the store,
// re-scans only the markets that changed, and publishes feed snapshots at most every `publishIntervalMs` when the
// arbs changed.

export interface EngineOptions<E> {
  source: FeedSource;
  /** Clock (unix ms); tests and benchmarks pass a virtual one. */
  now?: () => number;
  scan?: Partial<ScanOptions>;
  /** At most this many arbs in the feed (best first). */
  maxArbs?: number;
  publishIntervalMs?: number;
  /** Plausible odds and times (odds range, start and update windows, clock skew); the rest is dropped and counted. */
  limits?: Partial<IngestLimits>;
  historyMs?: number;
  historyStepMs?: number;
  /**
   * Keep the positive-EV and middles sets with the scan (values/scanner.ts; decision 170): only what changed is judged again
   * on each tick, and listeners hear what was added, changed and removed. Off unless asked.
   */
  values?: Partial<ValueOptions>;
  /** Turns the public body into what readers need (the server: compressed forms and an ETag). */
  encode?: (body: Buffer) => E;
  /**
   * Whether a snapshot's body is wanted at once (the server: the public feed was read lately): then it is built and
   * encoded as it is published; otherwise when first read (`Snapshot.body`, `encoded`). Absent: when first read.
   */
  bodyWanted?: () => boolean;
  /**
   * The public feed's edge cap (the free tier's, decision 210): `encode` gets a body with the arbs at or below it in
   * full and the others only counted (`cappedFeedBody`); the snapshot's `body` and `arbs` keep every arb. Undefined:
   * the public body is the whole feed.
   */
  publicEdgeCapPct?: number | undefined;
  onDrop?: (reason: DropReason, count: number) => void;
}

export interface EngineStats {
  source: FeedSource;
  accepted: number;
  dropped: number;
  drops: DropCounters;
  events: number;
  markets: number;
  arbs: number;
  published: number;
  /** Market scans so far (a price update re-scans only its market). */
  scans: number;
  lastPublishedAt: number | null;
}

export class OddsEngine<E = undefined> {
  readonly store: OddsStore;
  readonly source: FeedSource;
  /** Live scores and recent finals (issue 57). */
  readonly scores: ScoreBoard;
  private readonly registry = new EventRegistry();
  private readonly history: SnapshotHistory<E>;
  private readonly scan: ScanOptions;
  private readonly now: () => number;
  private readonly maxArbs: number;
  private readonly publishIntervalMs: number;
  private readonly intake: Intake;
  private readonly encode: (body: Buffer) => E;
  private readonly bodyWanted: () => boolean;
  private readonly publicEdgeCapPct: number | undefined;
  private readonly dirty = new DirtyMarkets();
  private readonly results = new Map<string, MarketResult>();
  private readonly listeners = new Set<(snapshot: Snapshot<E>) => void>();
  private readonly valueListeners = new Set<(changes: ValueChanges) => void>();
  /** The positive-EV and middles sets, when `values` asked for them. */
  readonly values: ValueScanner | undefined;
  private readonly foundAt = new FoundAt();
  /** A source's event id → the event's state, so that a price finds its event in one lookup (dropped when removed). */
  private readonly eventsBySource = new Map<string, EventState>();
  private accepted = 0;
  private published = 0;
  private scans = 0;
  private changed = true;
  private ready = false;
  /** The worst edge of the last ranking when it filled the feed (`rankResults`' floor), else -Infinity. */
  private rankFloor = Number.NEGATIVE_INFINITY;
  /** The results, iterable again and again (a ranking with a floor may read them twice). */
  private readonly resultValues: Iterable<MarketResult> = { [Symbol.iterator]: () => this.results.values() };
  /** Writes the feed's arbs, keeping the JSON of each arb it wrote last (publisher.ts `ArbsJson`). */
  private readonly arbsJson = new ArbsJson();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly historyMs: number;
  /** What `retire()` kept for delayed readers before `until`. */
  private retired: { store: OddsStore; until: number } | undefined;

  constructor(options: EngineOptions<E>) {
    this.source = options.source;
    this.now = options.now ?? Date.now;
    this.scan = { ...DEFAULT_SCAN_OPTIONS, ...options.scan };
    this.maxArbs = options.maxArbs ?? 300;
    this.publishIntervalMs = options.publishIntervalMs ?? 250;
    this.intake = new Intake(options.limits, options.onDrop);
    this.encode = options.encode ?? ((() => undefined) as unknown as (body: Buffer) => E);
    this.publicEdgeCapPct = options.publicEdgeCapPct;
    this.bodyWanted = options.bodyWanted ?? (() => false);
    const historyMs = options.historyMs ?? 180_000;
    this.historyMs = historyMs;
    this.store = new OddsStore(historyMs);
    this.scores = new ScoreBoard(this.now);
    this.history = new SnapshotHistory<E>(historyMs, options.historyStepMs ?? 1_000);
    const values = { ev: false, middles: false, ...options.values };
    this.values =
      values.ev || values.middles
        ? new ValueScanner(values, this.scan, historyMs, options.historyStepMs ?? 1_000)
        : undefined;
  }

  /**
   * The source has delivered its initial state (or given up on it): from now on ticks publish. Before this, the feed
   * route answers 503 rather than an empty feed that would look like "no arbs".
   */
  markReady(): void {
    this.ready = true;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Counts a message dropped before it became a message (payload too large, not JSON). */
  drop(reason: DropReason, count = 1): void {
    this.intake.drop(reason, count);
  }

  /**
   * Checks and applies an untrusted payload (a JSON message or an array of them): refused whole when over
   * `maxBytes` (checked before parsing) or not JSON. Returns how many messages were accepted.
   */
  ingestPayload(body: string | Uint8Array, maxBytes?: number): number {
    const messages = this.intake.parse(body, maxBytes);
    if (!messages) return 0;
    let accepted = 0;
    for (const message of messages) if (this.ingest(message)) accepted += 1;
    return accepted;
  }

  /**
   * Checks and applies one untrusted message. Returns whether it was accepted. `at` (default: the clock) is the time
   * of receipt: an `api` instance replaying the ingest leader's accepted messages passes the leader's (issue 19).
   */
  ingest(message: unknown, at?: number): boolean {
    const now = at ?? this.now();
    const checked = this.intake.check(message, now);
    if (!checked) return false;
    const refused = this.apply(checked, now);
    if (refused) {
      this.intake.drop(refused);
      return false;
    }
    this.accepted += 1;
    return true;
  }

  /**
   * Applies a checked message. Returns null, or why the store cannot take it: the message is valid but names a
   * fixture the engine does not hold, or a market its league does not offer (decision 095).
   */
  private apply(message: CheckedMessage, now: number): DropReason | null {
    switch (message.kind) {
      case 'price':
        return this.applyPrice(message, now);
      case 'event':
        this.applyEvent(message);
        return null;
      case 'end':
        return this.applyEnd(message);
      case 'score': {
        const id = this.registry.lookup(message.sourceEventId);
        const event = id ? this.store.event(id) : undefined;
        if (!event) return 'unknown_event';
        const roster = this.store.eventState(event.id)?.players;
        this.scores.apply(event, message, now, (player) => roster?.get(player)?.player);
        return null;
      }
    }
  }

  private applyEvent(value: CheckedEvent): void {
    // A league is part of a fixture's identity (its id, its matching, the markets it may have): a source that changes
    // it names another fixture. The one it named before ends, and this one starts (decision 148).
    const known = this.registry.lookup(value.sourceEventId);
    if (known !== undefined && this.store.event(known)?.league !== value.league)
      this.applyEnd({ kind: 'end', sourceEventId: value.sourceEventId });
    const id = this.registry.resolve(
      value.sourceEventId,
      value.league,
      value.home,
      value.away,
      value.startsAt,
    );
    const previous = this.store.event(id);
    const event: OddsEvent = {
      id,
      league: value.league,
      home: previous?.home ?? value.home,
      away: previous?.away ?? value.away,
      startsAt: value.startsAt,
      live: value.live,
    };
    const state = this.store.upsertEvent(event);
    if (value.players.length > 0) this.store.addPlayers(state, value.players);
    if (!previous || previous.live !== event.live || previous.startsAt !== event.startsAt) {
      for (const market of state.markets.values()) this.dirty.add(market);
      this.values?.touchEvent(state);
    }
  }

  private applyEnd(value: CheckedEnd): DropReason | null {
    const id = this.registry.lookup(value.sourceEventId);
    if (!id) return 'unknown_event';
    const markets = this.store.removeEvent(id);
    this.scores.ended(id);
    for (const market of markets) {
      this.dirty.delete(market);
      if (this.results.delete(market.key)) this.changed = true;
    }
    this.values?.drop(markets);
    this.registry.forget(id);
    for (const [sourceId, state] of this.eventsBySource)
      if (state.removed) this.eventsBySource.delete(sourceId);
    return null;
  }

  private applyPrice(value: CheckedPrice, now: number): DropReason | null {
    let eventState = this.eventsBySource.get(value.sourceEventId);
    if (eventState === undefined || eventState.removed) {
      const eventId = this.registry.lookup(value.sourceEventId);
      eventState = eventId ? this.store.eventState(eventId) : undefined;
      if (!eventState) return 'unknown_event';
      if (this.eventsBySource.size >= MAX_CACHED_SOURCE_IDS) this.eventsBySource.clear();
      this.eventsBySource.set(value.sourceEventId, eventState);
    }
    let market: MarketState | undefined;
    if (value.type === 'prop') {
      const player = this.resolvePlayer(eventState, value);
      if (typeof player === 'string') return player;
      const code = propMarketCode(value.stat!, value.periodCode, player.index, value.point);
      market =
        eventState.byCode.get(code) ??
        this.store.marketFor(
          eventState,
          code,
          {
            type: 'prop',
            stat: value.stat!,
            period: value.period,
            playerId: player.player.id,
            point: value.point,
          },
          player.player,
        );
    } else {
      const code = marketCode(value.typeCode, value.periodCode, value.point);
      market =
        eventState.byCode.get(code) ??
        this.store.marketFor(eventState, code, {
          type: value.type,
          period: value.period,
          point: value.point,
        });
    }
    if (!market) return 'unknown_market';
    const slot = value.bookSlot;
    const index = value.outcomeIndex * BOOK_COUNT + slot;
    // The price's columns in the market's block (store.ts `MarketState.hot`): no object is read to apply an update.
    const hot = market.hot;
    const cells = market.cells;
    const row = market.at + market.columns + index * PRICE_ROW;
    const flags = hot[row + 4]!;
    const held = market.links[index];
    const links = value.links ?? held ?? NO_LINKS;
    const maxAge = maxAgeFor(eventState.event, this.scan);
    let refresh = false;
    if (flags === 0) {
      this.store.put(market, index, value.outcomeIndex, value.book, value, links, now);
    } else if (
      hot[row + 1] === value.american &&
      hot[row] === value.decimal &&
      ((flags & PRICE_SUSPENDED) !== 0) === value.suspended &&
      sameLinks(held!, links) &&
      value.updatedAt >= hot[market.at + cells + index]!
    ) {
      // A re-confirmation (same odds, links and suspension): the newest version takes this receipt's times, keeping
      // the earlier ones for delayed readers, instead of a whole new version. If the price was still usable it
      // changes no combination: the market is not re-scanned. Its result may be re-scanned at the old expiry, which
      // then finds it unchanged.
      refresh = !value.suspended && now - hot[market.at + cells + index]! <= maxAge;
      this.store.confirm(market, index, value, now);
    } else {
      // A new version: the price's columns take its fields (the one it replaces joins the version ring).
      this.store.update(market, index, value, links, now);
    }
    // Every new price may move its market's fair (and a game's middles): the value scan judges it again. A re-quote at
    // the same odds of a usable price changes neither (only the time a kept row shows).
    if (!refresh) this.values?.touch(market, index);
    // A price outside the best few of its outcome at the last scan, that still is not among them, cannot change any
    // published combination (they are built from those best prices only): no re-scan either. When the last scan found
    // that the outcomes' best prices alone could not pass the floor (`bounded`), the record holds each outcome's best:
    // a price not above it, from any book, or one that cannot be used, cannot lower the bound (`scanMarket`). The price
    // now has the message's odds, suspension and book time.
    const ways = market.outcomes.length;
    const record = market.at + lastScanAt(ways) + value.outcomeIndex;
    const unusable = value.suspended || now - value.updatedAt > maxAge;
    const irrelevant =
      market.scanned &&
      (market.bounded
        ? unusable || value.decimal <= hot[record + ways]!
        : (hot[record]! & (1 << slot)) === 0 && (unusable || value.decimal < hot[record + ways]!));
    if (!refresh && !irrelevant) this.dirty.add(market);
    return null;
  }

  /**
   * The roster entry a prop price names (by id, then by normalised name and team; decision 120), or why it is dropped:
   * `unknown_player` (not on the roster, or listed under the other team), `ambiguous_player` (two players could be
   * meant). Matches are cached per naming until the roster grows.
   */
  private resolvePlayer(
    eventState: EventState,
    value: CheckedPrice,
  ): { player: Player; index: number } | 'unknown_player' | 'ambiguous_player' {
    if (value.playerId !== null) {
      const byId = eventState.players.get(value.playerId);
      if (byId) return byId;
    }
    const index = eventState.rosterIndex;
    if (!index) return 'unknown_player';
    let match: SingleMatch | undefined;
    const team = value.playerTeam ?? '';
    let byTeam: Map<string, SingleMatch> | undefined;
    let naming = '';
    if (value.playerId === null) {
      byTeam = eventState.nameMatches.get(value.playerName);
      match = byTeam?.get(team);
    } else {
      naming = `${value.playerId}\u0000${value.playerName}\u0000${team}`;
      match = eventState.playerMatches.get(naming);
    }
    if (!match) {
      match = matchPlayer(index, { id: value.playerId, name: value.playerName, team: value.playerTeam });
      if (eventState.matchCount < MAX_CACHED_MATCHES) {
        eventState.matchCount += 1;
        if (value.playerId !== null) eventState.playerMatches.set(naming, match);
        else {
          if (byTeam === undefined) {
            byTeam = new Map();
            eventState.nameMatches.set(value.playerName, byTeam);
          }
          byTeam.set(team, match);
        }
      }
    }
    if (match.status === 'matched') return eventState.players.get(match.player.id)!;
    return match.status === 'ambiguous' ? 'ambiguous_player' : 'unknown_player';
  }

  /**
   * Re-scans the markets that changed or whose arbs reached a price's age limit, and publishes a snapshot when the
   * arbs changed. Returns the new snapshot, or undefined when nothing changed.
   */
  tick(): Snapshot<E> | undefined {
    if (!this.ready) return undefined;
    const now = this.now();
    // forEach rather than for…of over entries: no [key, entry] pair allocated per result and tick.
    this.results.forEach((entry, key) => {
      if (entry.validUntil <= now) {
        const market = this.store.market(key);
        if (market) this.dirty.add(market);
        else this.results.delete(key);
      }
    });
    const dirty = this.dirty.markets();
    this.scans += dirty.length;
    if (rescanMarkets(dirty, now, this.scan, this.results)) this.changed = true;
    this.dirty.clear();
    this.scanValues(now);
    if (!this.changed && this.history.latest) return undefined;
    this.changed = false;
    // The last ranking's worst edge, when the feed was full, is where this one's gathering starts (`rankResults`).
    const { arbs, keys } = rankResults(this.resultValues, this.maxArbs, this.rankFloor);
    this.rankFloor =
      arbs.length === this.maxArbs && arbs.length > 0
        ? arbs[arbs.length - 1]!.edge_pct
        : Number.NEGATIVE_INFINITY;
    const generatedAt = Math.floor(now / 1000);
    this.foundAt.stamp(arbs, keys, generatedAt);
    this.arbsJson.update(arbs);
    if (!this.arbsJson.changed && this.history.latest) return undefined;
    const snapshot = this.lazySnapshot(now, generatedAt, arbs, keys);
    // While the body is wanted (the public feed read lately), it is built and encoded now, ready for its readers.
    if (this.bodyWanted()) void snapshot.encoded;
    this.history.add(snapshot);
    this.published += 1;
    for (const listener of this.listeners) listener(snapshot);
    return snapshot;
  }

  /**
   * Publishes a snapshot built elsewhere: an `api` instance installs the ingest leader's, byte for byte, instead of
   * scanning (issue 19). Its arbs are those the body was serialised from.
   */
  install(snapshot: Omit<Snapshot<E>, 'encoded'>): Snapshot<E> {
    this.ready = true;
    // The values are not on the leader's stream: each instance judges its own store (the same prices) at the
    // snapshot's instant, so that every instance makes the same changes.
    this.scanValues(snapshot.at);
    const installed: Snapshot<E> = {
      ...snapshot,
      encoded: this.encode(
        this.publicBody(snapshot.at, snapshot.arbs, snapshot.body, (arb) => Buffer.from(JSON.stringify(arb))),
      ),
    };
    this.history.add(installed);
    this.published += 1;
    for (const listener of this.listeners) listener(installed);
    return installed;
  }

  /**
   * A snapshot whose body and encoded forms are built when first read (issue 59: no bytes for a feed no client reads),
   * from the arbs' JSON as this tick left it: the same bytes as when built at once. Only the newest snapshot has them
   * (the history keeps arbs), so one that nobody read before the next is never built.
   */
  private lazySnapshot(
    at: number,
    generatedAt: number,
    arbs: readonly Arb[],
    keys: readonly string[],
  ): Snapshot<E> {
    const arbsJson = this.arbsJson;
    const taken = arbsJson.last();
    const source = this.source;
    let body: Buffer | undefined;
    let encoded: { value: E } | undefined;
    const bodyOf = (): Buffer => (body ??= arbsJson.bodyOf(at, source, taken));
    const encodedOf = (): E => (encoded ??= { value: this.encodeBody(at, arbs, bodyOf()) }).value;
    return {
      at,
      generatedAt,
      arbs,
      keys,
      get body(): Buffer {
        return bodyOf();
      },
      get encoded(): E {
        return encodedOf();
      },
    };
  }

  private encodeBody(at: number, arbs: readonly Arb[], body: Buffer): E {
    return this.encode(this.publicBody(at, arbs, body, (arb) => this.arbsJson.bytesOf(arb)));
  }

  /** The body readers of the public feed get: the whole feed, or its arbs under the public cap (decision 210). */
  private publicBody(at: number, arbs: readonly Arb[], body: Buffer, bytesOf: (arb: Arb) => Buffer): Buffer {
    const cap = this.publicEdgeCapPct;
    return cap === undefined ? body : cappedFeedBody(at, this.source, arbs, cap, bytesOf);
  }

  /**
   * Forgets every fixture and price (an ingest instance that loses or takes the lead). Published snapshots stay: the
   * feed keeps its last answer until the next publish.
   */
  clear(): void {
    for (const event of this.store.events()) {
      for (const market of this.store.removeEvent(event.id, true)) this.dirty.delete(market);
      this.registry.forget(event.id);
    }
    this.restart();
  }

  /**
   * Starts over empty, like `clear()`, but what the engine held stays readable for delayed readers whose horizon is
   * before `until` (unix ms), for as long as the versions window could show it (an `api` instance following a new
   * ingest leader, whose market starts at `until`; decision 146). Nothing is announced as removed.
   */
  retire(until: number): void {
    const retired = this.store.handOver();
    for (const event of retired.events()) this.registry.forget(event.id);
    this.retired = { store: retired, until };
    this.restart();
  }

  /**
   * The store a reader at `at` reads (undefined: real time): the one `retire()` kept when `at` is before its end and
   * the window still holds it, else the current one.
   */
  storeAt(at: number | undefined): OddsStore {
    const retired = this.retired;
    if (retired === undefined || at === undefined || at >= retired.until) return this.store;
    if (this.now() - retired.until > this.historyMs) {
      this.retired = undefined;
      return this.store;
    }
    return retired.store;
  }

  private restart(): void {
    this.values?.reset();
    this.results.clear();
    this.dirty.clear();
    this.eventsBySource.clear();
    this.changed = true;
    // Nothing is published again until a source has delivered its initial state (markReady).
    this.ready = false;
  }

  /** The latest snapshot, or undefined before the first publish. */
  get latest(): Snapshot<E> | undefined {
    return this.history.latest;
  }

  /** The newest snapshot published at or before `time` (unix ms): what a reader delayed to `time` may see. */
  snapshotAt(time: number): PastSnapshot | undefined {
    return this.history.at(time);
  }

  /** Judges again the values that changed and tells the listeners. */
  private scanValues(now: number): void {
    if (!this.values) return;
    const changes = this.values.scan(now);
    if (changes) for (const listener of this.valueListeners) listener(changes);
  }

  /** Called with what each tick changed in the positive-EV and middles sets (when `values` asked for them). */
  onValues(listener: (changes: ValueChanges) => void): () => void {
    this.valueListeners.add(listener);
    return () => this.valueListeners.delete(listener);
  }

  /** The positive-EV and middles sets as a reader delayed to `time` sees them (undefined: not kept, or not asked for). */
  valuesAt(time: number): ValueSets | undefined {
    return this.values?.at(time);
  }

  onSnapshot(listener: (snapshot: Snapshot<E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Current arbs (all of them, before the feed's cap), best first. */
  currentArbs(): Arb[] {
    return rankArbs(this.results.values());
  }

  stats(): EngineStats {
    return {
      source: this.source,
      accepted: this.accepted,
      dropped: this.intake.dropped,
      drops: this.intake.drops(),
      events: this.store.eventCount,
      markets: this.store.marketCount,
      arbs: this.history.latest?.arbs.length ?? 0,
      published: this.published,
      scans: this.scans,
      lastPublishedAt: this.history.latest?.at ?? null,
    };
  }

  /** Ticks every `publishIntervalMs` until stop(). The timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.publishIntervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Whether the publish timer runs (between start() and stop()). */
  get running(): boolean {
    return this.timer !== null;
  }
}

/** Bounds an event's cache of player namings (a source that invents names cannot grow it without end). */
const MAX_CACHED_MATCHES = 10_000;

/** Bounds the source id → event cache (a source that invents ids cannot grow it without end). */
const MAX_CACHED_SOURCE_IDS = 100_000;

/** The links of a price whose book sent none (frozen: shared by every such price). */
const NO_LINKS: PriceLinks = Object.freeze({ desktop: null, mobile: null });

function sameLinks(a: PriceLinks, b: PriceLinks): boolean {
  return a === b || (a.desktop === b.desktop && a.mobile === b.mobile);
}

/**
 * The markets to re-scan at the next tick, each once, in the order they were marked: a list, and on each market the
 * round it was marked in. Marking is a field compare and a push, where a `Set` hashed every price update and grew its
 * table again after every tick's clear.
 */
class DirtyMarkets {
  private readonly list: MarketState[] = [];
  private round = 1;

  add(market: MarketState): void {
    const round = market.dirtyRound;
    if (round === this.round) return;
    market.dirtyRound = this.round;
    // Deleted in this round (−round): still in the list, marked again.
    if (round !== -this.round) this.list.push(market);
  }

  delete(market: MarketState): void {
    if (market.dirtyRound === this.round) market.dirtyRound = -this.round;
  }

  /** The markets marked and not deleted since the last `clear` (the list itself: read it before marking more). */
  markets(): readonly MarketState[] {
    const list = this.list;
    let kept = 0;
    for (let i = 0; i < list.length; i += 1) {
      const market = list[i]!;
      if (market.dirtyRound === this.round) list[kept++] = market;
      // Out of the list now: marking it again lists it again.
      else market.dirtyRound = 0;
    }
    list.length = kept;
    return list;
  }

  clear(): void {
    this.list.length = 0;
    this.round += 1;
  }
}
