package webhook

import (
	"testing"
	"time"
)

// The lists the package exports are copies: a caller changing one
// changes neither the outbox's schedule nor the shape of bodies.
func TestExportedListsAreCopies(t *testing.T) {
	RetrySchedule()[0] = 0
	LeadFields()[0] = "changed"
	EnvelopeFields()[0] = "changed"
	if RetrySchedule()[0] != time.Minute || retrySchedule[0] != time.Minute {
		t.Errorf("retry schedule changed through its copy: %v", retrySchedule)
	}
	if LeadFields()[0] != "id" || leadFields[0] != "id" || EnvelopeFields()[0] != "source" || envelopeFields[0] != "source" {
		t.Errorf("fields changed through their copies: %v %v", leadFields, envelopeFields)
	}
}
