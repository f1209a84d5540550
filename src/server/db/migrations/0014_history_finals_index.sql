-- The finals of the odds history by when they arrived (issue 57, decision 283): the public results feed reads the
-- last three days' and the calibration report the last 30 days', both as `WHERE completed_at >= $1 AND final_score
-- IS NOT NULL ORDER BY completed_at DESC, event_id LIMIT $2`. This index holds only the events with a final, in that
-- order, so both are a range read of it instead of a scan and sort of every event. Built in the migration's
-- transaction (CREATE INDEX CONCURRENTLY cannot run in one): history_events has one row per fixture, a few thousand a
-- week, so the write lock lasts a moment.
CREATE INDEX IF NOT EXISTS history_events_completed ON history_events (completed_at DESC, event_id)
  WHERE final_score IS NOT NULL;
