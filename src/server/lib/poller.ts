// A background worker's loop: a pass now when kicked (after a commit queued work), else one every `pollMs`; never two
// passes at once (a kick during a pass runs one more right after it); `stop()` waits for the pass in hand. The email
// outbox and the lost-key queue use it (issue 32). The pass reads `active` to stop between items.

export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private rerun = false;
  private stopped = true;

  constructor(
    /** One pass over the due work; it should return early once `active` is false. */
    private readonly pass: () => Promise<void>,
    private readonly pollMs: number,
    /** Told when a pass throws; the next kick or poll runs again. */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** False once `stop()` is called (and before `start()`). */
  get active(): boolean {
    return !this.stopped;
  }

  /** Starts polling with a pass now. */
  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Runs a pass now instead of waiting for the next poll (or right after the pass in hand). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.runPass().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.rerun) {
        this.rerun = false;
        this.kick();
      } else {
        this.timer = setTimeout(() => this.kick(), this.pollMs);
        this.timer.unref();
      }
    });
  }

  /** Stops polling after the pass in hand; `start()` resumes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.rerun = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async runPass(): Promise<void> {
    try {
      await this.pass();
    } catch (error) {
      this.onError(error);
    }
  }
}
