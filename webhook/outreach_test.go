package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/storetest"
	"github.com/prospectorhq/prospector/wire"
)

func manyLeads(n int) []wire.Lead {
	out := make([]wire.Lead, n)
	for i := range out {
		out[i] = wire.Lead{ID: fmt.Sprintf("ld_%03d", i), FullName: fmt.Sprintf("Person %d", i), FirstName: "Person",
			Email: fmt.Sprintf("p%d@example.com", i), Company: "Acme", Title: "CTO", NetworkURL: "https://network.example/in/p"}
	}
	return out
}

type sleeps struct{ waits []time.Duration }

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return nil
}

func toolFor(t *testing.T, c *Client, in prospector.OutreachIntegration, sl *sleeps) OutreachTool {
	t.Helper()
	tool, err := c.NewOutreachTool(&in, OutreachOptions{Sleep: sl.sleep})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestOutreachToolA(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		var body struct {
			Leads []map[string]any `json:"leads"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"added":%d}`, len(body.Leads))
	})
	c := NewClient(Config{AllowPrivate: true})
	tool := toolFor(t, c, prospector.OutreachIntegration{Tool: prospector.DestinationOutreachToolA, BaseURL: rc.URL + "/base/",
		APIKey: "ka_secret_key_1", CampaignID: "cmp;7"}, &sleeps{})
	if tool.Name() != "outreach_tool_a" || tool.Target() != "cmp;7" {
		t.Fatalf("%s %s", tool.Name(), tool.Target())
	}
	res, err := tool.AddLeads(context.Background(), manyLeads(3))
	if err != nil || !res.OK || res.Dispatched != 3 || res.StatusCode != 201 || res.Response != `{"added":3}` {
		t.Fatalf("%+v, %v", res, err)
	}
	got := rc.last(t)
	if got.path != "/base/v1/campaigns/cmp%3B7/leads" || got.header.Get("Authorization") != "Bearer ka_secret_key_1" ||
		got.header.Get("Content-Type") != "application/json" || got.header.Get("User-Agent") != UserAgent {
		t.Fatalf("request %s %v", got.path, got.header)
	}
	var body struct {
		Leads []map[string]any `json:"leads"`
		Skip  bool             `json:"skip_duplicates"`
	}
	if err := json.Unmarshal(got.body, &body); err != nil || len(body.Leads) != 3 || !body.Skip {
		t.Fatalf("body %s", got.body)
	}
	l := body.Leads[1]
	if l["external_id"] != "ld_001" || l["email"] != "p1@example.com" || l["company_name"] != "Acme" || l["phone"] != nil ||
		l["profile_url"] != "https://network.example/in/p" {
		t.Fatalf("lead %v", l)
	}
	// 1,200 leads: batches of 500.
	res, err = tool.AddLeads(context.Background(), manyLeads(1200))
	if err != nil || !res.OK || res.Dispatched != 1200 || rc.hits.Load() != 4 {
		t.Fatalf("batches: %+v, %v, %d requests", res, err, rc.hits.Load())
	}
}

func TestOutreachToolBBatchesAndPartialFailure(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int64) {
		if n == 3 {
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("upstream exploded; key was kb_secret_key_2"))
			return
		}
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"created":100}`))
	})
	c := NewClient(Config{AllowPrivate: true})
	tool := toolFor(t, c, prospector.OutreachIntegration{Tool: prospector.DestinationOutreachToolB, BaseURL: rc.URL,
		APIKey: "kb_secret_key_2", ListID: "list-1"}, &sleeps{})
	res, err := tool.AddLeads(context.Background(), manyLeads(350))
	if err != nil || res.OK || res.Dispatched != 200 || res.StatusCode != 502 || rc.hits.Load() != 3 {
		t.Fatalf("5xx on the third batch: %+v, %v, %d requests (5xx is not retried)", res, err, rc.hits.Load())
	}
	if strings.Contains(res.Response, "kb_secret_key_2") || !strings.Contains(res.Response, "[redacted]") {
		t.Fatalf("response %q shows the API key", res.Response)
	}
	got := rc.last(t)
	var body struct {
		Contacts []map[string]any `json:"contacts"`
	}
	if err := json.Unmarshal(got.body, &body); err != nil || len(body.Contacts) != 100 {
		t.Fatalf("batch of %d", len(body.Contacts))
	}
	if got.path != "/api/lists/list-1/contacts" || got.header.Get("X-Api-Key") != "kb_secret_key_2" || got.header.Get("Authorization") != "" {
		t.Fatalf("request %s %v", got.path, got.header)
	}
	c0 := body.Contacts[0]
	if c0["name"] != "Person 200" || c0["jobTitle"] != "CTO" || c0["customFields"].(map[string]any)["prospector_lead_id"] != "ld_200" {
		t.Fatalf("contact %v", c0)
	}
}

func TestOutreach429(t *testing.T) {
	for name, tc := range map[string]struct {
		answers    []int
		retryAfter string
		ok         bool
		requests   int64
		waits      []time.Duration
	}{
		"short Retry-After retried once": {answers: []int{429, 200}, retryAfter: "2", ok: true, requests: 2, waits: []time.Duration{2 * time.Second}},
		"no Retry-After waits 1s":        {answers: []int{429, 200}, ok: true, requests: 2, waits: []time.Duration{time.Second}},
		"long Retry-After reported":      {answers: []int{429}, retryAfter: "60", requests: 1},
		"second 429 reported":            {answers: []int{429, 429, 200}, retryAfter: "1", requests: 2, waits: []time.Duration{time.Second}},
	} {
		t.Run(name, func(t *testing.T) {
			rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int64) {
				code := tc.answers[min(int(n), len(tc.answers))-1]
				if code == 429 && tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(code)
				w.Write([]byte("slow down"))
			})
			sl := &sleeps{}
			for _, in := range []prospector.OutreachIntegration{
				{Tool: prospector.DestinationOutreachToolA, BaseURL: rc.URL, APIKey: "k", CampaignID: "c"},
				{Tool: prospector.DestinationOutreachToolB, BaseURL: rc.URL, APIKey: "k", ListID: "l"},
			} {
				rc.hits.Store(0)
				sl.waits = nil
				res, err := toolFor(t, NewClient(Config{AllowPrivate: true}), in, sl).AddLeads(context.Background(), manyLeads(5))
				if err != nil || res.OK != tc.ok || rc.hits.Load() != tc.requests || fmt.Sprint(sl.waits) != fmt.Sprint(tc.waits) {
					t.Fatalf("%s: %+v, %v, %d requests, waits %v", in.Tool, res, err, rc.hits.Load(), sl.waits)
				}
				if !tc.ok && (res.StatusCode != 429 || res.Dispatched != 0 || res.Response != "slow down") {
					t.Fatalf("%s: %+v", in.Tool, res)
				}
			}
		})
	}
}

func TestOutreachGuardedAndConfigured(t *testing.T) {
	rc := newReceiver(t, nil)
	in := prospector.OutreachIntegration{Tool: prospector.DestinationOutreachToolB, BaseURL: rc.URL, APIKey: "k", ListID: "l"}
	res, err := toolFor(t, NewClient(Config{}), in, &sleeps{}).AddLeads(context.Background(), manyLeads(2))
	if !IsRefused(err) || res.OK || res.Dispatched != 0 || !strings.HasPrefix(res.Response, "refused: ") || rc.hits.Load() != 0 {
		t.Fatalf("loopback tool without AllowPrivate: %+v, %v", res, err)
	}
	st := openStore(t, t.TempDir())
	defer st.Close()
	ws := storetest.NewWorkspace(t, st, "tools", prospector.PlanGrowth)
	c := NewClient(Config{AllowPrivate: true})
	_, err = c.Outreach(context.Background(), st, ws.ID, prospector.DestinationOutreachToolA, OutreachOptions{})
	var nc *NotConfiguredError
	if !errors.As(err, &nc) || !strings.Contains(err.Error(), "outreach_tool_a is not configured for this workspace") ||
		!strings.Contains(err.Error(), "--campaign ID") {
		t.Fatalf("not configured: %v", err)
	}
	in.WorkspaceID = ws.ID
	if err := st.PutOutreachIntegration(context.Background(), &in); err != nil {
		t.Fatal(err)
	}
	tool, err := c.Outreach(context.Background(), st, ws.ID, prospector.DestinationOutreachToolB, OutreachOptions{})
	if err != nil || tool.Name() != "outreach_tool_b" || tool.Target() != "l" {
		t.Fatalf("configured: %v", err)
	}
	if res, err := tool.AddLeads(context.Background(), nil); err != nil || !res.OK || res.Dispatched != 0 || rc.hits.Load() != 0 {
		t.Fatalf("no leads: %+v, %v", res, err)
	}
}
