import { arbKey } from '#domain/arb-feed.ts';
import { marketLabel, outcomeLabel } from '#domain/markets.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { FeedEngine } from '../../plugins/engine.ts';
import type { ApiKeyRecord } from '../../api/keys.ts';
import { delayMs } from '../../api/policy.ts';
import { eventOdds, filterArbs, listEvents, snapshotFeed, toPriceDto } from '../../api/views.ts';

// The fan-out behind GET /v1/stream. Every price change and arb change becomes one entry with a global sequence
// number, its JSON serialised once, in a bounded buffer. Clients are grouped by delay tier (0 s, 15 s, 120 s): a
// tier releases entries once they are older than its delay (delayed plans are served from the buffer, never by
// sleeping per client), and writes each client one chunk per release with the entries its filters match. Within a
// tier, clients with equal filters form a group indexed by league: a release visits only the groups of the leagues
// in the batch (plus those of every league), renders each group's chunk once and writes the same Buffer to each of
// its clients (decision 085).
// Event ids are `<boot>-<seq>`: a Last-Event-ID from this process inside the buffer replays exactly what was missed;
// anything else (too old, another process) gets one `snapshot` event instead. A snapshot is encoded once per tier and
// filters and shared by every client opening in that group for a second, built and sent a few milliseconds at a time,
// then followed by the entries released since it was built (decision 087).

export interface StreamOptions {
  /** A `:` comment line at least this often (the issue asks for at least every 15 s). */
  heartbeatMs: number;
  /** Entries kept for replay (and for the delayed tiers to catch up on). */
  bufferSize: number;
  /** A client whose socket has more than this many bytes queued is dropped (a slow reader). */
  maxQueuedBytes: number;
  /** How often open streams' keys are re-checked against the database (revocation by another instance). */
  recheckMs: number;
  /** How often delayed tiers release entries. */
  releaseMs: number;
  /** Real-time changes are gathered this long before one write per client (bounds writes per second). */
  batchMs: number;
  /** A snapshot is encoded in pieces of about this many bytes, written one at a time (decision 087). */
  snapshotChunkBytes: number;
  /** A group's encoded snapshot is reused by clients opening within this long of its build. */
  snapshotReuseMs: number;
  /** A client that has not received its snapshot and the changes since within this long is dropped as slow. */
  catchUpMs: number;
  /** Snapshot work (building and writing, all clients together) done per turn of the event loop, at most. */
  sliceMs: number;
  sliceBytes: number;
  /**
   * With no client connected for this long, no entry is kept: nobody can replay them, and a client that connects
   * later gets a snapshot. An idle server then holds no buffer and makes no garbage of it (docs/decisions/008).
   */
  idleRetainMs: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  heartbeatMs: 10_000,
  bufferSize: 50_000,
  maxQueuedBytes: 256 * 1024,
  recheckMs: 2_000,
  releaseMs: 250,
  batchMs: 20,
  snapshotChunkBytes: 64 * 1024,
  snapshotReuseMs: 1_000,
  catchUpMs: 60_000,
  sliceMs: 4,
  sliceBytes: 512 * 1024,
  idleRetainMs: 60_000,
};

export type EntryKind = 'price' | 'arb' | 'arb_removed';

export interface Entry {
  seq: number;
  /** When the change became known here (unix ms); a tier releases it once `at <= now − delay`. */
  at: number;
  kind: EntryKind;
  eventId: string;
  league: string | undefined;
  marketType: string | undefined;
  books: readonly string[];
  /** The complete SSE frame minus its `id` line's prefix: `event: …\ndata: …\n\n`. */
  frame: string;
}

export interface StreamFilters {
  league?: string | undefined;
  event?: string | undefined;
  markets?: ReadonlySet<string> | undefined;
  books?: ReadonlySet<string> | undefined;
  kinds?: ReadonlySet<'price' | 'arb'> | undefined;
}

export interface StreamSink {
  /** Bytes queued and not yet flushed to the peer. */
  readonly queuedBytes: number;
  write(chunk: string | Buffer): void;
  end(text?: string): void;
  /** Settles on a later turn of the event loop, once what is queued has been flushed (or the peer has gone). */
  drained(): Promise<void>;
}

export interface StreamClient {
  key: ApiKeyRecord;
  sink: StreamSink;
  tier: Tier;
  group: Group;
  closed: boolean;
  /** False while its snapshot is being sent: live releases and heartbeats skip it until it has caught up. */
  live: boolean;
  /** Settles once the client is live (its snapshot and the entries since then written) or closed. */
  ready: Promise<void>;
}

/** One snapshot event of a tier and filters, encoded once and written to every client opening in that group. */
interface SharedSnapshot {
  /** The tier's last released seq when the build started: its clients get the entries after it next. */
  seq: number;
  builtAt: number;
  filters: StreamFilters;
  /** The whole SSE event (`id`, `event: snapshot`, `data`), in pieces of about `snapshotChunkBytes`. */
  pieces: Promise<Buffer[]>;
  /** The group's entries after `seq` up to `coveredTo`, rendered once for all its clients as they catch up. */
  since: Buffer[];
  coveredTo: number;
}

/** Clients of one tier with equal filters: each release's chunk for them is rendered and encoded once. */
interface Group {
  filterKey: string;
  filters: StreamFilters;
  clients: Set<StreamClient>;
}

interface Tier {
  delayMs: number;
  /** Highest seq delivered to this tier's clients. */
  released: number;
  clients: Set<StreamClient>;
  groups: Map<string, Group>;
  /** Groups by their league filter; ANY_LEAGUE: groups without one. */
  byLeague: Map<string, Set<Group>>;
  /** Encoded snapshots by filter key, younger than `snapshotReuseMs`. */
  snapshots: Map<string, SharedSnapshot>;
}

const ANY_LEAGUE = '*';
const HEARTBEAT = Buffer.from(': heartbeat\n\n');
const LIVE = Promise.resolve();

/**
 * Spreads the snapshot work of every opening client over turns of the event loop: each turn does at most `sliceMs` of
 * building and `sliceBytes` of writing, then the waiting clients go on, in turn, after the I/O of the next one (so
 * that other requests, /healthz among them, are served in between). Bytes are counted rather than timed for writes,
 * because the socket copies them after the turn's microtasks (decision 087).
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

export function matches(entry: Entry, filters: StreamFilters): boolean {
  const kind = entry.kind === 'price' ? 'price' : 'arb';
  if (filters.kinds && !filters.kinds.has(kind)) return false;
  if (filters.event !== undefined && entry.eventId !== filters.event) return false;
  if (filters.league !== undefined && entry.league !== filters.league) return false;
  if (filters.markets && entry.marketType !== undefined && !filters.markets.has(entry.marketType))
    return false;
  if (filters.books) {
    if (entry.kind === 'price' && !filters.books.has(entry.books[0]!)) return false;
    if (entry.kind === 'arb' && !entry.books.every((book) => filters.books!.has(book))) return false;
  }
  return true;
}

export type CloseReason = 'revoked' | 'expired' | 'slow' | 'shutdown';

/** Percentiles of the real-time releases recorded since a time (`StreamHub.releaseStats`). */
export interface ReleaseStats {
  releases: number;
  /** Synchronous time of one release: rendering each group's chunk and writing it to every matching client. */
  fanoutMs: { p50: number; p99: number; max: number };
  /** From the oldest change in a release becoming known here to its last write: batching + fan-out. */
  deliveryMs: { p50: number; p99: number; max: number };
}

/** Real-time releases remembered for `releaseStats` (a few minutes' worth at the 20 ms batch). */
const RELEASE_SAMPLES = 8192;

function spread(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1)!) };
}

export class StreamHub {
  /** Distinguishes this process's event ids from another's (a restart, another instance behind the balancer). */
  readonly boot = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  private readonly entries: Entry[] = [];
  private firstSeq = 1;
  private seq = 0;
  /** When a client was last seen connected (hub clock); entries are kept only within `idleRetainMs` of it. */
  private lastClientAt = Number.NEGATIVE_INFINITY;
  private readonly tiers = new Map<number, Tier>();
  private readonly byKey = new Map<number, Set<StreamClient>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private flushScheduled = false;
  private previousArbs = new Map<string, { json: string; arb: Arb }>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly pacer: Pacer;
  dropped = 0;
  /** Snapshot events encoded since start (each shared by the clients of its group opening within a second). */
  snapshotBuilds = 0;
  /** [when (this.now()), fan-out ms, delivery ms] of recent real-time releases with clients, oldest first. */
  private readonly releases: [number, number, number][] = [];

  constructor(
    private readonly engine: FeedEngine,
    readonly options: StreamOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.pacer = new Pacer(options.sliceMs, options.sliceBytes);
  }

  start(recheck: (ids: number[]) => Promise<number[]>): void {
    this.unsubscribe.push(this.engine.store.subscribe((change) => this.onPrice(change)));
    this.unsubscribe.push(this.engine.onSnapshot((snapshot) => this.onArbs(snapshotFeed(snapshot).arbs)));
    const latest = this.engine.latest;
    if (latest)
      for (const arb of snapshotFeed(latest).arbs)
        this.previousArbs.set(arbKey(arb), { json: JSON.stringify(arb), arb });
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, () => this.heartbeat());
    every(this.options.releaseMs, () => this.releaseDelayed());
    every(this.options.recheckMs, () => {
      const now = this.now();
      this.forgetOldSnapshots(now);
      for (const [id, clients] of this.byKey) {
        const key = [...clients][0]?.key;
        if (key?.expiresAt && key.expiresAt.getTime() <= now) this.closeKey(id, 'expired');
      }
      const ids = [...this.byKey.keys()];
      if (ids.length === 0) return;
      recheck(ids).then(
        (gone) => {
          for (const id of gone) this.closeKey(id, 'revoked');
        },
        () => {},
      );
    });
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    for (const off of this.unsubscribe) off();
    for (const tier of this.tiers.values()) for (const client of tier.clients) this.close(client, 'shutdown');
  }

  get clientCount(): number {
    let count = 0;
    for (const tier of this.tiers.values()) count += tier.clients.size;
    return count;
  }

  get lastSeq(): number {
    return this.seq;
  }

  get oldestSeq(): number {
    return this.firstSeq;
  }

  connectionsOf(keyId: number): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  private push(
    kind: EntryKind,
    eventId: string,
    marketType: string | undefined,
    books: readonly string[],
    data: unknown,
  ) {
    this.seq += 1;
    const now = this.now();
    if (this.clientCount > 0) this.lastClientAt = now;
    else if (now - this.lastClientAt > this.options.idleRetainMs) {
      // Idle: an empty buffer that starts after this entry, so any older Last-Event-ID gets a snapshot.
      if (this.entries.length > 0) this.entries.length = 0;
      this.firstSeq = this.seq + 1;
      return;
    }
    const league = this.engine.store.event(eventId)?.league;
    this.entries.push({
      seq: this.seq,
      at: now,
      kind,
      eventId,
      league,
      marketType,
      books,
      frame: `event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`,
    });
    this.trim();
    const realTime = this.tiers.get(0);
    if (realTime && realTime.clients.size > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setTimeout(() => {
        this.flushScheduled = false;
        this.release(realTime, this.now());
      }, this.options.batchMs);
    }
  }

  /**
   * Keeps the buffer bounded (trimming in chunks, so the splice cost is amortised), but never drops an entry a tier
   * with clients has not released yet, unless the buffer has grown to twice its size.
   */
  private trim() {
    const { bufferSize } = this.options;
    if (this.entries.length <= bufferSize + Math.min(1024, bufferSize)) return;
    let limit = this.entries.length - bufferSize;
    if (this.entries.length < bufferSize * 2) {
      for (const tier of this.tiers.values()) {
        if (tier.clients.size > 0) limit = Math.min(limit, tier.released + 1 - this.firstSeq);
      }
    }
    if (limit <= 0) return;
    this.entries.splice(0, limit);
    this.firstSeq += limit;
  }

  private onPrice(change: Parameters<Parameters<FeedEngine['store']['subscribe']>[0]>[0]) {
    const event = this.engine.store.event(change.eventId);
    if (!event) return;
    const { spec, price } = change;
    this.push('price', change.eventId, spec.type, [price.book], {
      event_id: change.eventId,
      league: event.league,
      market: {
        key: change.marketKey,
        type: spec.type,
        period: spec.period,
        point: spec.point,
        label: marketLabel(spec),
      },
      outcome: price.outcome,
      name: outcomeLabel(event, spec, price.outcome),
      price: toPriceDto(price),
    });
  }

  private onArbs(arbs: readonly Arb[]) {
    const next = new Map<string, { json: string; arb: Arb }>();
    for (const arb of arbs) next.set(arbKey(arb), { json: JSON.stringify(arb), arb });
    for (const [key, { json, arb }] of next) {
      if (this.previousArbs.get(key)?.json === json) continue;
      this.push(
        'arb',
        arb.event.id,
        undefined,
        arb.sides.map((side) => side.sportsbook),
        { key, arb },
      );
    }
    for (const [key, { arb }] of this.previousArbs) {
      if (!next.has(key)) {
        this.push(
          'arb_removed',
          arb.event.id,
          undefined,
          arb.sides.map((side) => side.sportsbook),
          { key, event_id: arb.event.id },
        );
      }
    }
    this.previousArbs = next;
  }

  private indexOf(seq: number): number {
    return seq - this.firstSeq;
  }

  private releaseDelayed() {
    const now = this.now();
    for (const tier of this.tiers.values()) if (tier.delayMs > 0) this.release(tier, now);
  }

  /** Delivers to the tier's clients every entry up to `now − delay` not yet released. */
  private release(tier: Tier, now: number) {
    const horizon = now - tier.delayMs;
    let index = Math.max(0, this.indexOf(tier.released + 1));
    const from = index;
    while (index < this.entries.length && this.entries[index]!.at <= horizon) index += 1;
    if (index === from) return;
    const batch = this.entries.slice(from, index);
    tier.released = batch[batch.length - 1]!.seq;
    if (tier.clients.size === 0) return;
    const started = performance.now();
    const startedAt = this.now();
    const byLeague = new Map<string, Entry[]>();
    for (const entry of batch) {
      if (entry.league === undefined) continue;
      const list = byLeague.get(entry.league);
      if (list) list.push(entry);
      else byLeague.set(entry.league, [entry]);
    }
    for (const [league, entries] of byLeague)
      for (const group of tier.byLeague.get(league) ?? []) this.deliverGroup(group, entries);
    for (const group of tier.byLeague.get(ANY_LEAGUE) ?? []) this.deliverGroup(group, batch);
    if (tier.delayMs === 0) {
      const fanout = performance.now() - started;
      this.releases.push([startedAt, fanout, startedAt - batch[0]!.at + fanout]);
      if (this.releases.length > RELEASE_SAMPLES)
        this.releases.splice(0, this.releases.length - RELEASE_SAMPLES);
    }
  }

  /** How long real-time releases took since `sinceMs` (clock of the hub), for operators and the stream bench. */
  releaseStats(sinceMs = 0): ReleaseStats {
    const recent = this.releases.filter(([at]) => at >= sinceMs);
    return {
      releases: recent.length,
      fanoutMs: spread(recent.map(([, fanout]) => fanout)),
      deliveryMs: spread(recent.map(([, , delivery]) => delivery)),
    };
  }

  private render(entries: readonly Entry[], filters: StreamFilters): string {
    let text = '';
    for (const entry of entries)
      if (matches(entry, filters)) text += `id: ${this.boot}-${entry.seq}\n${entry.frame}`;
    return text;
  }

  private deliverGroup(group: Group, entries: readonly Entry[]) {
    const text = this.render(entries, group.filters);
    if (!text) return;
    const chunk = Buffer.from(text);
    // A copy of the set: write() may close (and so remove) a slow client.
    for (const client of [...group.clients]) this.write(client, chunk);
  }

  private write(client: StreamClient, chunk: string | Buffer) {
    if (client.closed || !client.live) return;
    if (client.sink.queuedBytes > this.options.maxQueuedBytes) {
      this.dropped += 1;
      this.close(client, 'slow');
      return;
    }
    client.sink.write(chunk);
  }

  private heartbeat() {
    for (const tier of this.tiers.values())
      for (const client of [...tier.clients]) this.write(client, HEARTBEAT);
  }

  private tierFor(delay: number): Tier {
    let tier = this.tiers.get(delay);
    if (!tier) {
      // A new tier starts at the newest entry already old enough for it.
      const horizon = this.now() - delay;
      let released = this.firstSeq - 1;
      for (const entry of this.entries) {
        if (entry.at > horizon) break;
        released = entry.seq;
      }
      tier = {
        delayMs: delay,
        released,
        clients: new Set(),
        groups: new Map(),
        byLeague: new Map(),
        snapshots: new Map(),
      };
      this.tiers.set(delay, tier);
    }
    return tier;
  }

  /**
   * Adds a client. With a Last-Event-ID of this process still inside the buffer, replays what it missed; otherwise
   * (no id, or too old, or from another process) sends one `snapshot` event, unless `initial` is false and no id
   * was given.
   */
  connect(
    key: ApiKeyRecord,
    filters: StreamFilters,
    sink: StreamSink,
    lastEventId: string | undefined,
    initial: boolean,
  ): StreamClient {
    const delay = delayMs(key.plan);
    const tier = this.tierFor(delay);
    // Bring the tier up to date first, so the snapshot and the replay end exactly where live delivery starts.
    this.release(tier, this.now());
    const filterKey = JSON.stringify([
      filters.league,
      filters.event,
      ...[filters.markets, filters.books, filters.kinds].map((set) => (set ? [...set].sort() : null)),
    ]);
    let group = tier.groups.get(filterKey);
    if (!group) {
      group = { filterKey, filters, clients: new Set() };
      tier.groups.set(filterKey, group);
      const league = filters.league ?? ANY_LEAGUE;
      let groups = tier.byLeague.get(league);
      if (!groups) tier.byLeague.set(league, (groups = new Set()));
      groups.add(group);
    }
    const client: StreamClient = { key, sink, tier, group, closed: false, live: true, ready: LIVE };
    const replayFrom = this.replayStart(lastEventId, tier);
    sink.write(`retry: 2000\n\n`);
    if (replayFrom !== undefined) {
      const batch = this.entries.slice(
        Math.max(0, this.indexOf(replayFrom)),
        Math.max(0, this.indexOf(tier.released + 1)),
      );
      const text = this.render(batch, filters);
      if (text) sink.write(text);
    } else if (lastEventId !== undefined || initial) {
      client.live = false;
      client.ready = this.sendSnapshot(client);
    }
    tier.clients.add(client);
    group.clients.add(client);
    let keyed = this.byKey.get(key.id);
    if (!keyed) this.byKey.set(key.id, (keyed = new Set()));
    keyed.add(client);
    return client;
  }

  /**
   * Writes the group's shared snapshot piece by piece (each after the previous one has been flushed), then the
   * entries released since it was built, and makes the client live: the same hand-over as a Last-Event-ID replay.
   */
  private async sendSnapshot(client: StreamClient): Promise<void> {
    // A reader that stops reading would otherwise hold its slot and its shared snapshot for ever.
    const deadline = setTimeout(() => {
      if (client.live || client.closed) return;
      this.dropped += 1;
      this.close(client, 'slow');
    }, this.options.catchUpMs);
    deadline.unref();
    try {
      await this.catchUp(client);
    } catch {
      // The build failed: end this stream (it reconnects and gets a new snapshot) rather than the process.
      this.close(client, 'shutdown');
    } finally {
      clearTimeout(deadline);
    }
  }

  private async catchUp(client: StreamClient): Promise<void> {
    const { tier, group, sink } = client;
    const shared = this.sharedSnapshot(tier, group);
    let pieces: Buffer[];
    try {
      pieces = await shared.pieces;
    } catch (error) {
      if (tier.snapshots.get(group.filterKey) === shared) tier.snapshots.delete(group.filterKey);
      throw error;
    }
    for (const piece of pieces) {
      await this.pacer.take(piece.length);
      if (client.closed) return;
      sink.write(piece);
      await sink.drained();
    }
    // Then the entries since the build, in the segments rendered once for every client of this snapshot, until none
    // is left to write: the client is live from the same turn on, so nothing is missed or sent twice.
    for (let written = 0; ;) {
      if (client.closed) return;
      if (!this.extendSince(shared, tier)) {
        // So slow that the changes since the snapshot have left the buffer: like any slow reader, it reconnects.
        this.dropped += 1;
        this.close(client, 'slow');
        return;
      }
      if (written === shared.since.length) break;
      const segment = shared.since[written++]!;
      await this.pacer.take(segment.length);
      if (client.closed) return;
      sink.write(segment);
      await sink.drained();
    }
    client.live = true;
  }

  /** Renders the group's entries released since `shared.coveredTo`; false when they have left the buffer. */
  private extendSince(shared: SharedSnapshot, tier: Tier): boolean {
    if (shared.coveredTo >= tier.released) return true;
    if (shared.coveredTo + 1 < this.firstSeq) return false;
    const batch = this.entries.slice(this.indexOf(shared.coveredTo + 1), this.indexOf(tier.released + 1));
    const text = this.render(batch, shared.filters);
    if (text) shared.since.push(Buffer.from(text));
    shared.coveredTo = tier.released;
    return true;
  }

  /** The group's snapshot built within `snapshotReuseMs` whose later entries are still buffered, or a new one. */
  private sharedSnapshot(tier: Tier, group: Group): SharedSnapshot {
    const now = this.now();
    const cached = tier.snapshots.get(group.filterKey);
    if (
      cached &&
      now - cached.builtAt < this.options.snapshotReuseMs &&
      cached.coveredTo + 1 >= this.firstSeq
    )
      return cached;
    this.forgetOldSnapshots(now);
    const shared: SharedSnapshot = {
      seq: tier.released,
      builtAt: now,
      filters: group.filters,
      pieces: this.buildSnapshot(tier, group.filters, tier.released, now),
      since: [],
      coveredTo: tier.released,
    };
    tier.snapshots.set(group.filterKey, shared);
    this.snapshotBuilds += 1;
    return shared;
  }

  private forgetOldSnapshots(now: number) {
    for (const tier of this.tiers.values())
      for (const [filterKey, shared] of tier.snapshots)
        if (now - shared.builtAt >= this.options.snapshotReuseMs) tier.snapshots.delete(filterKey);
  }

  /** The first seq to replay, or undefined when a snapshot is needed instead. */
  private replayStart(lastEventId: string | undefined, tier: Tier): number | undefined {
    if (lastEventId === undefined) return undefined;
    const match = /^([0-9a-z]+)-(\d+)$/.exec(lastEventId.trim());
    if (!match || match[1] !== this.boot) return undefined;
    const seq = Number(match[2]);
    if (seq > tier.released) return undefined;
    if (seq + 1 < this.firstSeq) return undefined;
    return seq + 1;
  }

  /**
   * The snapshot event for the tier's horizon, encoded event by event and arb by arb, sharing the pacer's `sliceMs`
   * per turn of the event loop with the other snapshots' work, so that a 5 MB board never holds it for long. The arbs are those of the snapshot published at the
   * start; a price that changes during the build may already show in it and also comes after it as a `price` entry
   * (applying it again changes nothing).
   */
  private async buildSnapshot(
    tier: Tier,
    filters: StreamFilters,
    seq: number,
    now: number,
  ): Promise<Buffer[]> {
    const at = tier.delayMs === 0 ? undefined : now - tier.delayMs;
    const store = this.engine.store;
    const kinds = filters.kinds;
    let arbs: Arb[] = [];
    if (!kinds || kinds.has('arb')) {
      const snapshot = at === undefined ? this.engine.latest : this.engine.snapshotAt(at);
      if (snapshot) {
        arbs = filterArbs(snapshotFeed(snapshot).arbs, store, {
          league: filters.league,
          books: filters.books,
        }).filter((arb) => filters.event === undefined || arb.event.id === filters.event);
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
      `id: ${this.boot}-${seq}\nevent: snapshot\ndata: {"as_of":${JSON.stringify(new Date(at ?? now).toISOString())},"delay_seconds":${JSON.stringify(tier.delayMs / 1000)},"events":[`,
    );
    let first = true;
    for (const event of events) {
      await pace();
      if (filters.league !== undefined && event.league !== filters.league) continue;
      const odds = eventOdds(store, event, at, {
        markets: filters.markets as ReadonlySet<never> | undefined,
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
    out.add(']}\n\n');
    return out.flush();
  }

  disconnect(client: StreamClient): void {
    client.closed = true;
    const { tier, group } = client;
    tier.clients.delete(client);
    group.clients.delete(client);
    if (group.clients.size === 0 && tier.groups.get(group.filterKey) === group) {
      tier.groups.delete(group.filterKey);
      const groups = tier.byLeague.get(group.filters.league ?? ANY_LEAGUE);
      groups?.delete(group);
      if (groups?.size === 0) tier.byLeague.delete(group.filters.league ?? ANY_LEAGUE);
    }
    const keyed = this.byKey.get(client.key.id);
    if (keyed) {
      keyed.delete(client);
      if (keyed.size === 0) this.byKey.delete(client.key.id);
    }
  }

  close(client: StreamClient, reason: CloseReason): void {
    if (client.closed) return;
    this.disconnect(client);
    const frame =
      reason === 'slow' || reason === 'shutdown'
        ? `event: close\ndata: ${JSON.stringify({ reason })}\n\n`
        : `event: close\ndata: ${JSON.stringify({ reason, detail: reason === 'revoked' ? 'This API key has been revoked.' : 'This API key has expired.' })}\n\n`;
    client.sink.end(reason === 'slow' ? undefined : frame);
  }

  closeKey(keyId: number, reason: CloseReason): void {
    for (const client of [...(this.byKey.get(keyId) ?? [])]) this.close(client, reason);
  }
}
