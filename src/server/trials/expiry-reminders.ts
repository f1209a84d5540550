import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { queueEmail } from '../email/queue.ts';
import { describeError } from '../http/log-safe.ts';
import { markTrialExpiryReminders } from '../keys/repository.ts';
import type { Secrets } from '../secrets.ts';

// "Your trial ends soon" (issue 33, decision 151): about a day before a trial key expires, its owner gets one email
// with the plans, the address filled in for checkout. A periodic pass marks the keys (api_keys.expiry_reminded_at) and
// queues their emails in one transaction, so each trial key is reminded once: the outbox sends what was committed,
// across restarts, and two instances never pick the same key (FOR UPDATE SKIP LOCKED, then the mark).

/** A key is reminded once it expires within this. */
export const REMINDER_LEAD_MS = 24 * 3_600_000;
/** How often the pass runs: a reminder goes out between 24 hours and 24 hours minus this before the expiry. */
export const REMINDER_PERIOD_MS = 5 * 60_000;
const BATCH = 100;

export class TrialExpiryReminders {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    /** Told after reminders were queued (kick the outbox). */
    private readonly onQueued: () => void,
  ) {}

  /** Queues the reminder of every live trial key expiring within a day that has none yet; returns how many. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const queued = await this.batch();
      total += queued;
      if (queued < BATCH) break;
    }
    if (total > 0) {
      this.log.info({ reminded: total }, 'trial expiry reminders queued');
      this.onQueued();
    }
    return total;
  }

  private batch(): Promise<number> {
    const now = new Date(this.now());
    const until = new Date(now.getTime() + REMINDER_LEAD_MS);
    return this.db.transaction(async (tx) => {
      const marked = await markTrialExpiryReminders(tx, now, until, BATCH);
      for (const key of marked) {
        await queueEmail(tx, this.secrets, this.siteUrl, {
          kind: 'trial-expiring',
          to: key.ownerEmail,
          payload: { keyPrefix: key.prefix, expiresAt: key.expiresAt!.toISOString() },
          apiKeyId: key.id,
        });
      }
      return marked.length;
    });
  }

  /** Runs a pass now and every REMINDER_PERIOD_MS; a failed pass is logged and the next one tries again. */
  start(): void {
    const pass = () => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((error: unknown) => {
          this.log.warn({ error: describeError(error) }, 'trial expiry reminders not queued');
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    pass();
    this.timer = setInterval(pass, REMINDER_PERIOD_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for the pass in hand (its transaction commits or rolls back). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
