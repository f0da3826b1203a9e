package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// Benchmarks of the engines' two longest write transactions, shared by
// both engines' bench tests so their figures compare:
//
//	go test -run '^$' -bench 'LeadBatches|FeedbackEvents' ./sqlite/ ./postgres/

const (
	benchSignals      = 64   // signals the matches draw from
	benchPeople       = 4000 // people the matches cycle through
	benchMatches      = 200  // matches per batch
	benchFeedbackLead = 500  // leads the feedback events spread over
)

// benchRadarData writes a company, benchSignals signals and a radar of a
// new workspace whose radar signals quota is limited (so batches take
// the quota path) but never runs out.
func benchRadarData(b *testing.B, s prospector.Store) (*prospector.Workspace, *prospector.Radar, []*prospector.Signal) {
	b.Helper()
	ctx := context.Background()
	w := prospector.NewWorkspace(fmt.Sprintf("bench-%d", time.Now().UnixNano()), prospector.PlanGrowth)
	limit := int64(1) << 40
	w.RadarSignals.Limit = &limit
	if err := s.CreateWorkspace(ctx, w); err != nil {
		b.Fatal(err)
	}
	co := &prospector.Company{Name: "Bench Co", Domain: fmt.Sprintf("bench-%d.example", time.Now().UnixNano())}
	if _, err := s.UpsertCompanies(ctx, []*prospector.Company{co}); err != nil {
		b.Fatal(err)
	}
	var sigs []*prospector.Signal
	for i := range benchSignals {
		sigs = append(sigs, &prospector.Signal{ExternalID: fmt.Sprintf("%s-s%d", co.Domain, i), Type: "company_hiring",
			CompanyID: &co.ID, CompanyDomain: co.Domain, Title: "Hiring", DetectedAt: time.Now().Add(-time.Duration(i) * time.Hour).UTC()})
	}
	if _, err := s.UpsertSignals(ctx, sigs); err != nil {
		b.Fatal(err)
	}
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "bench",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Types: []string{"company_hiring"},
			SignalsToTrack: []string{"hiring"}, CompanySizeMin: 1, CompanySizeMax: 10000}}
	if err := s.CreateRadar(ctx, r); err != nil {
		b.Fatal(err)
	}
	return w, r, sigs
}

// benchBatch is the i-th batch: benchMatches people, new ones until the
// people have all been matched once, then known ones, each with two
// signals, some of them already attached by then.
func benchBatch(w *prospector.Workspace, r *prospector.Radar, sigs []*prospector.Signal, i int) *prospector.LeadBatch {
	b := &prospector.LeadBatch{Now: time.Now(), Cursors: []prospector.RadarCursor{{RadarID: r.ID, From: r.Cursor + int64(i),
		To: r.Cursor + int64(i) + 1}}}
	for j := range benchMatches {
		n := (i*benchMatches + j) % benchPeople
		m := prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: prospector.Lead{PersonID: int64(n + 1),
			FullName: fmt.Sprintf("Bench Person%d", n), FirstName: "Bench", LastName: fmt.Sprint("Person", n),
			Title: "VP Sales", Company: "Bench Co", City: "Austin", CountryCode: "US"}}
		for k := range 2 {
			sg := sigs[(i+j+k)%len(sigs)]
			m.Signals = append(m.Signals, prospector.SignalMatch{SignalID: sg.ID, DetectedAt: sg.DetectedAt,
				Score: prospector.ScoreBreakdown{Total: float64((i + j + k) % 100), Type: sg.Type, SignalID: sg.ID}})
		}
		b.Matches = append(b.Matches, m)
	}
	return b
}

// BenchLeadBatches measures ApplyLeadBatch, one batch of benchMatches
// matches per op, and reports matches/s.
func BenchLeadBatches(b *testing.B, s prospector.Store) {
	w, r, sigs := benchRadarData(b, s)
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := s.ApplyLeadBatch(ctx, benchBatch(w, r, sigs, i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchMatches)/time.Since(start).Seconds(), "matches/s")
}

// BenchFeedbackEvents measures RecordFeedbackEvent from 4 callers per CPU
// over benchFeedbackLead leads, every event type in turn, one in four
// carrying an idempotency key, and reports events/s.
func BenchFeedbackEvents(b *testing.B, s prospector.Store) {
	w, r, sigs := benchRadarData(b, s)
	ctx := context.Background()
	batch := &prospector.LeadBatch{Now: time.Now()}
	for i := 0; len(batch.Matches) < benchFeedbackLead; i++ {
		batch.Matches = append(batch.Matches, benchBatch(w, r, sigs, i).Matches...)
	}
	batch.Matches = batch.Matches[:benchFeedbackLead]
	if _, err := s.ApplyLeadBatch(ctx, batch); err != nil {
		b.Fatal(err)
	}
	leads, err := s.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: benchFeedbackLead})
	if err != nil || len(leads) != benchFeedbackLead {
		b.Fatalf("%d leads, %v", len(leads), err)
	}
	types := prospector.FeedbackEventTypes()
	var n atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			l := leads[i%int64(len(leads))]
			ev := &prospector.FeedbackEvent{ID: prospector.NewID("fbe"), WorkspaceID: w.ID, LeadID: l.ID,
				Type: types[i%int64(len(types))], Source: prospector.DefaultFeedbackSource, Content: fmt.Sprint("bench ", i),
				OccurredAt: time.Now().UTC(), Metadata: "{}", RequestHash: fmt.Sprint("h", i),
				Facts: prospector.LeadFacts{Title: l.Title, Company: l.Company, SignalTypes: []string{"company_hiring"},
					Email: fmt.Sprintf("bench.person%d@bench.example", i%int64(len(leads))), EmailPatterns: []string{"first.last"}}}
			if i%4 == 0 {
				ev.IdempotencyKey = fmt.Sprint("bench-key-", i)
			}
			if _, _, err := s.RecordFeedbackEvent(ctx, ev, time.Now()); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}
