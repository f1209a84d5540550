-- Self-service with the key (issue 33, docs/decisions/155-usage-counting-and-key-rotation.md).
--
-- Usage per key line and UTC day: requests by route family (`metric` 'req:<family>'), stream minutes
-- ('stream_minutes') and same-game-parlay credits spent ('sgp_credits'). `ledger_key_id` is the first key of a
-- rotated line (api_keys.ledger_key_id, or the key's own id when never rotated), so a rotation keeps the history.
-- Each api instance counts in memory and adds its deltas every few seconds in one statement
-- (INSERT … ON CONFLICT DO UPDATE SET count = count + excluded.count), so instances never overwrite each other.
-- Rows older than 90 days are deleted.
CREATE TABLE key_usage_daily (
  ledger_key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day date NOT NULL,
  metric text NOT NULL,
  count bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
  PRIMARY KEY (ledger_key_id, day, metric)
);
CREATE INDEX key_usage_daily_day_idx ON key_usage_daily (day);

-- A Stripe subscription's current period as its subscription events (created, updated, deleted) tell it: when it
-- renews (or ends, with cancel_at_period_end), for GET /v1/me. Kept apart from billing_subscriptions because
-- `customer.subscription.created` usually arrives before the checkout event that creates that row. `event_at` is the
-- Stripe `created` of the event that set it: an older event never overwrites a newer one.
CREATE TABLE billing_subscription_periods (
  subscription_id text PRIMARY KEY,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  event_at timestamptz NOT NULL
);
