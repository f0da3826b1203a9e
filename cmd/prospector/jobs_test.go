package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
)

// serve prunes finished jobs past --keep-done-jobs in the background, and
// keeps failed ones within --keep-failed-jobs.
func TestServePrunesFinishedJobs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, fail := range []bool{false, true} {
		j := &prospector.Job{Kind: "test.finished"}
		if _, err := st.EnqueueJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		c, err := st.ClaimJobs(ctx, "w", []string{j.Kind}, 1, time.Minute, time.Now())
		if err != nil || len(c) != 1 {
			t.Fatalf("claim: %v %v", c, err)
		}
		if fail {
			err = st.FailJob(ctx, j.ID, c[0].LeaseToken, "broken")
		} else {
			err = st.CompleteJob(ctx, j.ID, c[0].LeaseToken)
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	st.Close()
	time.Sleep(5 * time.Millisecond)

	_, _, stop := startServe(t, map[string]string{"PROSPECTOR_DATA": dir}, "--keep-done-jobs", "1ms")
	defer stop()
	st, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitUntil(t, func() bool {
		_, err := st.Job(ctx, ids[0])
		return errors.Is(err, prospector.ErrNotFound)
	})
	if j, err := st.Job(ctx, ids[1]); err != nil || j.State != prospector.JobFailed {
		t.Fatalf("failed job within its 30 days: %+v, %v", j, err)
	}
}

// serve enforces the retention windows in the background: an e-mail
// lookup past --retain-email-lookups goes, one within it stays, and kinds
// whose window is 0 are kept.
func TestServeEnforcesRetention(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	w := prospector.NewWorkspace("kept", prospector.PlanGrowth)
	w.Email = "ops@kept.example"
	if err := st.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, age := range []time.Duration{48 * time.Hour, time.Minute} {
		l := &prospector.EmailLookup{ID: prospector.NewID("eml"), WorkspaceID: w.ID, IdempotencyKey: prospector.NewID("k"),
			RequestHash: "h", Email: "a@b.example", Credits: 1}
		if _, _, err := st.RecordEmailLookup(ctx, l, time.Now().Add(-age)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.IdempotencyKey)
	}
	st.Close()

	_, _, stop := startServe(t, map[string]string{"PROSPECTOR_DATA": dir}, "--no-demo", "--retain-email-lookups", "24h",
		"--retain-feedback-events", "0", "--retain-deliveries", "0", "--retain-closed-openings", "0")
	defer stop()
	st, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitUntil(t, func() bool {
		_, err := st.EmailLookupByKey(ctx, w.ID, ids[0])
		return errors.Is(err, prospector.ErrNotFound)
	})
	if _, err := st.EmailLookupByKey(ctx, w.ID, ids[1]); err != nil {
		t.Fatalf("the lookup within its window: %v", err)
	}
}
