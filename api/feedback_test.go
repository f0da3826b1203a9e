package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
)

const (
	eventsPath   = "/api/v1/feedback/events"
	insightsPath = "/api/v1/feedback/insights"
)

// feedbackNow is the server's clock in the feedback tests.
var feedbackNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// atFeedbackNow fixes the clock and lets the email finder read what
// feedback taught, as serve wires it.
func atFeedbackNow(c *apiConfig) {
	c.Now = func() time.Time { return feedbackNow }
	c.Emails = email.New(email.Config{Resolver: mxResolver{}, People: c.Store, Outcomes: c.Store})
}

// daysAgo is a time before feedbackNow, as occurred_at.
func daysAgo(d float64) string {
	return feedbackNow.Add(-time.Duration(d * float64(24*time.Hour))).Format(time.RFC3339)
}

// feedbackFixture is a workspace with six leads from one radar and a
// lead of another workspace. At Acme Robotics (acme-robotics.example)
// five people's known addresses follow flast (three colleagues, Avery
// and Cleo), so enrich/email answers flast there at 0.3 + 0.5 × 0.5 =
// 0.55.
//
//	lead  name         title           company        signals (types)            address
//	0     Avery Quill  VP Sales        Acme Robotics  company_hiring, job_change  aquill@acme-robotics.example
//	1     Basil Thorn  VP Sales        Bluepeak       company_hiring              -
//	2     Cleo Marsh   Head of Growth  Acme Robotics  funding_announcement        cmarsh@acme-robotics.example
//	3     Dara Vell    Head of Growth  Cobalt         keyword_post                -
//	4     Eli Stone    VP Sales        Cobalt         company_hiring              -
//	5     Fay North    CTO             Bluepeak       tech_changes                -
type feedbackFixture struct {
	e        *env
	w        *prospector.Workspace
	key      string
	otherKey string
	leads    []*prospector.Lead
	foreign  *prospector.Lead
}

func newFeedbackFixture(t *testing.T, e *env) *feedbackFixture {
	t.Helper()
	ctx := context.Background()
	cs := []*prospector.Company{
		{Name: "Acme Robotics", Domain: "acme-robotics.example", Industry: "Software Development", CountryCode: "US"},
		{Name: "Bluepeak", Domain: "bluepeak.example", Industry: "Financial Services", CountryCode: "GB"},
		{Name: "Cobalt", Domain: "cobalt.example", Industry: "Retail", CountryCode: "DE"},
	}
	if _, err := e.store.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	acme, blue, cobalt := cs[0], cs[1], cs[2]
	var people []*prospector.Person
	for i, n := range []string{"Ada Testperson", "Bo Fakename", "Cy Samplerson"} {
		p := importedPerson(fmt.Sprint("colleague-", i), "", n, "Engineer", acme, "", "", "US", nil)
		first, last, _ := strings.Cut(strings.ToLower(n), " ")
		p.Email = first[:1] + last + "@acme-robotics.example"
		people = append(people, p)
	}
	cards := []struct {
		name, title string
		co          *prospector.Company
		email       string
	}{
		{"Avery Quill", "VP Sales", acme, "aquill@acme-robotics.example"},
		{"Basil Thorn", "VP Sales", blue, ""},
		{"Cleo Marsh", "Head of Growth", acme, "cmarsh@acme-robotics.example"},
		{"Dara Vell", "Head of Growth", cobalt, ""},
		{"Eli Stone", "VP Sales", cobalt, ""},
		{"Fay North", "CTO", blue, ""},
	}
	for i, c := range cards {
		p := importedPerson("", fmt.Sprint("https://network.example/in/fb", i), c.name, c.title, c.co, "Austin", "Texas", "US", nil)
		p.Email = c.email
		people = append(people, p)
	}
	if _, err := e.store.UpsertPeople(ctx, people); err != nil {
		t.Fatal(err)
	}
	leadPeople := people[3:]
	at := feedbackNow.Add(-90 * 24 * time.Hour)
	sig := func(ext, typ string, co *prospector.Company, p *prospector.Person) *prospector.Signal {
		s := &prospector.Signal{ExternalID: ext, Type: typ, CompanyID: &co.ID, CompanyDomain: co.Domain, Title: ext,
			SourceURL: "https://news.example/" + ext, DetectedAt: at}
		if p != nil {
			s.PersonID = &p.ID
		}
		return s
	}
	sigs := []*prospector.Signal{
		sig("hiring-acme", "company_hiring", acme, nil), sig("move-avery", "job_change", acme, leadPeople[0]),
		sig("hiring-blue", "company_hiring", blue, nil), sig("funding-acme", "funding_announcement", acme, nil),
		sig("post-dara", "keyword_post", cobalt, leadPeople[3]), sig("hiring-cobalt", "company_hiring", cobalt, nil),
		sig("tech-blue", "tech_changes", blue, nil),
	}
	if _, err := e.store.UpsertSignals(ctx, sigs); err != nil {
		t.Fatal(err)
	}
	f := &feedbackFixture{e: e}
	f.w, f.key = e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	other, otherKey := e.workspace("other", prospector.PlanGrowth, prospector.PlanGrowth)
	f.otherKey = otherKey
	attach := [][]int{{0, 1}, {2}, {3}, {4}, {5}, {6}}
	write := func(w *prospector.Workspace, n int) []*prospector.Lead {
		r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "fb",
			Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, Types: []string{"company_hiring"},
				SignalsToTrack: []string{"hiring"}, CompanySizeMin: 1, CompanySizeMax: 10000}}
		if err := e.store.CreateRadar(ctx, r); err != nil {
			t.Fatal(err)
		}
		var ms []prospector.LeadMatch
		for i, p := range leadPeople[:n] {
			first, last, _ := strings.Cut(p.FullName, " ")
			m := prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: prospector.Lead{PersonID: p.ID,
				CompanyID: p.CompanyID, FullName: p.FullName, FirstName: first, LastName: last, Title: p.Title,
				Company: p.CompanyName, NetworkURL: p.NetworkURL}}
			for _, j := range attach[i] {
				m.Signals = append(m.Signals, prospector.SignalMatch{SignalID: sigs[j].ID, DetectedAt: at,
					Score: prospector.ScoreBreakdown{Total: float64(90 - i), Type: sigs[j].Type, SignalID: sigs[j].ID}})
			}
			ms = append(ms, m)
		}
		if _, err := e.store.ApplyLeadBatch(ctx, &prospector.LeadBatch{Matches: ms, Now: at}); err != nil {
			t.Fatal(err)
		}
		ls, err := e.store.RadarLeads(ctx, prospector.LeadFilter{RadarID: r.ID, Limit: 10})
		if err != nil || len(ls) != n {
			t.Fatalf("leads: %d, %v", len(ls), err)
		}
		return ls // best first: in card order
	}
	f.leads = write(f.w, 6)
	f.foreign = write(other, 1)[0]
	return f
}

// post sends an event for lead i with extra body members.
func (f *feedbackFixture) post(t *testing.T, i int, typ string, extra map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{"lead_id": f.leads[i].ID, "event_type": typ}
	for k, v := range extra {
		body[k] = v
	}
	return f.e.do("POST", eventsPath, f.key, body).data(t)
}

func snapshotOf(d map[string]any) map[string]any { return d["lead"].(map[string]any) }

func TestFeedbackEventTransitions(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		id := f.leads[1].ID
		lead := func(status, replied, meeting, feedback, reason any) map[string]any {
			return map[string]any{"id": id, "status": status, "replied_at": replied, "meeting_booked_at": meeting,
				"feedback": feedback, "feedback_reason": reason}
		}
		for _, c := range []struct {
			typ     string
			extra   map[string]any
			mutated bool
			lead    map[string]any
			note    string
		}{
			{"open", map[string]any{"occurred_at": "2026-11-01T09:00:00Z"}, false,
				lead("detected", nil, nil, "", ""), "open recorded; opens and clicks do not change a lead, which stays detected."},
			{"click", map[string]any{"occurred_at": "2026-11-01T09:05:00Z", "source": "outreach_tool_a"}, false,
				lead("detected", nil, nil, "", ""), "click recorded; opens and clicks do not change a lead, which stays detected."},
			{"reply", map[string]any{"occurred_at": "2026-11-02T10:00:00Z", "content": "Tell me more"}, true,
				lead("replied", "2026-11-02T10:00:00.000Z", nil, "", ""),
				"reply applied: status detected → replied, replied_at set to 2026-11-02T10:00:00.000Z, reply content stored (12 characters)."},
			{"positive_reply", map[string]any{"occurred_at": "2026-11-03T10:00:00Z", "source": "manual"}, true,
				lead("replied", "2026-11-03T10:00:00.000Z", nil, "positive", "positive_reply"),
				`positive_reply applied: replied_at set to 2026-11-03T10:00:00.000Z, feedback positive, feedback_reason "positive_reply".`},
			{"meeting_booked", map[string]any{"occurred_at": "2026-11-04T10:00:00Z", "meeting_url": "https://meet.example/abc"}, true,
				lead("meeting_booked", "2026-11-03T10:00:00.000Z", "2026-11-04T10:00:00.000Z", "positive", "meeting_booked"),
				`meeting_booked applied: status replied → meeting_booked, meeting_booked_at set to 2026-11-04T10:00:00.000Z, feedback_reason "meeting_booked". The meeting URL is kept on the event.`},
			{"bounce", map[string]any{"occurred_at": "2026-11-05T10:00:00Z", "content": "550 5.1.1 no such user"}, true,
				lead("skipped", "2026-11-03T10:00:00.000Z", "2026-11-04T10:00:00.000Z", "negative", "550 5.1.1 no such user"),
				`bounce applied: status meeting_booked → skipped, feedback negative, feedback_reason "550 5.1.1 no such user". The lead's email is marked undeliverable (no address is known for the lead).`},
			{"bounce", map[string]any{"occurred_at": "2026-11-06T10:00:00Z"}, true,
				lead("skipped", "2026-11-03T10:00:00.000Z", "2026-11-04T10:00:00.000Z", "negative", "bounce"),
				`bounce applied: feedback_reason "bounce". The lead's email is marked undeliverable (no address is known for the lead).`},
			{"bounce", map[string]any{"occurred_at": "2026-11-07T10:00:00Z"}, false,
				lead("skipped", "2026-11-03T10:00:00.000Z", "2026-11-04T10:00:00.000Z", "negative", "bounce"),
				"bounce applied; the lead already had status skipped and feedback negative, so nothing changed. The lead's email is marked undeliverable (no address is known for the lead)."},
		} {
			d := f.post(t, 1, c.typ, c.extra)
			source := "custom"
			if s, ok := c.extra["source"]; ok {
				source = s.(string)
			}
			want := map[string]any{"accepted": true, "event_type": c.typ, "source": source, "lead_id": id,
				"mutated_lead": c.mutated, "stored_event": true, "note": c.note, "lead": c.lead}
			if !reflect.DeepEqual(d, want) {
				t.Fatalf("%s:\n got %v\nwant %v", c.typ, d, want)
			}
		}
		evs, err := e.store.FeedbackEvents(context.Background(), f.w.ID, id)
		if err != nil || len(evs) != 8 {
			t.Fatalf("events stored: %d, %v", len(evs), err)
		}
		if evs[4].MeetingURL != "https://meet.example/abc" || evs[1].Source != "outreach_tool_a" {
			t.Fatalf("stored meeting event %+v", evs[4])
		}
		ls, _ := e.store.LeadsByID(context.Background(), f.w.ID, []string{id})
		if ls[0].ReplyContent != "Tell me more" || ls[0].Status != "skipped" {
			t.Fatalf("stored lead %+v", ls[0])
		}
	}, atFeedbackNow)
}

func TestFeedbackEventDefaults(t *testing.T) {
	e := newEnv(t, atFeedbackNow)
	f := newFeedbackFixture(t, e)
	d := f.post(t, 0, "reply", map[string]any{"metadata": map[string]any{"b": 1, "a": []any{"x", 2.5}}})
	if d["source"] != "custom" || snapshotOf(d)["replied_at"] != "2026-11-20T12:00:00.000Z" {
		t.Fatalf("defaults: %v", d)
	}
	evs, _ := e.store.FeedbackEvents(context.Background(), f.w.ID, f.leads[0].ID)
	if len(evs) != 1 || !evs[0].OccurredAt.Equal(feedbackNow) || evs[0].Metadata != `{"a":["x",2.5],"b":1}` {
		t.Fatalf("stored %+v", evs[0])
	}
	// Within the allowed clock skew, a future time is taken as given.
	d = f.post(t, 1, "reply", map[string]any{"occurred_at": "2026-11-20T12:04:00+00:00"})
	if snapshotOf(d)["replied_at"] != "2026-11-20T12:04:00.000Z" {
		t.Fatalf("near future: %v", d)
	}
}

func TestFeedbackEventValidation(t *testing.T) {
	e := newEnv(t, atFeedbackNow)
	f := newFeedbackFixture(t, e)
	id := f.leads[0].ID
	body := func(kv ...any) map[string]any {
		m := map[string]any{"lead_id": id, "event_type": "reply"}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
				continue
			}
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, c := range []struct {
		name  string
		body  any
		field string
	}{
		{"no body", nil, "lead_id"},
		{"lead_id missing", body("lead_id", nil), "lead_id"},
		{"lead_id blank", body("lead_id", "  "), "lead_id"},
		{"lead_id malformed", body("lead_id", "lead-1"), "lead_id"},
		{"lead_id upper case", body("lead_id", strings.ToUpper(id)), "lead_id"},
		{"lead_id a number", body("lead_id", 7), "lead_id"},
		{"event_type missing", body("event_type", nil), "event_type"},
		{"event_type unsupported", body("event_type", "unsubscribe"), "event_type"},
		{"event_type case", body("event_type", "Reply"), "event_type"},
		{"source unsupported", body("source", "carrier_pigeon"), "source"},
		{"source a list", body("source", []string{"manual"}), "source"},
		{"content too long", body("content", strings.Repeat("é", 10001)), "content"},
		{"meeting_url relative", body("meeting_url", "/meet/abc"), "meeting_url"},
		{"meeting_url ftp", body("meeting_url", "ftp://meet.example/abc"), "meeting_url"},
		{"meeting_url no host", body("meeting_url", "https://"), "meeting_url"},
		{"meeting_url too long", body("meeting_url", "https://meet.example/"+strings.Repeat("a", 2048)), "meeting_url"},
		{"occurred_at a date", body("occurred_at", "2026-11-01"), "occurred_at"},
		{"occurred_at no zone", body("occurred_at", "2026-11-01T10:00:00"), "occurred_at"},
		{"occurred_at garbage", body("occurred_at", "yesterday"), "occurred_at"},
		{"occurred_at a number", body("occurred_at", 1700000000), "occurred_at"},
		{"occurred_at in the future", body("occurred_at", "2026-11-20T12:06:00Z"), "occurred_at"},
		{"metadata an array", body("metadata", []any{1}), "metadata"},
		{"metadata a string", body("metadata", "x"), "metadata"},
		{"metadata too big", body("metadata", map[string]any{"x": strings.Repeat("a", 8200)}), "metadata"},
		{"metadata duplicate member", nil, "metadata.a"},
		{"unknown member", body("campaign", "x"), "campaign"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r response
			if c.name == "metadata duplicate member" {
				r = e.sendRaw(t, f.key, fmt.Sprintf(`{"lead_id":%q,"event_type":"reply","metadata":{"a":1,"a":2}}`, id), nil)
			} else {
				r = e.do("POST", eventsPath, f.key, c.body)
			}
			r.wantInvalid(t, c.field)
		})
	}
	for _, k := range []string{strings.Repeat("k", 256), "with space"} {
		r := e.doHeader("POST", eventsPath, f.key, body(), map[string]string{"Idempotency-Key": k})
		r.wantInvalid(t, "Idempotency-Key")
	}
	if evs, _ := e.store.FeedbackEvents(context.Background(), f.w.ID, id); len(evs) != 0 {
		t.Fatalf("a refused request stored %d events", len(evs))
	}
	// Well-formed ids of no lead here are 404 lead_not_found.
	for _, other := range []string{prospector.NewLeadID(), f.foreign.ID} {
		msg := e.do("POST", eventsPath, f.key, body("lead_id", other)).wantError(t, http.StatusNotFound, "lead_not_found")
		if !strings.Contains(msg, other) {
			t.Errorf("message %q does not name the lead", msg)
		}
	}
	if evs, _ := e.store.FeedbackEvents(context.Background(), f.foreign.WorkspaceID, f.foreign.ID); len(evs) != 0 {
		t.Fatal("an event reached another workspace's lead")
	}
	e.do("POST", eventsPath, "", body()).wantError(t, http.StatusUnauthorized, "unauthorized")
}

// sendRaw posts a raw JSON body to the events endpoint.
func (e *env) sendRaw(t *testing.T, key, body string, header map[string]string) response {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json"}
	for k, v := range header {
		h[k] = v
	}
	return e.sendBytes("POST", eventsPath, key, []byte(body), h)
}

func (e *env) sendBytes(method, path, key string, body []byte, header map[string]string) response {
	e.t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set(prospector.KeyHeader, key)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	validateAgainstOpenAPI(e.t, req, res.status, res.header, res.body)
	return res
}

// An event older than the lead's last applied one is stored without
// moving the lead back.
func TestFeedbackEventOrdering(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		f.post(t, 0, "meeting_booked", map[string]any{"occurred_at": daysAgo(2)})
		d := f.post(t, 0, "reply", map[string]any{"occurred_at": daysAgo(3), "content": "late webhook"})
		want := "reply stored but not applied: it occurred at 2026-11-17T12:00:00.000Z, before the lead's last applied " +
			"event (2026-11-18T12:00:00.000Z), so the lead stays meeting_booked. aquill@acme-robotics.example is " +
			"confirmed deliverable. This raises the confidence of the flast pattern at acme-robotics.example for enrich/email."
		if d["mutated_lead"] != false || d["note"] != want || snapshotOf(d)["status"] != "meeting_booked" ||
			snapshotOf(d)["replied_at"] != nil {
			t.Fatalf("older reply: %v\nwant note %q", d, want)
		}
		if evs, _ := e.store.FeedbackEvents(context.Background(), f.w.ID, f.leads[0].ID); len(evs) != 2 || evs[1].Content != "late webhook" {
			t.Fatalf("the older event was not stored: %d", len(evs))
		}
	}, atFeedbackNow)
}

func TestFeedbackEventIdempotency(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		key := map[string]string{"Idempotency-Key": "evt-42"}
		body := map[string]any{"lead_id": f.leads[0].ID, "event_type": "positive_reply", "content": "Yes please",
			"metadata": map[string]any{"campaign": "q4", "step": 2}}
		first := e.doHeader("POST", eventsPath, f.key, body, key)
		if first.status != 200 || first.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("first: %d %s", first.status, first.body)
		}
		// The same body with other spacing and member order replays.
		raw := fmt.Sprintf(`{ "metadata": {"step": 2, "campaign": "q4"}, "content": "Yes please",
			"event_type": "positive_reply", "lead_id": %q }`, f.leads[0].ID)
		again := e.sendRaw(t, f.key, raw, key)
		if again.status != 200 || again.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.body, first.body) {
			t.Fatalf("retry: %d %q\n%s\nwant %s", again.status, again.header.Get("Idempotent-Replayed"), again.body, first.body)
		}
		body["content"] = "No thanks"
		e.doHeader("POST", eventsPath, f.key, body, key).wantInvalid(t, "Idempotency-Key")
		// Keys are per workspace.
		other := e.doHeader("POST", eventsPath, f.otherKey, map[string]any{"lead_id": f.foreign.ID, "event_type": "open"}, key)
		if other.status != 200 || other.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("another workspace's key: %d %s", other.status, other.body)
		}
		// Concurrent retries of a new key apply once.
		var wg sync.WaitGroup
		var mu sync.Mutex
		replays := 0
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.doHeader("POST", eventsPath, f.key, map[string]any{"lead_id": f.leads[2].ID, "event_type": "bounce"},
					map[string]string{"Idempotency-Key": "evt-race"})
				if r.status != 200 {
					t.Errorf("retry: %d %s", r.status, r.body)
				}
				mu.Lock()
				defer mu.Unlock()
				if r.header.Get("Idempotent-Replayed") == "true" {
					replays++
				}
			}()
		}
		wg.Wait()
		for i, want := range map[int]int{0: 1, 2: 1} {
			if evs, _ := e.store.FeedbackEvents(context.Background(), f.w.ID, f.leads[i].ID); len(evs) != want {
				t.Errorf("lead %d: %d events stored, want %d", i, len(evs), want)
			}
		}
		if replays != 19 {
			t.Errorf("%d replays of 20 concurrent retries, want 19", replays)
		}
		if o, _ := e.store.EmailOutcomes(context.Background(), "acme-robotics.example"); o.Patterns["flast"].Bounces != 1 {
			t.Errorf("a retried bounce counted %d times", o.Patterns["flast"].Bounces)
		}
	}, atFeedbackNow)
}

// Fifty events for one lead at once through the API: all stored, none
// lost, and the lead ends as the newest applied one left it.
func TestFeedbackEventsConcurrentOneLead(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		types := []string{"reply", "positive_reply", "bounce", "meeting_booked", "click"}
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				minute := i * 37 % 50 // arrival order is not time order
				r := e.do("POST", eventsPath, f.key, map[string]any{"lead_id": f.leads[3].ID, "event_type": types[minute%5],
					"occurred_at": feedbackNow.Add(time.Duration(minute-60) * time.Minute).Format(time.RFC3339)})
				if r.status != 200 {
					t.Errorf("event %d: %d %s", i, r.status, r.body)
				}
			}()
		}
		wg.Wait()
		evs, _ := e.store.FeedbackEvents(context.Background(), f.w.ID, f.leads[3].ID)
		fb, err := e.store.LeadFeedback(context.Background(), f.w.ID, f.leads[3].ID)
		if len(evs) != 50 || err != nil || fb.Events != 50 {
			t.Fatalf("%d events stored, record %+v %v", len(evs), fb, err)
		}
		meeting := feedbackNow.Add(-12 * time.Minute) // minute 48, the newest that applies
		ls, _ := e.store.LeadsByID(context.Background(), f.w.ID, []string{f.leads[3].ID})
		if l := ls[0]; l.Status != "meeting_booked" || !l.MeetingBookedAt.Equal(meeting) || l.Feedback != "positive" {
			t.Fatalf("final lead %s %v %s, want meeting_booked at %v", l.Status, l.MeetingBookedAt, l.Feedback, meeting)
		}
	}, atFeedbackNow)
}

// A bounce makes enrich/email trust the address pattern less at that
// domain and never answer the bounced address again; a reply makes it
// trust the pattern more.
func TestFeedbackEmailIntelligence(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		colleague := map[string]any{"name": "Gus Newman", "company": "acme-robotics.example"}
		avery := map[string]any{"network_url": "https://network.example/in/fb0"}
		if got := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t); got != (emailAnswer{"gnewman@acme-robotics.example", false, 0.55}) {
			t.Fatalf("before any feedback: %+v", got)
		}
		if got := e.do("POST", enrichPath, f.key, avery).emailAnswer(t); got != (emailAnswer{"aquill@acme-robotics.example", false, 0.85}) {
			t.Fatalf("Avery before the bounce: %+v", got)
		}
		d := f.post(t, 0, "bounce", map[string]any{"content": "550 5.1.1 user unknown"})
		if !strings.HasSuffix(d["note"].(string), "aquill@acme-robotics.example is marked undeliverable and will not be "+
			"returned by enrich/email again. This lowers the confidence of the flast pattern at acme-robotics.example for enrich/email.") {
			t.Fatalf("bounce note %q", d["note"])
		}
		// flast: 5 addresses for, 1 against: 0.5 × 5/6 → 0.3 + 0.5 × 0.4167 = 0.51.
		if got := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t); got != (emailAnswer{"gnewman@acme-robotics.example", false, 0.51}) {
			t.Fatalf("colleague after the bounce: %+v", got)
		}
		// The bounced address is not answered again, known or guessed.
		for _, body := range []map[string]any{avery, {"name": "Avery Quill", "company": "acme-robotics.example"}} {
			if got := e.do("POST", enrichPath, f.key, body).emailAnswer(t); got != (emailAnswer{"", false, 0}) {
				t.Fatalf("Avery after the bounce (%v): %+v", body, got)
			}
		}
		fb, err := e.store.LeadFeedback(context.Background(), f.w.ID, f.leads[0].ID)
		if err != nil || fb.EmailStatus != prospector.EmailUndeliverable || fb.Email != "aquill@acme-robotics.example" {
			t.Fatalf("lead's email: %+v, %v", fb, err)
		}
		// Cleo replies from cmarsh@: the reply counts as one more address
		// following flast, 6 of 6, and 1 bounce: 0.6 × 6/7 → 0.56.
		f.post(t, 2, "reply", map[string]any{"content": "Happy to talk"})
		if got := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t); got != (emailAnswer{"gnewman@acme-robotics.example", false, 0.56}) {
			t.Fatalf("colleague after the reply: %+v", got)
		}
	}, atFeedbackNow)
}

func TestFeedbackReplyRaisesConfidence(t *testing.T) {
	e := newEnv(t, atFeedbackNow)
	f := newFeedbackFixture(t, e)
	colleague := map[string]any{"name": "Gus Newman", "company": "acme-robotics.example"}
	before := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t)
	f.post(t, 2, "positive_reply", nil)
	// A reply counts as one more address following flast: 6 of 6 known,
	// 0.3 + 0.5 × 0.6.
	after := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t)
	if before != (emailAnswer{"gnewman@acme-robotics.example", false, 0.55}) ||
		after != (emailAnswer{"gnewman@acme-robotics.example", false, 0.6}) {
		t.Fatalf("before a reply %+v, after %+v", before, after)
	}
	// A repeated reply from the same address counts once.
	f.post(t, 2, "reply", nil)
	if again := e.do("POST", enrichPath, f.key, colleague).emailAnswer(t); again != after {
		t.Fatalf("after a second reply: %+v", again)
	}
}

// insightsFixture posts the events of storetest's insights dataset:
//
//	lead  events (days before now)
//	0     open 10, reply 9
//	1     positive_reply 5, meeting_booked 3
//	2     bounce 2 (cmarsh@acme-robotics.example)
//	3     open 1
//	4     reply 40, click 4
//	5     reply 60
func insightsFixture(t *testing.T, f *feedbackFixture) {
	t.Helper()
	for _, ev := range []struct {
		lead int
		typ  string
		days float64
	}{{0, "open", 10}, {0, "reply", 9}, {1, "positive_reply", 5}, {1, "meeting_booked", 3}, {2, "bounce", 2},
		{3, "open", 1}, {4, "reply", 40}, {4, "click", 4}, {5, "reply", 60}} {
		f.post(t, ev.lead, ev.typ, map[string]any{"occurred_at": daysAgo(ev.days)})
	}
}

func TestFeedbackInsights(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		f := newFeedbackFixture(t, e)
		insightsFixture(t, f)
		persona := func(key, v string, n ...int) map[string]any {
			return map[string]any{key: v, "total": float64(n[0]), "replies": float64(n[1]), "positive": float64(n[2]),
				"meetings": float64(n[3])}
		}
		want := map[string]any{
			"period": map[string]any{"days": 30.0, "since": "2026-10-21T12:00:00.000Z"},
			"summary": map[string]any{"total_leads": 5.0, "replied": 2.0, "positive": 1.0, "meetings": 1.0,
				"bounced_or_skipped": 1.0},
			"rates": map[string]any{"reply_rate": 0.4, "positive_rate": 0.2, "meeting_rate": 0.2},
			"winning_personas": map[string]any{
				"titles": []any{persona("title", "VP Sales", 3, 2, 1, 1), persona("title", "Head of Growth", 2, 0, 0, 0)},
				"companies": []any{persona("company", "Bluepeak", 1, 1, 1, 1), persona("company", "Acme Robotics", 2, 1, 0, 0),
					persona("company", "Cobalt", 2, 0, 0, 0)},
				"signal_types": []any{persona("signal_type", "company_hiring", 3, 2, 1, 1),
					persona("signal_type", "job_change", 1, 1, 0, 0), persona("signal_type", "funding_announcement", 1, 0, 0, 0),
					persona("signal_type", "keyword_post", 1, 0, 0, 0)},
			},
			"next_actions": []any{
				"Prioritise VP Sales: 2 of 3 leads replied (1 positive, 1 meeting booked).",
				"Find more contacts at Bluepeak: 1 of 1 lead replied (1 positive, 1 meeting booked).",
				"Favour leads surfaced by company_hiring signals: 2 of 3 leads replied (1 positive, 1 meeting booked).",
				"Follow up the 1 lead that replied in the last 30 days with no meeting booked yet.",
				"Check email addresses at acme-robotics.example: 1 lead bounced in the last 30 days; enrich/email now ranks that address pattern lower there.",
			},
		}
		for _, path := range []string{insightsPath, insightsPath + "?days=30", insightsPath + "?days=+30"} {
			if got := e.do("GET", path, f.key, nil).data(t); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s:\n got %v\nwant %v", path, got, want)
			}
		}
		// 365 days take lead 4's and lead 5's replies in.
		d := e.do("GET", insightsPath+"?days=365", f.key, nil).data(t)
		if s := d["summary"].(map[string]any); s["total_leads"] != 6.0 || s["replied"] != 4.0 ||
			d["rates"].(map[string]any)["reply_rate"] != 0.6667 || d["period"].(map[string]any)["since"] != "2025-11-20T12:00:00.000Z" {
			t.Fatalf("365 days: %v", d)
		}
		// One day: only lead 3's open.
		d = e.do("GET", insightsPath+"?days=1", f.key, nil).data(t)
		if s := d["summary"].(map[string]any); s["total_leads"] != 1.0 || s["replied"] != 0.0 ||
			!reflect.DeepEqual(d["next_actions"], []any{"None of the 1 lead with activity in the last 1 day replied: revisit the message or the targeting."}) {
			t.Fatalf("1 day: %v", d)
		}
		// Another workspace has no activity.
		d = e.do("GET", insightsPath+"?days=7", f.otherKey, nil).data(t)
		wantEmpty := map[string]any{
			"period":           map[string]any{"days": 7.0, "since": "2026-11-13T12:00:00.000Z"},
			"summary":          map[string]any{"total_leads": 0.0, "replied": 0.0, "positive": 0.0, "meetings": 0.0, "bounced_or_skipped": 0.0},
			"rates":            map[string]any{"reply_rate": 0.0, "positive_rate": 0.0, "meeting_rate": 0.0},
			"winning_personas": map[string]any{"titles": []any{}, "companies": []any{}, "signal_types": []any{}},
			"next_actions": []any{"No lead had a feedback event in the last 7 days: report opens, replies, bounces and " +
				"meetings to POST /api/v1/feedback/events to see which personas convert."},
		}
		if !reflect.DeepEqual(d, wantEmpty) {
			t.Fatalf("empty workspace:\n got %v\nwant %v", d, wantEmpty)
		}
	}, atFeedbackNow)
}

func TestFeedbackInsightsDays(t *testing.T) {
	e := newEnv(t, atFeedbackNow)
	_, key := e.workspace("acme", prospector.PlanGrowth, prospector.PlanGrowth)
	for _, days := range []string{"1", "365", "30", ""} {
		if r := e.do("GET", insightsPath+"?days="+days, key, nil); r.status != 200 {
			t.Errorf("days=%s: %d %s", days, r.status, r.body)
		}
	}
	for _, days := range []string{"0", "366", "-1", "abc", "1.5", "1e2", "30&days=31"} {
		e.do("GET", insightsPath+"?days="+days, key, nil).wantInvalid(t, "days")
	}
	e.do("GET", insightsPath, "", nil).wantError(t, http.StatusUnauthorized, "unauthorized")
}
