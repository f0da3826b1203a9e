package api

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

// One timer serves every request's deadline: each request ends at its
// own deadline whatever order they came in, a request that left the list
// is not ended by it, and the timer is then armed for the earliest
// deadline left.
func TestInFlightEndsEachRequestAtItsDeadline(t *testing.T) {
	s := &Server{}
	type req struct {
		ri  *requestInfo
		ctx *deadlineContext
	}
	start := time.Now()
	add := func(id string, after time.Duration) req {
		ri := &requestInfo{id: id, started: time.Now()}
		cctx, cancel := context.WithCancelCause(context.Background())
		t.Cleanup(func() { cancel(nil) })
		ri.ctx = deadlineContext{Context: cctx, deadline: start.Add(after)}
		s.inflight.add(ri, httptest.NewRequest("GET", "/api/v1/"+id, nil), cancel)
		return req{ri, &ri.ctx}
	}
	a := add("a", 30*time.Millisecond)
	b := add("b", time.Hour)
	c := add("c", 60*time.Millisecond) // after a: armed again when a ends
	d := add("d", 40*time.Millisecond)
	s.inflight.remove(d.ri)
	if got := s.InFlight(); len(got) != 3 || got[0].ID != "a" || got[1].ID != "b" || got[2].ID != "c" || got[0].Path != "/api/v1/a" {
		t.Fatalf("in flight %+v, want a, b, c oldest first", got)
	}
	for _, r := range []req{a, c} {
		select {
		case <-r.ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not ended at its deadline", r.ri.id)
		}
		if cause := context.Cause(r.ctx); cause != errRequestTimeout {
			t.Errorf("%s ended by %v, want errRequestTimeout", r.ri.id, cause)
		}
		if !errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("%s: Err() = %v, want DeadlineExceeded", r.ri.id, r.ctx.Err())
		}
		if d, ok := r.ctx.Deadline(); !ok || !d.Equal(r.ri.ctx.deadline) {
			t.Errorf("%s: Deadline() = %v, %v", r.ri.id, d, ok)
		}
	}
	if elapsed := time.Since(start); elapsed < 60*time.Millisecond {
		t.Errorf("c ended after %s, before its deadline", elapsed)
	}
	for _, r := range []req{b, d} {
		if r.ctx.Err() != nil {
			t.Errorf("%s ended: %v", r.ri.id, context.Cause(r.ctx))
		}
	}
	s.inflight.mu.Lock()
	armed := s.inflight.armed
	s.inflight.mu.Unlock()
	if !armed.Equal(b.ri.ctx.deadline) {
		t.Errorf("timer armed for %v, want b's deadline %v", armed, b.ri.ctx.deadline)
	}
}

// A request whose deadline is earlier than the armed timer's re-arms it.
func TestInFlightEarlierDeadlineRearms(t *testing.T) {
	s := &Server{}
	late := &requestInfo{id: "late"}
	lateCtx, cancelLate := context.WithCancelCause(context.Background())
	defer cancelLate(nil)
	late.ctx = deadlineContext{Context: lateCtx, deadline: time.Now().Add(time.Hour)}
	s.inflight.add(late, httptest.NewRequest("GET", "/late", nil), cancelLate)
	early := &requestInfo{id: "early"}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	early.ctx = deadlineContext{Context: ctx, deadline: time.Now().Add(20 * time.Millisecond)}
	s.inflight.add(early, httptest.NewRequest("GET", "/early", nil), cancel)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the earlier deadline did not re-arm the timer")
	}
}
