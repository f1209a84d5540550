-- Buying without a login (issue 33, docs/decisions/151-checkout-welcome-and-portal-without-login.md).
--
-- "Manage subscription" by email: a one-time link to the Stripe Billing Portal of the address's customer. The token
-- is emailed (sealed in the outbox until sent) and stored here only as its SHA-256; it works once (used_at), until
-- expires_at (15 minutes after it was made). Rows are pruned a day after they expire.
CREATE TABLE billing_portal_links (
  token_hash text PRIMARY KEY,
  customer_id text NOT NULL,
  -- The address the link was sent to (the page that opens it shows it masked).
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX billing_portal_links_expires_idx ON billing_portal_links (expires_at);

-- The reminder a trial key's owner gets about a day before the key expires: set in the transaction that queues the
-- email, so each trial key is reminded once, whatever the number of instances or restarts.
ALTER TABLE api_keys ADD COLUMN expiry_reminded_at timestamptz;
-- The periodic job's search: live trial keys not yet reminded, by expiry.
CREATE INDEX api_keys_trial_expiry_idx ON api_keys (expires_at)
  WHERE kind = 'trial' AND revoked_at IS NULL AND expiry_reminded_at IS NULL;
