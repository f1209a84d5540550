// What real-time releases cost, for operators (`GET /admin/streams`) and the stream benches: each release with
// clients records its synchronous fan-out and its delivery time (docs/decisions/085).

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
