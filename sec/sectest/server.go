// Package sectest is a fixture EDGAR for tests: an httptest server that
// answers like www.sec.gov's archives and data.sec.gov's submissions API
// from files written after the SEC's public documentation, with
// generated (fictional) issuers, people and .example domains.
//
// The built-in day, DefaultDay (Monday 2026-05-04), lists:
//
//   - D    Acme Robotics, Inc. (CIK 1900001), 0001900001-26-000001:
//     equity under Rule 506(b), $2,500,000 sold of $5,000,000.
//   - D/A  the same offering, 0001900001-26-000002, naming the D as
//     previous accession: $4,000,000 sold.
//   - D    Quiet Harbor Ventures Fund II, L.P. (1900002): a pooled
//     investment fund (venture capital fund).
//   - D    Bluefield Coatings LLC (1900004): debt with warrants, $750,000.
//   - 8-K  Northwind Analytics, Inc. (1900003): Item 5.02 with a CFO
//     retiring, a CFO appointed, a director elected, a director resigned.
//   - 8-K  Fernhill Biosystems Corp (1900005): Item 2.02 only.
//   - a Form 4, a 10-Q and an SC 13G/A the source does not read.
//
// Submissions records exist for every issuer; Acme's names a website
// (acme-robotics.example) and a former name, Northwind's a website and a
// ticker, Bluefield's and the fund's none. Every other day has no index
// (MissingStatus, 404 by default).
package sectest

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed fixtures
var fixtures embed.FS

// DefaultDay is the day the built-in daily index is for.
var DefaultDay = time.Date(2026, time.May, 4, 0, 0, 0, 0, time.UTC)

// Server is a fixture EDGAR. Its URL serves both hosts: use it as the
// source's archives base URL and data base URL. Safe for concurrent use.
type Server struct {
	*httptest.Server

	mu            sync.Mutex
	files         map[string][]byte // added or generated, by URL path
	latency       time.Duration
	throttleN     int
	throttleCode  int
	retryAfter    string
	missingStatus int
	requireEmail  bool
	requests      []Request
}

// Request is one request the server answered.
type Request struct {
	At time.Time // when it arrived

	Path      string
	UserAgent string
	Status    int
}

// New starts a fixture EDGAR with the built-in day; Close it when done.
func New() *Server {
	s := &Server{files: map[string][]byte{}, missingStatus: http.StatusNotFound}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// SetLatency delays every answer by d.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	s.latency = d
	s.mu.Unlock()
}

// Throttle makes the next n requests answer status: 429 with
// Retry-After retryAfter (left out when ""), or 403 with the SEC's
// "Request Rate Threshold Exceeded" page.
func (s *Server) Throttle(n, status int, retryAfter string) {
	s.mu.Lock()
	s.throttleN, s.throttleCode, s.retryAfter = n, status, retryAfter
	s.mu.Unlock()
}

// SetMissingStatus sets the status for paths the server does not hold:
// 404 (default) or 403, as the archive answers for some missing keys.
func (s *Server) SetMissingStatus(status int) {
	s.mu.Lock()
	s.missingStatus = status
	s.mu.Unlock()
}

// RequireContactEmail makes requests whose User-Agent holds no e-mail
// address get the SEC's 403 "Undeclared Automated Tool" page.
func (s *Server) RequireContactEmail(on bool) {
	s.mu.Lock()
	s.requireEmail = on
	s.mu.Unlock()
}

// Put serves body at path (an URL path such as /submissions/CIK0000000001.json).
func (s *Server) Put(path string, body []byte) {
	s.mu.Lock()
	s.files[path] = body
	s.mu.Unlock()
}

// Requests returns the requests answered so far, in the order their
// answers were written.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// MaxPerSecond is the largest number of requests that arrived within any
// one second (a half-open window starting at a request).
func (s *Server) MaxPerSecond() int {
	rs := s.Requests()
	slices.SortFunc(rs, func(a, b Request) int { return a.At.Compare(b.At) })
	best := 0
	for i := range rs {
		n := 0
		for j := i; j < len(rs) && rs[j].At.Sub(rs[i].At) < time.Second; j++ {
			n++
		}
		best = max(best, n)
	}
	return best
}

const throttlePage = `<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from
undeclared automated tools. Your request has been identified as part of a network of automated tools outside
of the acceptable policy and will be managed until action is taken to declare your traffic.</p>
<p>Request Rate Threshold Exceeded</p></body></html>`

var emailRe = regexp.MustCompile(`[^\s@()<>]+@[^\s@()<>]+\.[a-zA-Z]{2,}`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	s.mu.Lock()
	latency := s.latency
	status, retry := 0, ""
	if s.throttleN > 0 {
		s.throttleN--
		status, retry = s.throttleCode, s.retryAfter
	}
	if status == 0 && s.requireEmail && !emailRe.MatchString(r.UserAgent()) {
		status = http.StatusForbidden
	}
	missing := s.missingStatus
	s.mu.Unlock()
	if latency > 0 {
		select {
		case <-time.After(latency):
		case <-r.Context().Done():
			return
		}
	}
	body, ctype, ok := s.lookup(r.URL.Path)
	switch {
	case status == http.StatusForbidden:
		ctype, body = "text/html", []byte(throttlePage)
	case status != 0:
		if retry != "" {
			w.Header().Set("Retry-After", retry)
		}
		ctype, body = "text/plain", []byte("Too Many Requests\n")
	case !ok:
		status, ctype, body = missing, "application/xml", []byte("<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code></Error>\n")
	default:
		status = http.StatusOK
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{At: arrived, Path: r.URL.Path, UserAgent: r.UserAgent(), Status: status})
	s.mu.Unlock()
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// lookup finds an added file, then a fixture, then a generated filing
// index page for a Form D folder.
func (s *Server) lookup(p string) ([]byte, string, bool) {
	p = path.Clean(p)
	ctype := contentType(p)
	s.mu.Lock()
	b, ok := s.files[p]
	s.mu.Unlock()
	if ok {
		return b, ctype, true
	}
	if b, err := fs.ReadFile(fixtures, "fixtures"+p); err == nil {
		return b, ctype, true
	}
	if m := indexPageRe.FindStringSubmatch(p); m != nil {
		if doc, _, ok := s.lookup(path.Dir(p) + "/primary_doc.xml"); ok {
			return formDIndexPage(m[1], path.Dir(p), doc), "text/html", true
		}
	}
	return nil, "", false
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".json":
		return "application/json"
	case ".xml":
		return "application/xml"
	case ".htm", ".html":
		return "text/html"
	}
	return "text/plain"
}

var indexPageRe = regexp.MustCompile(`/(\d{10}-\d{2}-\d{6})-index\.htm$`)

// formDIndexPage is the filing index page of a Form D folder: the XML
// rendering under xslFormDX01/ and the raw primary_doc.xml.
func formDIndexPage(acc, folder string, doc []byte) []byte {
	form := "D"
	if bytes.Contains(doc, []byte("<submissionType>D/A</submissionType>")) {
		form = "D/A"
	}
	var b strings.Builder
	b.WriteString(`<html><head><title>EDGAR Filing Documents for ` + acc + `</title></head><body>
<div id="formDiv"><div id="formHeader"><div id="formName"><strong>Form ` + form + `</strong> - Notice of Exempt Offering of Securities:</div>
<div id="secNum"><strong>SEC Accession No.</strong> ` + acc + `</div></div>
<div class="formContent"><div class="formGrouping"><div class="infoHead">Filing Date</div><div class="info">` +
		DefaultDay.Format(time.DateOnly) + `</div></div></div></div>
<table class="tableFile" summary="Document Format Files">
<tr><th scope="col">Seq</th><th scope="col">Description</th><th scope="col">Document</th><th scope="col">Type</th><th scope="col">Size</th></tr>
<tr><td scope="row">1</td><td scope="row"></td><td scope="row"><a href="` + folder + `/xslFormDX01/primary_doc.xml">primary_doc.html</a></td><td scope="row">` + form + `</td><td scope="row">&nbsp;</td></tr>
<tr><td scope="row">1</td><td scope="row"></td><td scope="row"><a href="` + folder + `/primary_doc.xml">primary_doc.xml</a></td><td scope="row">` + form + `</td><td scope="row">` +
		strconv.Itoa(len(doc)) + `</td></tr>
</table></body></html>
`)
	return []byte(b.String())
}
