package news

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// httpFetcher is the smallest real Fetcher: a plain GET with the
// conditional headers, for fixture servers on loopback.
type httpFetcher struct {
	got []prospector.FetchRequest
}

var _ prospector.Fetcher = (*httpFetcher)(nil)

func (f *httpFetcher) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	f.got = append(f.got, req)
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, err
	}
	if req.ETag != "" {
		r.Header.Set("If-None-Match", req.ETag)
	}
	if req.Accept != "" {
		r.Header.Set("Accept", req.Accept)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &prospector.FetchResponse{URL: resp.Request.URL.String(), Status: resp.StatusCode,
		NotModified: resp.StatusCode == http.StatusNotModified, Header: resp.Header, Body: body,
		ETag: resp.Header.Get("ETag")}, nil
}

func TestPollFeed(t *testing.T) {
	feed := readFixture(t, "feeds/rss2.xml")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/missing":
			http.NotFound(w, r)
		case r.Header.Get("If-None-Match") == `"v1"`:
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Content-Type", "application/rss+xml")
			w.Write(feed)
		}
	}))
	defer srv.Close()
	f := &httpFetcher{}
	ctx := context.Background()
	p, err := PollFeed(ctx, f, srv.URL+"/feed.xml", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 3 || p.ETag != `"v1"` || p.Items[0].Source != srv.URL+"/feed.xml" {
		t.Errorf("poll: %+v", p)
	}
	if req := f.got[0]; !req.Robots || !strings.Contains(req.Accept, "application/rss+xml") {
		t.Errorf("request: %+v", req)
	}
	p, err = PollFeed(ctx, f, srv.URL+"/feed.xml", p.ETag, "")
	if err != nil || !p.NotModified || len(p.Items) != 0 {
		t.Errorf("conditional poll: %v %+v", err, p)
	}
	if _, err := PollFeed(ctx, f, srv.URL+"/missing", "", ""); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing feed: %v", err)
	}
}

func TestPollGDELT(t *testing.T) {
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.Query().Get("query")
		switch query {
		case `"kestrel payments"`:
			w.Header().Set("Content-Type", "application/json")
			w.Write(readFixture(t, "gdelt/artlist.json"))
		case `"slow movers"`:
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write(readFixture(t, "gdelt/rate_limit.html"))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write(readFixture(t, "gdelt/too_short.txt"))
		}
	}))
	defer srv.Close()
	f := &httpFetcher{}
	ctx := context.Background()
	p, err := PollGDELT(ctx, f, GDELTQuery{BaseURL: srv.URL + "/api/v2/doc/doc", Name: "Kestrel Payments"})
	if err != nil || len(p.Items) != 3 || query != `"kestrel payments"` {
		t.Fatalf("gdelt poll: %v %d %q", err, len(p.Items), query)
	}
	if _, err := PollGDELT(ctx, f, GDELTQuery{BaseURL: srv.URL, Name: "Slow Movers"}); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("rate limited: %v", err)
	}
	if _, err := PollGDELT(ctx, f, GDELTQuery{BaseURL: srv.URL, Name: "Other Name"}); !errors.Is(err, ErrGDELT) {
		t.Errorf("refused: %v", err)
	}
	n := len(f.got)
	if _, err := PollGDELT(ctx, f, GDELTQuery{BaseURL: srv.URL, Name: "X"}); err == nil || len(f.got) != n {
		t.Errorf("a bad query reached the network: %v", err)
	}
}
