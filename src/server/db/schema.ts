import { sql } from 'drizzle-orm';
import {
  bigserial,
  bigint,
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
  | 'trial-reminder'
  | 'paid-key-issued'
  | 'paid-key-rotated';

/** Kinds whose email carries a plain key (sealed in the row until it is sent). */
export const KEY_EMAIL_KINDS: readonly EmailKind[] = [
  'trial-issued',
  'trial-rotated',
  'trial-resent',
  'paid-key-issued',
  'paid-key-rotated',
];

export interface EmailPayload {
  keyPrefix?: string;
  previousPrefix?: string;
  /** ISO time the trial ends (or ended, for a refusal). */
  expiresAt?: string;
  plan?: string;
  /** paid-key-rotated: the previous key works until the new one is first used (absent: it was revoked at once). */
  previousUntilFirstUse?: boolean;
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

export const schema = { apiKeys, trialRequests, emailOutbox, sgpCredits, stripeEvents, billingSubscriptions };
export type Schema = typeof schema;
