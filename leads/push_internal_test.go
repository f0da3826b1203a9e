package leads

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
)

// TestPushFailedSend: how a send without an answer reads, the push
// deadline included (45 s is too long to wait for in a test).
func TestPushFailedSend(t *testing.T) {
	live := context.Background()
	expired, cancel := context.WithDeadline(live, time.Now().Add(-time.Second))
	defer cancel()
	for _, c := range []struct {
		name string
		sctx context.Context
		err  error
		sent int
		want string
	}{
		{"deadline", expired, &webhook.TimeoutError{Host: "tool.example", Timeout: 10 * time.Second}, 300,
			"stopped after 45s: the destination was too slow; 300 of 1000 leads were dispatched"},
		{"refused", live, &webhook.RefusedError{Label: "webhook target", Target: "10.0.0.1", Reason: "a private address"}, 0,
			"refused: webhook target 10.0.0.1 is a private address"},
		{"settings", live, prospector.Errorf(prospector.EINVALID, "template: unknown placeholder"), 0,
			"webhook settings: template: unknown placeholder"},
	} {
		out, err := failedSend(live, c.sctx, c.err, "webhook settings", c.sent, 1000)
		if err != nil || out.ok || out.code != 0 || out.sent != c.sent || out.response != c.want {
			t.Errorf("%s: %+v, %v; want response %q", c.name, out, err, c.want)
		}
	}
	// The caller went away: an error, not an answer.
	gone, stop := context.WithCancel(live)
	stop()
	if _, err := failedSend(gone, gone, errors.New("post to x: cancelled"), "webhook settings", 0, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("caller gone: %v", err)
	}
}
