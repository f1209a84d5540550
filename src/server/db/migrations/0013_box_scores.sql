-- Player props graded in the odds history (issue 57, decision 261): a final's box score (player id → period → stat →
-- count; a player missing from it did not play) kept on its event beside the final score, and whether the source
-- scores periods at all (false: The Odds API gives only the game's score, and period series stay ungraded; null on
-- results written before this migration: they had their periods). Nullable columns without a default: only the
-- catalogue changes, no table rewrite.
ALTER TABLE history_events
  ADD COLUMN box_score jsonb,
  ADD COLUMN periods_reported boolean;
