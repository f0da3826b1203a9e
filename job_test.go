package prospector

import (
	"slices"
	"testing"
	"time"
)

func TestJobQueued(t *testing.T) {
	now := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	j := &Job{Kind: "k"}
	if at := j.FirstRunAt(now); !at.Equal(now) {
		t.Fatalf("no RunAt: first run %v, want now", at)
	}
	later := now.Add(time.Hour)
	j.RunAt = later
	if at := j.FirstRunAt(now); !at.Equal(later) {
		t.Fatalf("RunAt set: first run %v, want %v", at, later)
	}
	j.State, j.Attempts, j.LastError, j.LockedBy, j.LockedUntil = JobFailed, 3, "boom", "w1", &now
	j.Queued(42, later, now)
	if j.ID != 42 || j.State != JobQueued || !j.RunAt.Equal(later) || j.Attempts != 0 || j.LastError != "" ||
		j.LockedBy != "" || j.LockedUntil != nil || !j.CreatedAt.Equal(now) || !j.UpdatedAt.Equal(now) {
		t.Fatalf("queued: %+v", j)
	}
}

func TestSortClaimed(t *testing.T) {
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	jobs := []*Job{{ID: 4, RunAt: t0.Add(time.Second)}, {ID: 3, RunAt: t0}, {ID: 1, RunAt: t0.Add(time.Second)}, {ID: 2, RunAt: t0}}
	SortClaimed(jobs)
	var ids []int64
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []int64{2, 3, 1, 4}) {
		t.Fatalf("order %v, want earliest RunAt first, then by id", ids)
	}
}
