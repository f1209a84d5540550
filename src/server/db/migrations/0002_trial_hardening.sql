-- Trial hardening (docs/decisions/025-029): one trial per mailbox identity (+tags, Gmail dots), a repeat request no
-- longer rotates a delivered key, outbox rows name the key they carry and the instance that claimed them.
-- The function below (lower-cased, `+tag` removed when something precedes it, Gmail dots removed,
-- googlemail.com folded into gmail.com) is the SQL twin of emailIdentity() in src/server/keys/email-identity.ts.
CREATE FUNCTION email_identity(email text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN d IN ('gmail.com', 'googlemail.com') THEN replace(l, '.', '') || '@gmail.com' ELSE l || '@' || d END
  FROM (SELECT CASE WHEN position('+' IN lp) > 1 THEN split_part(lp, '+', 1) ELSE lp END AS l, d
    FROM (SELECT substring(e FROM '^(.*)@') AS lp, substring(e FROM '@([^@]*)$') AS d
      FROM (SELECT lower(btrim(email)) AS e) AS a) AS b) AS c
$$;
ALTER TABLE trial_requests ADD COLUMN email_identity text;
UPDATE trial_requests SET email_identity = email_identity(email);
ALTER TABLE trial_requests ALTER COLUMN email_identity SET NOT NULL;
CREATE INDEX trial_requests_identity_idx ON trial_requests (email_identity, received_at);
ALTER TABLE trial_requests DROP CONSTRAINT trial_requests_status_check;
ALTER TABLE trial_requests ADD CONSTRAINT trial_requests_status_check
  CHECK (status IN ('issued', 'rotated', 'refused', 'reminded'));

ALTER TABLE api_keys ADD COLUMN owner_identity text;
UPDATE api_keys SET owner_identity = email_identity(owner_email) WHERE kind = 'trial';
CREATE INDEX api_keys_owner_identity_idx ON api_keys (owner_identity, kind, created_at);

ALTER TABLE email_outbox ADD COLUMN to_identity text;
UPDATE email_outbox SET to_identity = email_identity(to_address);
ALTER TABLE email_outbox ALTER COLUMN to_identity SET NOT NULL;
CREATE INDEX email_outbox_identity_idx ON email_outbox (to_identity, id);
-- The key an email carries (or reminds of), so that a repeat request can tell a delivered key from a lost one.
ALTER TABLE email_outbox ADD COLUMN api_key_id bigint REFERENCES api_keys (id);
UPDATE email_outbox o SET api_key_id = k.id FROM api_keys k
  WHERE k.owner_email = o.to_address AND k.prefix = o.payload ->> 'keyPrefix';
CREATE INDEX email_outbox_api_key_idx ON email_outbox (api_key_id);
-- The instance (INSTANCE_ID) whose worker holds the claim; claimed_by stays unique per incarnation.
ALTER TABLE email_outbox ADD COLUMN claimed_instance text;
-- Sealed keys older than OUTBOX_SEALED_TTL_MS are discarded; this index finds them.
CREATE INDEX email_outbox_sealed_idx ON email_outbox (created_at) WHERE sealed_secret IS NOT NULL;
-- Only this migration fills identities in SQL; the application computes them (emailIdentity()).
DROP FUNCTION email_identity(text);
