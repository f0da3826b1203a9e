package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func init() {
	validOpenAPISamples = append(validOpenAPISamples,
		openAPISample{"GET", "/api/v1/signals/job-openings?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
			`"type":"job_openings","count":1,"items":[` + oasSampleOpening + `]}}`},
		openAPISample{"GET", "/api/v1/signals/technologies?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
			`"type":"technologies","count":1,"items":[` + oasSampleTechnology + `]}}`},
		openAPISample{"GET", "/api/v1/signals/job-openings", 400, `{"error":{"code":"validation_error","message":"company_domain: required"}}`},
		openAPISample{"GET", "/api/v1/signals/technologies?company_domain=x.io", 404, `{"error":{"code":"not_found","message":"company data unavailable"}}`},
	)
	invalidOpenAPISamples = append(invalidOpenAPISamples,
		// An opening without its evidence; a level outside the taxonomy.
		openAPISample{"GET", "/api/v1/signals/job-openings?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
			`"type":"job_openings","count":1,"items":[` + strings.Replace(oasSampleOpening, `,"evidence":{"source":"greenhouse","board":"acme","external_id":"4012","url":null}`, "", 1) + `]}}`},
		openAPISample{"GET", "/api/v1/signals/job-openings?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
			`"type":"job_openings","count":1,"items":[` + strings.Replace(oasSampleOpening, `"level":"IC"`, `"level":"Senior"`, 1) + `]}}`},
		// A confidence over 100.
		openAPISample{"GET", "/api/v1/signals/technologies?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
			`"type":"technologies","count":1,"items":[` + strings.Replace(oasSampleTechnology, `"confidence":100`, `"confidence":101`, 1) + `]}}`},
	)
}

const oasSampleOpening = `{"id":"job:acme.com:greenhouse:acme:4012","title":"Senior Backend Engineer","level":"IC",` +
	`"function":"Engineering","department":"Engineering","location":"Austin, TX","country_code":"US","remote":false,` +
	`"url":"https://boards.greenhouse.io/acme/jobs/4012","posted_at":null,"first_seen_at":"2026-11-01T06:00:00.000Z",` +
	`"last_seen_at":"2026-11-02T06:00:00.000Z","closed_at":null,` +
	`"evidence":{"source":"greenhouse","board":"acme","external_id":"4012","url":null}}`

const oasSampleTechnology = `{"name":"Stripe","categories":["Payment processors"],"version":"3","confidence":100,` +
	`"first_seen_at":"2026-11-01T06:00:00.000Z","last_seen_at":"2026-11-02T06:00:00.000Z","added_at":"2026-11-02T06:00:00.000Z",` +
	`"evidence":[{"kind":"scriptSrc","key":"https://js.stripe.com/v3/","value":"js.stripe.com/v3/","url":"https://acme.com/"}]}`

var srcT0 = time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC)

// seedSources stores what the sources would: a watched company with a
// board of three openings polled three times (one closes), another with
// one opening, and two crawls of the first's site.
func seedSources(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	st := e.store
	if _, err := st.AddWatches(ctx, []prospector.WatchRequest{
		{Domain: "harbor.example", Boards: []prospector.BoardRef{{Kind: "greenhouse", Token: "harbor"}}},
		{Domain: "other.example", Boards: []prospector.BoardRef{{Kind: "lever", Token: "other"}}},
		{Domain: "quiet.example"},
	}, srcT0); err != nil {
		t.Fatal(err)
	}
	boardOf := func(domain string) *prospector.SourceTarget {
		ts, err := st.ListTargets(ctx, prospector.TargetFilter{Domain: domain, Kind: prospector.TargetBoard})
		if err != nil || len(ts) != 1 {
			t.Fatalf("board of %s: %v", domain, err)
		}
		return ts[0]
	}
	posting := func(id, title string) prospector.JobPosting {
		p := prospector.JobPosting{ExternalID: id, Title: title, Department: "Engineering", Location: "Austin, TX",
			CountryCode: "US", URL: "https://boards.greenhouse.io/harbor/jobs/" + id}
		if id == "3" {
			p.Remote, p.Location, p.CountryCode, p.Department, p.URL = true, "Remote", "", "", ""
			posted := srcT0.Add(-48 * time.Hour)
			p.PostedAt = &posted
		}
		return p
	}
	poll := func(target int64, at time.Time, ps ...prospector.JobPosting) {
		if _, err := st.ApplyBoardPoll(ctx, &prospector.BoardPoll{TargetID: target, Postings: ps,
			Outcome: prospector.PollOutcome{At: at, Result: prospector.PollOK, Interval: 6 * time.Hour, Jitter: 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	harbor, other := boardOf("harbor.example").ID, boardOf("other.example").ID
	poll(harbor, srcT0, posting("1", "Senior Backend Engineer"), posting("2", "Account Executive"))
	poll(harbor, srcT0.Add(24*time.Hour), posting("1", "Senior Backend Engineer"), posting("3", "VP Marketing"))
	poll(harbor, srcT0.Add(48*time.Hour), posting("1", "Senior Backend Engineer"), posting("3", "VP Marketing"))
	poll(other, srcT0, posting("9", "Office Manager"))

	ts, err := st.ListTargets(ctx, prospector.TargetFilter{Domain: "harbor.example", Kind: prospector.TargetHomepage})
	if err != nil || len(ts) != 1 {
		t.Fatalf("homepage: %v", err)
	}
	crawl := func(at time.Time, ds ...prospector.TechDetection) {
		if _, err := st.ApplyTechCrawl(ctx, &prospector.TechCrawl{TargetID: ts[0].ID, Detections: ds,
			Outcome: prospector.PollOutcome{At: at, Result: prospector.PollOK, Interval: 24 * time.Hour, Jitter: 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	stripe := prospector.TechDetection{Name: "Stripe", Categories: []string{"Payment processors"}, Version: "3", Confidence: 100,
		Evidence: []prospector.TechEvidence{{Kind: "scriptSrc", Key: "https://js.stripe.com/v3/", Value: "js.stripe.com/v3/",
			URL: "https://harbor.example/"}}}
	hubspot := prospector.TechDetection{Name: "HubSpot", Categories: []string{"Marketing automation", "CRM"}, Confidence: 100,
		Evidence: []prospector.TechEvidence{{Kind: "cookies", Key: "hubspotutk", URL: "https://harbor.example/"}}}
	seen := prospector.TechDetection{Name: "Seen Once", Confidence: 50,
		Evidence: []prospector.TechEvidence{{Kind: "html", Value: "seen-once", URL: "https://harbor.example/"}}}
	crawl(srcT0, stripe, hubspot)
	crawl(srcT0.Add(24*time.Hour), stripe, hubspot, seen)
}

func TestJobOpenings(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		seedSources(t, e)
		key := signalsKey(e)
		const base = "/api/v1/signals/job-openings?company_domain="
		domain, items := e.events(t, key, base+"HTTPS://www.Harbor.example/careers", "job_openings")
		if domain != "harbor.example" {
			t.Errorf("company_domain %q, want the normalised harbor.example", domain)
		}
		if got := eventIDs(t, items); got != "job:harbor.example:greenhouse:harbor:3 job:harbor.example:greenhouse:harbor:2 job:harbor.example:greenhouse:harbor:1" {
			t.Fatalf("order %q, want newest first (first seen)", got)
		}
		wantSameJSON(t, "open opening", items[2], `{"id":"job:harbor.example:greenhouse:harbor:1","title":"Senior Backend Engineer",`+
			`"level":"IC","function":"Engineering","department":"Engineering","location":"Austin, TX","country_code":"US",`+
			`"remote":false,"url":"https://boards.greenhouse.io/harbor/jobs/1","posted_at":null,`+
			`"first_seen_at":"2026-11-01T06:00:00.000Z","last_seen_at":"2026-11-03T06:00:00.000Z","closed_at":null,`+
			`"evidence":{"source":"greenhouse","board":"harbor","external_id":"1","url":"https://boards.greenhouse.io/harbor/jobs/1"}}`)
		wantSameJSON(t, "closed opening", items[1].(map[string]any)["closed_at"], `"2026-11-03T06:00:00.000Z"`)
		wantSameJSON(t, "sparse opening", items[0], `{"id":"job:harbor.example:greenhouse:harbor:3","title":"VP Marketing",`+
			`"level":"VP","function":"Marketing","department":null,"location":"Remote","country_code":null,`+
			`"remote":true,"url":null,"posted_at":"2026-10-30T06:00:00.000Z",`+
			`"first_seen_at":"2026-11-02T06:00:00.000Z","last_seen_at":"2026-11-03T06:00:00.000Z","closed_at":null,`+
			`"evidence":{"source":"greenhouse","board":"harbor","external_id":"3","url":null}}`)
		for _, c := range []struct{ name, query, want string }{
			{"active only", "&active_only=true", "3 1"},
			{"active_only false", "&active_only=false", "3 2 1"},
			{"since a day (inclusive)", "&since=2026-11-02", "3"},
			{"since a timestamp (inclusive)", "&since=2026-11-01T06:00:00Z", "3 2 1"},
			{"since just after", "&since=2026-11-01T06:00:00.001Z", "3"},
			{"since with an offset", "&since=2026-11-02T07:00:00%2B01:00", "3"},
			{"since and active only", "&since=2026-11-01&active_only=true", "3 1"},
			{"limit 1", "&limit=1", "3"},
			{"limit 50", "&limit=50", "3 2 1"},
			{"page 2", "&limit=1&page=2", "2"},
			{"page past the end", "&limit=3&page=2", ""},
			{"page 10000", "&page=10000", ""},
			{"blank values are absent", "&page=&limit=&since=&active_only=", "3 2 1"},
			{"unknown parameters are ignored", "&sort=asc", "3 2 1"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, items := e.events(t, key, base+"harbor.example"+c.query, "job_openings")
				var ids []string
				for _, it := range items {
					id := itemID(t, it)
					ids = append(ids, id[strings.LastIndexByte(id, ':')+1:])
				}
				if got := strings.Join(ids, " "); got != c.want {
					t.Errorf("got %q, want %q", got, c.want)
				}
			})
		}
		t.Run("another company's openings stay its own", func(t *testing.T) {
			_, items := e.events(t, key, base+"other.example", "job_openings")
			if eventIDs(t, items) != "job:other.example:lever:other:9" {
				t.Errorf("other.example: %s", eventIDs(t, items))
			}
		})
		t.Run("known company without openings", func(t *testing.T) {
			if d, items := e.events(t, key, base+"quiet.example", "job_openings"); d != "quiet.example" || len(items) != 0 {
				t.Errorf("got %s %v", d, items)
			}
		})
		t.Run("every workspace reads the same openings", func(t *testing.T) {
			_, other := e.workspace("another", prospector.PlanStarter, prospector.PlanStarter)
			if _, items := e.events(t, other, base+"harbor.example", "job_openings"); len(items) != 3 {
				t.Errorf("%d items for another workspace", len(items))
			}
		})
		sourceErrors(t, e, key, "/api/v1/signals/job-openings", []struct{ name, query, field string }{
			{"since not a date", "&since=yesterday", "since"},
			{"since impossible date", "&since=2026-02-30", "since"},
			{"since with unencoded plus", "&since=2026-03-10T10:00:00+01:00", "since"},
			{"active_only not a boolean", "&active_only=yes", "active_only"},
			{"active_only 1", "&active_only=1", "active_only"},
			{"active_only repeated", "&active_only=true&active_only=true", "active_only"},
			{"page 0", "&page=0", "page"},
			{"page 10001", "&page=10001", "page"},
			{"page not an integer", "&page=1.5", "page"},
			{"limit 0", "&limit=0", "limit"},
			{"limit 51", "&limit=51", "limit"},
			{"limit not an integer", "&limit=ten", "limit"},
		})
	})
}

func TestTechnologies(t *testing.T) {
	engines(t, func(t *testing.T, e *env) {
		seedSources(t, e)
		key := signalsKey(e)
		const base = "/api/v1/signals/technologies?company_domain="
		domain, items := e.events(t, key, base+"harbor.example", "technologies")
		if domain != "harbor.example" || len(items) != 2 {
			t.Fatalf("%s: %v (a technology seen once is not listed)", domain, items)
		}
		wantSameJSON(t, "HubSpot", items[0], `{"name":"HubSpot","categories":["Marketing automation","CRM"],"version":null,`+
			`"confidence":100,"first_seen_at":"2026-11-01T06:00:00.000Z","last_seen_at":"2026-11-02T06:00:00.000Z",`+
			`"added_at":"2026-11-02T06:00:00.000Z","evidence":[{"kind":"cookies","key":"hubspotutk","value":null,"url":"https://harbor.example/"}]}`)
		wantSameJSON(t, "Stripe", items[1], strings.ReplaceAll(oasSampleTechnology, "acme.com", "harbor.example"))
		if _, items := e.events(t, key, base+"other.example", "technologies"); len(items) != 0 {
			t.Errorf("another company's technologies: %v", items)
		}
		sourceErrors(t, e, key, "/api/v1/signals/technologies", nil)
	})
}

// sourceErrors checks the errors both endpoints share, then the extra
// ones (queries appended to a known company).
func sourceErrors(t *testing.T, e *env, key, path string, extra []struct{ name, query, field string }) {
	t.Helper()
	cases := []struct{ name, query, field string }{
		{"company_domain missing", "", "company_domain"},
		{"company_domain blank", "?company_domain=%20", "company_domain"},
		{"company_domain invalid", "?company_domain=not%20a%20domain", "company_domain"},
		{"company_domain repeated", "?company_domain=harbor.example&company_domain=other.example", "company_domain"},
		{"company_domain too long", "?company_domain=" + strings.Repeat("a", 2050) + ".example", "company_domain"},
		{"malformed query", "?company_domain=%zz", "query"},
	}
	for _, c := range extra {
		c.query = "?company_domain=harbor.example" + c.query
		cases = append(cases, c)
	}
	// Parameters are checked before the company is looked up.
	if len(extra) > 0 {
		cases = append(cases, struct{ name, query, field string }{"bad limit of an unknown company", "?company_domain=unknown.example&limit=51", "limit"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.do("GET", path+c.query, key, nil).wantInvalid(t, c.field)
		})
	}
	t.Run("unknown company", func(t *testing.T) {
		msg := e.do("GET", path+"?company_domain=unknown.example", key, nil).wantError(t, http.StatusNotFound, "not_found")
		if !strings.Contains(msg, "company data unavailable") || !strings.Contains(msg, "unknown.example") {
			t.Errorf("message %q", msg)
		}
	})
	t.Run("401 without key", func(t *testing.T) {
		e.do("GET", path+"?company_domain=harbor.example", "", nil).wantError(t, http.StatusUnauthorized, "unauthorized")
	})
	t.Run("404 without public API access", func(t *testing.T) {
		_, off := e.workspace(fmt.Sprintf("closed-%d", len(path)), prospector.PlanGrowth, prospector.PlanGrowth,
			func(w *prospector.Workspace) { w.PublicAPI = false })
		e.do("GET", path+"?company_domain=harbor.example", off, nil).wantError(t, http.StatusNotFound, "not_found")
	})
	t.Run("rate limit headers", func(t *testing.T) {
		wantRateHeaders(t, e.do("GET", path+"?company_domain=harbor.example", key, nil))
	})
}
