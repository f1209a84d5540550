import { and, desc, eq, inArray, isNotNull, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { emailOutbox, KEY_EMAIL_KINDS } from '../db/schema.ts';

type EmailStatus = typeof emailOutbox.$inferSelect.status;

// The email_outbox table has one owner, this folder (docs/architecture.md, "Tables and their owners"): queue.ts
// inserts, outbox.ts (the worker) claims and sends, and the reads and changes other features need are these
// functions, on the database or the caller's transaction. src/server/architecture.test.ts fails if a file outside
// email/ names the table.

/**
 * Whether someone can hold the key `apiKeyId`: an email carrying it was sent, or one still holds its sealed copy
 * (false when every attempt failed or the copy expired).
 */
export async function keyEmailDelivered(db: Database, apiKeyId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.apiKeyId, apiKeyId),
        or(eq(emailOutbox.status, 'sent'), isNotNull(emailOutbox.sealedSecret)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Every email to one mailbox identity, newest first (the operators' `trials show`). */
export function emailsOfMailbox(db: Database, identity: string) {
  return db
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      createdAt: emailOutbox.createdAt,
      sentAt: emailOutbox.sentAt,
      nextAttemptAt: emailOutbox.nextAttemptAt,
      lastError: emailOutbox.lastError,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.toIdentity, identity))
    .orderBy(desc(emailOutbox.id));
}

/** The status of the email each trial request queued, by request id (a request without one is absent). */
export async function emailStatusOfTrialRequests(
  db: Database,
  trialRequestIds: number[],
): Promise<Map<number, EmailStatus>> {
  if (trialRequestIds.length === 0) return new Map();
  const rows = await db
    .select({ trialRequestId: emailOutbox.trialRequestId, status: emailOutbox.status })
    .from(emailOutbox)
    .where(inArray(emailOutbox.trialRequestId, trialRequestIds))
    .orderBy(emailOutbox.id);
  return new Map(rows.map((row) => [row.trialRequestId!, row.status]));
}

/**
 * Makes the identity's queued or failed emails due now, attempts reset; a key email whose sealed copy expired cannot
 * be sent any more and is left alone (the caller rotates the key instead). Returns the ids made due.
 */
export async function retryQueuedEmails(db: Database, identity: string): Promise<number[]> {
  const rows = await db
    .update(emailOutbox)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, attempts: 0 })
    .where(
      and(
        eq(emailOutbox.toIdentity, identity),
        sql`${emailOutbox.status} IN ('pending', 'failed')`,
        or(isNotNull(emailOutbox.sealedSecret), notInArray(emailOutbox.kind, [...KEY_EMAIL_KINDS])),
      ),
    )
    .returning({ id: emailOutbox.id });
  return rows.map((row) => row.id);
}
