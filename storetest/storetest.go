// Package storetest is the conformance suite every prospector.Store
// engine must pass.
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

// Opener returns a fresh, empty, migrated store, closed by the test's cleanup.
type Opener func(t *testing.T) prospector.Store

// Run runs the whole suite against stores made by open.
func Run(t *testing.T, open Opener) {
	t.Run("Workspace", func(t *testing.T) { testWorkspace(t, open(t)) })
	t.Run("APIKey", func(t *testing.T) { testAPIKey(t, open(t)) })
	t.Run("Credits", func(t *testing.T) { testCredits(t, open(t)) })
	t.Run("CreditsConcurrent", func(t *testing.T) { testCreditsConcurrent(t, open(t)) })
	t.Run("Quota", func(t *testing.T) { testQuota(t, open(t)) })
	t.Run("Setting", func(t *testing.T) { testSetting(t, open(t)) })
	runWorkspaceAdmin(t, open)
	runData(t, open)
	runSignal(t, open)
	runSources(t, open)
	runSEC(t, open)
	runEmail(t, open)
	runJob(t, open)
	runRadar(t, open)
	runIntegration(t, open)
	runFeedback(t, open)
	runLeadCampaign(t, open)
	runText(t, open)
	runPrivacy(t, open)
	runConsoleSession(t, open)
}

// NewWorkspace creates a workspace on plan with the plan's default limits.
func NewWorkspace(t *testing.T, s prospector.Store, name, plan string) *prospector.Workspace {
	t.Helper()
	w := prospector.NewWorkspace(name, plan)
	w.Email = name + "@example.test"
	if err := s.CreateWorkspace(context.Background(), w); err != nil {
		t.Fatalf("create workspace %s: %v", name, err)
	}
	return w
}

func testWorkspace(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	if n, err := s.CountWorkspaces(ctx); err != nil || n != 0 {
		t.Fatalf("empty store: count = %d, %v", n, err)
	}
	w := NewWorkspace(t, s, "acme", prospector.PlanStarter)
	if w.ID == "" || w.OwnerUserID == "" || w.CreatedAt.IsZero() {
		t.Fatalf("create did not fill id, owner and created_at: %+v", w)
	}
	if !w.PeriodEnd.After(w.PeriodStart) {
		t.Fatalf("billing period %v..%v is empty", w.PeriodStart, w.PeriodEnd)
	}
	got, err := s.WorkspaceByName(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != w.ID || got.Plan != prospector.PlanStarter || !got.PublicAPI || got.Email != "acme@example.test" ||
		got.Credits.Limit == nil || *got.Credits.Limit != 1000 || got.Radars.Limit == nil || *got.Radars.Limit != 5 {
		t.Fatalf("read back %+v, want what was created %+v", got, w)
	}
	if !got.CreatedAt.Equal(w.CreatedAt) {
		t.Errorf("created_at %v, want %v", got.CreatedAt, w.CreatedAt)
	}
	byID, err := s.WorkspaceByID(ctx, w.ID)
	if err != nil || byID.Name != "acme" {
		t.Fatalf("by id: %+v, %v", byID, err)
	}
	dup := &prospector.Workspace{Name: "acme", Plan: prospector.PlanDefault}
	if err := s.CreateWorkspace(ctx, dup); !errors.Is(err, prospector.ErrAlreadyExists) {
		t.Fatalf("duplicate name: err = %v, want ErrAlreadyExists", err)
	}
	if _, err := s.WorkspaceByName(ctx, "nope"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown name: err = %v, want ErrNotFound", err)
	}
	if _, err := s.WorkspaceByID(ctx, "ws_nope"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown id: err = %v, want ErrNotFound", err)
	}
	bad := &prospector.Workspace{Name: "Bad Name!", Plan: prospector.PlanDefault}
	if err := s.CreateWorkspace(ctx, bad); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("invalid name: err = %v, want validation error", err)
	}
	off := &prospector.Workspace{Name: "quiet", Plan: prospector.PlanDefault, PublicAPI: false}
	if err := s.CreateWorkspace(ctx, off); err != nil {
		t.Fatal(err)
	}
	if got, err := s.WorkspaceByName(ctx, "quiet"); err != nil {
		t.Fatal(err)
	} else if got.PublicAPI || got.Credits.Limit != nil {
		t.Fatalf("public_api false and unlimited credits not kept: %+v", got)
	}
	if n, err := s.CountWorkspaces(ctx); err != nil || n != 2 {
		t.Fatalf("count = %d, %v; want 2", n, err)
	}
}

func testAPIKey(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "keys", prospector.PlanGrowth)
	exp := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
	k, secret := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, &exp)
	if err := s.CreateAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	p, err := s.PrincipalByKeyHash(ctx, prospector.HashKey(secret))
	if err != nil {
		t.Fatal(err)
	}
	if p.Key.ID != k.ID || p.Key.Tier != prospector.PlanGrowth || p.Workspace.ID != w.ID || p.Workspace.Name != "keys" {
		t.Fatalf("principal %+v does not match key %+v in %s", p, k, w.ID)
	}
	if p.Key.ExpiresAt == nil || !p.Key.ExpiresAt.Equal(exp) || p.Key.RevokedAt != nil {
		t.Fatalf("expiry %v revoked %v, want %v and nil", p.Key.ExpiresAt, p.Key.RevokedAt, exp)
	}
	if p.Key.Hash == secret || p.Key.Prefix != secret[:12] {
		t.Fatalf("stored hash/prefix wrong: %+v", p.Key)
	}
	if _, err := s.PrincipalByKeyHash(ctx, prospector.HashKey("psk_unknown")); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown key: err = %v", err)
	}
	time.Sleep(2 * time.Millisecond) // distinct created_at, so "newest first" is decided
	k2, _ := prospector.NewAPIKey(w.ID, prospector.PlanDefault, nil)
	if err := s.CreateAPIKey(ctx, k2); err != nil {
		t.Fatal(err)
	}
	orphan, _ := prospector.NewAPIKey("ws_missing", prospector.PlanDefault, nil)
	if err := s.CreateAPIKey(ctx, orphan); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("key for missing workspace: err = %v, want ErrNotFound", err)
	}
	keys, err := s.ListAPIKeys(ctx, w.ID)
	if err != nil || len(keys) != 2 {
		t.Fatalf("list: %d keys, %v", len(keys), err)
	}
	if keys[0].ID != k2.ID {
		t.Errorf("list not newest first: %s, %s", keys[0].ID, keys[1].ID)
	}
	revokedAt := time.Now().UTC()
	if err := s.RevokeAPIKey(ctx, k.ID, revokedAt); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeAPIKey(ctx, k.ID, revokedAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	p, err = s.PrincipalByKeyHash(ctx, prospector.HashKey(secret))
	if err != nil {
		t.Fatal(err)
	}
	if p.Key.RevokedAt == nil || p.Key.RevokedAt.Sub(revokedAt).Abs() > time.Millisecond || p.Key.Active(time.Now()) {
		t.Fatalf("revocation not kept (or second revoke moved it): %v", p.Key.RevokedAt)
	}
	if err := s.RevokeAPIKey(ctx, "key_missing", time.Now()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("revoke unknown: err = %v", err)
	}
}

func testCredits(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "credits", prospector.PlanDefault) // 100 credits
	now := time.Now()
	u, err := s.CreditUsage(ctx, w.ID, now)
	if err != nil {
		t.Fatal(err)
	}
	if u.CreditsUsed != 0 || *u.Remaining() != 100 || u.Radars.Used != 0 || *u.Radars.Limit.Limit != 1 {
		t.Fatalf("fresh usage %+v", u)
	}
	charge := func(amount int64, key string) (bool, error) {
		return s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: amount, Reason: "test", IdempotencyKey: key}, now)
	}
	if _, err := charge(60, ""); err != nil {
		t.Fatal(err)
	}
	// A negative amount would give credits back: refused, and the usage
	// checked below shows nothing was spent.
	if _, err := charge(-10, ""); err == nil {
		t.Fatal("negative charge accepted")
	}
	if _, err := charge(41, ""); !errors.Is(err, prospector.ErrInsufficientCredits) {
		t.Fatalf("overdraw: err = %v", err)
	}
	if _, err := charge(40, "idem-1"); err != nil {
		t.Fatal(err)
	}
	replayed, err := charge(40, "idem-1")
	if err != nil || !replayed {
		t.Fatalf("retry with same key: replayed=%v err=%v", replayed, err)
	}
	u, err = s.CreditUsage(ctx, w.ID, now)
	if err != nil {
		t.Fatal(err)
	}
	if u.CreditsUsed != 100 || *u.Remaining() != 0 {
		t.Fatalf("after charges used=%d remaining=%d, want 100 and 0", u.CreditsUsed, *u.Remaining())
	}
	// A month later the period rolls over and usage starts again: the
	// first charge of the new period rolls it itself, the spent credits of
	// the old one do not hold it back.
	later := u.PeriodEnd.Add(time.Second)
	if _, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 5, Reason: "test"}, later); err != nil {
		t.Fatalf("first charge of a new period: %v", err)
	}
	u, err = s.CreditUsage(ctx, w.ID, later)
	if err != nil {
		t.Fatal(err)
	}
	if u.CreditsUsed != 5 || !u.PeriodStart.Equal(w.PeriodEnd) || !later.Before(u.PeriodEnd) {
		t.Fatalf("rollover: used=%d period %v..%v", u.CreditsUsed, u.PeriodStart, u.PeriodEnd)
	}
	if _, err := s.CreditUsage(ctx, "ws_missing", now); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("usage of unknown workspace: %v", err)
	}
	if _, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: "ws_missing", Amount: 1, Reason: "x"}, now); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("charge unknown workspace: %v", err)
	}

	unl := &prospector.Workspace{Name: "unlimited", Plan: prospector.PlanGrowth}
	if err := s.CreateWorkspace(ctx, unl); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: unl.ID, Amount: 1000000, Reason: "big"}, now); err != nil {
			t.Fatalf("unlimited workspace blocked: %v", err)
		}
	}
	if u, err := s.CreditUsage(ctx, unl.ID, now); err != nil {
		t.Fatal(err)
	} else if u.Remaining() != nil || u.CreditsUsed != 3000000 {
		t.Fatalf("unlimited usage %+v", u)
	}
	byp := &prospector.Workspace{Name: "bypassed", Plan: prospector.PlanDefault,
		Credits: prospector.Limit{Limit: new(int64), Bypassed: true}}
	if err := s.CreateWorkspace(ctx, byp); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: byp.ID, Amount: 5, Reason: "x"}, now); err != nil {
		t.Fatalf("bypassed workspace blocked: %v", err)
	}
}

func testCreditsConcurrent(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := &prospector.Workspace{Name: "race", Plan: prospector.PlanDefault, Credits: prospector.Limit{Limit: ptr(10)}}
	if err := s.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	var ok, short atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 1, Reason: "race"}, time.Now())
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, prospector.ErrInsufficientCredits):
				short.Add(1)
			default:
				t.Errorf("charge: %v", err)
			}
		}()
	}
	// The same idempotency key from many goroutines is charged once.
	var replays atomic.Int64
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replayed, err := s.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 0, Reason: "idem", IdempotencyKey: "same"}, time.Now())
			if err != nil {
				t.Errorf("idempotent charge: %v", err)
			}
			if replayed {
				replays.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 10 || short.Load() != 40 {
		t.Fatalf("50 charges on 10 credits: %d succeeded, %d refused; want 10 and 40", ok.Load(), short.Load())
	}
	if replays.Load() != 9 {
		t.Fatalf("10 charges with one idempotency key: %d replayed, want 9", replays.Load())
	}
	u, err := s.CreditUsage(ctx, w.ID, time.Now())
	if err != nil || u.CreditsUsed != 10 {
		t.Fatalf("used = %d (%v), want 10", u.CreditsUsed, err)
	}
}

func testQuota(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "quota", prospector.PlanDefault) // 1 radar, 1 account
	if err := s.AcquireQuota(ctx, w.ID, prospector.QuotaRadars); err != nil {
		t.Fatal(err)
	}
	if err := s.AcquireQuota(ctx, w.ID, prospector.QuotaRadars); !errors.Is(err, prospector.ErrQuotaExceeded) {
		t.Fatalf("second radar on a 1-radar plan: %v", err)
	}
	if err := s.AcquireQuota(ctx, w.ID, prospector.QuotaNetworkAccounts); err != nil {
		t.Fatal(err)
	}
	u, err := s.CreditUsage(ctx, w.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if u.Radars.Used != 1 || u.NetworkAccounts.Used != 1 {
		t.Fatalf("usage radars=%d accounts=%d, want 1 and 1", u.Radars.Used, u.NetworkAccounts.Used)
	}
	for i := 0; i < 3; i++ {
		if err := s.ReleaseQuota(ctx, w.ID, prospector.QuotaRadars); err != nil {
			t.Fatal(err)
		}
	}
	if u, err := s.CreditUsage(ctx, w.ID, time.Now()); err != nil {
		t.Fatal(err)
	} else if u.Radars.Used != 0 {
		t.Fatalf("release went to %d, want 0", u.Radars.Used)
	}
	if err := s.AcquireQuota(ctx, "ws_missing", prospector.QuotaRadars); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown workspace: %v", err)
	}
	if err := s.AcquireQuota(ctx, w.ID, prospector.Quota("bogus")); err == nil {
		t.Fatal("unknown quota accepted")
	}
}

func ptr(n int64) *int64 { return &n }

func testSetting(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	v, err := s.Setting(ctx, "cursor_key", "first")
	if err != nil || v != "first" {
		t.Fatalf("create: %q %v", v, err)
	}
	if v, err := s.Setting(ctx, "cursor_key", "second"); err != nil || v != "first" {
		t.Fatalf("existing setting replaced: %q %v", v, err)
	}
	var wg sync.WaitGroup
	got, errs := make([]string, 8), make([]error, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = s.Setting(ctx, "raced", fmt.Sprint(i))
		}()
	}
	wg.Wait()
	for i, g := range got {
		if errs[i] != nil || g == "" || g != got[0] {
			t.Fatalf("concurrent first calls disagree: %v (errors %v)", got, errs)
		}
	}

	if _, err := s.LookupSetting(ctx, "policy"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("lookup of an unset setting: err = %v, want ErrNotFound", err)
	}
	for _, v := range []string{"true", "false"} {
		if err := s.SetSetting(ctx, "policy", v); err != nil {
			t.Fatal(err)
		}
		if got, err := s.LookupSetting(ctx, "policy"); err != nil || got != v {
			t.Fatalf("after setting %q: %q, %v", v, got, err)
		}
	}
	if v, err := s.Setting(ctx, "policy", "other"); err != nil || v != "false" {
		t.Fatalf("Setting of a set value: %q %v, want the value set", v, err)
	}
	if err := s.SetSetting(ctx, "cursor_key", "replaced"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.LookupSetting(ctx, "cursor_key"); err != nil {
		t.Fatal(err)
	} else if v != "replaced" {
		t.Fatalf("SetSetting did not replace: %q", v)
	}
}
