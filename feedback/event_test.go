package feedback

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// An event is validated, and hashed by its meaning, without HTTP.
func TestNewFeedbackEvent(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s := &Service{Now: func() time.Time { return now }}
	ws := &prospector.Workspace{ID: "ws_1"}
	for _, c := range []struct {
		body, want string
	}{
		{`{}`, "lead_id: required"},
		{`{"lead_id":"x"}`, `lead_id: "x" is not a lead id (ld_ and 36 lowercase letters or digits 2-7)`},
		{`{"lead_id":"` + prospector.NewLeadID() + `","event_type":"wave"}`, `event_type: unsupported "wave"`},
		{`{"lead_id":"` + prospector.NewLeadID() + `","event_type":"reply","occurred_at":"2026-12-01T00:00:00Z"}`,
			"occurred_at: 2026-12-01T00:00:00Z is more than 5 minutes in the future"},
		{`{"lead_id":"` + prospector.NewLeadID() + `","event_type":"reply","metadata":[1]}`, "metadata: must be an object"},
	} {
		var req EventRequest
		if err := json.Unmarshal([]byte(c.body), &req); err != nil {
			t.Fatal(err)
		}
		_, _, err := s.Record(context.Background(), ws, "", &req)
		if msg := prospector.ErrorMessage(err); prospector.ErrorCode(err) != prospector.EINVALID || len(msg) < len(c.want) ||
			msg[:len(c.want)] != c.want {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	id := prospector.NewLeadID()
	hash := func(body string) string {
		var req EventRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		ev, err := newFeedbackEvent(&req, now)
		if err != nil {
			t.Fatal(err)
		}
		return ev.RequestHash
	}
	a := hash(`{"lead_id":"` + id + `","event_type":"reply","metadata":{"a":1,"b":2}}`)
	b := hash(`{ "metadata": {"b":2, "a":1}, "event_type":"reply", "source":"custom", "lead_id":"` + id + `" }`)
	if a != b || a == hash(`{"lead_id":"`+id+`","event_type":"reply","metadata":{"a":1}}`) {
		t.Fatal("the request hash follows spacing, order or an explicit default, or misses a value")
	}
}
