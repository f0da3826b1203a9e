package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// leadsNow is the server's clock in the leads tests; seededAt is when
// the seeded leads were created.
var (
	leadsNow = time.Date(2026, 11, 22, 10, 15, 0, 0, time.UTC)
	seededAt = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
)

func atLeadsNow(c *apiConfig) { c.Now = func() time.Time { return leadsNow } }

// seedLeads writes n leads of a new radar of w through ApplyLeadBatch,
// as the radar engine does; card sets lead i's card (nil: "Person i").
// Lead i scores 100 - i/1000, so the radar's leads come back in order.
func seedLeads(tb testing.TB, st prospector.Store, w *prospector.Workspace, n int, card func(i int, l *prospector.Lead)) []*prospector.Lead {
	tb.Helper()
	ctx := context.Background()
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "seeded",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, SignalsToTrack: []string{"hiring"},
			Types: []string{"company_hiring"}, CompanySizeMin: 1, CompanySizeMax: 10000}}
	if err := st.CreateRadar(ctx, r); err != nil {
		tb.Fatal(err)
	}
	matches := make([]prospector.LeadMatch, n)
	for i := range n {
		l := prospector.Lead{PersonID: int64(i + 1), FullName: fmt.Sprintf("Person %05d", i)}
		if card != nil {
			card(i, &l)
		}
		score := 100 - float64(i)/1000
		matches[i] = prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: l,
			Signals: []prospector.SignalMatch{{SignalID: int64(i + 1), DetectedAt: seededAt,
				Score: prospector.ScoreBreakdown{Total: score, SignalType: score, Type: "company_hiring", SignalID: int64(i + 1)}}}}
	}
	for start := 0; start < n; start += 2000 {
		b := &prospector.LeadBatch{Matches: matches[start:min(start+2000, n)], Now: seededAt}
		if _, err := st.ApplyLeadBatch(ctx, b); err != nil {
			tb.Fatal(err)
		}
	}
	ls, err := st.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: n})
	if err != nil || len(ls) != n {
		tb.Fatalf("seeded %d leads, read %d: %v", n, len(ls), err)
	}
	return ls
}

func idsOf(ls ...*prospector.Lead) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.ID
	}
	return out
}

// exportResult is data of an export answer with data kept raw.
type exportResult struct {
	Status             string          `json:"status"`
	Format             string          `json:"format"`
	LeadCount          int             `json:"lead_count"`
	RequestedLeadCount int             `json:"requested_lead_count"`
	MissingLeadIDs     []string        `json:"missing_lead_ids"`
	ContentType        string          `json:"content_type"`
	FileName           string          `json:"file_name"`
	Data               json.RawMessage `json:"data"`
}

func (e *env) export(t *testing.T, key string, body any) exportResult {
	t.Helper()
	res := e.do("POST", "/api/v1/leads/export", key, body)
	if res.status != http.StatusOK {
		t.Fatalf("export: %d %s", res.status, res.body)
	}
	var env struct {
		Data exportResult `json:"data"`
	}
	if err := json.Unmarshal(res.body, &env); err != nil {
		t.Fatal(err)
	}
	return env.Data
}

// exportFixture is a workspace with three leads whose cards need
// quoting, neutralising and nulls, and another workspace with one lead.
type exportFixture struct {
	e                *env
	key, otherKey    string
	ada, evil, grace *prospector.Lead
	foreign          *prospector.Lead
}

func newExportFixture(t *testing.T) *exportFixture {
	e := newEnv(t, atLeadsNow)
	w, key := e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	ls := seedLeads(t, e.store, w, 3, func(i int, l *prospector.Lead) {
		switch i {
		case 0:
			*l = prospector.Lead{PersonID: l.PersonID, FullName: `Ada "The Countess" Lovelace`, FirstName: "Ada", LastName: "Lovelace",
				Title: "VP, Engineering", Company: "Analytical\nEngines", NetworkURL: "https://network.example/in/ada",
				City: "London", Region: "England", CountryCode: "GB"}
		case 1:
			*l = prospector.Lead{PersonID: l.PersonID, FullName: `=HYPERLINK("http://evil.example","x")`, FirstName: "@SUM(A1:A2)",
				LastName: "-2+3", Title: "+1 555 0100", Company: "\tcmd", NetworkURL: "\r=1+1"}
		case 2:
			*l = prospector.Lead{PersonID: l.PersonID, FullName: "Grace Hopper"}
		}
	})
	if err := e.store.SetLeadCampaign(context.Background(), w.ID, []string{ls[0].ID}, "cmp_42"); err != nil {
		t.Fatal(err)
	}
	other, otherKey := e.workspace("globex", prospector.PlanGrowth, prospector.PlanGrowth)
	foreign := seedLeads(t, e.store, other, 1, nil)[0]
	return &exportFixture{e: e, key: key, otherKey: otherKey, ada: ls[0], evil: ls[1], grace: ls[2], foreign: foreign}
}

func TestExportCSV(t *testing.T) {
	fx := newExportFixture(t)
	unknown := prospector.NewLeadID()
	got := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{fx.grace.ID, fx.ada.ID, unknown, fx.evil.ID,
		fx.ada.ID, fx.foreign.ID}})
	if got.Status != "ready" || got.Format != "csv" || got.LeadCount != 3 || got.RequestedLeadCount != 5 ||
		strings.Join(got.MissingLeadIDs, " ") != unknown+" "+fx.foreign.ID || got.ContentType != "text/csv; charset=utf-8" ||
		got.FileName != "service-leads-export-20261122T101500Z.csv" {
		t.Fatalf("export result %+v", got)
	}
	var text string
	if err := json.Unmarshal(got.Data, &text); err != nil {
		t.Fatalf("csv data is not a string: %s", got.Data)
	}
	radar := fx.ada.RadarID
	want := "id,full_name,first_name,last_name,title,company,network_url,email,phone,location,score,status,source,radar_id,campaign_id,created_at\n" +
		// No first name, title, ...: empty cells.
		fx.grace.ID + ",Grace Hopper,,,,,,,,,99.998,detected,radar," + radar + ",,2026-11-20T09:00:00.000Z\n" +
		// Quotes doubled, commas and line breaks quoted.
		fx.ada.ID + `,"Ada ""The Countess"" Lovelace",Ada,Lovelace,"VP, Engineering","Analytical` + "\n" + `Engines",` +
		`https://network.example/in/ada,,,"London, England, United Kingdom",100,detected,radar,` + radar + ",cmp_42,2026-11-20T09:00:00.000Z\n" +
		// Every formula start neutralised, the phone-shaped title too.
		fx.evil.ID + `,"'=HYPERLINK(""http://evil.example"",""x"")",'@SUM(A1:A2),'-2+3,'+1 555 0100,` + "'\tcmd," +
		"\"'\r=1+1\",,,,99.999,detected,radar," + radar + ",,2026-11-20T09:00:00.000Z\n"
	if text != want {
		t.Fatalf("csv:\n%q\nwant\n%q", text, want)
	}
}

func TestExportJSON(t *testing.T) {
	fx := newExportFixture(t)
	got := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID, fx.grace.ID}, "format": "json"})
	if got.Status != "ready" || got.Format != "json" || got.LeadCount != 2 || got.RequestedLeadCount != 2 ||
		len(got.MissingLeadIDs) != 0 || got.MissingLeadIDs == nil || got.ContentType != "application/json" ||
		got.FileName != "service-leads-export-20261122T101500Z.json" {
		t.Fatalf("export result %+v", got)
	}
	radar := fx.ada.RadarID
	want := `[{"id":"` + fx.ada.ID + `","full_name":"Ada \"The Countess\" Lovelace","first_name":"Ada","last_name":"Lovelace",` +
		`"title":"VP, Engineering","company":"Analytical\nEngines","network_url":"https://network.example/in/ada",` +
		`"email":null,"phone":null,"location":"London, England, United Kingdom","score":100,"status":"detected",` +
		`"source":"radar","radar_id":"` + radar + `","campaign_id":"cmp_42","created_at":"2026-11-20T09:00:00.000Z",` +
		`"replied_at":null,"meeting_booked_at":null,"reply_content":"","feedback":"","feedback_reason":""},` +
		`{"id":"` + fx.grace.ID + `","full_name":"Grace Hopper","first_name":null,"last_name":null,"title":null,` +
		`"company":null,"network_url":null,"email":null,"phone":null,"location":null,"score":99.998,"status":"detected",` +
		`"source":"radar","radar_id":"` + radar + `","campaign_id":null,"created_at":"2026-11-20T09:00:00.000Z",` +
		`"replied_at":null,"meeting_booked_at":null,"reply_content":"","feedback":"","feedback_reason":""}]`
	if string(got.Data) != want {
		t.Fatalf("json:\n%s\nwant\n%s", got.Data, want)
	}
	// JSON is never neutralised: values are as stored.
	evil := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{fx.evil.ID}, "format": "json"})
	var recs []map[string]any
	if err := json.Unmarshal(evil.Data, &recs); err != nil || len(recs) != 1 || recs[0]["title"] != "+1 555 0100" ||
		recs[0]["full_name"] != fx.evil.FullName {
		t.Fatalf("json of the formula lead: %s", evil.Data)
	}
}

// TestExportMissing: unknown ids and another workspace's leads are both
// missing, in request order, each once; none is an error.
func TestExportMissing(t *testing.T) {
	fx := newExportFixture(t)
	a, b := prospector.NewLeadID(), prospector.NewLeadID()
	got := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{a, fx.foreign.ID, b, a}, "format": "json"})
	if got.LeadCount != 0 || got.RequestedLeadCount != 3 || strings.Join(got.MissingLeadIDs, " ") != a+" "+fx.foreign.ID+" "+b ||
		string(got.Data) != "[]" {
		t.Fatalf("all missing: %+v %s", got, got.Data)
	}
	// The other way round too.
	got = fx.e.export(t, fx.otherKey, map[string]any{"lead_ids": []string{fx.ada.ID, fx.foreign.ID}})
	if got.LeadCount != 1 || strings.Join(got.MissingLeadIDs, " ") != fx.ada.ID {
		t.Fatalf("from the other workspace: %+v", got)
	}
	var text string
	_ = json.Unmarshal(got.Data, &text)
	if strings.Count(text, "\n") != 2 || !strings.Contains(text, fx.foreign.ID) {
		t.Fatalf("csv of the other workspace: %q", text)
	}
	// Nothing found still has the header row.
	got = fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{a}})
	_ = json.Unmarshal(got.Data, &text)
	if !strings.HasPrefix(text, "id,full_name,") || strings.Count(text, "\n") != 1 {
		t.Fatalf("empty csv: %q", text)
	}
}

func manyIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prospector.NewLeadID()
	}
	return out
}

func TestExportBounds(t *testing.T) {
	fx := newExportFixture(t)
	one := fx.e.export(t, fx.key, map[string]any{"lead_ids": []string{fx.ada.ID}})
	if one.LeadCount != 1 || one.RequestedLeadCount != 1 {
		t.Fatalf("one id: %+v", one)
	}
	ids := append(manyIDs(9999), fx.ada.ID)
	most := fx.e.export(t, fx.key, map[string]any{"lead_ids": ids})
	if most.LeadCount != 1 || most.RequestedLeadCount != 10000 || len(most.MissingLeadIDs) != 9999 {
		t.Fatalf("10,000 ids: lead_count %d, requested %d, missing %d", most.LeadCount, most.RequestedLeadCount, len(most.MissingLeadIDs))
	}
	// Repeats count against the bound: it bounds the request.
	repeated := make([]string, 10001)
	for i := range repeated {
		repeated[i] = fx.ada.ID
	}
	for _, c := range []struct {
		name string
		body string
		want string
	}{
		{"absent", `{}`, "lead_ids: required"},
		{"null", `{"lead_ids":null}`, "lead_ids: required"},
		{"empty", `{"lead_ids":[]}`, "lead_ids: required"},
		{"10,001", `{"lead_ids":` + jsonOf(append(manyIDs(10000), fx.ada.ID)) + `}`, "lead_ids: at most 10000 ids per call, got 10001"},
		{"10,001 repeats", `{"lead_ids":` + jsonOf(repeated) + `}`, "lead_ids: at most 10000"},
		{"not an array", `{"lead_ids":"` + fx.ada.ID + `"}`, "lead_ids: must be"},
		{"not strings", `{"lead_ids":[1]}`, "lead_ids: must be"},
		{"short", `{"lead_ids":["` + fx.ada.ID + `","ld_123"]}`, `lead_ids[1]: "ld_123" is not a lead id`},
		{"empty id", `{"lead_ids":["` + fx.ada.ID + `","` + fx.ada.ID + `",""]}`, `lead_ids[2]: "" is not a lead id`},
		{"null id", `{"lead_ids":[null]}`, `lead_ids[0]: "" is not a lead id`},
		{"upper case", `{"lead_ids":["` + strings.ToUpper(fx.ada.ID) + `"]}`, `lead_ids[0]:`},
		{"spaces", `{"lead_ids":[" ` + fx.ada.ID + `"]}`, `lead_ids[0]:`},
		{"radar id", `{"lead_ids":["` + fx.ada.RadarID + `"]}`, `lead_ids[0]:`},
		{"format", `{"lead_ids":["` + fx.ada.ID + `"],"format":"xml"}`, `format: "xml" is not supported: use csv or json`},
		{"format case", `{"lead_ids":["` + fx.ada.ID + `"],"format":"CSV"}`, `format: "CSV" is not supported`},
		{"format type", `{"lead_ids":["` + fx.ada.ID + `"],"format":1}`, `format: must be`},
		{"unknown member", `{"lead_ids":["` + fx.ada.ID + `"],"fields":["id"]}`, `fields: unknown field`},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx.e.t = t
			msg := fx.e.post("/api/v1/leads/export", fx.key, c.body).wantError(t, http.StatusBadRequest, prospector.EINVALID)
			if !strings.HasPrefix(msg, c.want) {
				t.Fatalf("message %q, want it to start %q", msg, c.want)
			}
		})
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestExportFormatDefault: an absent, null or empty format is csv.
func TestExportFormatDefault(t *testing.T) {
	fx := newExportFixture(t)
	for _, body := range []string{`{"lead_ids":["` + fx.ada.ID + `"]}`, `{"lead_ids":["` + fx.ada.ID + `"],"format":null}`,
		`{"lead_ids":["` + fx.ada.ID + `"],"format":""}`} {
		d := fx.e.post("/api/v1/leads/export", fx.key, body).data(t)
		if d["format"] != "csv" || d["content_type"] != "text/csv; charset=utf-8" {
			t.Fatalf("%s: %v", body, d)
		}
	}
}
