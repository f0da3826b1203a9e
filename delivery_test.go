package prospector

import (
	"strings"
	"testing"
	"time"
)

func TestDeliveryPrepare(t *testing.T) {
	now := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	d := &Delivery{}
	at, err := d.Prepare(now)
	if err != nil || !strings.HasPrefix(d.ID, "msg_") || string(d.Payload) != "{}" || !at.Equal(now) {
		t.Fatalf("defaults: %+v, first attempt %v, %v", d, at, err)
	}
	if !d.NextAttemptAt.IsZero() {
		t.Fatalf("Prepare set NextAttemptAt %v: only a stored delivery has one", d.NextAttemptAt)
	}
	later := now.Add(time.Hour)
	d = &Delivery{ID: "msg_kept", Payload: []byte(`{"a":1}`), NextAttemptAt: later}
	if at, err := d.Prepare(now); err != nil || d.ID != "msg_kept" || string(d.Payload) != `{"a":1}` || !at.Equal(later) {
		t.Fatalf("given values: %+v, first attempt %v, %v", d, at, err)
	}
	if _, err := (&Delivery{Payload: []byte("{")}).Prepare(now); ErrorCode(err) != EINVALID {
		t.Fatalf("payload that is not JSON: %v", err)
	}
	d.Status, d.Attempts, d.LastStatusCode, d.LastError, d.DeliveredAt = DeliveryDead, 3, 500, "boom", &now
	d.Queued(later, now)
	if d.Status != DeliveryPending || d.Attempts != 0 || !d.NextAttemptAt.Equal(later) || d.LastStatusCode != 0 ||
		d.LastError != "" || d.DeliveredAt != nil || !d.CreatedAt.Equal(now) || !d.UpdatedAt.Equal(now) {
		t.Fatalf("queued: %+v", d)
	}
}

func TestDeliveryPageLimit(t *testing.T) {
	for limit, want := range map[int]int{0: MaxDeliveryPage, -1: MaxDeliveryPage, 5: 5, MaxDeliveryPage: MaxDeliveryPage,
		MaxDeliveryPage + 1: MaxDeliveryPage} {
		if got := (DeliveryFilter{Limit: limit}).PageLimit(); got != want {
			t.Errorf("limit %d: %d, want %d", limit, got, want)
		}
	}
}
