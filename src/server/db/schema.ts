import { sql } from 'drizzle-orm';
import {
  bigserial,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Drizzle view of the tables created by ./migrations/*.sql (the SQL is the source of truth; this file types it).
// Tables are unqualified so that DATABASE_SCHEMA (search_path) decides where they live.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const apiKeys = pgTable(
  'api_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Public, non-secret start of the key (e.g. `sl_trial_AbC123`), shown to support. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key; the key itself is never stored. */
    hash: text('hash').notNull(),
    kind: text('kind', { enum: ['trial', 'paid'] }).notNull(),
    plan: text('plan').notNull(),
    ownerEmail: text('owner_email').notNull(),
    /** Trial keys: the mailbox identity of the owner (emailIdentity()), which "one trial per email" counts. */
    ownerIdentity: text('owner_identity'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    /** Paid keys issued by a Stripe checkout (migration 0006): the customer and subscription they belong to. */
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Why the subscription's payment holds the key (it stops after BILLING_GRACE_HOURS; paused at once), and since when. */
    billingHold: text('billing_hold', { enum: ['past_due', 'unpaid', 'paused'] }),
    billingHoldSince: ts('billing_hold_since'),
    /** The key that replaced this one (rotation). */
    replacedBy: bigint('replaced_by', { mode: 'number' }),
    /** The first key of a rotated line, whose SGP credits ledger this key uses (null: its own). */
    ledgerKeyId: bigint('ledger_key_id', { mode: 'number' }),
    /** Trial keys (migration 0009): when the "your trial ends soon" email was queued; each key is reminded once. */
    expiryRemindedAt: ts('expiry_reminded_at'),
  },
  (table) => [
    uniqueIndex('api_keys_hash_key').on(table.hash),
    index('api_keys_owner_idx').on(table.ownerEmail, table.kind, table.createdAt),
    index('api_keys_owner_identity_idx').on(table.ownerIdentity, table.kind, table.createdAt),
  ],
);

export const trialRequests = pgTable(
  'trial_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    /** The address as typed (trimmed); emails go there. */
    email: text('email').notNull(),
    /** emailIdentity(email): what the per-email rules count (docs/decisions/028-one-trial-per-mailbox.md). */
    emailIdentity: text('email_identity').notNull(),
    company: text('company').notNull(),
    useCase: text('use_case').notNull(),
    expectedVolume: text('expected_volume').notNull(),
    message: text('message').notNull(),
    clientTimestamp: text('client_timestamp').notNull(),
    userAgent: text('user_agent').notNull(),
    referrer: text('referrer').notNull(),
    promotekitReferral: text('promotekit_referral'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    /** HMAC-SHA-256 of the client address (keyed by the server secret). */
    clientIpHash: text('client_ip_hash').notNull(),
    /** SHA-256 of the submitted fields, for double-submit detection. */
    payloadHash: text('payload_hash').notNull(),
    status: text('status', { enum: ['issued', 'rotated', 'refused', 'reminded'] }).notNull(),
    apiKeyId: bigint('api_key_id', { mode: 'number' }).references(() => apiKeys.id),
  },
  (table) => [
    index('trial_requests_email_idx').on(table.email, table.receivedAt),
    index('trial_requests_identity_idx').on(table.emailIdentity, table.receivedAt),
  ],
);

export type EmailKind =
  | 'trial-issued'
  | 'trial-rotated'
  | 'trial-resent'
  | 'trial-refused'
  /** Queued by earlier versions for a repeated request of an active trial (a prefix, no key); kept to send old rows. */
  | 'trial-reminder'
  /**
   * An active trial's key asked for again (the trial form or "Lost your key?"; issue 56, decision 217): a successor
   * key; the previous one works until the new one is first used.
   */
  | 'trial-key-again'
  | 'paid-key-issued'
  | 'paid-key-rotated'
  /** About a day before a trial key expires (decision 151): the plans, with the address filled in. */
  | 'trial-expiring'
  /** "Manage subscription": a one-time link (its token sealed like a key) to the Stripe Billing Portal. */
  | 'billing-portal-link'
  /** POST /v1/me/rotate (decision 155): the key was rotated; names the new prefix, never carries the key. */
  | 'key-rotated-notice'
  /** POST /v1/me/portal (decision 220): the billing portal was opened with the key; a security notice, no link. */
  | 'billing-portal-opened';

/** Kinds whose email carries a plain key, or a one-time link's token (sealed in the row until it is sent). */
export const KEY_EMAIL_KINDS: readonly EmailKind[] = [
  'trial-issued',
  'trial-rotated',
  'trial-resent',
  'trial-key-again',
  'paid-key-issued',
  'paid-key-rotated',
  'billing-portal-link',
];

export interface EmailPayload {
  keyPrefix?: string;
  previousPrefix?: string;
  /** ISO time the trial ends (or ended, for a refusal). */
  expiresAt?: string;
  plan?: string;
  /** paid-key-rotated: the previous key works until the new one is first used (absent: it was revoked at once). */
  previousUntilFirstUse?: boolean;
  /** key-rotated-notice: when the key was rotated (ISO). */
  rotatedAt?: string;
  /** billing-portal-opened: when the portal was opened (ISO). */
  openedAt?: string;
}

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').$type<EmailKind>().notNull(),
    toAddress: text('to_address').notNull(),
    /** emailIdentity(toAddress), for the operators' show and resend. */
    toIdentity: text('to_identity').notNull(),
    payload: jsonb('payload').$type<EmailPayload>().notNull(),
    /** The plain key sealed with AES-256-GCM under the server secret; wiped once sent or after OUTBOX_SEALED_TTL_MS. */
    sealedSecret: text('sealed_secret'),
    messageId: text('message_id').notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    leaseUntil: ts('lease_until'),
    /** Worker incarnation holding the claim (`<instance>#<random>`), and its instance (INSTANCE_ID). */
    claimedBy: text('claimed_by'),
    claimedInstance: text('claimed_instance'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    trialRequestId: bigint('trial_request_id', { mode: 'number' }).references(() => trialRequests.id),
    /** The key this email carries or reminds of. */
    apiKeyId: bigint('api_key_id', { mode: 'number' }).references(() => apiKeys.id),
  },
  (table) => [
    uniqueIndex('email_outbox_message_id_key').on(table.messageId),
    index('email_outbox_identity_idx').on(table.toIdentity, table.id),
    index('email_outbox_api_key_idx').on(table.apiKeyId),
    index('email_outbox_sealed_idx')
      .on(table.createdAt)
      .where(sql`sealed_secret is not null`),
    index('email_outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`status in ('pending', 'sending')`),
  ],
);

/** Same-game-parlay credits per key and UTC month (docs/decisions/128-sgp-credits-ledger.md). */
export const sgpCredits = pgTable(
  'sgp_credits',
  {
    apiKeyId: bigint('api_key_id', { mode: 'number' })
      .notNull()
      .references(() => apiKeys.id),
    /** First day of the UTC month, `YYYY-MM-01`. */
    month: date('month', { mode: 'string' }).notNull(),
    /** Credits spent this month (priced requests, less refunds). */
    used: integer('used').notNull().default(0),
    /** Operators' extra credits for this month, on top of the plan's allowance. */
    granted: integer('granted').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.month] })],
);

/** Stripe events handled, by event id (docs/decisions/142): the idempotency record of the webhook. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: ts('created_at').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
  outcome: text('outcome').notNull(),
});

/** Each Stripe subscription as its events describe it, whichever came first (docs/decisions/142). */
export const billingSubscriptions = pgTable('billing_subscriptions', {
  subscriptionId: text('subscription_id').primaryKey(),
  customerId: text('customer_id').notNull(),
  email: text('email'),
  plan: text('plan'),
  status: text('status').notNull(),
  statusAt: ts('status_at').notNull(),
  /** Which kind of event set the status: only two updates in one second need Stripe's API to order them. */
  statusFrom: text('status_from', { enum: ['checkout', 'update', 'delete'] })
    .notNull()
    .default('checkout'),
  apiKeyId: bigint('api_key_id', { mode: 'number' }).references(() => apiKeys.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * "Lost your key?" requests answered and not yet processed (issue 31): recorded before the answer, deleted by the
 * transaction that rotates the mailbox's keys after it.
 */
export const lostKeyRequests = pgTable(
  'lost_key_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (table) => [index('lost_key_requests_due_idx').on(table.nextAttemptAt, table.id)],
);

/** One-time "Manage subscription" links (decision 151): the token's SHA-256, the customer it opens, once, briefly. */
export const billingPortalLinks = pgTable(
  'billing_portal_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: text('customer_id').notNull(),
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (table) => [index('billing_portal_links_expires_idx').on(table.expiresAt)],
);

/**
 * Usage per key line and UTC day (migration 0010, docs/decisions/155): `metric` is `req:<family>`, `stream_minutes`
 * or `sgp_credits`; `ledgerKeyId` is the first key of a rotated line, so the history survives a rotation.
 */
export const keyUsageDaily = pgTable(
  'key_usage_daily',
  {
    ledgerKeyId: bigint('ledger_key_id', { mode: 'number' })
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.ledgerKeyId, table.day, table.metric] })],
);

/** A Stripe subscription's current period, from its subscription events (migration 0010, decision 155). */
export const billingSubscriptionPeriods = pgTable('billing_subscription_periods', {
  subscriptionId: text('subscription_id').primaryKey(),
  currentPeriodEnd: ts('current_period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /** Stripe's `created` of the event that set it: an older event never overwrites it. */
  eventAt: ts('event_at').notNull(),
});

export const schema = {
  apiKeys,
  trialRequests,
  emailOutbox,
  sgpCredits,
  stripeEvents,
  billingSubscriptions,
  lostKeyRequests,
  billingPortalLinks,
  keyUsageDaily,
  billingSubscriptionPeriods,
};
export type Schema = typeof schema;
