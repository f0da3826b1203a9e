-- lease_token names the claim that holds a job (prospector.Job.LeaseToken):
-- finishing, retrying or extending a job checks it rather than locked_by,
-- which a runner keeps across claims. Rows claimed before it existed have
-- none, and no current worker can present one for them: their leases run
-- out and the next claim gives them a token.
ALTER TABLE jobs ADD COLUMN lease_token TEXT;
-- Pruning reads finished jobs by age (PruneJobs).
CREATE INDEX jobs_finished ON jobs(state, updated_at) WHERE state IN ('done', 'failed');
