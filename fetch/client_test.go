package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// chain redirects /r/N to /r/N-1 until /r/0, which answers.
func chain(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if n == 0 {
		w.Write([]byte("end"))
		return
	}
	code := []int{301, 302, 303, 307, 308}[n%5]
	http.Redirect(w, r, "/r/"+strconv.Itoa(n-1), code)
}

func TestRedirects(t *testing.T) {
	s := newSite(t, chain)
	c := newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 1}}})
	res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/r/5"})
	if err != nil || string(res.Body) != "end" || res.URL != s.URL+"/r/0" || res.Status != 200 {
		t.Fatalf("5 redirects: %+v, %v", res, err)
	}
	before := s.hits.Load()
	_, err = c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/r/6"})
	if !errors.Is(err, ErrTooManyRedirects) {
		t.Fatalf("6 redirects: %v", err)
	}
	if n := s.hits.Load() - before; n != 6 {
		t.Fatalf("6 redirects took %d requests, want 6 (the first and 5 followed)", n)
	}
	// NoRedirects answers the 3xx itself; its target is not fetched.
	before = s.hits.Load()
	res, err = c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/r/1", NoRedirects: true})
	if err != nil || res.Status != http.StatusFound || res.Header.Get("Location") != "/r/0" || res.URL != s.URL+"/r/1" {
		t.Fatalf("NoRedirects: %+v, %v", res, err)
	}
	if s.hits.Load()-before != 1 {
		t.Fatal("NoRedirects followed the redirect")
	}
}

func TestBodyCapAndGzip(t *testing.T) {
	big := bytes.Repeat([]byte("a"), 1<<20)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(big)
	zw.Close()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		n := 0
		if q := r.URL.Query().Get("n"); q != "" {
			var err error
			if n, err = strconv.Atoi(q); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		switch r.URL.Path {
		case "/sized":
			w.Header().Set("Content-Length", strconv.Itoa(n))
			w.Write(big[:n])
		case "/chunked":
			w.Write(big[:n/2])
			w.(http.Flusher).Flush()
			w.Write(big[n/2 : n])
		case "/gzip":
			if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				http.Error(w, "gzip expected", http.StatusNotAcceptable)
				return
			}
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zipped.Bytes())
		}
	})
	c := newClient(t, Config{AllowPrivate: true, MaxBodyBytes: 1000, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 1}}})
	for _, path := range []string{"/sized", "/chunked"} {
		res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + path + "?n=1000"})
		if err != nil || len(res.Body) != 1000 {
			t.Fatalf("%s at the cap: %v", path, err)
		}
		if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + path + "?n=1001"}); !errors.Is(err, ErrBodyTooLarge) {
			t.Fatalf("%s over the cap: %v, want ErrBodyTooLarge", path, err)
		}
	}
	// The cap counts decompressed bytes: 1 KiB of gzip inflating to 1 MiB fails.
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/gzip"}); !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("gzip over the cap: %v", err)
	}
	c = newClient(t, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 1}}})
	res, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/gzip"})
	if err != nil || !bytes.Equal(res.Body, big) {
		t.Fatalf("gzip: %v, %d bytes", err, len(res.Body))
	}
	if st := c.Stats(); st.Bytes != int64(len(big)) || st.Requests != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestUserAgentAndAccept(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {})
	c := newClient(t, Config{AllowPrivate: true, Version: "0.1.0", Contact: "ops@example.com"})
	if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/", Accept: "application/json"}); err != nil {
		t.Fatal(err)
	}
	r := s.requests()[0]
	if ua := r.Header.Get("User-Agent"); ua != "Prospector/0.1.0 (+mailto:ops@example.com)" {
		t.Fatalf("User-Agent %q", ua)
	}
	if r.Header.Get("Accept") != "application/json" {
		t.Fatalf("Accept %q", r.Header.Get("Accept"))
	}
	for contact, want := range map[string]string{
		"":                                "Prospector/0.1.0 (+https://github.com/prospectorhq/prospector)",
		"https://ops.example.com/crawler": "Prospector/0.1.0 (+https://ops.example.com/crawler)",
		"mailto:ops@example.com":          "Prospector/0.1.0 (+mailto:ops@example.com)",
	} {
		if got, err := userAgent("0.1.0", contact); err != nil || got != want {
			t.Errorf("contact %q: %q, %v", contact, got, err)
		}
	}
	for _, bad := range []string{"ops@example.com\r\nX-Evil: 1", "just a name", "ops (at) example.com"} {
		if _, err := New(Config{Contact: bad}); err == nil {
			t.Errorf("contact %q accepted", bad)
		}
	}
}

// TestConditional: validators from one fetch make the next conditional;
// an unchanged resource answers 304, NotModified, no body, and the
// validators carry over.
func TestConditional(t *testing.T) {
	const etag, lm = `"v1"`, "Tue, 24 Nov 2026 08:00:00 GMT"
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", lm)
		if r.Header.Get("If-None-Match") == etag && r.Header.Get("If-Modified-Since") == lm {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Write([]byte(`{"jobs":[]}`))
	})
	c := newClient(t, Config{AllowPrivate: true})
	useClock(c, newFakeClock())
	first, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/jobs"})
	if err != nil || first.NotModified || first.ETag != etag || first.LastModified != lm {
		t.Fatalf("first: %+v, %v", first, err)
	}
	second, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/jobs", ETag: first.ETag, LastModified: first.LastModified})
	if err != nil || !second.NotModified || second.Status != 304 || second.Body != nil || second.ETag != etag || second.LastModified != lm {
		t.Fatalf("second: %+v, %v", second, err)
	}
	if st := c.Stats(); st.Requests != 2 || st.NotModified != 1 || st.Bytes != int64(len(`{"jobs":[]}`)) {
		t.Fatalf("stats %+v", st)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("start"))
		w.(http.Flusher).Flush()
		select { // a body that never ends
		case <-release:
		case <-time.After(5 * time.Second):
		}
	})
	defer close(release)
	c := newClient(t, Config{AllowPrivate: true, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: s.URL + "/slow"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatal("the whole-request timeout did not cover the body")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Fetch(ctx, prospector.FetchRequest{URL: s.URL + "/slow"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
