-- Odds history in blocks (issue 59, docs/decisions/240-history-in-price-blocks.md). One row per series and window:
-- the series' changes over up to a minute (at most 256 of them, never across a UTC day) as delta-encoded columns in
-- `data` (src/server/history/tick-block.ts). first_at and last_at: the earliest and the latest change it holds, so
-- that a read finds a series' block around an instant with one probe of (series_id, first_at). Range-partitioned by
-- day on first_at like price_ticks (partitions made ahead, dropped after HISTORY_RETENTION_DAYS or over
-- HISTORY_MAX_GB by the history writer). price_ticks stays: rows written before the switch (HISTORY_FORMAT=rows, the
-- default until now) are read in place beside the blocks and leave with their day partitions.
CREATE TABLE price_blocks (
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  series_id integer NOT NULL,
  data bytea NOT NULL
) PARTITION BY RANGE (first_at);
CREATE INDEX price_blocks_series_first_idx ON price_blocks (series_id, first_at);
-- Blocks outside every day partition (a clock far off) land here instead of failing the batch.
CREATE TABLE price_blocks_default PARTITION OF price_blocks DEFAULT;
