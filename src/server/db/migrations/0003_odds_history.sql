-- Odds history (issue 13, docs/decisions/106-odds-history-storage.md): every accepted price change, kept.
-- history_events: one row per fixture the engine has known (what the API needs once the engine has forgotten it).
CREATE TABLE history_events (
  event_id text PRIMARY KEY,
  league text NOT NULL,
  home jsonb NOT NULL,
  away jsonb NOT NULL,
  starts_at timestamptz NOT NULL,
  first_seen_at timestamptz NOT NULL,
  live_at timestamptz,
  ended_at timestamptz,
  -- When the closing lines of the event's series were taken (null: not yet, or the start moved later).
  closed_at timestamptz
);
CREATE INDEX history_events_league_idx ON history_events (league, first_seen_at);
CREATE INDEX history_events_closing_due_idx ON history_events (starts_at) WHERE closed_at IS NULL;

-- history_series: one row per (event, market, line, outcome, book), with its opening and closing line, so that
-- asking for them is an index lookup. Ticks name their series by id (4 bytes instead of ~80 of text per change).
CREATE TABLE history_series (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL,
  market_key text NOT NULL,
  market_type text NOT NULL,
  period text NOT NULL,
  line double precision,
  outcome text NOT NULL,
  book text NOT NULL,
  -- The feed's side id of this (market, outcome, book): the arbitrage page asks for history by it.
  side_id text NOT NULL,
  opening_at timestamptz,
  opening_american double precision,
  opening_decimal double precision,
  closing_at timestamptz,
  closing_american double precision,
  closing_decimal double precision
);
CREATE UNIQUE INDEX history_series_key ON history_series (event_id, market_key, outcome, book);
CREATE INDEX history_series_side_idx ON history_series (side_id);

-- price_ticks: the changes, range-partitioned by day (partitions made ahead and dropped after
-- HISTORY_RETENTION_DAYS by the history writer). state: 0 open (a price a bettor can take), 1 suspended, 2 removed.
CREATE TABLE price_ticks (
  at timestamptz NOT NULL,
  american double precision NOT NULL,
  decimal double precision NOT NULL,
  series_id integer NOT NULL,
  state smallint NOT NULL
) PARTITION BY RANGE (at);
CREATE INDEX price_ticks_series_at_idx ON price_ticks (series_id, at);
-- Rows outside every day partition (a clock far off) land here instead of failing the batch.
CREATE TABLE price_ticks_default PARTITION OF price_ticks DEFAULT;

-- Changes the writer had to drop (queue full while the database was away): the API reports them as gaps.
CREATE TABLE history_gaps (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  from_at timestamptz NOT NULL,
  to_at timestamptz NOT NULL,
  dropped_changes integer NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX history_gaps_range_idx ON history_gaps (to_at, from_at);
