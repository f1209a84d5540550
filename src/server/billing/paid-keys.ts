import { eq, sql } from 'drizzle-orm';
import type { PlanId } from '#domain/plans.ts';
import { advisoryXactLock, type Database } from '../db/database.ts';
import { billingSubscriptionPeriods, billingSubscriptions, stripeEvents } from '../db/schema.ts';
import { queueEmail, type Tx } from '../email/queue.ts';
import { generateKey } from '../keys/key-format.ts';
import {
  insertKey,
  keysByIds,
  revokeSubscriptionKeys,
  setSubscriptionHold,
  setSubscriptionPlan,
  usablePaidKeysByPrefix,
  usablePaidKeysOfMailbox,
  usableKeyForRotation,
  usableTrialKeysOfMailbox,
  type KeyRow,
} from '../keys/repository.ts';
import { lockMailbox } from '../keys/mailbox-lock.ts';
import { issueSuccessor, type Retire } from '../keys/successor.ts';
import type { BillingHoldReason } from '../keys/service.ts';
import type { Secrets } from '../secrets.ts';
import { emailIdentity } from '../keys/email-identity.ts';

// Paid keys as Stripe's subscriptions make them (docs/decisions/142-stripe-webhooks-provision-keys.md). Each Stripe
// event is applied in one transaction that first records its id (a replay, or a second delivery racing the first,
// finds the row and changes nothing), then takes the subscription's lock, so that its events apply one at a time on
// every instance. A key and the email carrying it are committed together: the outbox sends it exactly once, after a
// crash too. The caller tells the key service what changed after the commit (caches, streams, other instances).

/** Stripe subscription statuses (https://docs.stripe.com/api/subscriptions/object#subscription_object-status). */
export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';

/** A subscription in these states has paid (or is in its trial): its key is issued, and works. */
const GOOD: readonly string[] = ['active', 'trialing'];
/** These states hold the key: it keeps working for the grace period (paused: it stops at once). */
const HOLDS: readonly string[] = ['past_due', 'unpaid', 'paused'];
/** These states end the subscription: its keys are revoked. */
const ENDED: readonly string[] = ['canceled', 'incomplete_expired'];

export interface StripeEventRef {
  id: string;
  type: string;
  /** The event's `created` (Stripe's clock): it orders a subscription's changes. */
  created: Date;
}

export interface CheckoutFacts {
  subscriptionId: string;
  customerId: string;
  email: string;
  plan: PlanId;
  /** The checkout was paid (or needed no payment): the subscription is active unless a newer event said otherwise. */
  paid: boolean;
}

export interface SubscriptionFacts {
  subscriptionId: string;
  customerId: string;
  status: string;
  /** The plan its price or metadata names; undefined when neither does (the plan stays as it was). */
  plan: PlanId | undefined;
  /** Its current period (decision 155): shown by GET /v1/me; absent, nothing is recorded. */
  period?: SubscriptionPeriod;
}

export interface SubscriptionPeriod {
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** A key's subscription as GET /v1/me shows it (decision 155). */
export interface SubscriptionView {
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** What an event did, for the webhook's log and answer, and for the key service after the commit. */
export interface BillingEffects {
  outcome: string;
  /** Keys revoked (the subscription ended). */
  revoked: number[];
  /** Keys whose plan changed (their streams reopen on the new plan). */
  planChanged: number[];
  /** Keys whose billing hold was set or lifted. */
  billing: number[];
  /** Emails queued (kick the outbox). */
  emails: number;
  keyPrefix?: string;
}

export interface RotateResult {
  fromPrefix: string;
  toPrefix: string;
  toId: number;
  fromId: number;
  /** The previous key works until the new one is first used (else it was revoked at once). */
  previousUntilFirstUse: boolean;
  emailId: number;
}

/** How long handled Stripe event ids are kept (decision 142). */
export const EVENT_RETENTION_DAYS = 90;

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;

/** Two updates of one subscription created in the same second disagree: read the subscription from Stripe. */
export class SameSecondUpdates extends Error {
  constructor() {
    super('two updates of the subscription were created in the same second and disagree');
    this.name = 'SameSecondUpdates';
  }
}

function none(outcome: string): BillingEffects {
  return { outcome, revoked: [], planChanged: [], billing: [], emails: 0 };
}

function holdOf(status: string): BillingHoldReason | null {
  return HOLDS.includes(status) ? (status as BillingHoldReason) : null;
}

export class PaidKeyService {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly siteUrl: string,
  ) {}

  /**
   * Runs `apply` for `event` in one transaction, once: a second delivery of the event (a replay, or one racing this
   * one on another connection or instance) returns `duplicate` and changes nothing.
   */
  async handle(
    event: StripeEventRef,
    apply: (tx: Tx) => Promise<BillingEffects>,
  ): Promise<BillingEffects & { duplicate: boolean }> {
    return this.db.transaction(async (tx) => {
      // On PostgreSQL a concurrent INSERT of the same id waits here for the first transaction, then conflicts.
      const fresh = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, createdAt: event.created, outcome: 'applying' })
        .onConflictDoNothing({ target: stripeEvents.id })
        .returning({ id: stripeEvents.id });
      if (fresh.length === 0) return { ...none('duplicate'), duplicate: true };
      const effects = await apply(tx);
      await tx.update(stripeEvents).set({ outcome: effects.outcome }).where(eq(stripeEvents.id, event.id));
      return { ...effects, duplicate: false };
    });
  }

  /** Whether the event was applied already (a replay): a shortcut before any call to Stripe's API. */
  async seen(eventId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: stripeEvents.id })
      .from(stripeEvents)
      .where(eq(stripeEvents.id, eventId))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Forgets handled events older than `days` (default 90). Stripe retries an event for three days and lets it be
   * resent from its dashboard for 30, so an older id never comes back.
   */
  async pruneEvents(days = EVENT_RETENTION_DAYS): Promise<number> {
    const rows = await this.db
      .delete(stripeEvents)
      .where(sql`${stripeEvents.receivedAt} < now() - make_interval(days => ${days})`)
      .returning({ id: stripeEvents.id });
    return rows.length;
  }

  /** Records an event that changes nothing (an ignored type), so that its replays are recognised too. */
  ignore(event: StripeEventRef, outcome: string) {
    return this.handle(event, async () => none(outcome));
  }

  /** `checkout.session.completed` (and `async_payment_succeeded`) of a subscription: the key is issued once. */
  checkout(event: StripeEventRef, facts: CheckoutFacts) {
    return this.handle(event, async (tx) => {
      const row = await this.lockSubscription(tx, facts.subscriptionId);
      let current: SubscriptionRow | undefined;
      if (!row) {
        [current] = await tx
          .insert(billingSubscriptions)
          .values({
            subscriptionId: facts.subscriptionId,
            customerId: facts.customerId,
            email: facts.email,
            plan: facts.plan,
            status: facts.paid ? 'active' : 'incomplete',
            statusAt: event.created,
          })
          .returning();
      } else {
        // A subscription event newer than this checkout already set the plan and status: they stand.
        const newer = row.statusAt.getTime() > event.created.getTime();
        const status = !newer && facts.paid && row.status === 'incomplete' ? 'active' : row.status;
        [current] = await tx
          .update(billingSubscriptions)
          .set({
            customerId: facts.customerId,
            email: facts.email,
            plan: newer && row.plan ? row.plan : facts.plan,
            status,
            statusAt: newer ? row.statusAt : event.created,
            statusFrom: newer ? row.statusFrom : 'checkout',
            updatedAt: sql`now()`,
          })
          .where(eq(billingSubscriptions.subscriptionId, facts.subscriptionId))
          .returning();
      }
      return this.issueIfDue(tx, current!);
    });
  }

  /**
   * `customer.subscription.updated`: the plan and status as of the event; an older event than the last applied is
   * ignored. Two updates created in the same second (Stripe's `created` has whole seconds) cannot be ordered: when
   * they disagree, this throws SameSecondUpdates (nothing changed), and the caller applies the subscription as
   * Stripe's API reads it now, `authoritative`.
   */
  update(event: StripeEventRef, facts: SubscriptionFacts, options: { authoritative?: boolean } = {}) {
    return this.handle(event, async (tx) => {
      const row = await this.lockSubscription(tx, facts.subscriptionId);
      await this.savePeriod(tx, event, facts);
      if (!row) {
        // Before its checkout event: remembered, so that the checkout issues the key with this status (and this plan
        // when it names one; else the checkout's).
        await this.rememberEarly(tx, event, facts, facts.status, 'update');
        return ENDED.includes(facts.status) ? none('recorded: ended before its checkout') : none('recorded');
      }
      if (row.status === 'canceled') return none('ignored: subscription already canceled');
      if (!options.authoritative) {
        if (row.statusAt.getTime() > event.created.getTime())
          return none('ignored: older than the last change');
        const disagree = row.status !== facts.status || (facts.plan !== undefined && facts.plan !== row.plan);
        if (row.statusFrom === 'update' && row.statusAt.getTime() === event.created.getTime() && disagree) {
          throw new SameSecondUpdates();
        }
      }
      const plan = facts.plan ?? (row.plan as PlanId | null);
      const [current] = await tx
        .update(billingSubscriptions)
        .set({
          plan,
          status: facts.status,
          statusAt: event.created,
          statusFrom: 'update',
          updatedAt: sql`now()`,
        })
        .where(eq(billingSubscriptions.subscriptionId, facts.subscriptionId))
        .returning();
      if (ENDED.includes(facts.status)) return this.revokeSubscription(tx, facts.subscriptionId);
      const effects = none('updated');
      if (plan && plan !== row.plan) {
        effects.planChanged = await setSubscriptionPlan(tx, facts.subscriptionId, plan);
        effects.outcome = `plan ${row.plan ?? 'none'} → ${plan}`;
      }
      const hold = holdOf(facts.status);
      if (hold || GOOD.includes(facts.status)) {
        effects.billing = await setSubscriptionHold(tx, facts.subscriptionId, hold, event.created);
        if (effects.billing.length > 0) effects.outcome += hold ? `; held (${hold})` : '; hold lifted';
      }
      if (!current!.apiKeyId) {
        const issued = await this.issueIfDue(tx, current!);
        return { ...issued, planChanged: effects.planChanged, billing: effects.billing };
      }
      return effects;
    });
  }

  /** `customer.subscription.deleted`: every key of the subscription is revoked, and none is issued for it later. */
  delete(event: StripeEventRef, facts: Omit<SubscriptionFacts, 'status'>) {
    return this.handle(event, async (tx) => {
      const row = await this.lockSubscription(tx, facts.subscriptionId);
      await this.savePeriod(tx, event, facts);
      if (!row) {
        await this.rememberEarly(tx, event, facts, 'canceled', 'delete');
        return none('recorded: canceled before its checkout');
      }
      await tx
        .update(billingSubscriptions)
        .set({ status: 'canceled', statusAt: event.created, statusFrom: 'delete', updatedAt: sql`now()` })
        .where(eq(billingSubscriptions.subscriptionId, facts.subscriptionId));
      return this.revokeSubscription(tx, facts.subscriptionId);
    });
  }

  /**
   * `customer.subscription.created` (decision 155): only its period is recorded (the checkout event issues the key,
   * and the status waits for it or for an update), so that GET /v1/me can say when a new subscription renews.
   */
  created(event: StripeEventRef, facts: Pick<SubscriptionFacts, 'subscriptionId' | 'period'>) {
    return this.handle(event, async (tx) => {
      await this.lockSubscription(tx, facts.subscriptionId);
      return none((await this.savePeriod(tx, event, facts)) ? 'period recorded' : 'ignored: older period');
    });
  }

  /** The period of `facts` as of `event`, unless a newer event recorded one; whether it was recorded. */
  private async savePeriod(
    tx: Tx,
    event: StripeEventRef,
    facts: Pick<SubscriptionFacts, 'subscriptionId' | 'period'>,
  ): Promise<boolean> {
    if (!facts.period) return false;
    const rows = await tx
      .insert(billingSubscriptionPeriods)
      .values({
        subscriptionId: facts.subscriptionId,
        currentPeriodEnd: facts.period.currentPeriodEnd,
        cancelAtPeriodEnd: facts.period.cancelAtPeriodEnd,
        eventAt: event.created,
      })
      .onConflictDoUpdate({
        target: billingSubscriptionPeriods.subscriptionId,
        set: {
          currentPeriodEnd: sql`excluded.current_period_end`,
          cancelAtPeriodEnd: sql`excluded.cancel_at_period_end`,
          eventAt: sql`excluded.event_at`,
        },
        setWhere: sql`excluded.event_at >= ${billingSubscriptionPeriods.eventAt}`,
      })
      .returning({ id: billingSubscriptionPeriods.subscriptionId });
    return rows.length > 0;
  }

  /** The subscription `subscriptionId` as GET /v1/me shows it; undefined when no event told of it. */
  async subscriptionView(subscriptionId: string): Promise<SubscriptionView | undefined> {
    const [row] = await this.db
      .select({
        status: billingSubscriptions.status,
        currentPeriodEnd: billingSubscriptionPeriods.currentPeriodEnd,
        cancelAtPeriodEnd: billingSubscriptionPeriods.cancelAtPeriodEnd,
      })
      .from(billingSubscriptions)
      .leftJoin(
        billingSubscriptionPeriods,
        eq(billingSubscriptionPeriods.subscriptionId, billingSubscriptions.subscriptionId),
      )
      .where(eq(billingSubscriptions.subscriptionId, subscriptionId));
    if (!row) return undefined;
    return {
      status: row.status,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd ?? false,
    };
  }

  /**
   * A new key for the key `prefix` names (operators' `npm run keys -- rotate`): same plan, owner, subscription and
   * credits ledger; the old key is revoked at once. Null when no usable key has this prefix.
   */
  async rotate(prefix: string): Promise<RotateResult | null> {
    return this.db.transaction(async (tx) => {
      const found = await usablePaidKeysByPrefix(tx, prefix, false);
      if (found.length !== 1) return null;
      await this.lockSubscriptionsOf(tx, found);
      const [row] = await usablePaidKeysByPrefix(tx, prefix, true);
      return row ? this.rotateRow(tx, row, 'now') : null;
    });
  }

  /**
   * "Lost your key?": every usable paid key of the mailbox identity of `email` (decision 028), and its active trial
   * key (issue 56, decision 217), gets a successor, emailed to the key's owner address (never to the address typed).
   * The old key keeps working until the new one is first used, so that someone typing a customer's address cannot
   * cut the customer off. Returns what was rotated (the form never says). Runs in `within` when given (the lost-key
   * queue's transaction, which also deletes the request), else in a transaction of its own.
   */
  async lostKey(email: string, within?: Tx): Promise<RotateResult[]> {
    const identity = emailIdentity(email);
    const run = async (tx: Tx) => {
      await advisoryXactLock(tx, `lost-key:${identity}`);
      await this.lockSubscriptionsOf(tx, await usablePaidKeysOfMailbox(tx, identity, email, false));
      // The trial service's lock of the mailbox, last: a trial request of the same mailbox making a successor right
      // now is either seen here or waits (the trial service takes no other lock while holding it).
      await lockMailbox(tx, identity);
      const rows = [
        ...(await usablePaidKeysOfMailbox(tx, identity, email, true)),
        ...(await usableTrialKeysOfMailbox(tx, identity, true)),
      ];
      const results: RotateResult[] = [];
      for (const row of rows) results.push(await this.rotateRow(tx, row, 'on-first-use'));
      return results;
    };
    return within ? run(within) : this.db.transaction(run);
  }

  /**
   * POST /v1/me/rotate (decision 155): the key `id` itself asks for a successor, shown once in the answer. Same plan,
   * owner, expiry, subscription, SGP ledger and usage line; the old key is revoked at once, and its owner gets a notice
   * naming the new prefix, never the key. Trial keys too (still a trial, same expiry). `replaced`: a newer key of the
   * line exists already ("Lost your key?" sent one); `gone`: no longer usable (revoked, expired, rotated meanwhile).
   */
  async rotateOwn(
    id: number,
    at: Date,
  ): Promise<
    { ok: true; result: RotateResult & { plain: string } } | { ok: false; reason: 'replaced' | 'gone' }
  > {
    return this.db.transaction(async (tx) => {
      const found = await keysByIds(tx, [id]);
      await this.lockSubscriptionsOf(tx, found);
      const usable = await usableKeyForRotation(tx, id, at);
      if (!usable) return { ok: false, reason: 'gone' };
      if (usable.replaced) return { ok: false, reason: 'replaced' };
      const { plain, ...result } = await this.rotateRow(tx, usable.row, 'now', { notice: at });
      return { ok: true, result: { ...result, plain: plain! } };
    });
  }

  /**
   * The old key is revoked `now`, or when the new one is first used (ApiKeyService.authenticate). The new key is
   * emailed to the owner, or with `notice` (self-service rotation) only its prefix is, and the caller shows the key.
   */
  private async rotateRow(
    tx: Tx,
    old: KeyRow,
    retire: Retire,
    notice?: { notice: Date },
  ): Promise<RotateResult & { plain?: string }> {
    const { key, row: created } = await issueSuccessor(tx, old, retire);
    if (old.stripeSubscriptionId) {
      await tx
        .update(billingSubscriptions)
        .set({ apiKeyId: created.id, updatedAt: sql`now()` })
        .where(eq(billingSubscriptions.subscriptionId, old.stripeSubscriptionId));
    }
    const emailId = notice
      ? await queueEmail(tx, this.secrets, this.siteUrl, {
          kind: 'key-rotated-notice',
          to: old.ownerEmail,
          payload: {
            keyPrefix: key.prefix,
            previousPrefix: old.prefix,
            rotatedAt: notice.notice.toISOString(),
            ...(old.stripeSubscriptionId ? { plan: old.plan } : {}),
          },
          apiKeyId: created.id,
        })
      : await this.queueRotatedKey(tx, old, created, key, retire);
    const result: RotateResult = {
      fromPrefix: old.prefix,
      fromId: old.id,
      toPrefix: key.prefix,
      toId: created.id,
      previousUntilFirstUse: retire === 'on-first-use',
      emailId,
    };
    // Only the self-service rotation hands the key back (its answer shows it once); the others email it.
    return notice ? { ...result, plain: key.plain } : result;
  }

  /** The email carrying a rotated key (operators' rotation, "Lost your key?"; a trial key's own kind of email). */
  private queueRotatedKey(
    tx: Tx,
    old: KeyRow,
    created: { id: number; expiresAt: Date | null },
    key: { plain: string; prefix: string },
    retire: Retire,
  ): Promise<number> {
    return queueEmail(tx, this.secrets, this.siteUrl, {
      kind: old.kind === 'trial' ? 'trial-key-again' : 'paid-key-rotated',
      to: old.ownerEmail,
      payload: {
        keyPrefix: key.prefix,
        previousPrefix: old.prefix,
        plan: old.plan,
        ...(retire === 'on-first-use' ? { previousUntilFirstUse: true } : {}),
        ...(created.expiresAt ? { expiresAt: created.expiresAt.toISOString() } : {}),
      },
      key: key.plain,
      apiKeyId: created.id,
    });
  }

  /**
   * The subscription locks of `keys`, in order, before their rows: the webhook takes a subscription's lock and then
   * its keys' rows, so a rotation taking them the other way round could deadlock with it.
   */
  private async lockSubscriptionsOf(tx: Tx, keys: KeyRow[]): Promise<void> {
    const ids = [...new Set(keys.map((key) => key.stripeSubscriptionId).filter((id) => id !== null))].sort();
    for (const id of ids) {
      await advisoryXactLock(tx, `stripe-sub:${id}`);
    }
  }

  /** The subscription's row, locked for this transaction (its events apply one at a time on every instance). */
  /** A subscription's update or deletion that came before its checkout event: kept for the checkout to apply. */
  private async rememberEarly(
    tx: Tx,
    event: StripeEventRef,
    facts: Omit<SubscriptionFacts, 'status'>,
    status: SubscriptionFacts['status'],
    from: 'update' | 'delete',
  ): Promise<void> {
    await tx.insert(billingSubscriptions).values({
      subscriptionId: facts.subscriptionId,
      customerId: facts.customerId,
      plan: facts.plan ?? null,
      status,
      statusAt: event.created,
      statusFrom: from,
    });
  }

  private async lockSubscription(tx: Tx, subscriptionId: string): Promise<SubscriptionRow | undefined> {
    await advisoryXactLock(tx, `stripe-sub:${subscriptionId}`);
    const [row] = await tx
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.subscriptionId, subscriptionId));
    return row;
  }

  /**
   * Issues the subscription's key when it has none, its address is known and it is not ended or unpaid at checkout;
   * one email carries the key. The mailbox's trial keys are left as they are (decision 200): Stripe does not verify
   * the address typed at checkout, so whoever pays may type anyone's, and their purchase must take nothing away.
   */
  private async issueIfDue(tx: Tx, row: SubscriptionRow): Promise<BillingEffects> {
    if (row.apiKeyId) return none('already issued');
    if (ENDED.includes(row.status)) return none('ignored: subscription ended');
    if (row.status === 'incomplete') return none('waiting for payment');
    if (!row.email || !row.plan) return none('recorded');
    const key = generateKey('live');
    const hold = holdOf(row.status);
    const created = await insertKey(tx, {
      prefix: key.prefix,
      hash: key.hash,
      kind: 'paid',
      plan: row.plan,
      ownerEmail: row.email,
      ownerIdentity: emailIdentity(row.email),
      stripeCustomerId: row.customerId,
      stripeSubscriptionId: row.subscriptionId,
      billingHold: hold,
      billingHoldSince: hold ? row.statusAt : null,
    });
    await tx
      .update(billingSubscriptions)
      .set({ apiKeyId: created.id, updatedAt: sql`now()` })
      .where(eq(billingSubscriptions.subscriptionId, row.subscriptionId));
    await queueEmail(tx, this.secrets, this.siteUrl, {
      kind: 'paid-key-issued',
      to: row.email,
      payload: { keyPrefix: key.prefix, plan: row.plan },
      key: key.plain,
      apiKeyId: created.id,
    });
    return { ...none('issued'), emails: 1, keyPrefix: key.prefix };
  }

  private async revokeSubscription(tx: Tx, subscriptionId: string): Promise<BillingEffects> {
    const revoked = await revokeSubscriptionKeys(tx, subscriptionId);
    return { ...none(revoked.length > 0 ? 'revoked' : 'canceled; no key to revoke'), revoked };
  }
}
