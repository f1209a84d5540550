// Whether the public feed's compressed bytes are in demand: asked for within `wantedMs` (FEED_WANTED_MS, decision 248).
// The feed encoder compresses each snapshot as it is published while they are (plugin.ts), and `onChange` is told when
// demand starts and when it has lapsed, so that the server can let V8's heap grow more freely while the feed is busy
// and hold it to HEAP_GROWTH_PCT otherwise (decision 294). `ask()` runs on every feed request: a clock read and a
// boolean when demand is already signalled.

export interface FeedDemandOptions {
  /** The clock demand is measured on (the engine's). */
  now: () => number;
  /** How long after the last demand the feed is still wanted. */
  wantedMs: number;
  /** Called with true on the first demand after a quiet spell, with false once `wantedMs` passed without one. */
  onChange?: (wanted: boolean) => void;
}

export class FeedDemand {
  private askedAt = Number.NEGATIVE_INFINITY;
  private signalled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: FeedDemandOptions) {}

  /** A reader asked for the feed's compressed bytes now. */
  ask(): void {
    this.askedAt = this.options.now();
    if (this.signalled || !this.options.onChange) return;
    this.signalled = true;
    this.options.onChange(true);
    this.arm(this.options.wantedMs);
  }

  /** Whether the feed was asked for within `wantedMs` of `at`. */
  wanted(at: number = this.options.now()): boolean {
    return at - this.askedAt < this.options.wantedMs;
  }

  /** Stops the timer; a signalled demand is signalled over (the app is closing). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.signalled) return;
    this.signalled = false;
    this.options.onChange?.(false);
  }

  /** Checks again when the last demand would lapse; re-armed while requests keep coming (one timer, not one a request). */
  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(1, ms));
    this.timer.unref();
  }

  private check(): void {
    const left = this.askedAt + this.options.wantedMs - this.options.now();
    if (left > 0) return this.arm(left);
    this.timer = undefined;
    this.signalled = false;
    this.options.onChange?.(false);
  }
}
