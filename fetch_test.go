package prospector

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestTargetBackoff(t *testing.T) {
	want := []time.Duration{0, 0, 0, time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 16 * time.Hour,
		24 * time.Hour, 24 * time.Hour}
	for n, w := range want {
		if got := TargetBackoff(n); got != w {
			t.Errorf("TargetBackoff(%d) = %s, want %s", n, got, w)
		}
	}
	for _, n := range []int{-1, 40, 70, 1 << 30} {
		if got := TargetBackoff(n); got < 0 || got > MaxTargetBackoff {
			t.Errorf("TargetBackoff(%d) = %s", n, got)
		}
	}
}

func TestRetryLaterError(t *testing.T) {
	until := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	err := fmt.Errorf("greenhouse board acme: %w", &RetryLaterError{Host: "boards-api.greenhouse.io", Status: 429, Until: until})
	var rl *RetryLaterError
	if !errors.As(err, &rl) || !rl.Until.Equal(until) {
		t.Fatalf("errors.As: %v", err)
	}
	if want := "greenhouse board acme: boards-api.greenhouse.io asked to retry after 2026-11-24T10:00:00Z (status 429)"; err.Error() != want {
		t.Fatalf("%q", err.Error())
	}
}
