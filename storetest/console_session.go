package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func runConsoleSession(t *testing.T, open Opener) {
	t.Run("ConsoleSession", func(t *testing.T) { testConsoleSession(t, open(t)) })
}

// A console session reads back as made; sign-out sticks at its first
// time and is seen by the next read; an unknown key is refused; a pass
// of retention deletes sessions past their expiry only.
func testConsoleSession(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "sessions", prospector.PlanGrowth)
	k, _ := prospector.NewAPIKey(w.ID, prospector.PlanGrowth, nil)
	if err := s.CreateAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	mk := func(id string, expires time.Time) *prospector.ConsoleSession {
		cs := &prospector.ConsoleSession{IDHash: prospector.HashKey(id), KeyID: k.ID, KeyHash: k.Hash,
			WorkspaceID: w.ID, ExpiresAt: expires}
		if err := s.CreateConsoleSession(ctx, cs); err != nil {
			t.Fatalf("create session %s: %v", id, err)
		}
		return cs
	}
	live := mk("live", now.Add(12*time.Hour))
	expired := mk("expired", now.Add(-time.Minute))
	got, err := s.ConsoleSession(ctx, live.IDHash)
	if err != nil {
		t.Fatal(err)
	}
	if got.KeyID != k.ID || got.KeyHash != k.Hash || got.WorkspaceID != w.ID || !got.ExpiresAt.Equal(live.ExpiresAt) ||
		got.CreatedAt.IsZero() || got.SignedOutAt != nil || !got.Live(now) {
		t.Fatalf("read back %+v, want %+v live", got, live)
	}
	if _, err := s.ConsoleSession(ctx, prospector.HashKey("never made")); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown session: %v, want ErrNotFound", err)
	}
	if err := s.CreateConsoleSession(ctx, &prospector.ConsoleSession{IDHash: prospector.HashKey("x"), KeyID: "key_missing",
		KeyHash: "h", WorkspaceID: w.ID, ExpiresAt: now.Add(time.Hour)}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("session of an unknown key: %v, want ErrNotFound", err)
	}
	if err := s.CreateConsoleSession(ctx, &prospector.ConsoleSession{IDHash: live.IDHash, KeyID: k.ID, KeyHash: k.Hash,
		WorkspaceID: w.ID, ExpiresAt: now.Add(time.Hour)}); err == nil {
		t.Fatal("a second session with the same id hash was stored")
	}

	out := now.Add(time.Minute)
	for _, at := range []time.Time{out, out.Add(time.Hour)} { // twice: the first time stays
		if err := s.SignOutConsoleSession(ctx, live.IDHash, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SignOutConsoleSession(ctx, prospector.HashKey("never made"), out); err != nil {
		t.Fatalf("signing out an unknown session: %v", err)
	}
	got, err = s.ConsoleSession(ctx, live.IDHash)
	if err != nil || got.SignedOutAt == nil || !got.SignedOutAt.Equal(out) || got.Live(now) {
		t.Fatalf("after sign-out: %+v, %v; want signed out at %v", got, err, out)
	}

	p, err := s.PurgeExpired(ctx, prospector.Retention{}, now, 100)
	if err != nil || p != (prospector.Purged{ConsoleSessions: 1}) {
		t.Fatalf("purge: %+v, %v; want the one expired session", p, err)
	}
	if _, err := s.ConsoleSession(ctx, expired.IDHash); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("expired session after purge: %v, want ErrNotFound", err)
	}
	if _, err := s.ConsoleSession(ctx, live.IDHash); err != nil {
		t.Fatalf("a session not yet expired was purged: %v", err)
	}
}
