package prospector

// RadarChange is what PATCH /radar/{id} changes of the workspace's
// radar; nil fields are left as they are (docs/decisions.md, "Radars").
type RadarChange struct {
	WorkspaceID string
	ID          string
	Name        *string
	// Paused true pauses a running radar (PausedAt is set once, at the
	// first pause); false resumes a paused one, moving its cursor to the
	// highest signal id stored, so the signals stored while it was
	// paused are never matched.
	Paused *bool
	// Config replaces the radar's rules. Its leads are kept; the new
	// rules are backfilled over the signals the scan has already read
	// (BackfillThrough becomes the cursor, BackfilledAt is cleared) and
	// the scan goes on from its cursor with them.
	Config *RadarConfig
	// Backfill is the radar's backfill job (RadarBackfillJob), enqueued
	// in the same transaction when Config is set, or when a radar whose
	// backfill has not completed is resumed; required then.
	Backfill *Job
}

// RadarDeletion is what deleting a radar did.
type RadarDeletion struct {
	// LeadsKept are the radar's leads, kept in the workspace with no
	// radar: outreach tools may hold them, and their outcomes still come
	// back as feedback events naming them.
	LeadsKept int64
}

// ErrRadarBackfilling: the radar's rules cannot change before its
// backfill has completed, since that backfill reads the rules it started
// with.
var ErrRadarBackfilling = &Error{Code: EINVALID, Message: "the radar's backfill has not completed"}
