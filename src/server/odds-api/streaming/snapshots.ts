import { arbKey } from '#domain/arb-feed.ts';
import type { Period } from '#domain/markets.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { FeedEngine } from '../../feed/plugin.ts';
import {
  arbMarket,
  eventOdds,
  filterArbs,
  listEvents,
  matchesMarket,
  scoreDto,
  type OddsFilters,
} from '../views.ts';
import type { Change, ChangeLog } from './change-log.ts';
import { viewEntry } from './plan-arb-view.ts';
import { evData, middleData } from './value-changes.ts';
import {
  frameWithId,
  matches,
  type Group,
  type StreamClient,
  type StreamFilters,
  type Tier,
} from './fan-out.ts';

// The `snapshot` event a stream opens with (or gets when its Last-Event-ID cannot be replayed). It is built once per
// tier and filters and shared by every client opening in that group for `snapshotReuseMs`, built and sent a few
// milliseconds at a time, then followed by the entries released since it was built, and the client goes live in the
// same turn: the hand-over of a replay, so nothing is missed or sent twice (docs/decisions/087).

export interface SnapshotOptions {
  /**
   * A snapshot, and the entries that follow it while its client catches up, are encoded in pieces of about this many
   * bytes, written one at a time.
   */
  snapshotChunkBytes: number;
  /** A group's encoded snapshot is reused by clients opening within this long of its build. */
  snapshotReuseMs: number;
  /** A client that has not received its snapshot and the changes since within this long is dropped as slow. */
  catchUpMs: number;
  /** Snapshot work (building and writing, all clients together) done per turn of the event loop, at most. */
  sliceMs: number;
  sliceBytes: number;
}

/**
 * Spreads the snapshot work of every opening client over turns of the event loop: each turn does at most `sliceMs` of
 * building and `sliceBytes` of writing, then the waiting clients go on, in turn, after the I/O of the next one (so
 * that other requests, /healthz among them, are served in between). Bytes are counted rather than timed for writes,
 * because the socket copies them after the turn's microtasks.
 */
class Pacer {
  private started = -1;
  private bytes = 0;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly sliceMs: number,
    private readonly sliceBytes: number,
  ) {}

  /** Settles once this turn has room for `bytes` more (0: time only). */
  async take(bytes: number): Promise<void> {
    for (;;) {
      if (this.started < 0) {
        this.started = performance.now();
        this.bytes = 0;
        setImmediate(() => this.nextTurn());
      }
      if (this.bytes < this.sliceBytes && performance.now() - this.started < this.sliceMs) {
        this.bytes += bytes;
        return;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private nextTurn() {
    this.started = -1;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}

/** Gathers text into Buffers of about `size` bytes. */
class Pieces {
  readonly done: Buffer[] = [];
  private parts: string[] = [];
  private length = 0;
  constructor(private readonly size: number) {}
  add(text: string) {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= this.size) this.flush();
  }
  flush(): Buffer[] {
    if (this.parts.length > 0) this.done.push(Buffer.from(this.parts.join('')));
    this.parts = [];
    this.length = 0;
    return this.done;
  }
}

/** One snapshot event of a tier and filters, encoded once and written to every client opening in that group. */
interface SharedSnapshot {
  builtAt: number;
  filters: StreamFilters;
  /** The whole SSE event (`id`, `event: snapshot`, `data`), in pieces of about `snapshotChunkBytes`. */
  pieces: Promise<Buffer[]>;
  /** The group's entries after the snapshot's seq up to `coveredTo`, rendered once for all its clients. */
  since: Buffer[];
  coveredTo: number;
  /** A delayed tier's: the arbs of its plan's view the snapshot holds, by `key` (decision 223). */
  arbs?: Map<string, Arb>;
}

export class Snapshots {
  /** Snapshot events encoded since start (each shared by the clients of its group opening within a second). */
  builds = 0;
  private readonly pacer: Pacer;
  /** Encoded snapshots by tier and filter key, younger than `snapshotReuseMs`. */
  private readonly shared = new Map<Tier, Map<string, SharedSnapshot>>();

  /**
   * `dropSlow`: what the hub does with a client that did not catch up in time; `fail`: with one whose snapshot could
   * not be built (it ends the stream; the client reconnects and gets a new one).
   */
  constructor(
    private readonly engine: FeedEngine,
    private readonly options: SnapshotOptions,
    private readonly log: ChangeLog,
    private readonly now: () => number,
    private readonly dropSlow: (client: StreamClient) => void,
    private readonly fail: (client: StreamClient) => void,
    /** A delayed tier's arbs, as its plan gets them now (undefined: the real-time tier, which reads the log's). */
    private readonly viewArbs: (tier: Tier) => Change[] | undefined,
    /** The frames that bring a client of a delayed tier from its snapshot's arbs to the view's now. */
    private readonly resync: (client: StreamClient, had: ReadonlyMap<string, Arb>) => string,
  ) {
    this.pacer = new Pacer(options.sliceMs, options.sliceBytes);
  }

  /**
   * Writes the group's shared snapshot piece by piece (each after the previous one has been flushed), then the
   * entries released since it was built, and makes the client live: the same hand-over as a Last-Event-ID replay.
   */
  async send(client: StreamClient): Promise<void> {
    // A reader that stops reading would otherwise hold its slot and its shared snapshot for ever.
    const deadline = setTimeout(() => {
      if (client.live || client.closed) return;
      this.dropSlow(client);
    }, this.options.catchUpMs);
    deadline.unref();
    try {
      await this.catchUp(client);
    } catch {
      // The build failed: end this stream (it reconnects and gets a new snapshot) rather than the process.
      this.fail(client);
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Forgets the shared snapshots older than `snapshotReuseMs`. */
  forgetOld(now: number): void {
    for (const byFilters of this.shared.values())
      for (const [filterKey, shared] of byFilters)
        if (now - shared.builtAt >= this.options.snapshotReuseMs) byFilters.delete(filterKey);
  }

  private async catchUp(client: StreamClient): Promise<void> {
    const { tier, group, sink } = client;
    const byFilters = this.byFilters(tier);
    const shared = this.sharedSnapshot(tier, group, byFilters);
    let pieces: Buffer[];
    try {
      pieces = await shared.pieces;
    } catch (error) {
      if (byFilters.get(group.filterKey) === shared) byFilters.delete(group.filterKey);
      throw error;
    }
    for (const piece of pieces) {
      await this.pacer.take(piece.length);
      if (client.closed) return;
      sink.write(piece);
      await sink.drained();
    }
    // Then the entries since the build, in the segments rendered once for every client of this snapshot (each render
    // and each write paced like the pieces), until the segments cover everything the tier has released: the client is
    // live from that same turn on, so nothing is missed or sent twice.
    for (let written = 0; ;) {
      if (client.closed) return;
      if (written < shared.since.length) {
        const segment = shared.since[written++]!;
        await this.pacer.take(segment.length);
        if (client.closed) return;
        sink.write(segment);
        await sink.drained();
      } else if (shared.coveredTo >= tier.released) break;
      else {
        await this.pacer.take(0);
        if (client.closed) return;
        if (!this.extendSince(shared, tier)) {
          // So slow that the changes since the snapshot have left the buffer: like any slow reader, it reconnects.
          this.dropSlow(client);
          return;
        }
      }
    }
    // A delayed tier's arb changes are not in the log: what changed in its view since the build, in this same turn.
    if (shared.arbs) {
      const text = this.resync(client, shared.arbs);
      if (text) sink.write(text);
    }
    client.live = true;
  }

  /**
   * Renders the next segment of the group's entries after `shared.coveredTo`, up to the tier's last release: about
   * `snapshotChunkBytes` of text at most, so that thousands of changes since a build are never rendered in one
   * synchronous step. False when those entries have left the buffer.
   */
  private extendSince(shared: SharedSnapshot, tier: Tier): boolean {
    if (shared.coveredTo >= tier.released) return true;
    if (!this.log.keepsAfter(shared.coveredTo)) return false;
    let text = '';
    let covered = tier.released;
    for (const entry of this.log.between(shared.coveredTo, tier.released)) {
      if (matches(entry, shared.filters)) text += frameWithId(this.log, entry);
      if (text.length >= this.options.snapshotChunkBytes) {
        covered = entry.seq;
        break;
      }
    }
    if (text) shared.since.push(Buffer.from(text));
    shared.coveredTo = covered;
    return true;
  }

  private byFilters(tier: Tier): Map<string, SharedSnapshot> {
    let byFilters = this.shared.get(tier);
    if (!byFilters) this.shared.set(tier, (byFilters = new Map()));
    return byFilters;
  }

  /** The group's snapshot built within `snapshotReuseMs` whose later entries are still buffered, or a new one. */
  private sharedSnapshot(tier: Tier, group: Group, byFilters: Map<string, SharedSnapshot>): SharedSnapshot {
    const now = this.now();
    const cached = byFilters.get(group.filterKey);
    if (
      cached &&
      now - cached.builtAt < this.options.snapshotReuseMs &&
      this.log.keepsAfter(cached.coveredTo)
    )
      return cached;
    this.forgetOld(now);
    const view = this.viewArbs(tier);
    const arbs = view ? new Map<string, Arb>() : undefined;
    const shared: SharedSnapshot = {
      builtAt: now,
      filters: group.filters,
      pieces: this.build(tier, group.filters, tier.released, now, view, arbs),
      since: [],
      coveredTo: tier.released,
    };
    if (arbs) shared.arbs = arbs;
    byFilters.set(group.filterKey, shared);
    this.builds += 1;
    return shared;
  }

  /**
   * The snapshot event for the tier's horizon, encoded event by event and arb by arb, sharing the pacer's `sliceMs`
   * per turn of the event loop with the other snapshots' work, so that a 5 MB board never holds it for long. The arbs
   * are those of the snapshot published at the start; a price that changes during the build may already show in it
   * and also comes after it as a `price` entry (applying it again changes nothing). A delayed tier's arbs are its
   * plan's view (`view`, decision 223): those its filters match are put in `sent` by key.
   */
  private async build(
    tier: Tier,
    filters: StreamFilters,
    seq: number,
    now: number,
    view: Change[] | undefined,
    sent: Map<string, Arb> | undefined,
  ): Promise<Buffer[]> {
    const at = tier.delayMs === 0 ? undefined : now - tier.delayMs;
    const store = this.engine.storeAt(at);
    const kinds = filters.kinds;
    const marketFilters: OddsFilters = {
      markets: filters.markets as ReadonlySet<never> | undefined,
      period: filters.period as Period | undefined,
      player: filters.player,
      stats: filters.stats as ReadonlySet<never> | undefined,
    };
    let arbs: Arb[] = [];
    if (view && sent && (!kinds || kinds.has('arb'))) {
      for (const change of view) {
        if (!matches(viewEntry(change, seq, now), filters)) continue;
        const { key, arb } = change.data as { key: string; arb: Arb };
        arbs.push(arb);
        sent.set(key, arb);
      }
    } else if (!kinds || kinds.has('arb')) {
      const snapshot = at === undefined ? this.engine.latest : this.engine.snapshotAt(at);
      if (snapshot) {
        arbs = filterArbs(snapshot.arbs, store, {
          league: filters.league,
          books: filters.books,
          markets: filters.markets,
        }).filter((arb) => filters.event === undefined || arb.event.id === filters.event);
        // Period, stat and player are read from the arb's market (issue 56: every filter applies to arbs too).
        if (marketFilters.period || marketFilters.player || marketFilters.stats) {
          arbs = arbs.filter((arb) => {
            const market = arbMarket(store, arb);
            return market !== undefined && matchesMarket(market, marketFilters);
          });
        }
      }
    }
    const events =
      kinds && !kinds.has('price')
        ? []
        : filters.event
          ? [store.event(filters.event)].filter((event) => event !== undefined)
          : listEvents(store, { league: filters.league });
    const out = new Pieces(this.options.snapshotChunkBytes);
    const pace = () => this.pacer.take(0);
    out.add(
      `id: ${this.log.id(seq)}\nevent: snapshot\ndata: {"as_of":${JSON.stringify(new Date(at ?? now).toISOString())},"delay_seconds":${JSON.stringify(tier.delayMs / 1000)},"events":[`,
    );
    let first = true;
    for (const event of events) {
      await pace();
      if (filters.league !== undefined && event.league !== filters.league) continue;
      const odds = eventOdds(store, event, at, {
        ...marketFilters,
        books: filters.books as ReadonlySet<never> | undefined,
      });
      if (!odds) continue;
      out.add(first ? JSON.stringify(odds) : `,${JSON.stringify(odds)}`);
      first = false;
    }
    out.add('],"arbs":[');
    first = true;
    for (const arb of arbs) {
      await pace();
      const text = JSON.stringify({ key: arbKey(arb), arb });
      out.add(first ? text : `,${text}`);
      first = false;
    }
    out.add(']');
    // Positive EV and middles when asked for (`types=ev`, `types=middle`): the engine's sets as they stood at the
    // tier's horizon (the newest kept at or before it, as for arbs), filtered as their entries are.
    const values =
      kinds && (kinds.has('ev') || kinds.has('middle')) ? this.engine.valuesAt(at ?? now) : undefined;
    for (const [kind, name] of [
      ['ev', 'ev'],
      ['middle', 'middles'],
    ] as const) {
      if (!kinds?.has(kind)) continue;
      out.add(`,"${name}":[`);
      first = true;
      const rows = kind === 'ev' ? (values?.ev ?? []) : (values?.middles ?? []);
      for (const row of rows) {
        if (filters.league !== undefined && row.league !== filters.league) continue;
        if (filters.event !== undefined && row.eventId !== filters.event) continue;
        if (!matchesMarket('books' in row ? row.high.market : row.market, marketFilters)) continue;
        if (filters.books) {
          const books = 'books' in row ? row.books : [row.book];
          if (!books.every((book) => filters.books!.has(book))) continue;
        }
        await pace();
        const text = JSON.stringify('books' in row ? middleData(row) : evData(row));
        out.add(first ? text : `,${text}`);
        first = false;
      }
      out.add(']');
    }
    // Scores when asked for (`types=score`, decision 260): every live game and recent final as it stood at the tier's
    // horizon (the scoreboard keeps each game's earlier states for longer than any delay), by league and event only.
    if (kinds?.has('score')) {
      out.add(',"scores":[');
      first = true;
      const scores = at === undefined ? this.engine.scores.list() : this.engine.scores.listAt(at);
      for (const score of scores) {
        if (filters.league !== undefined && score.league !== filters.league) continue;
        if (filters.event !== undefined && score.eventId !== filters.event) continue;
        await pace();
        const text = JSON.stringify(scoreDto(score));
        out.add(first ? text : `,${text}`);
        first = false;
      }
      out.add(']');
    }
    out.add('}\n\n');
    return out.flush();
  }
}
