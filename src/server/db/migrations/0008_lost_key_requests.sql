-- "Lost your key?" requests (issue 31,
-- docs/decisions/149-lost-key-after-the-answer-proxy-entries-webhook-times-first-start.md). The form answers after one
-- INSERT here, the same for every address, and the key lookup and rotation run after the answer, one transaction per
-- request that also deletes its row: a request answered but not processed (a failure, a crash, a shutdown) stays here
-- and is retried, also by the next start.
CREATE TABLE lost_key_requests (
  id bigserial PRIMARY KEY,
  -- The address as typed: the rotation matches its mailbox identity (decision 028), never sends to it.
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- The last failure, without addresses (describeError).
  last_error text
);
CREATE INDEX lost_key_requests_due_idx ON lost_key_requests (next_attempt_at, id);
