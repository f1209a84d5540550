import { USAGE_FAMILIES, USAGE_RETENTION_DAYS, type UsageFamily } from '#domain/usage.ts';
import type { Database } from '../db/database.ts';
import { addUsage, pruneUsage, readUsage, type UsageDelta } from './repository.ts';

// Per-key daily usage (issue 33, docs/decisions/155-usage-counting-and-key-rotation.md). A request costs two Map
// lookups in memory, never a database write: every few seconds (and at shutdown) the deltas this instance counted go
// to the database in one upsert that adds them (`count = count + excluded.count`), so the counts are exact across
// instances. Reads add this instance's deltas not yet flushed, so a customer sees their own last request at once.
// Counts belong to the key's line (`ledgerId`, the first key of its rotations): a rotation keeps the history.

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export const STREAM_MINUTES = 'stream_minutes';
export const SGP_CREDITS = 'sgp_credits';
const REQUEST_METRIC = Object.fromEntries(
  USAGE_FAMILIES.map((family) => [family, `req:${family}`]),
) as Record<UsageFamily, string>;

/** `YYYY-MM-DD` of a UTC day number (days since 1970-01-01). */
export function dayString(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

export interface UsageDay {
  date: string;
  requests: number;
  by_family: Record<UsageFamily, number>;
  stream_minutes: number;
  sgp_credits: number;
}

export interface UsageReport {
  from: string;
  to: string;
  retention_days: number;
  days: UsageDay[];
}

interface OpenStream {
  ledgerId: number;
  openedAt: number;
  /** Started minutes already counted (the first at open). */
  counted: number;
}

export interface UsageCounterOptions {
  now?: () => number;
  /** False: nothing is counted (the bench's baseline); reads still answer from the database. */
  enabled?: boolean;
}

export class UsageCounter {
  /** Deltas not yet flushed: ledger id → `day|metric` → count. */
  private pending = new Map<number, Map<string, number>>();
  private readonly streams = new Set<OpenStream>();
  /** Flushes and reads run one at a time: a read never misses (or doubles) a batch being written. */
  private queue: Promise<unknown> = Promise.resolve();
  private prunedFor: string | undefined;
  private cachedDay = -1;
  private cachedDayString = '';
  private readonly now: () => number;
  readonly enabled: boolean;
  /** Flushes that failed since start (their deltas were kept for the next one). */
  failures = 0;

  constructor(
    private readonly db: Database,
    options: UsageCounterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.enabled = options.enabled ?? true;
  }

  private dayAt(at: number): string {
    const day = Math.floor(at / DAY_MS);
    if (day !== this.cachedDay) {
      this.cachedDay = day;
      this.cachedDayString = dayString(day);
    }
    return this.cachedDayString;
  }

  private add(ledgerId: number, day: string, metric: string, count: number): void {
    let days = this.pending.get(ledgerId);
    if (!days) this.pending.set(ledgerId, (days = new Map()));
    const id = `${day}|${metric}`;
    days.set(id, (days.get(id) ?? 0) + count);
  }

  /** One request of the key line, in its route family, today (UTC). */
  request(ledgerId: number, family: UsageFamily): void {
    if (this.enabled) this.add(ledgerId, this.dayAt(this.now()), REQUEST_METRIC[family], 1);
  }

  /** One same-game-parlay credit spent by the key line, today. */
  sgpCredit(ledgerId: number): void {
    if (this.enabled) this.add(ledgerId, this.dayAt(this.now()), SGP_CREDITS, 1);
  }

  /**
   * A stream of the key line opened: its minutes are counted per started minute (the first at once, each later one
   * within a flush of starting, on the UTC day it started). Call the returned function when the stream ends.
   */
  streamOpened(ledgerId: number): () => void {
    if (!this.enabled) return () => {};
    const stream: OpenStream = { ledgerId, openedAt: this.now(), counted: 1 };
    this.add(ledgerId, this.dayAt(stream.openedAt), STREAM_MINUTES, 1);
    this.streams.add(stream);
    return () => {
      if (this.streams.delete(stream)) this.countMinutes(stream, this.now());
    };
  }

  /** Open streams counted (for tests and operators). */
  get openStreams(): number {
    return this.streams.size;
  }

  private countMinutes(stream: OpenStream, now: number): void {
    const started = Math.floor((now - stream.openedAt) / MINUTE_MS) + 1;
    for (let minute = stream.counted; minute < started; minute += 1) {
      this.add(stream.ledgerId, this.dayAt(stream.openedAt + minute * MINUTE_MS), STREAM_MINUTES, 1);
    }
    if (started > stream.counted) stream.counted = started;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Writes the deltas counted so far in one statement; a failure keeps them for the next flush (and rejects). Once a
   * UTC day (and at the first flush) deletes the days older than the retention.
   */
  flush(): Promise<void> {
    return this.serial(async () => {
      const now = this.now();
      for (const stream of this.streams) this.countMinutes(stream, now);
      const batch = this.pending;
      this.pending = new Map();
      const deltas: UsageDelta[] = [];
      for (const [ledgerId, days] of batch) {
        for (const [id, count] of days) {
          const bar = id.indexOf('|');
          deltas.push({ ledgerId, day: id.slice(0, bar), metric: id.slice(bar + 1), count });
        }
      }
      try {
        await addUsage(this.db, deltas);
      } catch (error) {
        this.failures += 1;
        // Nothing was written (one statement): the deltas wait for the next flush.
        for (const delta of deltas) this.add(delta.ledgerId, delta.day, delta.metric, delta.count);
        throw error;
      }
      const today = this.dayAt(now);
      if (this.prunedFor !== today) {
        await pruneUsage(this.db, dayString(Math.floor(now / DAY_MS) - USAGE_RETENTION_DAYS + 1));
        this.prunedFor = today;
      }
    });
  }

  /**
   * The key line's last `days` UTC days, oldest first, today included: the stored counts plus this instance's deltas
   * not yet flushed, every day present and every family in every day (0 when unused).
   */
  report(ledgerId: number, days: number): Promise<UsageReport> {
    return this.serial(async () => {
      const now = this.now();
      for (const stream of this.streams) if (stream.ledgerId === ledgerId) this.countMinutes(stream, now);
      const today = Math.floor(now / DAY_MS);
      const from = dayString(today - days + 1);
      const to = dayString(today);
      const stored = await readUsage(this.db, ledgerId, from, to);
      const byDay = new Map<string, UsageDay>();
      for (let day = today - days + 1; day <= today; day += 1) {
        const date = dayString(day);
        byDay.set(date, {
          date,
          requests: 0,
          by_family: Object.fromEntries(USAGE_FAMILIES.map((family) => [family, 0])) as Record<
            UsageFamily,
            number
          >,
          stream_minutes: 0,
          sgp_credits: 0,
        });
      }
      const unflushed: UsageDelta[] = [];
      for (const [id, count] of this.pending.get(ledgerId) ?? []) {
        const bar = id.indexOf('|');
        unflushed.push({ ledgerId, day: id.slice(0, bar), metric: id.slice(bar + 1), count });
      }
      for (const { day, metric, count } of [...stored, ...unflushed]) {
        const entry = byDay.get(day);
        if (!entry) continue;
        if (metric === STREAM_MINUTES) entry.stream_minutes += count;
        else if (metric === SGP_CREDITS) entry.sgp_credits += count;
        else if (metric.startsWith('req:')) {
          const family = metric.slice(4) as UsageFamily;
          const known = family in entry.by_family ? family : 'other';
          entry.by_family[known] += count;
          entry.requests += count;
        }
      }
      return { from, to, retention_days: USAGE_RETENTION_DAYS, days: [...byDay.values()] };
    });
  }
}
