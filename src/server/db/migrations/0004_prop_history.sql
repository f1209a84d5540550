-- Player props in the odds history (issue 15, docs/decisions/125-props-in-the-odds-history.md). A prop series is a
-- history_series row like any other (market_type 'prop', its line in `line`), plus its stat and its player as the
-- event's roster named him when the series was first seen. Null for game lines. Adding nullable columns without a
-- default only changes the catalogue: no table rewrite, instant on a large history.
ALTER TABLE history_series
  ADD COLUMN stat text,
  ADD COLUMN player_id text,
  ADD COLUMN player_name text,
  ADD COLUMN player_team text;

-- The API's `player=` filter: an event's (or a league's events') series of one player, without reading the event's
-- other series. Partial: game lines (most rows) stay out of it.
CREATE INDEX history_series_player_idx ON history_series (event_id, player_id) WHERE player_id IS NOT NULL;
