import { delayMs } from '#domain/plans.ts';
import type { FeedEngine } from '../../feed/plugin.ts';
import type { ApiKeyRecord } from '../../keys/service.ts';
import { ArbChanges } from './arb-changes.ts';
import { ChangeLog, type Change, type ChangeLogOptions } from './change-log.ts';
import {
  FanOut,
  matches,
  render,
  type FanOutOptions,
  type StreamClient,
  type StreamFilters,
  type StreamSink,
  type Tier,
} from './fan-out.ts';
import { PlanArbView, viewEntry } from './plan-arb-view.ts';
import { priceChange } from './price-changes.ts';
import { scoreDto } from '../views.ts';
import { StreamsByKey, type StreamRecheck } from './revocation.ts';
import { Snapshots, type SnapshotOptions } from './snapshots.ts';
import { valueChanges } from './value-changes.ts';
import { LoopTelemetry, ReleaseTelemetry, type LoopStats, type ReleaseStats } from './telemetry.ts';

// The fan-out behind GET /v1/stream, one per instance, composed of: the change log (change-log.ts) that price changes
// (price-changes.ts) and arb changes (arb-changes.ts) are appended to; its delivery to delay tiers and filter groups
// (fan-out.ts); the snapshots streams open with (snapshots.ts); the streams of each key and their revocation
// (revocation.ts); and the release figures (telemetry.ts). Decisions 082, 085, 087 and 008 (docs/decisions/).

export interface StreamOptions extends ChangeLogOptions, FanOutOptions, SnapshotOptions {
  /** How often open streams' keys are re-checked against the database (revocation by another instance). */
  recheckMs: number;
  /** How often delayed tiers release entries. */
  releaseMs: number;
  /**
   * How old positive EV and middles may be at most on any plan (the free pages' delay, `EV_PUBLIC_DELAY_S`; decision
   * 211): a stream that asks for them alone is served at its plan's delay or this, the smaller.
   */
  valuesDelayMaxMs: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  heartbeatMs: 10_000,
  bufferSize: 50_000,
  maxQueuedBytes: 256 * 1024,
  recheckMs: 2_000,
  releaseMs: 250,
  valuesDelayMaxMs: Number.POSITIVE_INFINITY,
  batchMs: 20,
  writesPerTurn: 5_000,
  snapshotChunkBytes: 64 * 1024,
  snapshotReuseMs: 1_000,
  catchUpMs: 60_000,
  sliceMs: 4,
  sliceBytes: 512 * 1024,
  idleRetainMs: 60_000,
};

export type KeyCloseReason = 'revoked' | 'expired' | 'suspended';
export type CloseReason = KeyCloseReason | 'plan-changed' | 'slow' | 'shutdown';

/** What a `close` event says (slow readers get no event: their buffer is full). */
const CLOSE_DETAIL: Record<Exclude<CloseReason, 'slow' | 'shutdown'>, string> = {
  revoked: 'This API key has been revoked.',
  expired: 'This API key has expired.',
  suspended:
    'This API key is suspended: its subscription’s payment is late or the subscription is paused. A request with it answers 401 api-key-suspended with the details.',
  'plan-changed': 'This API key’s plan changed. Reconnect (with Last-Event-ID) to continue on the new plan.',
};

const LIVE = Promise.resolve();

export class StreamHub {
  private readonly log: ChangeLog;
  private readonly fanOut: FanOut;
  private readonly snapshots: Snapshots;
  private readonly keys = new StreamsByKey();
  private readonly telemetry = new ReleaseTelemetry();
  private readonly loop: LoopTelemetry;
  private readonly arbChanges: ArbChanges;
  /** Each delayed tier's arbs as its plan gets them (decision 223), while it has clients. */
  private readonly views = new Map<Tier, PlanArbView>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  /** Whether `arbChanges` holds the last published snapshot's arbs (not while idle: see `seedArbs`). */
  private arbsSeeded = false;
  /** Clients dropped as slow readers since start. */
  dropped = 0;

  constructor(
    private readonly engine: FeedEngine,
    readonly options: StreamOptions,
    private readonly now: () => number = Date.now,
  ) {
    const dropSlow = (client: StreamClient) => {
      this.dropped += 1;
      this.close(client, 'slow');
    };
    this.log = new ChangeLog(options, now, () => this.fanOut.lowestReleased());
    this.fanOut = new FanOut(this.log, options, this.telemetry, now, dropSlow);
    this.snapshots = new Snapshots(
      engine,
      options,
      this.log,
      now,
      dropSlow,
      (client) => this.close(client, 'shutdown'),
      (tier) => this.views.get(tier)?.current(),
      (client, had) => this.resync(client, had),
    );
    this.arbChanges = new ArbChanges(engine.store);
    this.loop = new LoopTelemetry(now);
  }

  start(recheck: StreamRecheck): void {
    const store = this.engine.store;
    // Nothing is made for nobody (issue 59): while the log keeps nothing (no client for `idleRetainMs`), a price
    // change builds no answer object, arb snapshots are not compared (the comparison starts again from the snapshot
    // of the next client to connect) and value changes are not turned into entries.
    this.unsubscribe.push(
      store.subscribe((change) => {
        if (this.idle()) return;
        const price = priceChange(store, change);
        if (price) this.append(price);
      }),
    );
    this.unsubscribe.push(
      this.engine.onSnapshot((snapshot) => {
        if (this.idle()) {
          if (this.arbsSeeded) this.arbChanges.forget();
          this.arbsSeeded = false;
          return;
        }
        this.seedArbs();
        for (const change of this.arbChanges.diff(snapshot)) this.append(change);
        this.updateViews();
      }),
    );
    this.seedArbs();
    // Positive EV and middles: the engine keeps them wherever the API is served (decisions 170, 273).
    this.unsubscribe.push(
      this.engine.onValues((changes) => {
        if (this.idle()) return;
        for (const change of valueChanges(changes)) this.append(change);
      }),
    );
    // Live scores and finals (`types=score`; decision 260): one entry per score the engine's scoreboard accepts.
    this.unsubscribe.push(
      this.engine.scores.subscribe((score) => {
        if (this.idle()) return;
        this.append({
          kind: 'score',
          eventId: score.eventId,
          league: score.league,
          marketType: undefined,
          books: [],
          data: scoreDto(score),
        });
      }),
    );
    this.loop.start();
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs / 2, () => this.fanOut.heartbeat());
    every(this.options.releaseMs, () => {
      this.fanOut.releaseDelayed();
      // A delayed tier's horizon moved: the arbs above the cap it may now see.
      this.updateViews();
    });
    every(this.options.recheckMs, () => {
      const now = this.now();
      this.snapshots.forgetOld(now);
      this.keys.check(now, recheck, (id, reason) => this.closeKey(id, reason));
    });
  }

  stop(): void {
    this.loop.stop();
    this.fanOut.stop();
    for (const timer of this.timers) clearInterval(timer);
    for (const off of this.unsubscribe) off();
    for (const client of this.fanOut.clients()) this.close(client, 'shutdown');
  }

  get clientCount(): number {
    return this.fanOut.clientCount;
  }

  get lastSeq(): number {
    return this.log.lastSeq;
  }

  get oldestSeq(): number {
    return this.log.oldestSeq;
  }

  /** Changes made into entries (answer objects, serialised frames) since start: none while no client wants them. */
  get entriesMade(): number {
    return this.log.made;
  }

  /** Snapshot events encoded since start (each shared by the clients of its group opening within a second). */
  get snapshotBuilds(): number {
    return this.snapshots.builds;
  }

  connectionsOf(keyId: number): number {
    return this.keys.count(keyId);
  }

  /** How long real-time releases took since `sinceMs` (clock of the hub), for operators and the stream bench. */
  releaseStats(sinceMs = 0): ReleaseStats {
    return this.telemetry.stats(sinceMs);
  }

  /** How late the event loop ran since `sinceMs` (clock of the hub): every stall delays every stream. */
  loopStats(sinceMs = 0): LoopStats {
    return this.loop.stats(sinceMs);
  }

  /** ROLE=api: the changes from now on come from the leader's stream entry `<ms>-<seq>` (their ids say so). */
  streamEntry(ms: number, seq: number): void {
    this.log.enterStreamEntry(ms, seq);
  }

  /** ROLE=api: the follower starts over from the current (full) entry; older ids get a snapshot. */
  streamRestarted(): void {
    this.log.restartStream();
  }

  /** Whether the change log keeps nothing now (no client for `idleRetainMs`): then no change is made. */
  private idle(): boolean {
    return this.log.idle(this.fanOut.clientCount);
  }

  /**
   * Arb changes are found by comparing each published snapshot with the one before. After an idle spell they start
   * again from the snapshot published last: the one a stream opening now has in its `snapshot` event.
   */
  private seedArbs(): void {
    if (this.arbsSeeded) return;
    this.arbChanges.seed(this.engine.latest);
    this.arbsSeeded = true;
  }

  private append(change: Change) {
    if (this.log.append(change, this.fanOut.clientCount)) this.fanOut.changed();
  }

  /** Brings every delayed tier's plan view up to date and sends its changes; a tier without clients drops its view. */
  private updateViews(): void {
    for (const tier of this.fanOut.delayedTiers()) {
      if (tier.clients.size === 0) this.views.delete(tier);
      else this.updateView(tier);
    }
  }

  /** The tier's plan view, made now (its arbs are no change) or brought up to date (its changes are sent). */
  private updateView(tier: Tier): PlanArbView {
    const latest = this.engine.latest;
    const delayed = this.engine.snapshotAt(this.now() - tier.delayMs);
    let view = this.views.get(tier);
    if (!view) {
      view = new PlanArbView(this.engine.store, latest, delayed);
      this.views.set(tier, view);
      return view;
    }
    const changes = view.update(latest, delayed);
    if (changes.length > 0) {
      const at = this.now();
      this.fanOut.deliver(
        tier,
        changes.map((change) => viewEntry(change, tier.released, at)),
      );
    }
    return view;
  }

  /**
   * What a client of a delayed tier that opened with a snapshot missed of its plan's arbs while the snapshot was sent
   * (`had`: the snapshot's arbs by key): `arb` for each arb new or changed since, `arb_removed` for each gone. Written
   * in the turn it goes live, so that its arbs are then the view's, which later changes are relative to.
   */
  private resync(client: StreamClient, had: ReadonlyMap<string, unknown>): string {
    const view = this.views.get(client.tier);
    if (!view) return '';
    const at = this.now();
    const seen = new Set<string>();
    let text = '';
    const id = `id: ${this.log.id(client.tier.released)}\n`;
    for (const change of view.current()) {
      const entry = viewEntry(change, client.tier.released, at);
      if (!matches(entry, client.group.filters)) continue;
      const data = change.data as { key: string; arb: unknown };
      seen.add(data.key);
      const before = had.get(data.key);
      if (before === data.arb || (before && JSON.stringify(before) === JSON.stringify(data.arb))) continue;
      text += id + entry.frame;
    }
    for (const [key, arb] of had) {
      if (seen.has(key)) continue;
      const eventId = (arb as { event: { id: string } }).event.id;
      text += `${id}event: arb_removed\ndata: ${JSON.stringify({ key, event_id: eventId })}\n\n`;
    }
    return text;
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
    this.seedArbs();
    const tier = this.fanOut.tierFor(this.delayFor(key, filters));
    // Bring the tier up to date first when nothing is being written, so that the replay and the snapshot hold what
    // is due now. Either way they end exactly at `tier.released` and live delivery starts right after it. While
    // writes are queued it is not done: 5,000 streams opening would each queue a release to every open stream.
    this.fanOut.releaseIfIdle(tier, this.now());
    // A delayed tier's arbs are its plan's view (decision 223), up to date before its snapshot is built.
    const ownArbs = tier.delayMs > 0;
    if (ownArbs) this.updateView(tier);
    const group = this.fanOut.groupFor(tier, ownArbs ? { ...filters, arbsFromView: true } : filters);
    const client: StreamClient = {
      key,
      sink,
      tier,
      group,
      closed: false,
      live: true,
      ready: LIVE,
      lastWriteAt: this.now(),
    };
    // The log does not hold a delayed tier's arb changes: a stream of them resumes with a snapshot (decision 223).
    const wantsArbs = !filters.kinds || filters.kinds.has('arb');
    const replayFrom =
      ownArbs && wantsArbs && lastEventId !== undefined
        ? undefined
        : this.log.replayStart(lastEventId, tier.released);
    sink.write(`retry: 2000\n\n`);
    if (replayFrom !== undefined) {
      const text = render(this.log, this.log.between(replayFrom - 1, tier.released), filters);
      if (text) sink.write(text);
    } else if (lastEventId !== undefined || initial) {
      client.live = false;
      client.ready = this.snapshots.send(client);
    }
    this.fanOut.add(client);
    this.keys.add(client);
    return client;
  }

  /**
   * The delay a stream is served at: its plan's, except that a stream of positive EV and middles alone is never staler
   * than the free pages' (decision 211), and a stream of scores alone is real time, as GET /v1/scores (decision 260).
   */
  private delayFor(key: ApiKeyRecord, filters: StreamFilters): number {
    const plan = delayMs(key.plan);
    const kinds = filters.kinds;
    if (kinds === undefined || kinds.has('price') || kinds.has('arb')) return plan;
    if (!kinds.has('ev') && !kinds.has('middle')) return 0;
    return Math.min(plan, this.options.valuesDelayMaxMs);
  }

  disconnect(client: StreamClient): void {
    client.closed = true;
    this.fanOut.remove(client);
    this.keys.remove(client);
  }

  close(client: StreamClient, reason: CloseReason): void {
    if (client.closed) return;
    this.disconnect(client);
    const frame =
      reason === 'slow' || reason === 'shutdown'
        ? `event: close\ndata: ${JSON.stringify({ reason })}\n\n`
        : `event: close\ndata: ${JSON.stringify({ reason, detail: CLOSE_DETAIL[reason] })}\n\n`;
    client.sink.end(reason === 'slow' ? undefined : frame);
  }

  closeKey(keyId: number, reason: CloseReason): void {
    for (const client of this.keys.of(keyId)) this.close(client, reason);
  }
}
