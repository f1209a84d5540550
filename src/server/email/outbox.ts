import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { emailOutbox } from '../db/schema.ts';
import { describeError, emailHash } from '../lib/log-safe.ts';
import type { Secrets } from '../lib/secrets.ts';
import { renderEmail } from './templates.ts';
import type { Mailer } from './transport.ts';

// Delivers queued emails. A worker claims due rows with FOR UPDATE SKIP LOCKED and a lease (so two instances never
// send the same row), sends them one at a time, and marks each sent before claiming the next. A failed send is
// retried with exponential backoff; a claim whose worker died is taken over when its lease ends (immediately at
// start on PGlite, which admits one process). See docs/decisions/023-outbox-exactly-once.md.

export interface OutboxOptions {
  from: string;
  siteUrl: string;
  pollMs: number;
  leaseMs: number;
  backoffMs: number;
  maxAttempts: number;
  /** True when no other process can hold claims (PGlite): stale claims are released at start. */
  singleProcess: boolean;
  batchSize?: number;
}

const MAX_BACKOFF_MS = 15 * 60_000;
/** Error text without recipient addresses (SMTP replies quote them) or query parameters. */
export const scrubError = describeError;

export function backoffDelay(attempts: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

export class OutboxWorker {
  readonly id = `w-${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private rerun = false;
  private stopped = true;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly secrets: Secrets,
    private readonly options: OutboxOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    if (this.options.singleProcess) {
      await this.db
        .update(emailOutbox)
        .set({ status: 'pending', leaseUntil: null, claimedBy: null })
        .where(eq(emailOutbox.status, 'sending'));
    }
    this.stopped = false;
    this.kick();
  }

  /** Runs a pass now (after a commit queued an email) instead of waiting for the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.rerun) {
        this.rerun = false;
        this.kick();
      } else {
        this.timer = setTimeout(() => this.kick(), this.options.pollMs);
        this.timer.unref();
      }
    });
  }

  /** Stops polling after the email in hand; `start()` resumes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Stops for good and closes the mail transport. */
  async close(): Promise<void> {
    await this.stop();
    this.mailer.close();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOnce()) === (this.options.batchSize ?? 10));
    } catch (error) {
      this.log.error({ error: scrubError(error) }, 'outbox pass failed');
    }
  }

  /** Claims up to one batch of due emails and sends them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const batchSize = this.options.batchSize ?? 10;
    const due = this.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        or(
          and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)),
          and(eq(emailOutbox.status, 'sending'), lt(emailOutbox.leaseUntil, sql`now()`)),
        ),
      )
      .orderBy(emailOutbox.id)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(emailOutbox)
      .set({
        status: 'sending',
        claimedBy: this.id,
        leaseUntil: sql`now() + make_interval(secs => ${this.options.leaseMs / 1000})`,
        attempts: sql`${emailOutbox.attempts} + 1`,
      })
      .where(inArray(emailOutbox.id, due))
      .returning();
    claimed.sort((a, b) => a.id - b.id);
    const deadline = Date.now() + this.options.leaseMs * 0.5;
    for (const row of claimed) {
      if (this.stopped || Date.now() > deadline) {
        // Hand back what we will not send now, so that nobody waits for our lease.
        await this.release(row.id);
        continue;
      }
      await this.deliver(row);
    }
    return claimed.length;
  }

  private async release(id: number) {
    await this.db
      .update(emailOutbox)
      .set({
        status: 'pending',
        claimedBy: null,
        leaseUntil: null,
        attempts: sql`${emailOutbox.attempts} - 1`,
      })
      .where(
        and(eq(emailOutbox.id, id), eq(emailOutbox.claimedBy, this.id), eq(emailOutbox.status, 'sending')),
      );
  }

  private async deliver(row: typeof emailOutbox.$inferSelect) {
    const logFields = {
      emailId: row.id,
      kind: row.kind,
      to: emailHash(row.toAddress),
      attempt: row.attempts,
    };
    let where: string;
    try {
      const key = row.sealedSecret ? this.secrets.unseal(row.sealedSecret, row.messageId) : undefined;
      const rendered = renderEmail(row.kind, row.payload, { siteUrl: this.options.siteUrl, key });
      where = await this.mailer.send({
        id: row.id,
        from: this.options.from,
        to: row.toAddress,
        messageId: row.messageId,
        ...rendered,
      });
    } catch (error) {
      const lastError = scrubError(error);
      const failed = row.attempts >= this.options.maxAttempts;
      const delay = backoffDelay(row.attempts, this.options.backoffMs);
      await this.db
        .update(emailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          claimedBy: null,
          leaseUntil: null,
          lastError,
          nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
        })
        .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.claimedBy, this.id)));
      this.log.warn(
        { ...logFields, error: lastError, retryInMs: failed ? null : delay },
        failed ? 'email failed for good' : 'email send failed; will retry',
      );
      return;
    }
    const marked = await this.db
      .update(emailOutbox)
      .set({
        status: 'sent',
        sentAt: sql`now()`,
        sealedSecret: null,
        claimedBy: null,
        leaseUntil: null,
        lastError: null,
      })
      .where(
        and(
          eq(emailOutbox.id, row.id),
          eq(emailOutbox.claimedBy, this.id),
          eq(emailOutbox.status, 'sending'),
        ),
      )
      .returning({ id: emailOutbox.id });
    if (marked.length === 0) this.log.error(logFields, 'email sent after its claim was lost');
    else
      this.log.info(
        { ...logFields, via: this.mailer.kind, where: this.mailer.kind === 'file' ? where : undefined },
        'email sent',
      );
  }
}
