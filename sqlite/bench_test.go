package sqlite_test

import (
	"context"
	"testing"

	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/storetest"
)

func openBench(b *testing.B) *sqlite.DB {
	b.Helper()
	db, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkLeadBatches(b *testing.B)    { storetest.BenchLeadBatches(b, openBench(b)) }
func BenchmarkFeedbackEvents(b *testing.B) { storetest.BenchFeedbackEvents(b, openBench(b)) }
