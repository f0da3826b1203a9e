package boards

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/boards/boardtest"
)

// env is a fixture server and a registry pointed at it.
type env struct {
	srv *boardtest.Server
	reg *Registry
	f   *boardtest.Fetcher
}

func newEnv(t testing.TB) *env {
	t.Helper()
	srv := boardtest.NewServer()
	t.Cleanup(srv.Close)
	reg, err := NewRegistry(srv.BaseURLs())
	if err != nil {
		t.Fatal(err)
	}
	return &env{srv: srv, reg: reg, f: &boardtest.Fetcher{}}
}

func (e *env) list(t testing.TB, ref Ref, v Validators) (*Listing, error) {
	t.Helper()
	return e.reg.List(context.Background(), e.f, ref, v)
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// fixturePostings are the postings each kind's fixture must give, every
// field checked (ContentHash is checked against Hash separately).
var fixturePostings = map[string]struct {
	company  string
	postings []Posting
}{
	KindGreenhouse: {"Quillfeather Systems, Inc.", []Posting{
		{ExternalID: "4012345", Title: "Senior Backend Engineer, Payments", Level: "IC", Function: "Engineering",
			Department: "Engineering", Location: "San Francisco, CA", CountryCode: "US",
			URL: "https://boards.greenhouse.io/quillfeather/jobs/4012345", PostedAt: ts("2026-09-14T15:02:45Z"), UpdatedAt: ts("2026-10-02T13:15:27Z")},
		// No country in "Remote": the office's full location says Canada.
		{ExternalID: "4012399", Title: "Account Executive, Mid-Market", Level: "IC", Function: "Sales",
			Department: "Sales", Location: "Remote", CountryCode: "CA", Remote: true,
			URL: "https://boards.greenhouse.io/quillfeather/jobs/4012399", PostedAt: ts("2026-09-30T12:00:00Z"), UpdatedAt: ts("2026-10-05T20:40:00Z")},
		{ExternalID: "4012410", Title: "Head of Product Marketing", Level: "Head", Function: "Marketing",
			Department: "Marketing", Location: "Berlin", CountryCode: "DE",
			URL: "https://boards.greenhouse.io/quillfeather/jobs/4012410", PostedAt: ts("2026-10-01T08:00:00Z"), UpdatedAt: ts("2026-10-06T08:00:00Z")},
	}},
	KindLever: {"", []Posting{
		{ExternalID: "3f9c2a71-5b0e-4d6a-9f1e-2c7b8d4e6a10", Title: "Staff Platform Engineer", Level: "IC", Function: "Engineering",
			Department: "Engineering", Location: "Amsterdam, Netherlands", CountryCode: "NL",
			URL: "https://jobs.lever.co/bluefin/3f9c2a71-5b0e-4d6a-9f1e-2c7b8d4e6a10", PostedAt: ts("2026-10-01T08:00:00Z")},
		// No department: the team stands in; workplaceType remote.
		{ExternalID: "8a41d0c3-77e2-4b19-8c5d-0e6f1a2b3c44", Title: "Customer Success Manager", Level: "Manager", Function: "Customer Success",
			Department: "Customer Success", Location: "Remote - United States", CountryCode: "US", Remote: true,
			URL: "https://jobs.lever.co/bluefin/8a41d0c3-77e2-4b19-8c5d-0e6f1a2b3c44", PostedAt: ts("2026-10-08T08:00:00Z")},
		// country null: the location text is read.
		{ExternalID: "c0ffee12-3456-4789-abcd-ef0123456789", Title: "Financial Controller", Level: "IC", Function: "Finance",
			Department: "Finance", Location: "Dublin", CountryCode: "IE",
			URL: "https://jobs.lever.co/bluefin/c0ffee12-3456-4789-abcd-ef0123456789", PostedAt: ts("2026-10-10T08:00:00Z")},
	}},
	KindAshby: {"", []Posting{
		{ExternalID: "5d2f7e90-1c3a-4b8e-a6f4-9b0c1d2e3f40", Title: "Product Designer", Level: "IC", Function: "Product",
			Department: "Design", Location: "New York, NY", CountryCode: "US",
			URL: "https://jobs.ashbyhq.com/lumenpath/5d2f7e90-1c3a-4b8e-a6f4-9b0c1d2e3f40", PostedAt: ts("2026-09-20T14:30:00Z")},
		// The structured address wins over the location text.
		{ExternalID: "a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c01", Title: "VP of Sales", Level: "VP", Function: "Sales",
			Department: "Sales", Location: "Remote (Europe)", CountryCode: "PT", Remote: true,
			URL: "https://jobs.ashbyhq.com/lumenpath/a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c01", PostedAt: ts("2026-10-03T09:00:00Z")},
		{ExternalID: "0e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b", Title: "Data Analyst", Level: "IC", Function: "Engineering",
			Department: "Analytics", Location: "Sydney, NSW", CountryCode: "AU",
			URL: "https://jobs.ashbyhq.com/lumenpath/0e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b", PostedAt: ts("2026-10-07T01:15:00Z")},
		// The fourth job is unlisted and left out.
	}},
	KindWorkable: {"Tidewater Logistics Ltd", []Posting{
		{ExternalID: "7C1E0A9B2D", Title: "Warehouse Operations Manager", Level: "Manager", Function: "Operations",
			Department: "Operations", Location: "Aberdeen, Scotland, United Kingdom", CountryCode: "GB",
			URL: "https://apply.workable.com/j/7C1E0A9B2D", PostedAt: ts("2026-09-28T00:00:00Z")},
		{ExternalID: "19F3B6C2E4", Title: "Sales Development Representative", Level: "IC", Function: "Sales",
			Department: "Sales", Location: "Rotterdam, South Holland, Netherlands", CountryCode: "NL", Remote: true,
			URL: "https://apply.workable.com/j/19F3B6C2E4", PostedAt: ts("2026-10-04T00:00:00Z")},
		// No locations list and no published_on: the flat fields and created_at.
		{ExternalID: "A0B1C2D3E4", Title: "Fleet Data Engineer", Level: "IC", Function: "Engineering",
			Location: "Esbjerg, Denmark", CountryCode: "DK",
			URL: "https://apply.workable.com/j/A0B1C2D3E4", PostedAt: ts("2026-10-09T00:00:00Z")},
	}},
	KindSmartRecruiters: {"Orchard Metrics SA", []Posting{
		{ExternalID: "744000091234567", Title: "Quality Assurance Lead", Level: "IC", Function: "Engineering",
			Department: "Quality", Location: "Lyon, Auvergne-Rhône-Alpes, France", CountryCode: "FR",
			URL: "https://jobs.smartrecruiters.com/OrchardMetrics/744000091234567", PostedAt: ts("2026-09-18T07:45:12Z")},
		// No fullLocation: city and country name; the region repeating the city is dropped.
		{ExternalID: "744000091234602", Title: "Director of Finance", Level: "Director", Function: "Finance",
			Location: "Geneva, Switzerland", CountryCode: "CH",
			URL: "https://jobs.smartrecruiters.com/OrchardMetrics/744000091234602", PostedAt: ts("2026-10-01T12:00:00Z")},
		{ExternalID: "744000091234655", Title: "Technical Support Specialist", Level: "IC", Function: "Customer Success",
			Department: "Customer Support", Location: "Kraków, Lesser Poland, Poland", CountryCode: "PL", Remote: true,
			URL: "https://jobs.smartrecruiters.com/OrchardMetrics/744000091234655", PostedAt: ts("2026-10-06T08:30:00Z")},
	}},
	KindRecruitee: {"Kestrel Health B.V.", []Posting{
		{ExternalID: "1893021", Title: "Clinical Operations Manager", Level: "Manager", Function: "Operations",
			Department: "Clinical", Location: "Utrecht, Netherlands", CountryCode: "NL",
			URL: "https://kestrel.recruitee.com/o/clinical-operations-manager", PostedAt: ts("2026-09-22T08:14:03Z"), UpdatedAt: ts("2026-10-01T09:00:00Z")},
		{ExternalID: "1893077", Title: "Frontend Developer (React)", Level: "IC", Function: "Engineering",
			Department: "Engineering", Location: "Remote", CountryCode: "DE", Remote: true,
			URL: "https://kestrel.recruitee.com/o/frontend-developer", PostedAt: ts("2026-10-02T10:30:00Z"), UpdatedAt: ts("2026-10-02T10:30:00Z")},
		// No location text, no country code: built from city, state, country.
		{ExternalID: "1893110", Title: "People Partner", Level: "IC", Function: "People",
			Location: "Antwerp, Flanders, Belgium", CountryCode: "BE",
			URL: "https://kestrel.recruitee.com/o/people-partner", PostedAt: ts("2026-10-08T07:45:00Z")},
	}},
	KindPersonio: {"", []Posting{
		{ExternalID: "1204518", Title: "Embedded Software Engineer (m/w/d)", Level: "IC", Function: "Engineering",
			Department: "Engineering", Location: "Munich", CountryCode: "DE",
			URL: "https://brightforge.jobs.personio.de/job/1204518", PostedAt: ts("2026-09-15T08:00:00Z")},
		{ExternalID: "1204560", Title: "Performance Marketing Manager", Level: "Manager", Function: "Marketing",
			Department: "Marketing", Location: "Remote", Remote: true,
			URL: "https://brightforge.jobs.personio.de/job/1204560", PostedAt: ts("2026-10-01T09:30:00Z")},
		{ExternalID: "1204599", Title: "Key Account Manager Österreich", Level: "Manager", Function: "Sales",
			Department: "Sales", Location: "Wien", CountryCode: "AT",
			URL: "https://brightforge.jobs.personio.de/job/1204599", PostedAt: ts("2026-10-05T10:00:00Z")},
	}},
}

func TestListFixtures(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			want := fixturePostings[kind]
			tok := boardtest.FixtureToken(kind)
			if err := e.srv.AddFixture(kind, tok); err != nil {
				t.Fatal(err)
			}
			ref := Ref{Kind: kind, Token: tok}
			l, err := e.list(t, ref, Validators{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Ref != ref || l.Company != want.company || l.NotModified || l.Requests != 1 || l.Validators.IsZero() {
				t.Errorf("listing = ref %v company %q notModified %v requests %d validators %+v", l.Ref, l.Company,
					l.NotModified, l.Requests, l.Validators)
			}
			if len(l.Postings) != len(want.postings) {
				t.Fatalf("%d postings, want %d: %+v", len(l.Postings), len(want.postings), l.Postings)
			}
			for i, got := range l.Postings {
				w := want.postings[i]
				w.Source, w.Board = kind, tok
				if got.ContentHash != got.Hash() || got.ContentHash == 0 {
					t.Errorf("posting %d: ContentHash %d, Hash() %d", i, got.ContentHash, got.Hash())
				}
				got.ContentHash = 0
				if !got.PostedAt.Equal(w.PostedAt) || !got.UpdatedAt.Equal(w.UpdatedAt) {
					t.Errorf("posting %d times = %v / %v, want %v / %v", i, got.PostedAt, got.UpdatedAt, w.PostedAt, w.UpdatedAt)
				}
				got.PostedAt, got.UpdatedAt, w.PostedAt, w.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
				if got != w {
					t.Errorf("posting %d:\n got %+v\nwant %+v", i, got, w)
				}
			}
		})
	}
}

func TestEmptyBoard(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			if err := e.srv.AddBoard(kind, "emptyco", nil); err != nil {
				t.Fatal(err)
			}
			e.srv.SetCompany(kind, "emptyco", "Emptyco Ltd")
			l, err := e.list(t, Ref{Kind: kind, Token: "emptyco"}, Validators{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Postings == nil || len(l.Postings) != 0 || l.NotModified {
				t.Errorf("postings %v, notModified %v: want an empty board", l.Postings, l.NotModified)
			}
			// An empty Greenhouse board still names its company, from the
			// board endpoint; Workable's account carries its name.
			switch kind {
			case KindGreenhouse:
				if l.Company != "Emptyco Ltd" || l.Requests != 2 {
					t.Errorf("company %q after %d requests, want the board's name after 2", l.Company, l.Requests)
				}
			case KindWorkable:
				if l.Company != "Emptyco Ltd" {
					t.Errorf("company %q", l.Company)
				}
			}
		})
	}
}

func TestUnknownBoardIsNotFound(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			ref := Ref{Kind: kind, Token: "nosuchco"}
			l, err := e.list(t, ref, Validators{})
			if kind == KindSmartRecruiters {
				// The real API answers an unknown company with an empty
				// page; only an actual 404 is not found.
				if err != nil || len(l.Postings) != 0 {
					t.Fatalf("unknown SmartRecruiters company = %v, %v; want an empty board", l, err)
				}
				e.srv.Fail(kind, ref.Token, 404, 1)
				_, err = e.list(t, ref, Validators{})
			}
			var se *StatusError
			if !errors.Is(err, ErrNotFound) || errors.As(err, &se) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
			if !strings.Contains(err.Error(), kind+":nosuchco") {
				t.Errorf("error %q does not name the board", err)
			}
		})
	}
}

func TestFailureIsNotNotFound(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			tok := boardtest.FixtureToken(kind)
			if err := e.srv.AddFixture(kind, tok); err != nil {
				t.Fatal(err)
			}
			ref := Ref{Kind: kind, Token: tok}
			e.srv.Fail(kind, tok, 503, 1)
			_, err := e.list(t, ref, Validators{})
			var se *StatusError
			if !errors.As(err, &se) || se.Status != 503 || errors.Is(err, ErrNotFound) {
				t.Fatalf("503: err = %v, want a *StatusError 503", err)
			}
			e.srv.RateLimit(kind, "", 30*time.Second, 1)
			_, err = e.list(t, ref, Validators{})
			if !errors.As(err, &se) || se.Status != 429 || se.RetryAfter != 30*time.Second {
				t.Fatalf("429: err = %v, want a *StatusError 429 retry after 30s", err)
			}
			if !strings.Contains(err.Error(), ref.String()) {
				t.Errorf("error %q does not name the board", err)
			}
			if l, err := e.list(t, ref, Validators{}); err != nil || len(l.Postings) != 3 {
				t.Fatalf("after the failures: %v, %v", l, err)
			}
		})
	}
}

func TestMalformedBodyNamesTheKind(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			tok := boardtest.FixtureToken(kind)
			if err := e.srv.AddFixture(kind, tok); err != nil {
				t.Fatal(err)
			}
			for _, body := range []string{`{"jobs": [`, `<html><body>Service unavailable</body></html>`, `[1, 2`} {
				e.srv.SetBody(kind, tok, []byte(body))
				_, err := e.list(t, Ref{Kind: kind, Token: tok}, Validators{})
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), kind) {
					t.Errorf("body %q: err = %v, want ErrMalformed naming %s", body, err, kind)
				}
			}
		})
	}
}
