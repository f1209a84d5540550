import { tickPartitions } from './retention.ts';
import type { SqlClient } from './sql-client.ts';

// What the odds history's ticks take on disk, for /readyz's `storedBytes` (issue 59). The upkeep measures it too, but
// only every 10 minutes (retention.ts): on a fresh server /readyz showed the empty partitions' 49,152 bytes for ten
// minutes while the ticks grew by hundreds of megabytes. Here it is measured when asked for and at most `maxAgeMs`
// old: a reader of /readyz gets a figure measured within the last `maxAgeMs`, and nobody asking costs nothing.

export interface StoredSizeOptions {
  /** A measurement older than this is taken again when asked for. */
  maxAgeMs: number;
  /** How long a reader waits for a new measurement before it gets the previous one (a busy database). */
  waitMs: number;
  now: () => number;
}

export interface StoredSizeReading {
  /** Bytes of the ticks (indexes included), or null before the first measurement. */
  bytes: number | null;
  /** When `bytes` was measured (ISO), or null. */
  at: string | null;
}

export class StoredSize {
  private bytes: number | null = null;
  private measuredAt: number | null = null;
  private measuring: Promise<void> | null = null;

  constructor(
    private readonly db: SqlClient,
    private readonly options: StoredSizeOptions,
  ) {}

  /** Measures now (one measurement at a time: a caller during one waits for it). */
  measure(): Promise<void> {
    this.measuring ??= tickPartitions(this.db)
      .then((partitions) => {
        this.bytes = partitions.reduce((sum, partition) => sum + partition.bytes, 0);
        this.measuredAt = this.options.now();
      })
      .finally(() => {
        this.measuring = null;
      });
    return this.measuring;
  }

  /**
   * The figure, measured again first when older than `maxAgeMs` (waiting at most `waitMs` for it; a failed or slow
   * measurement leaves the previous figure, with its older `at`).
   */
  async read(): Promise<StoredSizeReading> {
    if (this.measuredAt === null || this.options.now() - this.measuredAt >= this.options.maxAgeMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.measure().catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.options.waitMs);
          timer.unref?.();
        }),
      ]);
      clearTimeout(timer);
    }
    return {
      bytes: this.bytes,
      at: this.measuredAt === null ? null : new Date(this.measuredAt).toISOString(),
    };
  }
}
