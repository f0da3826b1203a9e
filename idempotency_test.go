package prospector

import (
	"errors"
	"testing"
	"time"
)

func TestReplayKey(t *testing.T) {
	used := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		hash    string
		now     time.Time
		replay  bool
		wantErr error
	}{
		{"same request at once", "h1", used, true, nil},
		{"same request just inside the window", "h1", used.Add(IdempotencyWindow - time.Nanosecond), true, nil},
		{"other request inside the window", "h2", used.Add(time.Hour), false, ErrIdempotencyMismatch},
		// At the window's end the key is free, whatever the request.
		{"same request at the window's end", "h1", used.Add(IdempotencyWindow), false, nil},
		{"other request after the window", "h2", used.Add(IdempotencyWindow + time.Hour), false, nil},
	} {
		replay, err := ReplayKey(used, "h1", c.hash, c.now)
		if replay != c.replay || !errors.Is(err, c.wantErr) {
			t.Errorf("%s: replay %v, err %v; want %v, %v", c.name, replay, err, c.replay, c.wantErr)
		}
	}
}
