package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/postgres"
)

// TestChargeBatchRefusedKeepsTheOthers: a lookup the server refuses (a NUL
// byte in its address) is sent among plain charges. Whether or not it
// shares their batch, every other lookup is charged and stored exactly
// once, and the refused one is neither charged nor stored.
func TestChargeBatchRefusedKeepsTheOthers(t *testing.T) {
	ctx := context.Background()
	db := openURL(t, freshSchema(t))
	w := &prospector.Workspace{Name: "batch", Plan: prospector.PlanGrowth}
	if err := db.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 41 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := &prospector.EmailLookup{WorkspaceID: w.ID, RequestHash: fmt.Sprint("h", i), Email: "ada@acme.example",
				Confidence: 0.5, Credits: 1}
			if i == 20 {
				l.Email = "bad\x00@acme.example"
			}
			_, _, err := db.RecordEmailLookup(ctx, l, time.Now())
			switch {
			case err == nil && i != 20:
				ok.Add(1)
			case err != nil && i == 20:
				refused.Add(1)
			default:
				t.Errorf("lookup %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 40 || refused.Load() != 1 {
		t.Fatalf("%d stored, %d refused; want 40 and 1", ok.Load(), refused.Load())
	}
	if used, rows := chargedAndStored(t, db, w.ID); used != 40 || rows != 40 {
		t.Fatalf("credits used %d, lookups stored %d; want 40 and 40", used, rows)
	}
}

// TestChargeBatchWorkspaces: lookups of several workspaces arrive
// together, so batches mostly mix them (how they group depends on
// timing). A workspace short of credits gets exactly its credits, on
// whichever path each charge takes; the others are charged for every
// lookup.
func TestChargeBatchWorkspaces(t *testing.T) {
	ctx := context.Background()
	db := openURL(t, freshSchema(t))
	limits := []*int64{nil, ptr(7), ptr(1000)}
	var ws []*prospector.Workspace
	for i, l := range limits {
		w := &prospector.Workspace{Name: fmt.Sprint("ws", i), Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: l}}
		if err := db.CreateWorkspace(ctx, w); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	const each = 30
	stored := make([]atomic.Int64, len(ws))
	var wg sync.WaitGroup
	for i := range each * len(ws) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := i % len(ws)
			l := &prospector.EmailLookup{WorkspaceID: ws[k].ID, RequestHash: fmt.Sprint("h", i), Email: "ada@acme.example",
				Confidence: 0.5, Credits: 1}
			_, _, err := db.RecordEmailLookup(ctx, l, time.Now())
			switch {
			case err == nil:
				stored[k].Add(1)
			case !errors.Is(err, prospector.ErrInsufficientCredits):
				t.Errorf("lookup %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	for k, w := range ws {
		want := int64(each)
		if limits[k] != nil && *limits[k] < want {
			want = *limits[k]
		}
		if used, rows := chargedAndStored(t, db, w.ID); stored[k].Load() != want || used != want || rows != want {
			t.Errorf("workspace %d: %d answered, %d credits used, %d lookups stored; want %d of each",
				k, stored[k].Load(), used, rows, want)
		}
	}
}

func ptr(n int64) *int64 { return &n }

// chargedAndStored returns a workspace's credits used this period and the
// email lookups stored for it.
func chargedAndStored(t *testing.T, db *postgres.DB, workspaceID string) (used, rows int64) {
	t.Helper()
	ctx := context.Background()
	u, err := db.CreditUsage(ctx, workspaceID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM email_lookups WHERE workspace_id = $1`, workspaceID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	return u.CreditsUsed, rows
}
