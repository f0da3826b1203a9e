package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// BenchmarkBatchedCharges measures plain enrich/email charges through the
// batcher, 32 callers at once over 4 workspaces, as a busy node makes
// them.
func BenchmarkBatchedCharges(b *testing.B) {
	ctx := context.Background()
	db := openURL(b, freshSchema(b))
	var ws []*prospector.Workspace
	for i := range 4 {
		w := &prospector.Workspace{Name: fmt.Sprint("bench", i), Plan: prospector.PlanGrowth}
		w.Credits.Limit = nil // unlimited: the benchmark must not run out
		if err := db.CreateWorkspace(ctx, w); err != nil {
			b.Fatal(err)
		}
		ws = append(ws, w)
	}
	var n atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			l := &prospector.EmailLookup{WorkspaceID: ws[i%4].ID, RequestHash: fmt.Sprint("h", i),
				Email: "ada@acme.example", Confidence: 0.5, Credits: 1}
			if _, _, err := db.RecordEmailLookup(ctx, l, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
