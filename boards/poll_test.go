package boards

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards/boardtest"
)

func TestConditionalRequest(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			tok := boardtest.FixtureToken(kind)
			if err := e.srv.AddFixture(kind, tok); err != nil {
				t.Fatal(err)
			}
			ref := Ref{Kind: kind, Token: tok}
			first, err := e.list(t, ref, Validators{})
			if err != nil {
				t.Fatal(err)
			}
			again, err := e.list(t, ref, first.Validators)
			if err != nil {
				t.Fatal(err)
			}
			if !again.NotModified || again.Postings != nil || again.Validators != first.Validators || again.Company != "" {
				t.Fatalf("unchanged board: %+v, want NotModified with the same validators", again)
			}
			if st := e.srv.Stats(kind); st.NotModified != 1 {
				t.Errorf("server answered %d 304s, want 1", st.NotModified)
			}
			// A change shows on the next conditional poll.
			id, err := e.srv.AddPosting(kind, tok, boardtest.Job{Title: "Solutions Engineer", Department: "Sales",
				Location: "Madrid, Spain", CountryCode: "ES"})
			if err != nil {
				t.Fatal(err)
			}
			changed, err := e.list(t, ref, first.Validators)
			if err != nil {
				t.Fatal(err)
			}
			if changed.NotModified || len(changed.Postings) != 4 || changed.Validators == first.Validators {
				t.Fatalf("changed board: notModified %v, %d postings, validators %+v", changed.NotModified,
					len(changed.Postings), changed.Validators)
			}
			added := changed.Postings[3]
			if added.ExternalID != id || added.Title != "Solutions Engineer" || added.CountryCode != "ES" || added.Level != "IC" {
				t.Errorf("added posting = %+v", added)
			}
		})
	}
}

func TestPostingAddedRemovedEdited(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			tok := boardtest.FixtureToken(kind)
			if err := e.srv.AddFixture(kind, tok); err != nil {
				t.Fatal(err)
			}
			ref := Ref{Kind: kind, Token: tok}
			before, err := e.list(t, ref, Validators{})
			if err != nil {
				t.Fatal(err)
			}
			ids := e.srv.PostingIDs(kind, tok)
			if !e.srv.RemovePosting(kind, tok, ids[0]) || !e.srv.SetTitle(kind, tok, ids[1], "Principal Data Engineer") {
				t.Fatal("fixture server could not remove or edit")
			}
			after, err := e.list(t, ref, before.Validators)
			if err != nil {
				t.Fatal(err)
			}
			if len(after.Postings) != 2 || after.Postings[0].ExternalID != ids[1] {
				t.Fatalf("after removing %s: %+v", ids[0], after.Postings)
			}
			edited, kept := after.Postings[0], after.Postings[1]
			if edited.Title != "Principal Data Engineer" || edited.ContentHash == before.Postings[1].ContentHash {
				t.Errorf("edited posting %+v: hash %d unchanged", edited, edited.ContentHash)
			}
			if kept.ContentHash != before.Postings[2].ContentHash {
				t.Errorf("untouched posting's hash moved: %d -> %d", before.Postings[2].ContentHash, kept.ContentHash)
			}
		})
	}
}

func TestLeverEU(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.AddFixture("lever-eu", "bluefin"); err != nil {
		t.Fatal(err)
	}
	// Not known on the global host: the EU one is tried and named.
	l, err := e.list(t, Ref{Kind: KindLever, Token: "bluefin"}, Validators{})
	if err != nil {
		t.Fatal(err)
	}
	want := Ref{Kind: KindLever, Token: "bluefin", Region: RegionEU}
	if l.Ref != want || l.Requests != 2 || len(l.Postings) != 3 || l.Postings[0].Source != KindLever {
		t.Fatalf("listing ref %v after %d requests, %d postings", l.Ref, l.Requests, len(l.Postings))
	}
	// Remembered: the EU ref goes straight to the EU host.
	global := e.srv.Stats("lever").Requests
	l, err = e.list(t, l.Ref, l.Validators)
	if err != nil || !l.NotModified || l.Requests != 1 || l.Ref != want {
		t.Fatalf("EU poll = %+v, %v", l, err)
	}
	if e.srv.Stats("lever").Requests != global {
		t.Error("a ref with region eu still asked the global host")
	}
	// A site on neither host is not found, naming the ref asked for.
	_, err = e.list(t, Ref{Kind: KindLever, Token: "nowhere"}, Validators{})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "lever:nowhere") {
		t.Errorf("err = %v", err)
	}
	// A site on the global host never touches the EU one.
	if err := e.srv.AddFixture("lever", "bluefin"); err != nil {
		t.Fatal(err)
	}
	eu := e.srv.Stats("lever-eu").Requests
	if l, err := e.list(t, Ref{Kind: KindLever, Token: "bluefin"}, Validators{}); err != nil || l.Ref.Region != "" {
		t.Fatalf("global site = %v, %v", l, err)
	}
	if e.srv.Stats("lever-eu").Requests != eu {
		t.Error("a global site also asked the EU host")
	}
}

func TestPersonioRedirectIsNotFollowed(t *testing.T) {
	e := newEnv(t)
	ref := Ref{Kind: KindPersonio, Token: "ghostco", Region: RegionCom}
	_, err := e.list(t, ref, Validators{})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if hits := e.srv.EmptyPageHits(); hits != 0 {
		t.Fatalf("the redirect was followed %d times", hits)
	}
	// What the flag prevents: a client that follows the redirect lands on
	// a page that reads as an empty board.
	follow := &redirectFollower{}
	l, err := e.reg.List(context.Background(), follow, ref, Validators{})
	if err != nil || len(l.Postings) != 0 || e.srv.EmptyPageHits() != 1 {
		t.Fatalf("following the redirect gave %v, %v (hits %d); the test no longer shows the trap",
			l, err, e.srv.EmptyPageHits())
	}
}

// redirectFollower ignores NoRedirects, as a careless client would.
type redirectFollower struct{ boardtest.Fetcher }

func (f *redirectFollower) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	req.NoRedirects = false
	return f.Fetcher.Fetch(ctx, req)
}

func TestPersonioCom(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.AddFixture("personio-com", "brightforge"); err != nil {
		t.Fatal(err)
	}
	l, err := e.list(t, Ref{Kind: KindPersonio, Token: "brightforge"}, Validators{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Ref.Region != RegionCom || l.Requests != 2 || len(l.Postings) != 3 ||
		l.Postings[0].URL != "https://brightforge.jobs.personio.com/job/1204518" {
		t.Fatalf("listing ref %v after %d requests: %+v", l.Ref, l.Requests, l.Postings)
	}
	if e.srv.EmptyPageHits() != 0 {
		t.Error("the .de redirect was followed")
	}
}

func TestSmartRecruitersPaging(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.AddGenerated(KindSmartRecruiters, "BigCo", "BigCo Inc", 250, 7); err != nil {
		t.Fatal(err)
	}
	l, err := e.list(t, Ref{Kind: KindSmartRecruiters, Token: "BigCo"}, Validators{})
	if err != nil {
		t.Fatal(err)
	}
	ids := e.srv.PostingIDs(KindSmartRecruiters, "BigCo")
	if l.Requests != 3 || len(l.Postings) != 250 || l.Company != "BigCo Inc" {
		t.Fatalf("%d requests, %d postings, company %q", l.Requests, len(l.Postings), l.Company)
	}
	for i, p := range l.Postings {
		if p.ExternalID != ids[i] {
			t.Fatalf("posting %d is %s, want %s", i, p.ExternalID, ids[i])
		}
	}
	// Several pages: a conditional first page could hide an edit on a
	// later one, so no validators are handed on.
	if !l.Validators.IsZero() {
		t.Errorf("validators %+v for a board of three pages", l.Validators)
	}
}

func TestEveryPostingIsNormalised(t *testing.T) {
	e := newEnv(t)
	for _, kind := range Kinds() {
		if err := e.srv.AddGenerated(kind, "genco", "Genco", 40, 3); err != nil {
			t.Fatal(err)
		}
		jobs := boardtest.GenerateJobs(40, 3)
		l, err := e.list(t, Ref{Kind: kind, Token: "genco"}, Validators{})
		if err != nil || len(l.Postings) != 40 {
			t.Fatalf("%s: %v, %v", kind, l, err)
		}
		for i, p := range l.Postings {
			j := jobs[i]
			if p.Title != j.Title || p.Location != j.Location || p.Department != j.Department || p.Level == "" ||
				p.URL == "" || p.PostedAt.IsZero() || p.Remote != j.Remote || p.CountryCode != j.CountryCode {
				t.Errorf("%s posting %d = %+v from %+v", kind, i, p, j)
			}
		}
	}
}

// TestVendorHosts polls every kind at its real API host name, the way
// --resolve sends it to a fixture server: the default base URLs and the
// server's Host routing agree.
func TestVendorHosts(t *testing.T) {
	e := newEnv(t)
	addr := e.srv.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}}
	f := &resolveFetcher{Fetcher: boardtest.Fetcher{Client: client}}
	reg, err := NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range Kinds() {
		tok := boardtest.FixtureToken(kind)
		if err := e.srv.AddFixture(kind, tok); err != nil {
			t.Fatal(err)
		}
		l, err := reg.List(context.Background(), f, Ref{Kind: kind, Token: tok}, Validators{})
		if err != nil || len(l.Postings) != 3 {
			t.Errorf("%s at its vendor host: %v, %v", kind, l, err)
		}
	}
	if got := f.hosts; !strings.Contains(got, "kestrel.recruitee.com") || !strings.Contains(got, "brightforge.jobs.personio.de") ||
		!strings.Contains(got, "boards-api.greenhouse.io") {
		t.Errorf("hosts asked: %s", got)
	}
}

// resolveFetcher sends https URLs as plain http, like --resolve.
type resolveFetcher struct {
	boardtest.Fetcher
	hosts string
}

func (f *resolveFetcher) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, err
	}
	u.Scheme = "http"
	req.URL = u.String()
	f.hosts += u.Host + " "
	return f.Fetcher.Fetch(ctx, req)
}

func TestContextCancelled(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.AddFixture(KindGreenhouse, "quillfeather"); err != nil {
		t.Fatal(err)
	}
	e.srv.SetLatency(2 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := e.reg.List(ctx, e.f, Ref{Kind: KindGreenhouse, Token: "quillfeather"}, Validators{})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want the deadline", err)
	}
}
