import type { ApiKeyRecord } from '../../keys/service.ts';
import { filterKey, type PlayerFilter } from '../views.ts';
import type { ChangeLog, Entry } from './change-log.ts';
import type { ReleaseTelemetry } from './telemetry.ts';

// Delivery of the change log to the open streams. Clients are grouped by delay tier (0 s, 15 s, 120 s): a tier
// releases entries once they are older than its delay (delayed plans are served from the buffer, never by sleeping
// per client), and writes each client one chunk per release with the entries its filters match. Within a tier,
// clients with equal filters form a group indexed by league: a release visits only the groups of the leagues in the
// batch (plus those of every league), renders each group's chunk once and writes the same Buffer to each of its
// clients (docs/decisions/082, 085). A release's writes go through one queue, at most `writesPerTurn` per turn of the
// event loop (each write also costs a system call when Node flushes the socket at the end of the turn); releases and
// heartbeats queue behind one another, so each client still receives its chunks in order, and timed releases wait
// while writes are queued (decision 139).

export interface FanOutOptions {
  /** A client whose socket has more than this many bytes queued is dropped (a slow reader). */
  maxQueuedBytes: number;
  /** Real-time changes are gathered this long before one write per client (bounds writes per second). */
  batchMs: number;
  /** Client writes per turn of the event loop; a release to more clients continues on the next turns. */
  writesPerTurn: number;
  /** A client written nothing for this long gets a `: heartbeat` comment (checked every half of it). */
  heartbeatMs: number;
}

export interface StreamFilters {
  league?: string | undefined;
  event?: string | undefined;
  markets?: ReadonlySet<string> | undefined;
  /** One period (`full`, `h1`, …), as /v1/odds' `period`. */
  period?: string | undefined;
  books?: ReadonlySet<string> | undefined;
  /** Which changes (default: prices and arbs; positive EV, middles and scores are asked for). */
  kinds?: ReadonlySet<StreamKind> | undefined;
  /** Prices of this player's props only (as /v1/odds' `player`); game-line prices are left out. */
  player?: PlayerFilter | undefined;
  /** Prices of props of these stats only; game-line prices are left out. */
  stats?: ReadonlySet<string> | undefined;
  /**
   * A delayed tier's: its arbs come from its plan's view (plan-arb-view.ts, decision 223), so the log's arb entries
   * (the real-time tier's) are not for it.
   */
  arbsFromView?: boolean | undefined;
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
  /** When a release or heartbeat was last written to it (clock of the hub), or when it connected. */
  lastWriteAt: number;
}

/** Clients of one tier with equal filters: each release's chunk for them is rendered and encoded once. */
export interface Group {
  filterKey: string;
  filters: StreamFilters;
  clients: Set<StreamClient>;
}

export interface Tier {
  delayMs: number;
  /** Highest seq delivered to this tier's clients. */
  released: number;
  clients: Set<StreamClient>;
  groups: Map<string, Group>;
  /** Groups by their league filter; ANY_LEAGUE: groups without one. */
  byLeague: Map<string, Set<Group>>;
}

/** What `types=` names: each covers its removals (`arb` also `arb_removed`, …). */
export type StreamKind = 'price' | 'arb' | 'ev' | 'middle' | 'score';
const DEFAULT_KINDS: ReadonlySet<StreamKind> = new Set(['price', 'arb']);

/** The kind of change an entry is, as `types=` names it. */
export function kindOf(kind: Entry['kind']): StreamKind {
  switch (kind) {
    case 'price':
      return 'price';
    case 'arb':
    case 'arb_removed':
      return 'arb';
    case 'ev':
    case 'ev_removed':
      return 'ev';
    case 'middle':
    case 'middle_removed':
      return 'middle';
    case 'score':
      return 'score';
  }
}

const ANY_LEAGUE = '*';
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

/**
 * Whether the client's filters take the entry. Every filter applies to every kind (issue 56; docs/product.md §13): an
 * arb, a positive-EV price or a middle is of a market type, a period and (a prop) a stat and a player as a price is.
 * Books: a price's or an EV price's own book; every book of an arb or a middle. A score is a game's, of no market and
 * no book: only `league` and `event` apply to it (decision 260).
 */
export function matches(entry: Entry, filters: StreamFilters): boolean {
  const kind = kindOf(entry.kind);
  if (!(filters.kinds ?? DEFAULT_KINDS).has(kind)) return false;
  if (kind === 'arb' && filters.arbsFromView === true && entry.fromView !== true) return false;
  if (filters.event !== undefined && entry.eventId !== filters.event) return false;
  if (filters.league !== undefined && entry.league !== filters.league) return false;
  if (kind === 'score') return true;
  if (filters.markets && (entry.marketType === undefined || !filters.markets.has(entry.marketType)))
    return false;
  if (filters.period !== undefined && entry.period !== filters.period) return false;
  if (filters.player || filters.stats) {
    if (entry.stat === undefined) return false;
    if (filters.stats && !filters.stats.has(entry.stat)) return false;
    const player = filters.player;
    if (player && entry.playerId !== player.query && (player.name === '' || entry.playerName !== player.name))
      return false;
  }
  if (filters.books) {
    const one = entry.kind === 'price' || entry.kind === 'ev' || entry.kind === 'ev_removed';
    if (one && !filters.books.has(entry.books[0]!)) return false;
    if (!one && !entry.books.every((book) => filters.books!.has(book))) return false;
  }
  return true;
}

/** An entry's SSE text, with its id. */
export function frameWithId(log: ChangeLog, entry: Entry): string {
  return `id: ${log.id(entry.seq)}\n${entry.frame}`;
}

/** The SSE text (with ids) of the entries the filters match. */
export function render(log: ChangeLog, entries: Iterable<Entry>, filters: StreamFilters): string {
  let text = '';
  for (const entry of entries) if (matches(entry, filters)) text += frameWithId(log, entry);
  return text;
}

/** A real-time release being written: its figures are recorded when its last write is done. */
interface ReleaseRun {
  startedAt: number;
  oldestAt: number;
  /** Synchronous milliseconds spent on it so far (rendering and writing). */
  fanoutMs: number;
  /** Its writes still queued. */
  pending: number;
}

/** One chunk for a list of clients (fixed when the release was made), written from `next` on. */
interface WriteJob {
  clients: StreamClient[];
  chunk: string | Buffer;
  next: number;
  run: ReleaseRun | null;
}

export class FanOut {
  private readonly tiers = new Map<number, Tier>();
  private flushScheduled = false;
  private readonly jobs: WriteJob[] = [];
  private draining: ReturnType<typeof setImmediate> | null = null;
  /** A timed release came while writes were queued: it runs once they are written (with what came meanwhile). */
  private deferred = false;

  /** `dropSlow`: what the hub does with a client whose socket holds too much. */
  constructor(
    private readonly log: ChangeLog,
    private readonly options: FanOutOptions,
    private readonly telemetry: ReleaseTelemetry,
    private readonly now: () => number,
    private readonly dropSlow: (client: StreamClient) => void,
  ) {}

  get clientCount(): number {
    let count = 0;
    for (const tier of this.tiers.values()) count += tier.clients.size;
    return count;
  }

  /** The delayed tiers (those with a delay), with or without clients. */
  delayedTiers(): Tier[] {
    return [...this.tiers.values()].filter((tier) => tier.delayMs > 0);
  }

  /** Every client of every tier (a copy: closing them is allowed while iterating). */
  clients(): StreamClient[] {
    return [...this.tiers.values()].flatMap((tier) => [...tier.clients]);
  }

  /** The lowest seq released by a tier with clients (Infinity when none): the change log keeps what follows it. */
  lowestReleased(): number {
    let lowest = Infinity;
    for (const tier of this.tiers.values())
      if (tier.clients.size > 0) lowest = Math.min(lowest, tier.released);
    return lowest;
  }

  tierFor(delay: number): Tier {
    let tier = this.tiers.get(delay);
    if (!tier) {
      // A new tier starts at the newest entry already old enough for it.
      tier = {
        delayMs: delay,
        released: this.log.newestAt(this.now() - delay),
        clients: new Set(),
        groups: new Map(),
        byLeague: new Map(),
      };
      this.tiers.set(delay, tier);
    }
    return tier;
  }

  /** The tier's group for these filters, made when it has none. */
  groupFor(tier: Tier, filters: StreamFilters): Group {
    const key = filterKey([
      filters.league,
      filters.event,
      filters.markets,
      filters.period,
      filters.books,
      filters.kinds,
      filters.player?.query,
      filters.stats,
    ]);
    let group = tier.groups.get(key);
    if (!group) {
      group = { filterKey: key, filters, clients: new Set() };
      tier.groups.set(key, group);
      const league = filters.league ?? ANY_LEAGUE;
      let groups = tier.byLeague.get(league);
      if (!groups) tier.byLeague.set(league, (groups = new Set()));
      groups.add(group);
    }
    return group;
  }

  add(client: StreamClient): void {
    client.tier.clients.add(client);
    client.group.clients.add(client);
  }

  /** Takes the client out of its tier and group; an empty group leaves the index. */
  remove(client: StreamClient): void {
    const { tier, group } = client;
    tier.clients.delete(client);
    group.clients.delete(client);
    if (group.clients.size === 0 && tier.groups.get(group.filterKey) === group) {
      tier.groups.delete(group.filterKey);
      const groups = tier.byLeague.get(group.filters.league ?? ANY_LEAGUE);
      groups?.delete(group);
      if (groups?.size === 0) tier.byLeague.delete(group.filters.league ?? ANY_LEAGUE);
    }
  }

  /** A new entry is in the log: the real-time tier releases it (with the rest of its batch) `batchMs` later. */
  changed(): void {
    const realTime = this.tiers.get(0);
    if (realTime && realTime.clients.size > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setTimeout(() => {
        this.flushScheduled = false;
        if (this.jobs.length > 0) this.deferred = true;
        else this.release(realTime, this.now());
      }, this.options.batchMs);
    }
  }

  releaseDelayed(): void {
    if (this.jobs.length > 0) {
      this.deferred = true;
      return;
    }
    const now = this.now();
    for (const tier of this.tiers.values()) if (tier.delayMs > 0) this.release(tier, now);
  }

  /** Releases the tier unless writes are queued (then the next timed release carries it). */
  releaseIfIdle(tier: Tier, now: number): void {
    if (this.jobs.length === 0) this.release(tier, now);
  }

  /**
   * The timed releases that waited for queued writes: every tier, each with all it may now release. A loop too busy
   * to write releases as fast as they come so sends fewer, larger ones instead of queueing them without bound.
   */
  private releaseDeferred(): void {
    this.deferred = false;
    const now = this.now();
    for (const tier of this.tiers.values()) this.release(tier, now);
  }

  /**
   * Delivers to the tier's clients every entry up to `now − delay` not yet released. The recipients are the clients
   * live now (one that is still catching up gets these entries in its catch-up); the writes start in this turn and
   * continue in the next ones when there are more than `writesPerTurn`.
   */
  release(tier: Tier, now: number): void {
    const batch = this.log.releasable(tier.released, now - tier.delayMs);
    if (batch.length === 0) return;
    tier.released = batch[batch.length - 1]!.seq;
    this.deliver(tier, batch);
  }

  /**
   * Writes the entries to the tier's live clients, each the ones its filters match: a release, or a delayed tier's
   * own arb changes (decision 223).
   */
  deliver(tier: Tier, batch: readonly Entry[]): void {
    if (tier.clients.size === 0 || batch.length === 0) return;
    const started = performance.now();
    const run: ReleaseRun | null =
      tier.delayMs === 0 ? { startedAt: this.now(), oldestAt: batch[0]!.at, fanoutMs: 0, pending: 0 } : null;
    const byLeague = new Map<string, Entry[]>();
    for (const entry of batch) {
      if (entry.league === undefined) continue;
      const list = byLeague.get(entry.league);
      if (list) list.push(entry);
      else byLeague.set(entry.league, [entry]);
    }
    for (const [league, entries] of byLeague)
      for (const group of tier.byLeague.get(league) ?? []) this.deliverGroup(group, entries, run);
    for (const group of tier.byLeague.get(ANY_LEAGUE) ?? []) this.deliverGroup(group, batch, run);
    if (run) run.fanoutMs += performance.now() - started;
    this.drain();
  }

  private deliverGroup(group: Group, entries: readonly Entry[], run: ReleaseRun | null) {
    const text = render(this.log, entries, group.filters);
    if (!text) return;
    const clients: StreamClient[] = [];
    for (const client of group.clients) if (client.live) clients.push(client);
    if (clients.length === 0) return;
    this.enqueue({ clients, chunk: Buffer.from(text), next: 0, run });
  }

  private enqueue(job: WriteJob): void {
    if (job.run) job.run.pending += 1;
    this.jobs.push(job);
  }

  /** Writes the queued jobs in order, `writesPerTurn` at most, and schedules the rest for the next turn. */
  private drain(): void {
    if (this.draining) return;
    const started = performance.now();
    const now = this.now();
    const touched = new Set<ReleaseRun>();
    let budget = this.options.writesPerTurn;
    while (budget > 0 && this.jobs.length > 0) {
      const job = this.jobs[0]!;
      if (job.run) touched.add(job.run);
      const end = Math.min(job.clients.length, job.next + budget);
      budget -= end - job.next;
      for (; job.next < end; job.next += 1) this.write(job.clients[job.next]!, job.chunk, now);
      if (job.next < job.clients.length) break;
      this.jobs.shift();
      if (job.run) job.run.pending -= 1;
    }
    // Each release written in this turn is charged the turn's time; one whose last write is done is recorded.
    const elapsed = performance.now() - started;
    for (const run of touched) {
      run.fanoutMs += elapsed;
      if (run.pending === 0)
        this.telemetry.record(run.startedAt, run.fanoutMs, Math.max(this.now() - run.oldestAt, run.fanoutMs));
    }
    if (this.jobs.length > 0 || this.deferred)
      this.draining = setImmediate(() => {
        this.draining = null;
        if (this.jobs.length === 0 && this.deferred) this.releaseDeferred();
        else this.drain();
      });
  }

  /** Writes to a live client, or drops it when its socket already holds more than `maxQueuedBytes`. */
  private write(client: StreamClient, chunk: string | Buffer, now: number): void {
    if (client.closed || !client.live) return;
    if (client.sink.queuedBytes > this.options.maxQueuedBytes) {
      this.dropSlow(client);
      return;
    }
    client.sink.write(chunk);
    client.lastWriteAt = now;
  }

  /** A `: heartbeat` to each live client written nothing for half of `heartbeatMs` (so none is silent longer). */
  heartbeat(): void {
    const quietSince = this.now() - this.options.heartbeatMs / 2;
    for (const tier of this.tiers.values()) {
      const clients: StreamClient[] = [];
      for (const client of tier.clients)
        if (client.live && client.lastWriteAt <= quietSince) clients.push(client);
      if (clients.length > 0) this.enqueue({ clients, chunk: HEARTBEAT, next: 0, run: null });
    }
    this.drain();
  }

  /** Stops writing what is queued (the hub is closing every client). */
  stop(): void {
    if (this.draining) clearImmediate(this.draining);
    this.draining = null;
    this.jobs.length = 0;
    this.deferred = false;
  }
}
