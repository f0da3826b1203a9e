package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runJob covers the durable job queue. Claims take an explicit now, so
// leases expire without waiting.
func runJob(t *testing.T, open Opener) {
	t.Run("JobEnqueue", func(t *testing.T) { testJobEnqueue(t, open(t)) })
	t.Run("JobClaimOrder", func(t *testing.T) { testJobClaimOrder(t, open(t)) })
	t.Run("JobLease", func(t *testing.T) { testJobLease(t, open(t)) })
	t.Run("JobLeaseSameWorker", func(t *testing.T) { testJobLeaseSameWorker(t, open(t)) })
	t.Run("JobPrune", func(t *testing.T) { testJobPrune(t, open(t)) })
	t.Run("JobRetry", func(t *testing.T) { testJobRetry(t, open(t)) })
	t.Run("JobClaimConcurrent", func(t *testing.T) { testJobClaimConcurrent(t, open(t)) })
}

// jobEpoch is a whole second, so times survive every engine's precision.
func jobEpoch() time.Time { return time.Now().UTC().Truncate(time.Second) }

func enqueue(t *testing.T, s prospector.Store, j *prospector.Job) *prospector.Job {
	t.Helper()
	created, err := s.EnqueueJob(context.Background(), j)
	if err != nil || !created {
		t.Fatalf("enqueue %s/%s: created=%v err=%v", j.Kind, j.Key, created, err)
	}
	return j
}

func claim(t *testing.T, s prospector.Store, worker string, kinds []string, limit int, now time.Time) []*prospector.Job {
	t.Helper()
	jobs, err := s.ClaimJobs(context.Background(), worker, kinds, limit, time.Minute, now)
	if err != nil {
		t.Fatalf("claim by %s: %v", worker, err)
	}
	return jobs
}

func jobIDs(jobs []*prospector.Job) []int64 {
	ids := []int64{}
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	return ids
}

func mustJob(t *testing.T, s prospector.Store, id int64) *prospector.Job {
	t.Helper()
	j, err := s.Job(context.Background(), id)
	if err != nil {
		t.Fatalf("job %d: %v", id, err)
	}
	return j
}

func testJobEnqueue(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	at := jobEpoch().Add(time.Hour)
	j := enqueue(t, s, &prospector.Job{Kind: "radar.scan", Key: "radar_1", Payload: []byte(`{"radar_id":"radar_1","n":2}`), RunAt: at})
	if j.ID == 0 || j.CreatedAt.IsZero() || j.State != prospector.JobQueued || j.MaxAttempts != prospector.DefaultJobMaxAttempts {
		t.Fatalf("enqueue did not fill id, created_at, state and max_attempts: %+v", j)
	}
	got := mustJob(t, s, j.ID)
	var payload map[string]any
	if err := json.Unmarshal(got.Payload, &payload); err != nil || !reflect.DeepEqual(payload, map[string]any{"radar_id": "radar_1", "n": 2.0}) {
		t.Fatalf("payload read back as %s (%v)", got.Payload, err)
	}
	if got.Kind != "radar.scan" || got.Key != "radar_1" || !got.RunAt.Equal(at) || got.State != prospector.JobQueued ||
		got.Attempts != 0 || got.MaxAttempts != prospector.DefaultJobMaxAttempts || got.LockedBy != "" || got.LockedUntil != nil ||
		!got.CreatedAt.Equal(j.CreatedAt) {
		t.Fatalf("read back %+v, want what was enqueued %+v", got, j)
	}

	// The same kind and key while the first is queued: nothing inserted.
	if created, err := s.EnqueueJob(ctx, &prospector.Job{Kind: "radar.scan", Key: "radar_1"}); err != nil || created {
		t.Fatalf("duplicate key: created=%v err=%v, want false and nil", created, err)
	}
	enqueue(t, s, &prospector.Job{Kind: "webhook.deliver", Key: "radar_1"}) // another kind
	enqueue(t, s, &prospector.Job{Kind: "radar.scan", Key: "radar_2"})
	a := enqueue(t, s, &prospector.Job{Kind: "radar.scan"}) // no key: never deduped
	b := enqueue(t, s, &prospector.Job{Kind: "radar.scan"})
	if a.ID == b.ID || string(mustJob(t, s, a.ID).Payload) != "{}" {
		t.Fatalf("keyless jobs %d and %d, payload %s", a.ID, b.ID, mustJob(t, s, a.ID).Payload)
	}
	if n, err := s.CountJobs(ctx, "radar.scan", prospector.JobQueued); err != nil || n != 4 {
		t.Fatalf("count queued radar.scan = %d (%v), want 4", n, err)
	}
	if n, err := s.CountJobs(ctx, "", ""); err != nil || n != 5 {
		t.Fatalf("count all = %d (%v), want 5", n, err)
	}

	// Running still dedupes; done does not.
	claimed := claim(t, s, "w1", []string{"radar.scan"}, 10, at)
	if len(claimed) != 4 {
		t.Fatalf("claimed %d radar.scan jobs, want 4", len(claimed))
	}
	if created, err := s.EnqueueJob(ctx, &prospector.Job{Kind: "radar.scan", Key: "radar_1"}); err != nil {
		t.Fatal(err)
	} else if created {
		t.Fatal("a key whose job is running was enqueued again")
	}
	if err := s.CompleteJob(ctx, j.ID, claimed[0].LeaseToken); err != nil {
		t.Fatal(err)
	}
	again := enqueue(t, s, &prospector.Job{Kind: "radar.scan", Key: "radar_1"})
	if again.ID == j.ID {
		t.Fatalf("new job reused id %d", j.ID)
	}

	// Many enqueuers of one key at once: one insert.
	var wg sync.WaitGroup
	var mu sync.Mutex
	made := 0
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			created, err := s.EnqueueJob(ctx, &prospector.Job{Kind: "raced", Key: "k"})
			if err != nil {
				t.Errorf("concurrent enqueue: %v", err)
			}
			if created {
				mu.Lock()
				made++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if made != 1 {
		t.Fatalf("10 concurrent enqueues of one key created %d jobs, want 1", made)
	}

	for _, bad := range []*prospector.Job{{Kind: ""}, {Kind: "x", Payload: []byte("{nope")}, {Kind: "x", MaxAttempts: -1}} {
		if _, err := s.EnqueueJob(ctx, bad); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("enqueue %+v: err = %v, want validation error", bad, err)
		}
	}
	if _, err := s.Job(ctx, 1<<40); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown job: err = %v, want ErrNotFound", err)
	}
}

func testJobClaimOrder(t *testing.T, s prospector.Store) {
	t0 := jobEpoch()
	late := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0.Add(time.Second)})
	first := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0.Add(-time.Second)})
	tie1 := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	tie2 := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	future := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0.Add(time.Hour)})
	other := enqueue(t, s, &prospector.Job{Kind: "b", RunAt: t0.Add(-time.Hour)})

	now := t0.Add(2 * time.Second)
	got := claim(t, s, "w1", []string{"a"}, 3, now)
	if want := []int64{first.ID, tie1.ID, tie2.ID}; !reflect.DeepEqual(jobIDs(got), want) {
		t.Fatalf("first claim got %v, want %v (run_at, then id)", jobIDs(got), want)
	}
	for _, j := range got {
		if j.State != prospector.JobRunning || j.LockedBy != "w1" || j.Attempts != 1 ||
			j.LockedUntil == nil || !j.LockedUntil.Equal(now.Add(time.Minute)) {
			t.Fatalf("claimed job %+v: want running, locked by w1 until now+lease, attempt 1", j)
		}
	}
	if stored := mustJob(t, s, first.ID); stored.State != prospector.JobRunning || stored.LockedBy != "w1" || stored.Attempts != 1 {
		t.Fatalf("claim not stored: %+v", stored)
	}
	got = claim(t, s, "w1", []string{"a"}, 10, now)
	if want := []int64{late.ID}; !reflect.DeepEqual(jobIDs(got), want) {
		t.Fatalf("second claim got %v, want %v (the future job waits)", jobIDs(got), want)
	}
	if got := claim(t, s, "w1", []string{"a"}, 10, now); len(got) != 0 {
		t.Fatalf("nothing left to claim, got %v", jobIDs(got))
	}
	if got := claim(t, s, "w1", []string{"a"}, 0, now.Add(2*time.Hour)); len(got) != 0 {
		t.Fatalf("limit 0 claimed %v", jobIDs(got))
	}
	got = claim(t, s, "w1", nil, 10, now)
	if want := []int64{other.ID}; !reflect.DeepEqual(jobIDs(got), want) {
		t.Fatalf("claim of any kind got %v, want %v", jobIDs(got), want)
	}
	// Finish the claimed jobs, whose leases would have expired by then.
	for _, j := range []*prospector.Job{first, tie1, tie2, late, other} {
		if err := s.CompleteJob(context.Background(), j.ID, mustJob(t, s, j.ID).LeaseToken); err != nil {
			t.Fatal(err)
		}
	}
	got = claim(t, s, "w1", []string{"a", "c"}, 10, t0.Add(time.Hour))
	if want := []int64{future.ID}; !reflect.DeepEqual(jobIDs(got), want) {
		t.Fatalf("claim at the future job's run_at got %v, want %v", jobIDs(got), want)
	}
}

func testJobLease(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	t0 := jobEpoch()
	j := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	byA := claim(t, s, "node-a", nil, 10, t0)
	if len(byA) != 1 || byA[0].LeaseToken == "" {
		t.Fatalf("node-a claimed %+v, want one job with a lease token", byA)
	}
	tokenA := byA[0].LeaseToken
	if got := claim(t, s, "node-b", nil, 10, t0.Add(59*time.Second)); len(got) != 0 {
		t.Fatalf("a job under lease was claimed again: %v", jobIDs(got))
	}
	// node-a stalls past its lease: node-b takes the job over.
	got := claim(t, s, "node-b", nil, 10, t0.Add(61*time.Second))
	if len(got) != 1 || got[0].ID != j.ID || got[0].LockedBy != "node-b" || got[0].Attempts != 2 {
		t.Fatalf("expired lease: node-b claimed %+v, want job %d on attempt 2", got, j.ID)
	}
	if !strings.Contains(got[0].LastError, "node-a") {
		t.Errorf("last_error %q does not say whose lease expired", got[0].LastError)
	}
	tokenB := got[0].LeaseToken
	if tokenB == "" || tokenB == tokenA {
		t.Fatalf("second claim's lease token %q, want a new one (first %q)", tokenB, tokenA)
	}
	for name, err := range map[string]error{
		"complete": s.CompleteJob(ctx, j.ID, tokenA),
		"retry":    s.RetryJob(ctx, j.ID, tokenA, t0, "x"),
		"fail":     s.FailJob(ctx, j.ID, tokenA, "x"),
		"extend":   s.ExtendJobLease(ctx, j.ID, tokenA, t0.Add(time.Hour)),
		"no token": s.CompleteJob(ctx, j.ID, ""),
	} {
		if !errors.Is(err, prospector.ErrLeaseLost) {
			t.Errorf("%s by the worker that lost the lease: err = %v, want ErrLeaseLost", name, err)
		}
	}
	if err := s.CompleteJob(ctx, j.ID, tokenB); err != nil {
		t.Fatal(err)
	}
	if done := mustJob(t, s, j.ID); done.State != prospector.JobDone || done.LockedUntil != nil || done.LockedBy != "node-b" {
		t.Fatalf("completed job %+v", done)
	}
	if err := s.CompleteJob(ctx, j.ID, tokenB); !errors.Is(err, prospector.ErrLeaseLost) {
		t.Fatalf("completing a done job: err = %v, want ErrLeaseLost", err)
	}
	if got := claim(t, s, "node-c", nil, 10, t0.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("a done job was claimed: %v", jobIDs(got))
	}
	if err := s.CompleteJob(ctx, 1<<40, tokenB); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown job: err = %v, want ErrNotFound", err)
	}

	// Extending the lease keeps a long job from being taken over.
	k := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	heldK := claim(t, s, "node-a", nil, 10, t0)
	if err := s.ExtendJobLease(ctx, k.ID, heldK[0].LeaseToken, t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, s, "node-b", nil, 10, t0.Add(2*time.Minute)); len(got) != 0 {
		t.Fatalf("extended lease ignored: %v", jobIDs(got))
	}
	if got := claim(t, s, "node-b", nil, 10, t0.Add(6*time.Minute)); len(got) != 1 || got[0].ID != k.ID {
		t.Fatalf("after the extended lease: %v, want %d", jobIDs(got), k.ID)
	}

	// A job whose lease expires on its last attempt (it keeps killing its
	// node) fails instead of being claimed for ever.
	p := enqueue(t, s, &prospector.Job{Kind: "poison", RunAt: t0, MaxAttempts: 1})
	claim(t, s, "node-a", []string{"poison"}, 10, t0)
	if got := claim(t, s, "node-b", []string{"poison"}, 10, t0.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("job with no attempts left claimed again: %v", jobIDs(got))
	}
	if failed := mustJob(t, s, p.ID); failed.State != prospector.JobFailed || !strings.Contains(failed.LastError, "expired") {
		t.Fatalf("poison job %+v, want failed with an expired-lease error", failed)
	}
}

func testJobRetry(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	t0 := jobEpoch()
	j := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0, MaxAttempts: 2})
	first := claim(t, s, "w", nil, 1, t0)
	if err := s.RetryJob(ctx, j.ID, first[0].LeaseToken, t0.Add(10*time.Second), "boom 1"); err != nil {
		t.Fatal(err)
	}
	got := mustJob(t, s, j.ID)
	if got.State != prospector.JobQueued || !got.RunAt.Equal(t0.Add(10*time.Second)) || got.LastError != "boom 1" ||
		got.Attempts != 1 || got.LockedUntil != nil {
		t.Fatalf("after retry: %+v", got)
	}
	if got := claim(t, s, "w", nil, 1, t0.Add(5*time.Second)); len(got) != 0 {
		t.Fatalf("claimed before the retry's run_at: %v", jobIDs(got))
	}
	second := claim(t, s, "w", nil, 1, t0.Add(10*time.Second))
	if len(second) != 1 || second[0].Attempts != 2 || second[0].LastError != "boom 1" {
		t.Fatalf("retry claim: %+v", second)
	}
	if err := s.RetryJob(ctx, j.ID, first[0].LeaseToken, t0.Add(time.Minute), "stale"); !errors.Is(err, prospector.ErrLeaseLost) {
		t.Fatalf("retry with the first claim's token: err = %v, want ErrLeaseLost", err)
	}
	if err := s.RetryJob(ctx, j.ID, second[0].LeaseToken, t0.Add(time.Minute), "boom 2"); err != nil {
		t.Fatal(err)
	}
	if got := mustJob(t, s, j.ID); got.State != prospector.JobFailed || got.LastError != "boom 2" || got.Attempts != 2 {
		t.Fatalf("retry on the last attempt: %+v, want failed", got)
	}
	if got := claim(t, s, "w", nil, 10, t0.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("a failed job was claimed: %v", jobIDs(got))
	}
	if err := s.RetryJob(ctx, j.ID, second[0].LeaseToken, t0, "x"); !errors.Is(err, prospector.ErrLeaseLost) {
		t.Fatalf("retry of a failed job: err = %v, want ErrLeaseLost", err)
	}

	k := enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0})
	heldK := claim(t, s, "w", nil, 1, t0)
	if err := s.FailJob(ctx, k.ID, heldK[0].LeaseToken, "bad payload"); err != nil {
		t.Fatal(err)
	}
	if got := mustJob(t, s, k.ID); got.State != prospector.JobFailed || got.LastError != "bad payload" || got.Attempts != 1 {
		t.Fatalf("after fail: %+v", got)
	}
	if n, err := s.CountJobs(ctx, "a", prospector.JobFailed); err != nil || n != 2 {
		t.Fatalf("count failed = %d (%v), want 2", n, err)
	}
}

// testJobClaimConcurrent: workers claiming at once from one queue each
// get different jobs, and together get every job.
func testJobClaimConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	t0 := jobEpoch()
	const total, workers = 200, 8
	for i := range total {
		enqueue(t, s, &prospector.Job{Kind: "a", RunAt: t0, Payload: []byte(fmt.Sprintf(`{"i":%d}`, i))})
	}
	var mu sync.Mutex
	claimedBy := map[int64]string{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker := fmt.Sprintf("w%d", w)
			for {
				jobs, err := s.ClaimJobs(ctx, worker, []string{"a"}, 1+w%7, time.Hour, t0)
				if err != nil {
					t.Errorf("%s: claim: %v", worker, err)
					return
				}
				if len(jobs) == 0 {
					return
				}
				for _, j := range jobs {
					mu.Lock()
					if prev, dup := claimedBy[j.ID]; dup {
						t.Errorf("job %d claimed by %s and %s", j.ID, prev, worker)
					}
					claimedBy[j.ID] = worker
					mu.Unlock()
					if err := s.CompleteJob(ctx, j.ID, j.LeaseToken); err != nil {
						t.Errorf("%s: complete %d: %v", worker, j.ID, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	if len(claimedBy) != total {
		t.Fatalf("%d distinct jobs claimed, want %d", len(claimedBy), total)
	}
	if n, err := s.CountJobs(ctx, "a", prospector.JobDone); err != nil || n != total {
		t.Fatalf("done = %d (%v), want %d", n, err, total)
	}
}
