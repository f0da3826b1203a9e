package sqlite

import (
	"testing"
	"time"
)

// parseTime's hand-written path must read back exactly what formatTime
// wrote, as time.Parse does.
func TestParseTimeMatchesTimeParse(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 11, 24, 23, 53, 43, 647047433, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), // a day past the 28th: time.Parse's path
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 1, 1, 12, 30, 0, 1, time.FixedZone("x", 3600)),
	} {
		s := formatTime(tm)
		want, err := time.Parse(timeLayout, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := parseTime(s); got != want || !got.Equal(tm) {
			t.Errorf("parseTime(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", "2026-13-01T00:00:00.000000000Z", "2026-02-30T00:00:00.000000000Z", "2026-1x-01T00:00:00.000000000Z"} {
		want, _ := time.Parse(timeLayout, s)
		if got := parseTime(s); got != want {
			t.Errorf("parseTime(%q) = %v, want %v", s, got, want)
		}
	}
}
