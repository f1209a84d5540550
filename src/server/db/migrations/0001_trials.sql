-- trial requests, API keys, email outbox. Plain PostgreSQL 15 SQL (also runs on PGlite).
CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  prefix text NOT NULL,
  hash text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('trial', 'paid')),
  plan text NOT NULL,
  owner_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
CREATE INDEX api_keys_owner_idx ON api_keys (owner_email, kind, created_at);

CREATE TABLE trial_requests (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  company text NOT NULL,
  use_case text NOT NULL,
  expected_volume text NOT NULL,
  message text NOT NULL,
  client_timestamp text NOT NULL,
  user_agent text NOT NULL,
  referrer text NOT NULL,
  promotekit_referral text,
  received_at timestamptz NOT NULL DEFAULT now(),
  client_ip_hash text NOT NULL,
  payload_hash text NOT NULL,
  status text NOT NULL CHECK (status IN ('issued', 'rotated', 'refused')),
  api_key_id bigint REFERENCES api_keys (id)
);
CREATE INDEX trial_requests_email_idx ON trial_requests (email, received_at);

CREATE TABLE email_outbox (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  to_address text NOT NULL,
  payload jsonb NOT NULL,
  sealed_secret text,
  message_id text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  claimed_by text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  trial_request_id bigint REFERENCES trial_requests (id)
);
CREATE UNIQUE INDEX email_outbox_message_id_key ON email_outbox (message_id);
CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE status IN ('pending', 'sending');
