-- Radar management (docs/decisions.md, "Radars"): paused_at is set while
-- a radar is paused; scanned_at is when the radar engine last recorded
-- progress for it (a scan moving its cursor, its backfill completing),
-- which updated_at stood for while only the engine changed a radar.
ALTER TABLE radars ADD COLUMN paused_at timestamptz, ADD COLUMN scanned_at timestamptz;
UPDATE radars SET scanned_at = updated_at WHERE backfilled_at IS NOT NULL OR updated_at <> created_at;
