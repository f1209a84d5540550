import { eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { lostKeyRequests } from '../db/schema.ts';
import { backoffDelay } from '../email/outbox.ts';
import { describeError, emailHash } from '../http/log-safe.ts';
import { emailIdentity } from '../keys/email-identity.ts';
import { Poller } from '../lib/poller.ts';
import type { PaidKeyService, RotateResult } from './paid-keys.ts';

// "Lost your key?" after the answer (issue 31, decision 149). The form records the request (one INSERT, the same for
// every address) and answers; this worker then looks the mailbox up and rotates its keys, in one transaction per
// request that claims its row (FOR UPDATE SKIP LOCKED: one instance per request) and deletes it. A failure rolls the
// rotation back, is logged without the address, and the request is retried with the outbox's backoff; a request still
// recorded when the server stops (or crashes) is processed by the next pass, after the next start too.

export interface LostKeyQueueOptions {
  /** How often recorded requests are looked for besides the kick after each answer (retries, other instances'). */
  pollMs: number;
  /** The first retry's delay; it doubles with each attempt (up to 15 minutes). */
  backoffMs: number;
}

export class LostKeyQueue {
  private readonly poller: Poller;

  constructor(
    private readonly db: Database,
    private readonly paidKeys: PaidKeyService,
    /** Told after each commit that rotated keys (their emails are queued: kick the outbox). */
    private readonly onRotated: (results: RotateResult[]) => void,
    private readonly options: LostKeyQueueOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.poller = new Poller(
      async () => {
        while (this.poller.active && (await this.processOne()));
      },
      options.pollMs,
      (error) =>
        this.log.error({ error: describeError(error) }, 'lost-key pass failed; retried at the next poll'),
    );
  }

  /** All the form does before answering, whatever the address: one INSERT. */
  async record(email: string): Promise<void> {
    await this.db.insert(lostKeyRequests).values({ email });
  }

  /** Starts processing (the requests left by a previous run first). */
  start(): void {
    this.poller.start();
  }

  /** Runs a pass now (after an answer) instead of waiting for the next poll. */
  kick(): void {
    this.poller.kick();
  }

  /** Stops after the request in hand (its transaction commits or rolls back; the database is still open). */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Processes the oldest due request; false when none is due. */
  async processOne(): Promise<boolean> {
    let claimed: { id: number; email: string; attempts: number } | undefined;
    let rotated: RotateResult[];
    try {
      rotated = await this.db.transaction(async (tx) => {
        [claimed] = await tx
          .select({
            id: lostKeyRequests.id,
            email: lostKeyRequests.email,
            attempts: lostKeyRequests.attempts,
          })
          .from(lostKeyRequests)
          .where(lte(lostKeyRequests.nextAttemptAt, sql`now()`))
          .orderBy(lostKeyRequests.id)
          .limit(1)
          .for('update', { skipLocked: true });
        if (!claimed) return [];
        const results = await this.paidKeys.lostKey(claimed.email, tx);
        await tx.delete(lostKeyRequests).where(eq(lostKeyRequests.id, claimed.id));
        return results;
      });
    } catch (error) {
      // Not even a request claimed: the pass stops (the next poll retries).
      if (!claimed) throw error;
      const attempt = claimed.attempts + 1;
      // Not Drizzle's error as is: it carries the query's parameters, the address among them.
      this.log.error(
        { to: emailHash(emailIdentity(claimed.email)), attempt, error: describeError(error) },
        'lost-key request not processed; retried later',
      );
      await this.db
        .update(lostKeyRequests)
        .set({
          attempts: attempt,
          lastError: describeError(error),
          nextAttemptAt: sql`now() + make_interval(secs => ${backoffDelay(attempt, this.options.backoffMs) / 1000})`,
        })
        .where(eq(lostKeyRequests.id, claimed.id));
      return true;
    }
    if (!claimed) return false;
    const { email } = claimed as { email: string };
    if (rotated.length > 0) this.onRotated(rotated);
    this.log.info(
      {
        to: emailHash(emailIdentity(email)),
        rotated: rotated.map((result) => `${result.fromPrefix}→${result.toPrefix}`),
      },
      'lost-key request',
    );
    return true;
  }
}
