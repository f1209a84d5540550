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
/**
 * Loop delays remembered: 2^17, about 11 minutes of the timer's 200 samples a second (more when the loop stalls, since
 * a stalled timer samples less often). A fixed ring of 1.5 MB: the per-second HDR histograms this replaced cost
 * ~170 KB each, ~100 MB over the 10 minutes they were kept, and were most of `npm start`'s growth in resident memory
 * (docs/decisions/191).
 */
const LOOP_SAMPLES = 1 << 17;

/** Event-loop delay since a time: how late a 5 ms timer ran (p50, p99) and the longest stall seen. */
export interface LoopStats {
  samples: number;
  delayMs: { p50: number; p99: number; max: number };
}

/**
 * Measures event-loop delay as `monitorEventLoopDelay` does (a repeating timer's lateness), but keeps each sample with
 * its time, so that a load test can ask for the delays since its start while the process keeps running
 * (`monitorEventLoopDelay` offers one histogram since its last reset). A stall of 80 ms shows as one sample of ~75 ms;
 * `max` is the longest stall. Percentiles are exact (nearest rank) over the samples asked for.
 */
export class LoopTelemetry {
  /** When each sample was taken (the hub's clock) and its delay in ms, in a ring: `next` is the oldest once full. */
  private readonly times = new Float64Array(LOOP_SAMPLES);
  private readonly delays = new Float32Array(LOOP_SAMPLES);
  private next = 0;
  private count = 0;
  private last = performance.now();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = Date.now) {}

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
    this.times[this.next] = this.now();
    this.delays[this.next] = delayMs;
    this.next = (this.next + 1) % LOOP_SAMPLES;
    if (this.count < LOOP_SAMPLES) this.count += 1;
  }

  /** The delays recorded at or after `sinceMs` (clock of the hub) that the ring still holds. */
  stats(sinceMs: number): LoopStats {
    const picked = new Float32Array(this.count);
    let samples = 0;
    for (let age = 1; age <= this.count; age += 1) {
      const slot = (this.next - age + LOOP_SAMPLES) % LOOP_SAMPLES;
      if (this.times[slot]! < sinceMs) continue;
      picked[samples] = this.delays[slot]!;
      samples += 1;
    }
    if (samples === 0) return { samples: 0, delayMs: { p50: 0, p99: 0, max: 0 } };
    const sorted = picked.subarray(0, samples).sort();
    const at = (p: number) => sorted[Math.min(samples - 1, Math.ceil(p * samples) - 1)]!;
    const ms = (value: number) => Math.round(value * 100) / 100;
    return { samples, delayMs: { p50: ms(at(0.5)), p99: ms(at(0.99)), max: ms(sorted[samples - 1]!) } };
  }

  private sample(): void {
    const at = performance.now();
    const delay = at - this.last - LOOP_RESOLUTION_MS;
    this.last = at;
    this.record(Math.max(0, delay));
  }
}
