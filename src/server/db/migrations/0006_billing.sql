-- Billing (issue 18, docs/decisions/142-stripe-webhooks-provision-keys.md): Stripe webhooks create, change, hold and
-- revoke paid keys. A paid key names the Stripe customer and subscription it was issued for; a subscription whose
-- payment is late (past_due, unpaid) or that is paused puts a hold on its keys, which stop working once the hold is
-- older than BILLING_GRACE_HOURS (paused: at once). A rotated key names its successor, and its SGP credits ledger
-- follows the first key of the line (ledger_key_id), so a new key neither loses nor renews the month's credits.
ALTER TABLE api_keys ADD COLUMN stripe_customer_id text;
ALTER TABLE api_keys ADD COLUMN stripe_subscription_id text;
ALTER TABLE api_keys ADD COLUMN billing_hold text CHECK (billing_hold IN ('past_due', 'unpaid', 'paused'));
ALTER TABLE api_keys ADD COLUMN billing_hold_since timestamptz;
ALTER TABLE api_keys ADD COLUMN replaced_by bigint REFERENCES api_keys (id);
ALTER TABLE api_keys ADD COLUMN ledger_key_id bigint REFERENCES api_keys (id);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_hold_check CHECK ((billing_hold IS NULL) = (billing_hold_since IS NULL));
-- Every uncached key lookup asks whether an unrevoked key names it in replaced_by (decision 142).
CREATE INDEX api_keys_replaced_by_idx ON api_keys (replaced_by) WHERE replaced_by IS NOT NULL;
CREATE INDEX api_keys_subscription_idx ON api_keys (stripe_subscription_id) WHERE stripe_subscription_id IS NOT NULL;
-- Paid keys created before this migration have no owner_identity: "Lost your key?" finds them by their exact address.
CREATE INDEX api_keys_paid_owner_idx ON api_keys (owner_identity) WHERE kind = 'paid';
CREATE INDEX api_keys_paid_email_idx ON api_keys (lower(owner_email)) WHERE kind = 'paid' AND owner_identity IS NULL;

-- Every Stripe event handled, by its id: a replay, or the same event delivered twice at once, finds its row (the
-- second INSERT waits for the first transaction's commit on the primary key) and changes nothing.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  -- The event's `created` (Stripe's clock), which orders a subscription's changes.
  created_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  outcome text NOT NULL
);

-- What we know of each subscription, whichever of its events came first (Stripe does not order deliveries): its
-- plan and status as of `status_at` (an older event's status is not applied), the address its key goes to, and the
-- key issued for it.
CREATE TABLE billing_subscriptions (
  subscription_id text PRIMARY KEY,
  customer_id text NOT NULL,
  email text,
  -- Null while only a deletion has been seen (nothing to sell then).
  plan text,
  status text NOT NULL,
  status_at timestamptz NOT NULL,
  -- Which kind of event set the status: two updates created in the same second are ordered by Stripe's API.
  status_from text NOT NULL DEFAULT 'checkout' CHECK (status_from IN ('checkout', 'update', 'delete')),
  api_key_id bigint REFERENCES api_keys (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
