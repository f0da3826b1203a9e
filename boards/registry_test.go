package boards

import (
	"context"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// recordingFetcher notes the URLs asked and answers 404.
type recordingFetcher struct{ urls []string }

func (f *recordingFetcher) Fetch(_ context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	f.urls = append(f.urls, req.URL)
	return &prospector.FetchResponse{URL: req.URL, Status: 404}, nil
}

func TestRequestURLs(t *testing.T) {
	for _, tc := range []struct {
		overrides map[string]string
		ref       Ref
		want      []string
	}{
		{nil, Ref{Kind: KindGreenhouse, Token: "acme"}, []string{"https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true"}},
		{nil, Ref{Kind: KindLever, Token: "acme"}, []string{"https://api.lever.co/v0/postings/acme?mode=json",
			"https://api.eu.lever.co/v0/postings/acme?mode=json"}},
		{nil, Ref{Kind: KindLever, Token: "acme", Region: RegionEU}, []string{"https://api.eu.lever.co/v0/postings/acme?mode=json"}},
		{nil, Ref{Kind: KindAshby, Token: "Acme Labs"}, []string{"https://api.ashbyhq.com/posting-api/job-board/Acme%20Labs"}},
		{nil, Ref{Kind: KindWorkable, Token: "acme"}, []string{"https://apply.workable.com/api/v1/widget/accounts/acme"}},
		{nil, Ref{Kind: KindSmartRecruiters, Token: "Acme"}, []string{"https://api.smartrecruiters.com/v1/companies/Acme/postings?offset=0&limit=100"}},
		{nil, Ref{Kind: KindRecruitee, Token: "acme"}, []string{"https://acme.recruitee.com/api/offers/"}},
		{nil, Ref{Kind: KindPersonio, Token: "acme"}, []string{"https://acme.jobs.personio.de/xml?language=en",
			"https://acme.jobs.personio.com/xml?language=en"}},
		// Overrides: scheme, host and a path prefix replace the vendor's.
		{map[string]string{"greenhouse": "http://127.0.0.1:9001/gh/"}, Ref{Kind: KindGreenhouse, Token: "acme"},
			[]string{"http://127.0.0.1:9001/gh/v1/boards/acme/jobs?content=true"}},
		{map[string]string{"lever-eu": "http://127.0.0.1:9002"}, Ref{Kind: KindLever, Token: "acme", Region: RegionEU},
			[]string{"http://127.0.0.1:9002/v0/postings/acme?mode=json"}},
		// Host-token kinds: the token becomes the first path segment, or
		// fills {token}.
		{map[string]string{"recruitee": "http://127.0.0.1:9003"}, Ref{Kind: KindRecruitee, Token: "acme"},
			[]string{"http://127.0.0.1:9003/acme/api/offers/"}},
		{map[string]string{"personio": "http://{token}.personio.test:9004"}, Ref{Kind: KindPersonio, Token: "acme", Region: ""},
			[]string{"http://acme.personio.test:9004/xml?language=en", "https://acme.jobs.personio.com/xml?language=en"}},
	} {
		reg, err := NewRegistry(tc.overrides)
		if err != nil {
			t.Fatal(err)
		}
		f := &recordingFetcher{}
		// Every board answers 404 here, so List fails: what the test
		// reads is the URLs it asked, in order.
		_, _ = reg.List(context.Background(), f, tc.ref, Validators{})
		if strings.Join(f.urls, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%v with %v asked\n%v\nwant\n%v", tc.ref, tc.overrides, f.urls, tc.want)
		}
	}
}

func TestBadOverrides(t *testing.T) {
	for _, o := range []map[string]string{
		{"monster": "http://127.0.0.1:9001"},
		{"greenhouse": "127.0.0.1:9001"},
		{"greenhouse": "ftp://127.0.0.1"},
		{"greenhouse": "http://127.0.0.1:9001/?x=1"},
		{"greenhouse": "http://{token}.example"},
		{"workable": "http://{token}.example"},
		{"recruitee": "http://127.0.0.1/{token}"},
		{"recruitee": "http://{token}.{token}.example"},
	} {
		_, err := NewRegistry(o)
		if prospector.ErrorCode(err) != prospector.EINVALID || !strings.Contains(err.Error(), "--source-base-url") {
			t.Errorf("NewRegistry(%v) = %v, want a validation error naming --source-base-url", o, err)
		}
	}
}

func TestParseBaseURL(t *testing.T) {
	name, base, ok, err := ParseBaseURL("Greenhouse=http://127.0.0.1:9001/")
	if name != "greenhouse" || base != "http://127.0.0.1:9001" || !ok || err != nil {
		t.Errorf("ParseBaseURL = %q, %q, %v, %v", name, base, ok, err)
	}
	if _, _, ok, err := ParseBaseURL("sec=http://127.0.0.1:9009"); ok || err != nil {
		t.Errorf("another source's name: ok %v, err %v", ok, err)
	}
	if _, _, ok, err := ParseBaseURL("lever-eu=not a url"); !ok || err == nil {
		t.Errorf("a bad URL for a board endpoint: ok %v, err %v", ok, err)
	}
}

func TestRegistryUnknownKind(t *testing.T) {
	reg, err := NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Adapter("monster"); ok {
		t.Error("an adapter for monster")
	}
	_, err = reg.List(context.Background(), &recordingFetcher{}, Ref{Kind: "monster", Token: "x"}, Validators{})
	if prospector.ErrorCode(err) != prospector.EINVALID {
		t.Errorf("err = %v", err)
	}
	for _, k := range Kinds() {
		if a, ok := reg.Adapter(k); !ok || a.Kind() != k {
			t.Errorf("adapter for %s: %v", k, a)
		}
	}
}

// TestHashIsStable pins the content hash: stored openings compare against
// it, so a change here marks every opening as edited once.
func TestHashIsStable(t *testing.T) {
	p := Posting{Source: "greenhouse", Board: "acme", ExternalID: "1", Title: "Account Executive", Department: "Sales",
		Location: "Austin, TX", CountryCode: "US", Remote: true, URL: "https://boards.greenhouse.io/acme/jobs/1"}
	// FNV-1a 64 of the fields, each followed by a 0 byte, computed independently.
	if got, want := p.Hash(), int64(-5638699056485051160); got != want {
		t.Errorf("Hash() = %d, want %d", got, want)
	}
	q := p
	q.Source, q.ExternalID, q.Level = "lever", "2", "IC"
	if q.Hash() != p.Hash() {
		t.Error("identity or derived fields moved the hash")
	}
	for _, edit := range []func(*Posting){
		func(p *Posting) { p.Title += "!" }, func(p *Posting) { p.Department = "" }, func(p *Posting) { p.Location = "Austin" },
		func(p *Posting) { p.CountryCode = "" }, func(p *Posting) { p.Remote = false }, func(p *Posting) { p.URL += "?x" },
		// Field boundaries count: the same bytes split differently differ.
		func(p *Posting) { p.Title, p.Department = "Account ExecutiveS", "ales" },
	} {
		e := p
		edit(&e)
		if e.Hash() == p.Hash() {
			t.Errorf("edit to %+v kept the hash", e)
		}
	}
}

func TestFixtureServerCountsRequests(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.AddFixture(KindAshby, "lumenpath"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := e.list(t, Ref{Kind: KindAshby, Token: "lumenpath"}, Validators{}); err != nil {
			t.Fatal(err)
		}
	}
	if st := e.srv.Stats(KindAshby); st.Requests != 3 || st.NotModified != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestBadRefFetchesNothing: a token is spliced into a URL, for Recruitee
// and Personio into its host, so a ref that did not come through ParseRef
// or Recognize is checked before anything is fetched.
func TestBadRefFetchesNothing(t *testing.T) {
	reg, err := NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []Ref{
		{Kind: KindRecruitee, Token: "evil.example/x?"},
		{Kind: KindPersonio, Token: "evil.example#"},
		{Kind: KindPersonio, Token: "acme", Region: RegionEU},
		{Kind: KindLever, Token: "acme", Region: RegionCom},
		{Kind: KindGreenhouse, Token: "acme", Region: RegionEU},
		{Kind: KindGreenhouse, Token: "../admin"},
		{Kind: KindWorkable, Token: ""},
	} {
		f := &recordingFetcher{}
		_, err := reg.List(context.Background(), f, ref, Validators{})
		if prospector.ErrorCode(err) != prospector.EINVALID || len(f.urls) != 0 {
			t.Errorf("%+v: err %v after fetching %v", ref, err, f.urls)
		}
	}
	// A canonical form is what gets asked.
	f := &recordingFetcher{}
	_, _ = reg.List(context.Background(), f, Ref{Kind: KindRecruitee, Token: "ACME"}, Validators{}) // fails on the 404: the URL asked is what counts
	if len(f.urls) != 1 || f.urls[0] != "https://acme.recruitee.com/api/offers/" {
		t.Errorf("asked %v", f.urls)
	}
}
