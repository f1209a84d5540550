import { promisify } from 'node:util';
import { constants as zlibConstants, gzip, gunzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import type { Arb } from '#domain/schemas/feed.ts';
import type { Snapshot } from '#engine/publisher.ts';
import type { FeedEngine } from '../feed/plugin.ts';
import { FENCE_CHECK, FencedError } from './leader-lease.ts';
import { decodeEntries, encodeEntries, MessageBook, type BookEntry } from './message-book.ts';

// The ingest leader's changes on a Redis Stream, and the `api` instances that follow them (issue 19, decision 144).
//
// Every entry carries the leader's lease value `L` and its number `n` within that lead (0, 1, 2, …). Entries:
// - `t=f` (full): every fixture and current price the leader holds (MessageBook), as `[at, message]` pairs in `d`. The
//   first entry of every lead, then one every `fullMs` (30 s), with the lead's newest snapshot's fields (below) once
//   there is one; the key `<prefix>cluster:full` names the newest, the list `<prefix>cluster:fulls` the ones kept.
// - `t=m`: the messages the leader's engine accepted since the previous entry, `[at, message]` pairs in `d`.
// - `t=s`: a published snapshot: `at`, `g` (generated_at), `k` (the arbs' engine keys, JSON) and `b` (the feed's bytes).
// - `t=h`: the history writer's progress (`p`, JSON: how far the shared odds history is written), every `progressMs`.
// The bulky fields (`d`, `b`) are gzipped (level 1, off the main thread), marked `z=1`: the stream keeps the longest
// plan delay and more, ~2 MB/s of JSON from the simulator's game lines before compression.
//
// The stream keeps every entry from the newest full entry that is at least `retainMs` old (the longest plan delay,
// decision 146). An `api` instance starts from that full entry, the oldest kept, and applies every later entry in
// order: its engine then holds the leader's prices (received at the leader's times) with every version a delayed plan
// may be shown, and serves the leader's snapshots byte for byte, the delayed ones too, like every other instance. A
// missing number (an entry it could not see) or a new leader sends it back to the oldest kept full entry.

export interface ClusterKeys {
  lease: string;
  stream: string;
  full: string;
  /** The full entries kept, oldest first: the stream is trimmed below the first. */
  fulls: string;
}

export function clusterKeys(prefix: string): ClusterKeys {
  return {
    lease: `${prefix}cluster:leader`,
    stream: `${prefix}cluster:changes`,
    full: `${prefix}cluster:full`,
    fulls: `${prefix}cluster:fulls`,
  };
}

/**
 * XADD guarded by the lease (KEYS: lease, stream, newest full, kept fulls; ARGV: lease value, '1' for a full entry,
 * the retention cutoff (unix ms), fields…). A full entry joins the kept list, which then drops its first while the
 * second is at or before the cutoff: the first is the newest full entry at least the retention old. The stream is
 * trimmed (MINID) below the first, so a follower starting there finds every entry after it, and a live follower up to
 * the retention behind still reads on.
 */
const APPEND = `${FENCE_CHECK}
local floor = redis.call('LINDEX', KEYS[4], 0)
local id
if floor then
  id = redis.call('XADD', KEYS[2], 'MINID', '~', floor, '*', unpack(ARGV, 4))
else
  id = redis.call('XADD', KEYS[2], '*', unpack(ARGV, 4))
end
if ARGV[2] == '1' then
  redis.call('RPUSH', KEYS[4], id)
  redis.call('SET', KEYS[3], id)
  local cutoff = tonumber(ARGV[3])
  while redis.call('LLEN', KEYS[4]) > 1 do
    local second = redis.call('LINDEX', KEYS[4], 1)
    if tonumber(string.match(second, '^(%d+)')) <= cutoff then
      redis.call('LPOP', KEYS[4])
    else
      break
    end
  end
end
return id`;

export interface PublisherLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface PublisherOptions {
  /** Accepted messages are sent at least this often (ms). */
  batchMs?: number;
  /** A full entry every so often (ms). */
  fullMs?: number;
  /**
   * How far back the stream reaches at least (ms): a starting follower replays that much, so that it holds every
   * version a delayed plan may be shown (the longest plan delay). At least one full period (the default). The cutoff is
   * taken on this process's clock and compared with entry ids (Redis's clock): keep the two in sync (NTP).
   */
  retainMs?: number;
  /** The history writer's progress, appended as an `h` entry every `progressMs` (default 5 s) while leading. */
  progress?: () => HistoryProgress;
  progressMs?: number;
}

/** How far the leader's odds history writer has got (issue 19: api instances show it in `/readyz`). */
export interface HistoryProgress {
  /** Every change received up to this instant is written (ISO 8601), or null before the first write. */
  writtenUpTo: string | null;
  queuedChanges: number;
  failingSince: string | null;
  fencedBatches: number;
}

export interface PublisherStats {
  leading: boolean;
  /** Entries written in this lead. */
  entries: number;
  /** Writes that failed (Redis away, or fenced) since start. */
  failures: number;
  /** First and newest entry ids written in this lead. */
  firstId: string | null;
  lastId: string | null;
}

/** The leader's side: records what its engine accepts and appends it, with its snapshots, to the stream. */
export class ClusterPublisher {
  private readonly book = new MessageBook();
  private readonly batchMs: number;
  private readonly fullMs: number;
  private readonly retainMs: number;
  private pending: BookEntry[] = [];
  private fence: string | null = null;
  /** Set once the lead's first full entry is queued; until then accepted messages only go to the book. */
  private started = false;
  private next = 0;
  private written = 0;
  private failures = 0;
  private firstId: string | null = null;
  private lastId: string | null = null;
  private chain: Promise<void> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private lastFullAt = 0;
  private offSnapshot: (() => void) | undefined;
  /** The newest snapshot published in this lead. */
  private latest: Snapshot | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly engine: FeedEngine,
    private readonly log: PublisherLog,
    private readonly options: PublisherOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.batchMs = options.batchMs ?? 50;
    this.fullMs = options.fullMs ?? 30_000;
    this.retainMs = options.retainMs ?? 0;
  }

  /** Starts a lead with `fence` (the lease's value): nothing is written before `ready()`. */
  begin(fence: string): void {
    this.fence = fence;
    this.book.clear();
    this.pending = [];
    this.started = false;
    this.next = 0;
    this.written = 0;
    this.firstId = null;
    this.latest = undefined;
    this.offSnapshot ??= this.engine.onSnapshot((snapshot) => this.snapshot(snapshot));
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.batchMs, () => this.flush());
    const progress = this.options.progress;
    if (progress) {
      every(this.options.progressMs ?? 5_000, () => {
        if (this.started) this.append(false, { t: 'h', p: JSON.stringify(progress()) });
      });
    }
    every(Math.min(this.fullMs, 1_000), () => {
      if (this.started && this.now() - this.lastFullAt >= this.fullMs) this.full();
    });
  }

  /** The lead is over (lost, or the instance stops): nothing more is written. */
  async end(): Promise<void> {
    this.fence = null;
    this.started = false;
    this.pending = [];
    this.book.clear();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.chain;
  }

  /** The source handed the engine a message it accepted at `at`. */
  accepted(message: unknown, at: number): void {
    if (this.fence === null) return;
    const json = JSON.stringify(message);
    this.book.record(message, at, json);
    if (this.started) this.pending.push([at, json]);
  }

  /** The source's initial state is in: the lead's first full entry, before the first snapshot. */
  ready(): void {
    if (this.fence === null) return;
    this.started = true;
    this.full();
  }

  stats(): PublisherStats {
    return {
      leading: this.fence !== null,
      entries: this.written,
      failures: this.failures,
      firstId: this.firstId,
      lastId: this.lastId,
    };
  }

  private full(): void {
    // Messages accepted since the last batch go out first: a follower reading on skips this full entry (it holds
    // nothing new for one that saw every entry before it), so what is only in here would never reach it.
    this.flush();
    this.lastFullAt = this.now();
    // With the lead's newest snapshot: a follower starting here serves the feed at once, even if the arbs do not
    // change (no `s` entry) for a long time.
    const snapshot = this.latest ? snapshotFields(this.latest) : {};
    this.append(true, { t: 'f', d: encodeEntries(this.book.entries()), ...snapshot });
  }

  private flush(): void {
    if (!this.started || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.append(false, { t: 'm', d: encodeEntries(batch) });
  }

  private snapshot(snapshot: Snapshot): void {
    if (!this.started || this.fence === null) return;
    this.latest = snapshot;
    this.flush();
    this.append(false, { t: 's', ...snapshotFields(snapshot) });
  }

  /**
   * Queues one entry behind the previous ones (the stream's order is the order of calls). Its `d` and `b` are gzipped
   * at once, in parallel with the entries before it.
   */
  private append(full: boolean, fields: Record<string, string | Buffer>): void {
    const fence = this.fence;
    if (fence === null) return;
    const n = this.next;
    this.next += 1;
    const packed = Promise.all(
      Object.entries({ ...fields, z: '1', L: fence, n: String(n) }).map(async ([name, value]) => [
        name,
        name === 'd' || name === 'b' ? await gzipFast(value) : value,
      ]),
    );
    this.chain = this.chain.then(async () => {
      try {
        const args = (await packed).flat();
        const id = (await this.redis.eval(
          APPEND,
          4,
          this.keys.lease,
          this.keys.stream,
          this.keys.full,
          this.keys.fulls,
          fence,
          full ? '1' : '0',
          // At least one full period back: a live follower a little behind a new full entry reads on.
          String(this.now() - Math.max(this.retainMs, this.fullMs)),
          ...args,
        )) as string;
        this.written += 1;
        this.firstId ??= id;
        this.lastId = id;
      } catch (error) {
        this.failures += 1;
        const fenced = error instanceof Error && /FENCED/.test(error.message);
        this.log.warn(
          {
            error: fenced
              ? new FencedError().message
              : error instanceof Error
                ? error.message
                : String(error),
          },
          'cluster publish failed',
        );
        // Followers see the missing number and go back to a full entry: make the next one come soon.
        if (!fenced) this.lastFullAt = 0;
      }
    });
  }
}

const gzipAsync = promisify(gzip);
const gzipFast = (value: string | Buffer) => gzipAsync(value, { level: zlibConstants.Z_BEST_SPEED });

/** A snapshot's fields in an `s` or `f` entry. */
function snapshotFields(snapshot: Snapshot): Record<string, string | Buffer> {
  return {
    at: String(snapshot.at),
    g: String(snapshot.generatedAt),
    k: JSON.stringify(snapshot.keys),
    b: snapshot.body,
  };
}

export interface FollowerLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface FollowerStats {
  /** Whether it holds a leader's state (a full entry and what followed it). */
  following: boolean;
  /** The lease value of the leader it follows. */
  leader: string | null;
  /** The last entry applied, and when the leader wrote it (unix ms, from the id). */
  appliedId: string | null;
  appliedAt: number | null;
  /** Entries applied, and how often it went back to a full entry, since start. */
  applied: number;
  restarts: number;
  /**
   * From the leader's append of a snapshot (its entry id's time, Redis's clock) to this instance serving it, over the
   * snapshots of the last `LAG_WINDOW_MS` (at most `LAG_SAMPLES` of them), in ms.
   */
  snapshotLagMs: { p50: number; p99: number; max: number; samples: number } | null;
  /** The leader's history writer, as of its last `h` entry (null before one). */
  history: HistoryProgress | null;
}

const LAG_SAMPLES = 1024;
const LAG_WINDOW_MS = 10_000;

export const idTime = (id: string): number => Number(id.slice(0, id.indexOf('-')));

type Fields = Map<string, Buffer>;

function fieldsOf(flat: Buffer[]): Fields {
  const fields: Fields = new Map();
  for (let index = 0; index + 1 < flat.length; index += 2)
    fields.set(flat[index]!.toString(), flat[index + 1]!);
  return fields;
}

/** An entry's `d` or `b`, unzipped when the entry says it is zipped (`z=1`); only when it is used. */
function bulk(fields: Fields, name: 'd' | 'b'): Buffer | undefined {
  const value = fields.get(name);
  return value && fields.get('z')?.toString() === '1' ? gunzipSync(value) : value;
}

/** Told where the changes an entry causes come from: the stream hub names them by it (decision 145). */
export interface FollowerListener {
  /** The entry `<ms>-<seq>` is about to be applied. */
  entry(ms: number, seq: number): void;
  /** The entry being applied is a full entry the follower starts over from. */
  restarted(): void;
}

/** An `api` instance's side: applies the leader's entries to its own engine, which never scans or ticks. */
export class ClusterFollower {
  /** Set by the stream hub (ROLE=api). */
  listener: FollowerListener | undefined;
  private leader: string | null = null;
  private n = -1;
  private lastId: string | null = null;
  private following = false;
  private applied = 0;
  private restarts = 0;
  private diffPending = false;
  private stopped = false;
  private readonly lags = new Float64Array(LAG_SAMPLES);
  private readonly lagTimes = new Float64Array(LAG_SAMPLES);
  private lagCount = 0;
  /** When this instance last started over from the oldest kept full entry: entries before it are a replay. */
  private liveFrom = 0;
  private history: HistoryProgress | null = null;
  private loop: Promise<void> | undefined;
  /** The arbs of the last installed snapshot by engine key, with their JSON: an unchanged arb keeps its object. */
  private arbs = new Map<string, { json: string; arb: Arb }>();

  constructor(
    /** A connection of its own: XREAD BLOCK holds it. */
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly engine: FeedEngine,
    private readonly log: FollowerLog,
    private readonly blockMs = 1_000,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.redis.disconnect();
    await this.loop;
  }

  stats(): FollowerStats {
    return {
      following: this.following,
      leader: this.leader,
      appliedId: this.lastId,
      appliedAt: this.lastId === null ? null : idTime(this.lastId),
      applied: this.applied,
      restarts: this.restarts,
      snapshotLagMs: this.lagPercentiles(),
      history: this.history,
    };
  }

  private lagPercentiles(): FollowerStats['snapshotLagMs'] {
    const since = Date.now() - LAG_WINDOW_MS;
    const recent: number[] = [];
    for (let index = 0; index < Math.min(this.lagCount, LAG_SAMPLES); index += 1)
      if (this.lagTimes[index]! >= since) recent.push(this.lags[index]!);
    const samples = recent.length;
    if (samples === 0) return null;
    const sorted = Float64Array.from(recent).sort();
    const at = (p: number) => sorted[Math.min(samples - 1, Math.floor((p / 100) * samples))]!;
    return { p50: at(50), p99: at(99), max: sorted[samples - 1]!, samples };
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!this.following && !(await this.bootstrap())) {
          await sleep(250);
          continue;
        }
        const reply = (await this.redis.xreadBuffer(
          'COUNT',
          500,
          'BLOCK',
          this.blockMs,
          'STREAMS',
          this.keys.stream,
          this.lastId!,
        )) as [Buffer, [Buffer, Buffer[]][]][] | null;
        for (const [, entries] of reply ?? []) {
          for (const [id, flat] of entries) {
            if (!this.apply(id.toString(), fieldsOf(flat))) break;
          }
        }
      } catch (error) {
        if (this.stopped) return;
        this.log.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'cluster follow failed',
        );
        await sleep(500);
      }
    }
  }

  /**
   * Starts over from the oldest full entry the stream keeps (then replays what followed it); false when there is none
   * yet (no leader has published) or it was just trimmed away.
   */
  private async bootstrap(): Promise<boolean> {
    const pointer = (await this.redis.lindex(this.keys.fulls, 0)) ?? (await this.redis.get(this.keys.full));
    if (pointer === null) return false;
    const [entry] = (await this.redis.xrangeBuffer(this.keys.stream, pointer, pointer)) as [
      Buffer,
      Buffer[],
    ][];
    if (!entry) return false;
    const fields = fieldsOf(entry[1]);
    this.liveFrom = Date.now();
    this.leader = null;
    this.n = -1;
    this.enter(pointer);
    this.applyFull(pointer, fields);
    this.following = true;
    this.log.info({ leader: this.leader, id: pointer }, 'cluster: following the leader');
    return true;
  }

  /** Applies one entry; false when it cannot follow on (a gap or a new leader's late entry): it starts over. */
  private apply(id: string, fields: Fields): boolean {
    const leader = fields.get('L')?.toString() ?? '';
    const n = Number(fields.get('n')?.toString());
    const kind = fields.get('t')?.toString();
    const next = leader === this.leader && n === this.n + 1;
    if (!next && !(kind === 'f' && n === 0)) {
      this.following = false;
      this.restarts += 1;
      this.log.warn({ id, leader, n, expected: this.n + 1 }, 'cluster: entry out of sequence, starting over');
      return false;
    }
    this.enter(id);
    if (kind === 'f') {
      // The same lead's periodic full entry holds nothing new for a follower that saw every entry before it.
      if (next) this.advance(id, leader, n);
      else {
        this.log.info({ leader, id }, 'cluster: following a new leader');
        this.applyFull(id, fields);
      }
    } else {
      if (kind === 'm') this.applyMessages(bulk(fields, 'd'));
      else if (kind === 'h')
        this.history = JSON.parse(fields.get('p')?.toString() ?? 'null') as HistoryProgress;
      else if (kind === 's') {
        // The first snapshot after starting over is diffed against what this instance held before, not what the
        // others held: its arb changes may differ from theirs, so resuming inside it gets a snapshot too.
        if (this.diffPending) this.listener?.restarted();
        this.diffPending = false;
        this.installSnapshot(fields);
        const now = Date.now();
        // Snapshots replayed after starting over were appended before this instance read on: not a lag of its own.
        if (idTime(id) >= this.liveFrom) this.recordLag(id, now);
      }
      this.advance(id, leader, n);
    }
    return true;
  }

  private recordLag(id: string, now: number): void {
    this.lags[this.lagCount % LAG_SAMPLES] = Math.max(0, now - idTime(id));
    this.lagTimes[this.lagCount % LAG_SAMPLES] = now;
    this.lagCount += 1;
  }

  private enter(id: string): void {
    const dash = id.indexOf('-');
    this.listener?.entry(Number(id.slice(0, dash)), Number(id.slice(dash + 1)));
  }

  private applyFull(id: string, fields: Fields): void {
    this.listener?.restarted();
    // Delayed readers before this entry still see the market as it was (a new leader's starts empty; decision 146).
    this.engine.retire(idTime(id));
    this.applyMessages(bulk(fields, 'd'));
    // The lead's newest snapshot, if it published one (a new leader's first full entry has none: the feed keeps the
    // previous leader's until the first `s` entry). Its arb changes are inside this entry, under the floor.
    const withSnapshot = fields.has('b');
    if (withSnapshot) this.installSnapshot(fields);
    this.diffPending = !withSnapshot;
    this.advance(id, fields.get('L')?.toString() ?? '', Number(fields.get('n')?.toString()));
  }

  private advance(id: string, leader: string, n: number): void {
    this.lastId = id;
    this.leader = leader;
    this.n = n;
    this.applied += 1;
  }

  private applyMessages(payload: Buffer | undefined): void {
    if (!payload) return;
    for (const [at, message] of decodeEntries(payload.toString())) this.engine.ingest(message, at);
  }

  private installSnapshot(fields: Fields): void {
    const body = bulk(fields, 'b') ?? Buffer.alloc(0);
    const keys = JSON.parse(fields.get('k')?.toString() ?? '[]') as string[];
    const parsed = JSON.parse(body.toString()) as { arbs: Arb[] };
    const previous = this.arbs;
    this.arbs = new Map();
    const arbs = parsed.arbs.map((arb, index) => {
      const key = keys[index] ?? String(index);
      const json = JSON.stringify(arb);
      const kept = previous.get(key);
      const same = kept && kept.json === json ? kept.arb : arb;
      this.arbs.set(key, { json, arb: same });
      return same;
    });
    this.engine.install({
      at: Number(fields.get('at')?.toString()),
      generatedAt: Number(fields.get('g')?.toString()),
      arbs,
      keys,
      body,
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
