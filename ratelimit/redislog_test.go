package ratelimit

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestRedisLogIsStructuredAndThrottled(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	l := NewRedisLog(slog.New(slog.NewJSONHandler(&out, nil)), func() time.Time { return now })
	ctx := context.Background()
	// An outage of 65 s: go-redis complains once a second.
	for range 65 {
		l.Printf(ctx, "redis: connection pool: failed to dial after %d attempts: %v", 1, "dial tcp 127.0.0.1:1: connect: connection refused")
		now = now.Add(time.Second)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines for 65 repeats over 65 s, want 3 (first, then one per 30 s):\n%s", len(lines), out.String())
	}
	for i, want := range []float64{0, 29, 29} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil {
			t.Fatalf("line %d is not JSON: %q", i, lines[i])
		}
		if m["level"] != "WARN" || m["msg"] != "redis client" || m["repeats_held_back"] != want ||
			!strings.HasPrefix(m["detail"].(string), "connection pool: failed to dial") {
			t.Errorf("line %d = %v, want a warning holding back %v repeats", i, m, want)
		}
	}
}
