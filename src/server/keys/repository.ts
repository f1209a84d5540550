import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PlanId } from '#domain/plans.ts';
import type { Database } from '../db/database.ts';
import { apiKeys } from '../db/schema.ts';
import type { BillingHoldReason } from './service.ts';

// The one module issuing statements on api_keys (issue 32; docs/decisions/153-keys-have-one-home.md). Each function
// is one statement; it takes the database or the caller's transaction (a transaction is a Database too), so callers
// keep their transactions, their locks and the order they take them in.

export type KeyRow = typeof apiKeys.$inferSelect;
export type NewKey = typeof apiKeys.$inferInsert;

/** Inserts a key; returns its row. */
export async function insertKey(db: Database, values: NewKey): Promise<KeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

/** A usable paid key: not revoked, not replaced, not expired. */
function usablePaid() {
  return and(
    eq(apiKeys.kind, 'paid'),
    isNull(apiKeys.revokedAt),
    isNull(apiKeys.replacedBy),
    sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`,
  );
}

/** The usable paid keys whose public prefix is `prefix`; `lock`: FOR UPDATE. */
export function usablePaidKeysByPrefix(db: Database, prefix: string, lock: boolean): Promise<KeyRow[]> {
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.prefix, prefix), usablePaid()));
  return lock ? query.for('update') : query;
}

/**
 * The usable paid keys of a mailbox identity (or, for keys older than the identity column, of the exact address
 * `email`); `lock`: in id order, FOR UPDATE.
 */
export function usablePaidKeysOfMailbox(
  db: Database,
  identity: string,
  email: string,
  lock: boolean,
): Promise<KeyRow[]> {
  const query = db
    .select()
    .from(apiKeys)
    .where(
      and(
        or(
          eq(apiKeys.ownerIdentity, identity),
          and(
            isNull(apiKeys.ownerIdentity),
            sql`lower(${apiKeys.ownerEmail}) = ${email.trim().toLowerCase()}`,
          ),
        ),
        usablePaid(),
      ),
    );
  return lock ? query.orderBy(apiKeys.id).for('update') : query;
}

/**
 * The mailbox identity's active trial keys that no newer key replaced (one, short of a race the trial service's lock
 * prevents); `lock`: in id order, FOR UPDATE.
 */
export function usableTrialKeysOfMailbox(db: Database, identity: string, lock: boolean): Promise<KeyRow[]> {
  const query = db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.ownerIdentity, identity),
        eq(apiKeys.kind, 'trial'),
        isNull(apiKeys.revokedAt),
        isNull(apiKeys.replacedBy),
        gt(apiKeys.expiresAt, sql`now()`),
      ),
    );
  return lock ? query.orderBy(apiKeys.id).for('update') : query;
}

/** Marks `oldId` replaced by `newId`; `revokeNow` also revokes it. */
export async function markReplaced(
  db: Database,
  oldId: number,
  newId: number,
  revokeNow: boolean,
): Promise<void> {
  await db
    .update(apiKeys)
    .set(revokeNow ? { replacedBy: newId, revokedAt: sql`now()` } : { replacedBy: newId })
    .where(eq(apiKeys.id, oldId));
}

/** Sets the plan of the subscription's unrevoked keys; returns their ids. */
export async function setSubscriptionPlan(
  db: Database,
  subscriptionId: string,
  plan: PlanId,
): Promise<number[]> {
  const rows = await db
    .update(apiKeys)
    .set({ plan })
    .where(and(eq(apiKeys.stripeSubscriptionId, subscriptionId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.map((row) => row.id);
}

/**
 * Puts the hold on the subscription's unrevoked keys (or lifts it: null); returns the keys it changed. A hold that
 * continues (past_due → unpaid) keeps its start, so that the grace period is counted from when the payment first
 * became late.
 */
export async function setSubscriptionHold(
  db: Database,
  subscriptionId: string,
  hold: BillingHoldReason | null,
  at: Date,
): Promise<number[]> {
  const since =
    hold === null
      ? sql`NULL`
      : hold === 'paused'
        ? sql`${at.toISOString()}::timestamptz`
        : sql`CASE WHEN ${apiKeys.billingHold} IN ('past_due', 'unpaid') THEN ${apiKeys.billingHoldSince} ELSE ${at.toISOString()}::timestamptz END`;
  const rows = await db
    .update(apiKeys)
    .set({ billingHold: hold, billingHoldSince: since })
    .where(
      and(
        eq(apiKeys.stripeSubscriptionId, subscriptionId),
        isNull(apiKeys.revokedAt),
        hold === null
          ? sql`${apiKeys.billingHold} IS NOT NULL`
          : sql`${apiKeys.billingHold} IS DISTINCT FROM ${hold}`,
      ),
    )
    .returning({ id: apiKeys.id });
  return rows.map((row) => row.id);
}

/** Revokes the subscription's unrevoked keys; returns their ids. */
export async function revokeSubscriptionKeys(db: Database, subscriptionId: string): Promise<number[]> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.stripeSubscriptionId, subscriptionId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.map((row) => row.id);
}

/** The identity's latest trial key (whether its email reached anyone: email/repository.ts's `keyEmailDelivered`). */
export async function latestTrialKeyOf(db: Database, identity: string) {
  const [latest] = await db
    .select({
      id: apiKeys.id,
      prefix: apiKeys.prefix,
      ownerEmail: apiKeys.ownerEmail,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      active: sql<boolean>`(${apiKeys.revokedAt} IS NULL AND ${apiKeys.expiresAt} > now())`,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.ownerIdentity, identity), eq(apiKeys.kind, 'trial')))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(1);
  return latest;
}

/** Inserts a trial key expiring at `expiresAt` (a date or an SQL expression); returns its id and expiry. */
export async function insertTrialKey(
  db: Database,
  values: Omit<NewKey, 'kind' | 'expiresAt'> & { expiresAt: Date | SQL },
): Promise<{ id: number; expiresAt: Date }> {
  const [row] = await db
    .insert(apiKeys)
    .values({ ...values, kind: 'trial' })
    .returning({ id: apiKeys.id, expiresAt: apiKeys.expiresAt });
  return { id: row!.id, expiresAt: row!.expiresAt! };
}

/** The keys of a mailbox identity or of the exact (normalised) address, newest first, for the operators. */
export function keysOfMailbox(db: Database, identity: string, normalisedEmail: string) {
  return db
    .select({
      id: apiKeys.id,
      prefix: apiKeys.prefix,
      plan: apiKeys.plan,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(or(eq(apiKeys.ownerIdentity, identity), eq(apiKeys.ownerEmail, normalisedEmail)))
    .orderBy(desc(apiKeys.id));
}

/**
 * Marks up to `limit` unrevoked, unreminded trial keys expiring in (now, until] as reminded at `now`, soonest first,
 * skipping keys another transaction holds (FOR UPDATE SKIP LOCKED); returns them. A trial whose mailbox holds a
 * working paid key (a subscription with its address, decision 200) is not asked to subscribe: it waits, and is
 * reminded if that key stops before the trial ends.
 */
export function markTrialExpiryReminders(db: Database, now: Date, until: Date, limit: number) {
  const due = db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.kind, 'trial'),
        isNull(apiKeys.revokedAt),
        isNull(apiKeys.expiryRemindedAt),
        gt(apiKeys.expiresAt, now),
        lte(apiKeys.expiresAt, until),
        // Plain SQL names: the outer table is unaliased, the subquery's is `p`.
        sql`NOT EXISTS (SELECT 1 FROM api_keys p WHERE p.owner_identity = api_keys.owner_identity
              AND p.kind = 'paid' AND p.revoked_at IS NULL AND (p.expires_at IS NULL OR p.expires_at > now()))`,
      ),
    )
    .orderBy(apiKeys.expiresAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(apiKeys)
    .set({ expiryRemindedAt: now })
    .where(and(inArray(apiKeys.id, due), isNull(apiKeys.expiryRemindedAt)))
    .returning({
      id: apiKeys.id,
      prefix: apiKeys.prefix,
      ownerEmail: apiKeys.ownerEmail,
      expiresAt: apiKeys.expiresAt,
    });
}

/**
 * The Stripe customer and owner address of the mailbox's newest paid key with a customer (an unrevoked one first),
 * matched by identity or, for keys older than the identity column, by the exact address.
 */
export async function newestPaidCustomerOf(db: Database, identity: string, email: string) {
  const [owner] = await db
    .select({ customerId: apiKeys.stripeCustomerId, email: apiKeys.ownerEmail })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.kind, 'paid'),
        sql`${apiKeys.stripeCustomerId} IS NOT NULL`,
        or(
          eq(apiKeys.ownerIdentity, identity),
          and(isNull(apiKeys.ownerIdentity), sql`lower(${apiKeys.ownerEmail}) = ${email.toLowerCase()}`),
        ),
      ),
    )
    .orderBy(sql`${apiKeys.revokedAt} IS NULL DESC`, desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(1);
  return owner;
}

/**
 * Revokes the earlier, replaced and unrevoked keys of the line whose credits ledger is `ledgerId` (those before `id`);
 * returns their ids.
 */
export function revokePredecessors(db: Database, ledgerId: number, id: number): Promise<{ id: number }[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        sql`coalesce(${apiKeys.ledgerKeyId}, ${apiKeys.id}) = ${ledgerId}`,
        sql`${apiKeys.id} < ${id}`,
        isNotNull(apiKeys.replacedBy),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({ id: apiKeys.id });
}

/** The key whose SHA-256 is `hash`, and whether it supersedes an earlier key still working (decision 142). */
export async function keyByHash(
  db: Database,
  hash: string,
): Promise<{ row: KeyRow; supersedes: boolean } | undefined> {
  const [found] = await db
    .select({
      row: apiKeys,
      // Plain SQL names: the outer table is unaliased, the subquery's is `p`.
      supersedes: sql<boolean>`EXISTS (SELECT 1 FROM api_keys p WHERE p.replaced_by = api_keys.id
              AND p.revoked_at IS NULL)`,
    })
    .from(apiKeys)
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  return found;
}

/** The newest `limit` keys. */
export function newestKeys(db: Database, limit: number): Promise<KeyRow[]> {
  return db.select().from(apiKeys).orderBy(desc(apiKeys.id)).limit(limit);
}

/** Every key whose public prefix is `prefix`, in id order. */
export function keysByPrefix(db: Database, prefix: string): Promise<KeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix)).orderBy(apiKeys.id);
}

/** Revokes every unrevoked key whose public prefix is `prefix`; returns them. */
export function revokeByPrefix(db: Database, prefix: string): Promise<KeyRow[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
    .returning();
}

/**
 * The key `id` when it is still usable as a key of its own (not revoked, not replaced, not expired `at`: the time of
 * the request that was just authenticated with it, on the same clock, so that a key the request was let in with is
 * never refused as "gone" by a database clock a little ahead), locked FOR UPDATE; with `replaced`, whether a newer key
 * of its line replaced it.
 */
export async function usableKeyForRotation(
  db: Database,
  id: number,
  at: Date,
): Promise<{ row: KeyRow; replaced: boolean } | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.id, id),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, at)),
      ),
    )
    .for('update');
  return row ? { row, replaced: row.replacedBy !== null } : undefined;
}

/** The keys with these ids. */
export function keysByIds(db: Database, ids: number[]): Promise<KeyRow[]> {
  return db.select().from(apiKeys).where(inArray(apiKeys.id, ids));
}
