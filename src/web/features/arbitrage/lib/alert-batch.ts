// Arb alerts gathered into one (issue 34: 9 notifications and 18 sounds in 25 s). New arbs are announced at once
// when no alert went out in the last `gapMs`; otherwise they wait, with any others that arrive meanwhile, for one
// alert when the gap ends, leaving out those no longer worth it (gone from the feed, filtered out, below the
// threshold). So a burst of arrivals makes one notification and one sound.

/** The least time between two alerts. */
export const ALERT_GAP_MS = 10_000;

export interface AlertBatchOptions<T> {
  /** Plays the sound and shows the notification for these items (never empty). */
  fire: (items: readonly T[]) => void;
  /** The item's identity: an item already waiting is not added twice. */
  key: (item: T) => string;
  /** Whether a waiting item still deserves an alert when the gap ends. */
  stillWorthy?: (item: T) => boolean;
  gapMs?: number;
  now?: () => number;
  schedule?: (run: () => void, ms: number) => unknown;
  cancel?: (handle: unknown) => void;
}

export class AlertBatch<T> {
  private pending = new Map<string, T>();
  private last = -Infinity;
  private timer: unknown = null;
  private readonly gapMs: number;
  private readonly now: () => number;
  private readonly schedule: (run: () => void, ms: number) => unknown;
  private readonly cancel: (handle: unknown) => void;

  constructor(private readonly options: AlertBatchOptions<T>) {
    this.gapMs = options.gapMs ?? ALERT_GAP_MS;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? ((run, ms) => setTimeout(run, ms));
    this.cancel = options.cancel ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  /** New arrivals (one fetch's worth): alerted now, or at the end of the gap with whatever else arrives. */
  add(items: readonly T[]): void {
    for (const item of items) {
      const key = this.options.key(item);
      if (!this.pending.has(key)) this.pending.set(key, item);
    }
    if (this.pending.size === 0 || this.timer !== null) return;
    const wait = this.last + this.gapMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.schedule(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = null;
    const worthy = this.options.stillWorthy;
    const items = [...this.pending.values()].filter((item) => !worthy || worthy(item));
    this.pending.clear();
    if (items.length === 0) return;
    this.last = this.now();
    this.options.fire(items);
  }

  /** Stops a waiting alert (the switch turned off, the page left). */
  dispose(): void {
    if (this.timer !== null) this.cancel(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
