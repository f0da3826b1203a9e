package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runEmail covers what enrich/email needs: finding the company by name
// and recording charged answers.
func runEmail(t *testing.T, open Opener) {
	t.Run("CompanyByName", func(t *testing.T) { testCompanyByName(t, open(t)) })
	t.Run("EmailLookup", func(t *testing.T) { testEmailLookup(t, open(t)) })
	t.Run("EmailLookupConcurrent", func(t *testing.T) { testEmailLookupConcurrent(t, open(t)) })
}

func testCompanyByName(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	cs := []*prospector.Company{
		{Name: "Acme", Domain: "acme-small.example", EmployeeCount: i64(10)},
		{Name: "ACME", Domain: "acme-big.example", EmployeeCount: i64(500)},
		{Name: "acme", Domain: "acme-unknown.example"},
		{Name: "AcMe", Domain: "acme-big-too.example", EmployeeCount: i64(500)},
		{Name: "Acme Robotics", Domain: "acme-robotics.example", EmployeeCount: i64(9000)},
		{Name: "Nulls", Domain: "nulls-unknown.example"},
		{Name: "NULLS", Domain: "nulls-one.example", EmployeeCount: i64(1)},
		{Name: "Solo", Domain: "solo.example"},
	}
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	// The two with 500 employees tie: the lower id wins.
	big := cs[1]
	if cs[3].ID < big.ID {
		big = cs[3]
	}
	for _, tc := range []struct{ name, want string }{
		{"acme", big.Domain},
		{"ACME", big.Domain},
		{"aCmE", big.Domain},
		{"acme robotics", "acme-robotics.example"},
		{"nulls", "nulls-one.example"}, // a known count beats an unknown one
		{"SOLO", "solo.example"},
	} {
		got, err := s.CompanyByName(ctx, tc.name)
		if err != nil {
			t.Fatalf("%q: %v", tc.name, err)
		}
		if got.Domain != tc.want {
			t.Errorf("%q: got %s, want %s", tc.name, got.Domain, tc.want)
		}
	}
	for _, name := range []string{"", "acm", "acme robotic", "nobody"} {
		if got, err := s.CompanyByName(ctx, name); !errors.Is(err, prospector.ErrNotFound) {
			t.Errorf("%q: got %+v, %v; want ErrNotFound", name, got, err)
		}
	}
}

// lookup returns an answer costing credits, keyed by key.
func lookup(workspaceID, key, hash string, credits int64) *prospector.EmailLookup {
	l := &prospector.EmailLookup{WorkspaceID: workspaceID, IdempotencyKey: key, RequestHash: hash, Credits: credits}
	if credits > 0 {
		l.Email, l.Verified, l.Confidence = "ada@acme.example", true, 0.97
	}
	return l
}

func creditsUsed(t *testing.T, s prospector.Store, workspaceID string, now time.Time) int64 {
	t.Helper()
	u, err := s.CreditUsage(context.Background(), workspaceID, now)
	if err != nil {
		t.Fatal(err)
	}
	return u.CreditsUsed
}

func sameLookup(a, b *prospector.EmailLookup) bool {
	return a.ID == b.ID && a.WorkspaceID == b.WorkspaceID && a.IdempotencyKey == b.IdempotencyKey &&
		a.RequestHash == b.RequestHash && a.Email == b.Email && a.Verified == b.Verified &&
		a.Confidence == b.Confidence && a.Credits == b.Credits && a.CreatedAt.Equal(b.CreatedAt)
}

func testEmailLookup(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	now := time.Now()
	w := &prospector.Workspace{Name: "finder", Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: ptr(3)}}
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	record := func(l *prospector.EmailLookup, at time.Time) (*prospector.EmailLookup, bool, error) {
		return s.RecordEmailLookup(ctx, l, at)
	}

	first, replayed, err := record(lookup(w.ID, "k1", "h1", 1), now)
	if err != nil || replayed {
		t.Fatalf("first lookup: replayed=%v err=%v", replayed, err)
	}
	if first.ID == "" || first.CreatedAt.IsZero() || first.Email != "ada@acme.example" || !first.Verified ||
		first.Confidence != 0.97 || first.Credits != 1 || first.IdempotencyKey != "k1" || first.RequestHash != "h1" {
		t.Fatalf("stored lookup %+v", first)
	}
	if got := creditsUsed(t, s, w.ID, now); got != 1 {
		t.Fatalf("used %d after one charged lookup, want 1", got)
	}
	// Negative credits would give credits back: refused, nothing stored.
	if got, _, err := record(lookup(w.ID, "", "neg", -1), now); err == nil {
		t.Fatalf("negative credits accepted: %+v", got)
	}
	if got := creditsUsed(t, s, w.ID, now); got != 1 {
		t.Fatalf("used %d after a refused lookup, want 1", got)
	}

	t.Run("ReplayWithinWindow", func(t *testing.T) {
		for _, at := range []time.Time{now, now.Add(prospector.IdempotencyWindow - time.Minute)} {
			again, replayed, err := record(lookup(w.ID, "k1", "h1", 1), at)
			if err != nil || !replayed || !sameLookup(again, first) {
				t.Fatalf("retry at %v: %+v replayed=%v err=%v; want the first lookup %+v", at, again, replayed, err, first)
			}
		}
		if got := creditsUsed(t, s, w.ID, now); got != 1 {
			t.Fatalf("used %d after replays, want 1", got)
		}
	})
	t.Run("ByKey", func(t *testing.T) {
		got, err := s.EmailLookupByKey(ctx, w.ID, "k1")
		if err != nil || !sameLookup(got, first) || !got.KeyHeldAt(now) || got.KeyHeldAt(now.Add(prospector.IdempotencyWindow)) {
			t.Fatalf("by key: %+v, %v; want the first lookup, held for the window", got, err)
		}
		if _, err := s.EmailLookupByKey(ctx, w.ID, "k2"); !errors.Is(err, prospector.ErrNotFound) {
			t.Fatalf("unused key: %v", err)
		}
		if _, err := s.EmailLookupByKey(ctx, "ws_other", "k1"); !errors.Is(err, prospector.ErrNotFound) {
			t.Fatalf("another workspace's key: %v", err)
		}
	})
	t.Run("Mismatch", func(t *testing.T) {
		if _, _, err := record(lookup(w.ID, "k1", "other", 1), now); !errors.Is(err, prospector.ErrIdempotencyMismatch) {
			t.Fatalf("same key, other body: err = %v, want ErrIdempotencyMismatch", err)
		}
		if got := creditsUsed(t, s, w.ID, now); got != 1 {
			t.Fatalf("used %d after a refused lookup, want 1", got)
		}
	})
	t.Run("ZeroCredits", func(t *testing.T) {
		for _, key := range []string{"", "", "miss"} {
			l, replayed, err := record(lookup(w.ID, key, "nothing", 0), now)
			if err != nil || replayed || l.ID == "" || l.Credits != 0 || l.Email != "" {
				t.Fatalf("free lookup %q: %+v replayed=%v err=%v", key, l, replayed, err)
			}
		}
		if got := creditsUsed(t, s, w.ID, now); got != 1 {
			t.Fatalf("used %d after free lookups, want 1", got)
		}
	})
	t.Run("Insufficient", func(t *testing.T) {
		for i := range 2 {
			if _, _, err := record(lookup(w.ID, "", fmt.Sprint(i), 1), now); err != nil {
				t.Fatal(err)
			}
		}
		// 3 of 3 used: the next charge is refused and nothing is kept of it,
		// so its key is still free for a request that costs nothing.
		if l, _, err := record(lookup(w.ID, "broke", "h", 1), now); !errors.Is(err, prospector.ErrInsufficientCredits) {
			t.Fatalf("over the limit: %+v, %v; want ErrInsufficientCredits", l, err)
		}
		if got := creditsUsed(t, s, w.ID, now); got != 3 {
			t.Fatalf("used %d, want 3", got)
		}
		if _, replayed, err := record(lookup(w.ID, "broke", "other", 0), now); err != nil || replayed {
			t.Fatalf("key of a refused lookup was kept: replayed=%v err=%v", replayed, err)
		}
	})
	t.Run("NewPeriod", func(t *testing.T) {
		// 3 of 3 used in this period; a lookup after its end rolls the
		// period over and is charged to the new one.
		u, err := s.CreditUsage(ctx, w.ID, now)
		if err != nil {
			t.Fatal(err)
		}
		next := u.PeriodEnd.Add(time.Minute)
		if _, _, err := record(lookup(w.ID, "", "next", 1), next); err != nil {
			t.Fatalf("first lookup of the next period: %v", err)
		}
		if got := creditsUsed(t, s, w.ID, next); got != 1 {
			t.Fatalf("used %d in the new period, want 1", got)
		}
	})
	t.Run("ExpiredKey", func(t *testing.T) {
		x := &prospector.Workspace{Name: "expiry", Plan: prospector.PlanDefault}
		if err := s.CreateWorkspace(ctx, x); err != nil {
			t.Fatal(err)
		}
		old, _, err := record(lookup(x.ID, "k", "h", 1), now.Add(-prospector.IdempotencyWindow-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		// A day later the key is new again, whatever the body.
		fresh, replayed, err := record(lookup(x.ID, "k", "h2", 1), now)
		if err != nil || replayed || fresh.ID == old.ID {
			t.Fatalf("expired key: %+v replayed=%v err=%v", fresh, replayed, err)
		}
		again, replayed, err := record(lookup(x.ID, "k", "h2", 1), now)
		if err != nil || !replayed || again.ID != fresh.ID {
			t.Fatalf("reused key after expiry does not replay the new lookup: %+v replayed=%v err=%v", again, replayed, err)
		}
		if got := creditsUsed(t, s, x.ID, now); got != 2 {
			t.Fatalf("used %d, want 2 (charged again after expiry)", got)
		}
	})
	t.Run("KeyPerWorkspace", func(t *testing.T) {
		o := &prospector.Workspace{Name: "other", Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: ptr(5)}}
		if err := s.CreateWorkspace(ctx, o); err != nil {
			t.Fatal(err)
		}
		l, replayed, err := record(lookup(o.ID, "k1", "different", 1), now)
		if err != nil || replayed || l.ID == first.ID || l.WorkspaceID != o.ID {
			t.Fatalf("key of another workspace: %+v replayed=%v err=%v", l, replayed, err)
		}
		if got := creditsUsed(t, s, o.ID, now); got != 1 {
			t.Fatalf("other workspace used %d, want 1", got)
		}
	})
	t.Run("UnlimitedAndBypassed", func(t *testing.T) {
		unl := &prospector.Workspace{Name: "unlimited", Plan: prospector.PlanGrowth}
		byp := &prospector.Workspace{Name: "bypassed", Plan: prospector.PlanDefault,
			Credits: prospector.Limit{Limit: new(int64), Bypassed: true}}
		for _, x := range []*prospector.Workspace{unl, byp} {
			if err := s.CreateWorkspace(ctx, x); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if _, _, err := record(lookup(x.ID, fmt.Sprint("k", i), "h", 2), now); err != nil {
					t.Fatalf("%s blocked: %v", x.Name, err)
				}
			}
			if got := creditsUsed(t, s, x.ID, now); got != 6 {
				t.Fatalf("%s used %d, want 6", x.Name, got)
			}
		}
	})
	t.Run("UnknownWorkspace", func(t *testing.T) {
		if _, _, err := record(lookup("ws_missing", "k", "h", 1), now); !errors.Is(err, prospector.ErrNotFound) {
			t.Fatalf("unknown workspace: %v", err)
		}
	})
}

func testEmailLookupConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	// 50 lookups on 10 credits, with distinct keys and then with none.
	for _, keyed := range []bool{true, false} {
		w := &prospector.Workspace{Name: fmt.Sprint("race-", keyed), Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: ptr(10)}}
		if err := s.CreateWorkspace(ctx, w); err != nil {
			t.Fatal(err)
		}
		var ok, short atomic.Int64
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				key := ""
				if keyed {
					key = fmt.Sprint("key-", i)
				}
				_, replayed, err := s.RecordEmailLookup(ctx, lookup(w.ID, key, "h", 1), time.Now())
				switch {
				case err == nil && !replayed:
					ok.Add(1)
				case errors.Is(err, prospector.ErrInsufficientCredits):
					short.Add(1)
				default:
					t.Errorf("lookup %d: replayed=%v err=%v", i, replayed, err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 10 || short.Load() != 40 {
			t.Fatalf("keyed=%v: 50 lookups on 10 credits: %d stored, %d refused; want 10 and 40", keyed, ok.Load(), short.Load())
		}
		if got := creditsUsed(t, s, w.ID, time.Now()); got != 10 {
			t.Fatalf("keyed=%v: used %d, want 10", keyed, got)
		}
	}

	// 20 lookups with one key: one stored and charged, the rest replay it.
	w := &prospector.Workspace{Name: "race-same", Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: ptr(10)}}
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	got := make([]*prospector.EmailLookup, 20)
	replays := make([]bool, 20)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			got[i], replays[i], err = s.RecordEmailLookup(ctx, lookup(w.ID, "same", "h", 1), time.Now())
			if err != nil {
				t.Errorf("lookup %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	var fresh int
	for i, l := range got {
		if !replays[i] {
			fresh++
		}
		if !sameLookup(l, got[0]) {
			t.Fatalf("lookup %d got %+v, lookup 0 got %+v: want one lookup for every caller", i, l, got[0])
		}
	}
	if fresh != 1 {
		t.Fatalf("20 lookups with one key: %d not replayed, want 1", fresh)
	}
	if used := creditsUsed(t, s, w.ID, time.Now()); used != 1 {
		t.Fatalf("used %d, want 1", used)
	}
}
