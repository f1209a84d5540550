-- Game results in the odds history (issue 57, docs/grading.md): an event's final score, period by period, beside its
-- closing lines, and each series' result (won, lost, push, half_won, half_lost, void) graded from it. Nullable columns
-- without a default: only the catalogue changes, no table rewrite.
ALTER TABLE history_events
  ADD COLUMN final_score jsonb,
  ADD COLUMN completed_at timestamptz;

ALTER TABLE history_series
  ADD COLUMN result text CHECK (result IN ('won', 'lost', 'push', 'half_won', 'half_lost', 'void'));
