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
