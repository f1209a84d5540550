-- Same-game-parlay credits (issue 16, docs/decisions/128-sgp-credits-ledger.md): the durable monthly ledger and the
-- only authority on how many credits a key has spent. One row per key and UTC month (`month` is the first day of the
-- month), created by the key's first spend or an operator's grant. `used` counts priced requests, `granted` the
-- operators' extra credits for that month; the plan's allowance is not stored (it comes from src/domain/plans.ts).
-- A spend is one INSERT ... ON CONFLICT DO UPDATE ... WHERE used < allowance + granted: the row lock serialises
-- concurrent spends from every instance, and the checks below refuse a count that would go negative.
CREATE TABLE sgp_credits (
  api_key_id bigint NOT NULL REFERENCES api_keys (id),
  month date NOT NULL,
  used integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  granted integer NOT NULL DEFAULT 0 CHECK (granted >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (api_key_id, month)
);
