package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// testRadarCreateInQuota: the quota unit, the radar and its backfill job
// are written together or not at all.
func testRadarCreateInQuota(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "quota-radars", prospector.PlanDefault) // 1 radar
	state := func() (units int64, radars int, jobs int64) {
		t.Helper()
		u, err := s.CreditUsage(ctx, w.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		rs, err := s.RadarSummaries(ctx, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.CountJobs(ctx, prospector.JobRadarBackfill, "")
		if err != nil {
			t.Fatal(err)
		}
		return u.Radars.Used, len(rs), n
	}
	radar := func() *prospector.Radar {
		return &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "in quota",
			Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Types: []string{"job_change"},
				CompanySizeMin: 1, CompanySizeMax: 10000}}
	}
	// A step failing after the unit was taken and the radar inserted (here
	// the job, which is not valid) leaves neither behind.
	bad := radar()
	err := s.CreateRadarInQuota(ctx, bad, &prospector.Job{Kind: prospector.JobRadarBackfill, Key: bad.ID, Payload: []byte("{")})
	if prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("invalid backfill job: %v", err)
	}
	if units, radars, jobs := state(); units != 0 || radars != 0 || jobs != 0 {
		t.Fatalf("after a failed last step: %d units, %d radars, %d jobs; want none", units, radars, jobs)
	}
	if _, err := s.Radar(ctx, bad.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("the failed radar is stored: %v", err)
	}
	r := radar()
	job := prospector.RadarBackfillJob(r.ID)
	if err := s.CreateRadarInQuota(ctx, r, job); err != nil {
		t.Fatal(err)
	}
	if r.CreatedAt.IsZero() || job.ID == 0 || job.State != prospector.JobQueued {
		t.Fatalf("radar %+v, job %+v: not filled", r, job)
	}
	if got, err := s.Radar(ctx, r.ID); err != nil || got.WorkspaceID != w.ID {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	if got, err := s.Job(ctx, job.ID); err != nil || got.Key != r.ID || got.Kind != prospector.JobRadarBackfill {
		t.Fatalf("backfill job: %+v, %v", got, err)
	}
	if units, radars, jobs := state(); units != 1 || radars != 1 || jobs != 1 {
		t.Fatalf("after a create: %d units, %d radars, %d jobs; want one each", units, radars, jobs)
	}
	// At the limit nothing is written.
	over := radar()
	if err := s.CreateRadarInQuota(ctx, over, prospector.RadarBackfillJob(over.ID)); !errors.Is(err, prospector.ErrQuotaExceeded) {
		t.Fatalf("second radar on a 1-radar plan: %v", err)
	}
	if units, radars, jobs := state(); units != 1 || radars != 1 || jobs != 1 {
		t.Fatalf("after a refused create: %d units, %d radars, %d jobs", units, radars, jobs)
	}
	orphan := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: "ws_missing", Name: "x"}
	if err := s.CreateRadarInQuota(ctx, orphan, prospector.RadarBackfillJob(orphan.ID)); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("radar of a missing workspace: %v", err)
	}
}
