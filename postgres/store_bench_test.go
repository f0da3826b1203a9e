package postgres_test

import (
	"testing"

	"github.com/prospectorhq/prospector/storetest"
)

// TEST_DATABASE_URL=postgres://... go test -run '^$' -bench 'LeadBatches|FeedbackEvents' ./postgres/
func BenchmarkLeadBatches(b *testing.B) { storetest.BenchLeadBatches(b, openURL(b, freshSchema(b))) }
func BenchmarkFeedbackEvents(b *testing.B) {
	storetest.BenchFeedbackEvents(b, openURL(b, freshSchema(b)))
}
