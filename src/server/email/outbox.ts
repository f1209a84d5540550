import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { emailOutbox, KEY_EMAIL_KINDS } from '../db/schema.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { Poller } from '../lib/poller.ts';
import type { Secrets } from '../secrets.ts';
import { renderEmail } from './templates.ts';
import { UnsafeAddressError, type Mailer } from './transport.ts';

// Delivers queued emails. A worker claims due rows with FOR UPDATE SKIP LOCKED and a lease (so two instances never
// send the same row), sends them one at a time, and marks each sent before claiming the next. A failed send is
// retried with exponential backoff; a claim whose worker died is taken over when its lease ends, or at once when the
// same instance (INSTANCE_ID) restarts, or at start on PGlite, which admits one process. A sealed key is wiped when
// its email is accepted, and discarded unsent after `sealedTtlMs`. See docs/decisions/023-outbox-exactly-once.md,
// 025-sealing-secret-outside-data-dir.md and 029-outbox-claims-per-instance.md.

export interface OutboxOptions {
  from: string;
  siteUrl: string;
  pollMs: number;
  leaseMs: number;
  backoffMs: number;
  maxAttempts: number;
  /** True when no other process can hold claims (PGlite): every stale claim is released at start. */
  singleProcess: boolean;
  /** Stable name of this instance across restarts: its previous incarnation's claims are released at start. */
  instanceId?: string;
  /** A sealed key older than this is discarded and its email marked failed (default one hour). */
  sealedTtlMs?: number;
  batchSize?: number;
}

/** The email needs a key whose sealed copy is gone (expired): it can never be sent. */
class KeyGoneError extends Error {
  constructor() {
    super(
      'the key was not sent in time; its sealed copy was discarded (npm run trials -- resend issues a new one)',
    );
  }
}

const MAX_BACKOFF_MS = 15 * 60_000;
/**
 * How often a pass also discards expired sealed keys (and once at every start). An idle worker's poll is then one
 * statement, not two: at the default 1 s poll the expiry ran 3,600 times an hour to find, almost always, nothing.
 * A key past its TTL is never claimed meanwhile.
 */
export const EXPIRY_EVERY_MS = 60_000;
/** Error text without recipient addresses (SMTP replies quote them) or query parameters. */
export const scrubError = describeError;

export function backoffDelay(attempts: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

export class OutboxWorker {
  /** Stable across restarts (INSTANCE_ID), or random when the instance has no stable name. */
  readonly instanceId: string;
  /** This incarnation: what `claimed_by` holds, so that a restarted instance never mistakes old claims for its own. */
  readonly id: string;
  private readonly poller: Poller;
  /** When the last pass discarded expired keys (0: the next pass does). */
  private expiredAt = 0;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly secrets: Secrets,
    private readonly options: OutboxOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.instanceId = options.instanceId ?? `w-${randomUUID()}`;
    this.id = `${this.instanceId}#${randomUUID()}`;
    const batchSize = options.batchSize ?? 10;
    this.poller = new Poller(
      async () => {
        while (this.poller.active && (await this.runOnce()) === batchSize);
      },
      options.pollMs,
      (error) => this.log.error({ error: scrubError(error) }, 'outbox pass failed'),
    );
  }

  async start(): Promise<void> {
    // Claims of a dead worker: on PGlite every claim (no other process can exist); on PostgreSQL those of this
    // instance's previous incarnation (the same INSTANCE_ID cannot run twice), others wait for their lease.
    const released = await this.db
      .update(emailOutbox)
      .set({ status: 'pending', leaseUntil: null, claimedBy: null, claimedInstance: null })
      .where(
        and(
          eq(emailOutbox.status, 'sending'),
          this.options.singleProcess ? undefined : eq(emailOutbox.claimedInstance, this.instanceId),
          ne(emailOutbox.claimedBy, this.id),
        ),
      )
      .returning({ id: emailOutbox.id });
    if (released.length > 0) this.log.info({ released: released.length }, 'released claims of a dead worker');
    this.expiredAt = 0;
    this.poller.start();
  }

  /** Runs a pass now (after a commit queued an email) instead of waiting for the next poll. */
  kick(): void {
    this.poller.kick();
  }

  /** Stops polling after the email in hand; `start()` resumes. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Stops for good and closes the mail transport. */
  async close(): Promise<void> {
    await this.stop();
    this.mailer.close();
  }

  /**
   * Discards sealed keys older than the TTL (unless a live claim is sending them right now): their emails are marked
   * failed, and `npm run trials -- resend` (or a new request for the address) issues a new key.
   */
  async expireSealedKeys(): Promise<number> {
    const ttlSeconds = (this.options.sealedTtlMs ?? 3_600_000) / 1000;
    const expired = await this.db
      .update(emailOutbox)
      .set({
        sealedSecret: null,
        status: 'failed',
        claimedBy: null,
        claimedInstance: null,
        leaseUntil: null,
        // A row that already failed for good keeps its own error.
        lastError: sql`CASE WHEN ${emailOutbox.status} = 'failed' THEN ${emailOutbox.lastError} ELSE ${new KeyGoneError().message} END`,
      })
      .where(
        and(
          isNotNull(emailOutbox.sealedSecret),
          lt(emailOutbox.createdAt, sql`now() - make_interval(secs => ${ttlSeconds})`),
          or(
            ne(emailOutbox.status, 'sending'),
            lt(emailOutbox.leaseUntil, sql`now()`),
            sql`${emailOutbox.leaseUntil} IS NULL`,
          ),
        ),
      )
      .returning({ id: emailOutbox.id });
    if (expired.length > 0) {
      this.log.warn({ emailIds: expired.map((row) => row.id) }, 'queued keys expired unsent');
    }
    return expired.length;
  }

  /** Claims up to one batch of due emails and sends them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    if (Date.now() - this.expiredAt >= EXPIRY_EVERY_MS) {
      await this.expireSealedKeys();
      this.expiredAt = Date.now();
    }
    const ttlSeconds = (this.options.sealedTtlMs ?? 3_600_000) / 1000;
    const batchSize = this.options.batchSize ?? 10;
    const due = this.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        and(
          or(
            and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)),
            and(eq(emailOutbox.status, 'sending'), lt(emailOutbox.leaseUntil, sql`now()`)),
          ),
          // A sealed key past its TTL waits for the next expiry, unsent.
          or(
            sql`${emailOutbox.sealedSecret} IS NULL`,
            sql`${emailOutbox.createdAt} >= now() - make_interval(secs => ${ttlSeconds})`,
          ),
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
        claimedInstance: this.instanceId,
        leaseUntil: sql`now() + make_interval(secs => ${this.options.leaseMs / 1000})`,
        attempts: sql`${emailOutbox.attempts} + 1`,
      })
      .where(inArray(emailOutbox.id, due))
      .returning();
    claimed.sort((a, b) => a.id - b.id);
    const deadline = Date.now() + this.options.leaseMs * 0.5;
    for (const row of claimed) {
      if (!this.poller.active || Date.now() > deadline) {
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
        claimedInstance: null,
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
      if (!key && KEY_EMAIL_KINDS.includes(row.kind)) throw new KeyGoneError();
      const rendered = renderEmail(row.kind, row.payload, {
        siteUrl: this.options.siteUrl,
        key,
        to: row.toAddress,
      });
      where = await this.mailer.send({
        from: this.options.from,
        to: row.toAddress,
        messageId: row.messageId,
        ...rendered,
      });
    } catch (error) {
      const lastError = scrubError(error);
      // Neither can ever be sent: no key to put in it, or an address that would inject headers (issue 55).
      const gone = error instanceof KeyGoneError || error instanceof UnsafeAddressError;
      const failed = gone || row.attempts >= this.options.maxAttempts;
      const delay = backoffDelay(row.attempts, this.options.backoffMs);
      await this.db
        .update(emailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          claimedBy: null,
          claimedInstance: null,
          leaseUntil: null,
          lastError,
          ...(gone ? { sealedSecret: null } : {}),
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
        // Accepted by the transport: the sealed key has done its job.
        sealedSecret: null,
        claimedBy: null,
        claimedInstance: null,
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
