package radar

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// autoSyncOn gives the world's workspace a webhook with auto-sync on.
func (w *world) autoSyncOn() *prospector.WebhookSettings {
	w.t.Helper()
	s := &prospector.WebhookSettings{WorkspaceID: w.ws.ID, URL: "https://hooks.example/in", AutoSync: true,
		SigningSecret: prospector.NewWebhookSecret()}
	if err := w.st.CreateWebhookSettings(context.Background(), s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

// deliverEach is an AutoSyncFunc making one delivery per lead, and its job.
func deliverEach(got map[string]int) prospector.AutoSyncFunc {
	return func(s *prospector.WebhookSettings, ls []*prospector.Lead) ([]*prospector.Delivery, []*prospector.Job, error) {
		var ds []*prospector.Delivery
		var js []*prospector.Job
		for _, l := range ls {
			got[l.FullName]++
			d := &prospector.Delivery{ID: prospector.NewDeliveryID(), WorkspaceID: s.WorkspaceID, LeadID: l.ID,
				DestinationKind: prospector.DestinationWebhook, DestinationURL: s.URL, Payload: []byte(`{"id":"` + l.ID + `"}`)}
			ds, js = append(ds, d), append(js, &prospector.Job{Kind: "webhook.deliver", Key: d.ID + ":1"})
		}
		return ds, js, nil
	}
}

// TestAutoSyncGetsNewLeadsOnce hands each lead the engine creates to the
// auto-sync hook once, in the batch that creates it: the backfill's new
// leads, then only the scan's new ones (a lead the scan updates is not
// new).
func TestAutoSyncGetsNewLeadsOnce(t *testing.T) {
	w := newWorld(t)
	w.seedCompanies()
	w.seedPeople()
	w.sync()
	w.seedSignals(fixtureSignals[:7])
	w.autoSyncOn()
	got := map[string]int{} // lead name -> times handed over
	w.eng.AutoSync = deliverEach(got)
	r := w.radar("vp", vpSales)
	w.backfill(r)
	if len(got) == 0 {
		t.Fatal("the backfill created leads but the hook got none")
	}
	w.seedSignals(fixtureSignals[7:])
	w.scan()
	for name, n := range got {
		if n != 1 {
			t.Errorf("%s handed over %d times", name, n)
		}
	}
	// Every lead the radar holds was new once: the hook saw each, and
	// each has its delivery.
	for _, pair := range strings.Fields(w.leads(r)) {
		name, _, _ := strings.Cut(pair, ":")
		if got[name]+got[w.people[name].FullName] == 0 {
			t.Errorf("lead %s never reached the hook (got %v)", name, got)
		}
	}
	ds, err := w.st.ListDeliveries(context.Background(), prospector.DeliveryFilter{WorkspaceID: w.ws.ID, Limit: 100})
	if err != nil || len(ds) != len(got) {
		t.Fatalf("%d deliveries (%v) for %d leads", len(ds), err, len(got))
	}
}

// crashAfterCommit is a store whose process dies right after a lead
// batch commits: the batch is written, its caller never hears back.
type crashAfterCommit struct{ prospector.Store }

var errCrash = errors.New("process killed")

func (c crashAfterCommit) ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	if _, err := c.Store.ApplyLeadBatch(ctx, b); err != nil {
		return prospector.LeadBatchResult{}, err
	}
	return prospector.LeadBatchResult{}, errCrash
}

// A node dies between a radar batch's commit and anything after it: the
// auto-sync deliveries of the batch's leads, and the jobs of their first
// attempts, are already stored, because the batch wrote them.
func TestAutoSyncDeliveriesSurviveCrashAfterCommit(t *testing.T) {
	for name, run := range map[string]func(w *world, r *prospector.Radar) error{
		"backfill": func(w *world, r *prospector.Radar) error {
			_, err := w.eng.BackfillRadar(context.Background(), r.ID)
			return err
		},
		"scan": func(w *world, r *prospector.Radar) error {
			w.eng.Store = w.st // the backfill (of nothing) commits
			if _, err := w.eng.BackfillRadar(context.Background(), r.ID); err != nil {
				return err
			}
			w.seedSignals(fixtureSignals)
			w.eng.Store = crashAfterCommit{w.st}
			_, err := w.eng.ScanOnce(context.Background())
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.seedCompanies()
			w.seedPeople()
			w.sync()
			if name == "backfill" {
				w.seedSignals(fixtureSignals)
			}
			s := w.autoSyncOn()
			w.eng.Store = crashAfterCommit{w.st}
			w.eng.AutoSync = deliverEach(map[string]int{})
			r := w.radar("vp", vpSales)
			if err := run(w, r); !errors.Is(err, errCrash) {
				t.Fatalf("%s: err = %v, want the crash", name, err)
			}
			ctx := context.Background()
			ls, err := w.st.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 100})
			if err != nil || len(ls) == 0 {
				t.Fatalf("leads committed before the crash: %d, %v", len(ls), err)
			}
			ds, err := w.st.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ws.ID, Limit: 100})
			if err != nil || len(ds) != len(ls) {
				t.Fatalf("%d leads committed, %d deliveries stored (%v)", len(ls), len(ds), err)
			}
			byLead := map[string]*prospector.Delivery{}
			for _, d := range ds {
				byLead[d.LeadID] = d
			}
			for _, l := range ls {
				d := byLead[l.ID]
				if d == nil || d.Status != prospector.DeliveryPending || d.DestinationURL != s.URL {
					t.Errorf("lead %s: delivery %+v", l.FullName, d)
				}
			}
			if n, err := w.st.CountJobs(ctx, "webhook.deliver", prospector.JobQueued); err != nil || n != int64(len(ls)) {
				t.Fatalf("%d first-attempt jobs queued (%v), want %d", n, err, len(ls))
			}
		})
	}
}
