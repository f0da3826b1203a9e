package privacy_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/privacy"
)

// backlog is a RetentionStore holding n expired rows of each kind.
type backlog struct {
	left  prospector.Purged
	calls int
	fail  error
}

func (b *backlog) PurgeExpired(_ context.Context, _ prospector.Retention, _ time.Time, limit int) (prospector.Purged, error) {
	b.calls++
	if b.fail != nil && b.calls == 2 {
		return prospector.Purged{EmailLookups: 1}, b.fail
	}
	take := func(n *int64) int64 {
		t := min(*n, int64(limit))
		*n -= t
		return t
	}
	return prospector.Purged{EmailLookups: take(&b.left.EmailLookups), FeedbackEvents: take(&b.left.FeedbackEvents),
		Deliveries: take(&b.left.Deliveries), ClosedOpenings: take(&b.left.ClosedOpenings),
		ConsoleSessions: take(&b.left.ConsoleSessions)}, nil
}

// A pass clears a backlog larger than a batch, whichever kind it is in,
// and stops at the first failure with what it deleted so far.
func TestRetainerPass(t *testing.T) {
	st := &backlog{left: prospector.Purged{EmailLookups: 25, Deliveries: 7}}
	r := &privacy.Retainer{Store: st, Batch: 10}
	got, err := r.Pass(context.Background())
	if err != nil || got != (prospector.Purged{EmailLookups: 25, Deliveries: 7}) || st.left.Total() != 0 {
		t.Fatalf("pass: %+v, %v; left %+v", got, err, st.left)
	}
	// Expired console sessions alone keep the pass going too.
	st = &backlog{left: prospector.Purged{ConsoleSessions: 35}}
	got, err = (&privacy.Retainer{Store: st, Batch: 10}).Pass(context.Background())
	if err != nil || got != (prospector.Purged{ConsoleSessions: 35}) || st.left.Total() != 0 {
		t.Fatalf("sessions pass: %+v, %v; left %+v", got, err, st.left)
	}
	boom := errors.New("database gone")
	st = &backlog{left: prospector.Purged{FeedbackEvents: 50}, fail: boom}
	got, err = (&privacy.Retainer{Store: st, Batch: 10}).Pass(context.Background())
	if !errors.Is(err, boom) || got.FeedbackEvents != 10 || got.EmailLookups != 1 {
		t.Fatalf("failing pass: %+v, %v", got, err)
	}
}
