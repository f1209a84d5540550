import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

// What real-time releases cost, for operators (`GET /admin/streams`) and the stream benches: each release with
// clients records its synchronous fan-out and its delivery time (docs/decisions/085); and how late the event loop
// runs, since every stall delays every stream (issue 17).

/** Percentiles of the real-time releases recorded since a time (`StreamHub.releaseStats`). */
export interface ReleaseStats {
  releases: number;
  /** Synchronous time of one release: rendering each group's chunk and writing it to every matching client. */
  fanoutMs: { p50: number; p99: number; max: number };
  /** From the oldest change in a release becoming known here to its last write: batching + fan-out. */
  deliveryMs: { p50: number; p99: number; max: number };
}

/** Real-time releases remembered (a few minutes' worth at the 20 ms batch). */
const RELEASE_SAMPLES = 8192;

function spread(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1)!) };
}

export class ReleaseTelemetry {
  /** [when (hub clock), fan-out ms, delivery ms] of recent real-time releases with clients, oldest first. */
  private readonly releases: [number, number, number][] = [];

  record(at: number, fanoutMs: number, deliveryMs: number): void {
    this.releases.push([at, fanoutMs, deliveryMs]);
    if (this.releases.length > RELEASE_SAMPLES)
      this.releases.splice(0, this.releases.length - RELEASE_SAMPLES);
  }

  /** How long real-time releases took since `sinceMs` (clock of the hub). */
  stats(sinceMs: number): ReleaseStats {
    const recent = this.releases.filter(([at]) => at >= sinceMs);
    return {
      releases: recent.length,
      fanoutMs: spread(recent.map(([, fanout]) => fanout)),
      deliveryMs: spread(recent.map(([, , delivery]) => delivery)),
    };
  }
}

/** How often the loop monitor's timer asks to run (as `monitorEventLoopDelay`'s default resolution, halved). */
const LOOP_RESOLUTION_MS = 5;
/** Per-second windows of loop delays remembered (10 minutes). */
const LOOP_WINDOWS = 600;

/** Event-loop delay since a time: how late a 5 ms timer ran (p50, p99) and the longest stall seen. */
export interface LoopStats {
  samples: number;
  delayMs: { p50: number; p99: number; max: number };
}

/**
 * Measures event-loop delay as `monitorEventLoopDelay` does (a repeating timer's lateness), but in per-second
 * windows that can be merged, so that a load test can ask for the delays since its start while the process keeps
 * running (`monitorEventLoopDelay` offers one histogram since its last reset). A stall of 80 ms shows as one sample
 * of ~75 ms; `max` is the longest stall.
 */
export class LoopTelemetry {
  private readonly windows: { at: number; histogram: RecordableHistogram }[] = [];
  private current: RecordableHistogram = createHistogram();
  private currentAt: number;
  private last = performance.now();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = Date.now) {
    this.currentAt = now();
  }

  start(): void {
    if (this.timer) return;
    this.last = performance.now();
    this.timer = setInterval(() => this.sample(), LOOP_RESOLUTION_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Records one delay (ms); the timer calls it, tests may too. */
  record(delayMs: number): void {
    const now = this.now();
    if (now - this.currentAt >= 1000) {
      this.windows.push({ at: this.currentAt, histogram: this.current });
      if (this.windows.length > LOOP_WINDOWS) this.windows.shift();
      this.current = createHistogram();
      this.currentAt = now;
    }
    this.current.record(Math.max(1, Math.round(delayMs * 1e6)));
  }

  /** The delays recorded in the windows that end after `sinceMs` (clock of the hub), the current one included. */
  stats(sinceMs: number): LoopStats {
    const merged = createHistogram();
    for (const window of this.windows) if (window.at + 1000 > sinceMs) merged.add(window.histogram);
    merged.add(this.current);
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    if (merged.count === 0) return { samples: 0, delayMs: { p50: 0, p99: 0, max: 0 } };
    return {
      samples: merged.count,
      delayMs: { p50: ms(merged.percentile(50)), p99: ms(merged.percentile(99)), max: ms(merged.max) },
    };
  }

  private sample(): void {
    const at = performance.now();
    const delay = at - this.last - LOOP_RESOLUTION_MS;
    this.last = at;
    this.record(Math.max(0, delay));
  }
}
