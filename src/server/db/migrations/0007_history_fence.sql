-- One writer of the odds history at a time (issue 19, docs/decisions/146-history-fence-and-delayed-replay.md). An
-- ingest leader writes each history batch in a transaction that first locks this row and compares its fencing token
-- (the leader lease's, from Redis) with the one stored: a greater one stored means a newer leader has written, and the
-- batch is refused. The row also says up to when the current leader's writes reach, so that the next leader records
-- the stretch nobody recorded (the takeover window) as a gap. ROLE=all (one process) never uses it.
CREATE TABLE history_fence (
  id smallint PRIMARY KEY CHECK (id = 1),
  token bigint NOT NULL,
  holder text NOT NULL,
  since timestamptz NOT NULL DEFAULT now(),
  up_to timestamptz
);

-- Why a gap is there: changes dropped while the database was away, or the window between two leaders.
ALTER TABLE history_gaps ADD COLUMN cause text NOT NULL DEFAULT 'queue-full'
  CHECK (cause IN ('queue-full', 'takeover'));
