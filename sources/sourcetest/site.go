// Package sourcetest serves company websites for tests of the sources:
// pages by host and path (reached through --resolve or
// fetch.Config.Resolve, which keep the Host header), robots.txt,
// redirects, failures, ETags, and a log of every request with its time
// and how many were in flight.
package sourcetest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Page is one resource of a site.
type Page struct {
	Status   int    // 0: 200
	Body     string // HTML unless ContentType says otherwise
	Location string // with a 3xx Status: where it redirects
	Header   http.Header
}

// Request is one request the server answered.
type Request struct {
	Host, Path  string
	At          time.Time
	InFlight    int // requests in flight to the same host when it arrived, itself included
	Conditional bool
	UserAgent   string
}

// Site is an httptest server holding the pages of any number of hosts.
// Pages carry an ETag (a hash of the body) and answer a matching
// If-None-Match with 304. Safe for concurrent use.
type Site struct {
	*httptest.Server

	mu       sync.Mutex
	pages    map[string]Page // host + path
	requests []Request
	inflight map[string]int
	latency  time.Duration
}

// NewSite starts a Site; close it with Close.
func NewSite() *Site {
	s := &Site{pages: map[string]Page{}, inflight: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Addr is the server's ADDR:PORT, for --resolve HOST=ADDR:PORT.
func (s *Site) Addr() string { return strings.TrimPrefix(s.URL, "http://") }

// Set serves p at host and path ("/", "/careers", "/robots.txt").
func (s *Site) Set(host, path string, p Page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[strings.ToLower(host)+path] = p
}

// SetLatency delays every answer by d.
func (s *Site) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// Requests returns the requests answered so far, for host ("" for all).
func (s *Site) Requests(host string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.requests {
		if host == "" || r.Host == host {
			out = append(out, r)
		}
	}
	return out
}

// Count is how many requests host got for path.
func (s *Site) Count(host, path string) int {
	n := 0
	for _, r := range s.Requests(host) {
		if r.Path == path {
			n++
		}
	}
	return n
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(r.Host)
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	s.mu.Lock()
	s.inflight[host]++
	s.requests = append(s.requests, Request{Host: host, Path: r.URL.Path, At: time.Now(), InFlight: s.inflight[host],
		Conditional: r.Header.Get("If-None-Match") != "", UserAgent: r.Header.Get("User-Agent")})
	p, ok := s.pages[host+r.URL.Path]
	latency := s.latency
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight[host]--
		s.mu.Unlock()
	}()
	if latency > 0 {
		time.Sleep(latency)
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	for k, vs := range p.Header {
		w.Header()[k] = vs
	}
	if p.Location != "" {
		w.Header().Set("Location", p.Location)
	}
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status == http.StatusOK {
		sum := sha256.Sum256([]byte(p.Body))
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if w.Header().Get("Content-Type") == "" {
		if strings.HasSuffix(r.URL.Path, ".txt") {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
	}
	w.WriteHeader(status)
	w.Write([]byte(p.Body))
}

// Homepage is a company homepage linking to a careers page and a job
// board, loading scripts, and announcing a feed.
func Homepage(title string, boardURLs, scriptSrcs []string) string {
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title>\n")
	b.WriteString(`<link rel="alternate" type="application/rss+xml" title="Blog" href="/blog/feed.xml">` + "\n")
	for _, s := range scriptSrcs {
		b.WriteString(`<script async src="` + s + `"></script>` + "\n")
	}
	b.WriteString("</head><body>\n<nav><a href=\"/\">Home</a> <a href=\"/pricing\">Pricing</a> <a href=\"/careers\">Careers</a></nav>\n")
	for _, u := range boardURLs {
		b.WriteString(`<p><a href="` + u + `">See our open roles</a></p>` + "\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}
