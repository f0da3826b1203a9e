package boardtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// emptyPagePath is where unknown Personio boards are sent: a page that
// looks like an empty feed, as Personio's own redirect target does.
const emptyPagePath = "/personio-empty"

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == emptyPagePath {
		s.mu.Lock()
		s.empty++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		_, _ = w.Write([]byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<workzag-jobs></workzag-jobs>\n"))
		return
	}
	endpoint, segs := route(r)
	if _, known := kindOf(endpoint); !known {
		s.mu.Lock()
		root := s.root
		s.mu.Unlock()
		if root != "" {
			endpoint, segs = root, splitPath(r.URL)
		}
	}
	k, ok := kindOf(endpoint)
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	st := s.stats[endpoint]
	if st == nil {
		st = &Stats{}
		s.stats[endpoint] = st
	}
	st.Requests++
	latency := s.latency
	s.mu.Unlock()
	if latency > 0 {
		t := time.NewTimer(latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	token, resource, ok := parsePath(k.name, segs)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if f := s.takeFault(endpoint, token); f != nil {
		if f.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((f.retryAfter+time.Second-1)/time.Second)))
		}
		http.Error(w, http.StatusText(f.status), f.status)
		return
	}
	body, modified, company, found := s.answer(k, endpoint, token, r)
	if !found {
		k.unknownBoard(w, r, emptyPagePath)
		return
	}
	if resource == "board" {
		name, _ := json.Marshal(company)
		body = []byte(`{"name":` + string(name) + `,"content":"<p>Generated fixture board.</p>"}`)
	}
	w.Header().Set("Content-Type", k.contentType)
	w.Header().Set("ETag", etagOf(body))
	rec := &statusRecorder{ResponseWriter: w}
	http.ServeContent(rec, r, "", modified, bytes.NewReader(body))
	if rec.status == http.StatusNotModified {
		s.mu.Lock()
		st.NotModified++
		s.mu.Unlock()
	}
}

// answer returns the body a board gives to r, its last change and company.
func (s *Server) answer(k *kind, endpoint, token string, r *http.Request) ([]byte, time.Time, string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.boards[key(endpoint, token)]
	if b == nil {
		return nil, time.Time{}, "", false
	}
	switch {
	case b.raw != nil:
		return b.raw, b.modified, b.company, true
	case k.name == "smartrecruiters":
		return k.render(b, r), b.modified, b.company, true
	case b.cache == nil:
		b.cache = k.render(b, r)
	}
	return b.cache, b.modified, b.company, true
}

// takeFault returns the failure injected for a board or its endpoint, if
// any, counting it down.
func (s *Server) takeFault(endpoint, token string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range []string{key(endpoint, token), key(endpoint, "")} {
		f := s.faults[k]
		if f == nil {
			continue
		}
		if f.remaining > 0 {
			if f.remaining--; f.remaining == 0 {
				delete(s.faults, k)
			}
		}
		if st := s.stats[endpoint]; st != nil {
			st.Failed++
		}
		c := *f
		return &c
	}
	return nil
}

// route finds the endpoint a request is for, by Host for the vendors' own
// host names, else by the first path segment, and returns the remaining
// path segments; a token carried in the host comes first among them.
func route(r *http.Request) (string, []string) {
	host := strings.ToLower(r.Host)
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	segs := splitPath(r.URL)
	switch {
	case host == "boards-api.greenhouse.io":
		return "greenhouse", segs
	case host == "api.lever.co":
		return "lever", segs
	case host == "api.eu.lever.co":
		return "lever-eu", segs
	case host == "api.ashbyhq.com":
		return "ashby", segs
	case host == "apply.workable.com":
		return "workable", segs
	case host == "api.smartrecruiters.com":
		return "smartrecruiters", segs
	case strings.HasSuffix(host, ".recruitee.com"):
		return "recruitee", append([]string{strings.TrimSuffix(host, ".recruitee.com")}, segs...)
	case strings.HasSuffix(host, ".jobs.personio.de"):
		return "personio", append([]string{strings.TrimSuffix(host, ".jobs.personio.de")}, segs...)
	case strings.HasSuffix(host, ".jobs.personio.com"):
		return "personio-com", append([]string{strings.TrimSuffix(host, ".jobs.personio.com")}, segs...)
	}
	if len(segs) == 0 {
		return "", nil
	}
	return segs[0], segs[1:]
}

func splitPath(u *url.URL) []string {
	var segs []string
	for _, p := range strings.Split(u.EscapedPath(), "/") {
		if p == "" {
			continue
		}
		if v, err := url.PathUnescape(p); err == nil {
			p = v
		}
		segs = append(segs, p)
	}
	return segs
}

// parsePath reads the board token and the resource ("jobs", or "board"
// for Greenhouse's board endpoint) from a vendor path.
func parsePath(kind string, s []string) (token, resource string, ok bool) {
	match := func(pattern ...string) bool {
		if len(s) != len(pattern) {
			return false
		}
		for i, p := range pattern {
			if p == "*" {
				token = s[i]
			} else if s[i] != p {
				return false
			}
		}
		return token != ""
	}
	switch kind {
	case "greenhouse":
		if match("v1", "boards", "*", "jobs") {
			return token, "jobs", true
		}
		if match("v1", "boards", "*") {
			return token, "board", true
		}
	case "lever":
		ok = match("v0", "postings", "*")
	case "ashby":
		ok = match("posting-api", "job-board", "*")
	case "workable":
		ok = match("api", "v1", "widget", "accounts", "*")
	case "smartrecruiters":
		ok = match("v1", "companies", "*", "postings")
	case "recruitee":
		ok = match("*", "api", "offers")
	case "personio":
		ok = match("*", "xml")
	}
	return token, "jobs", ok
}

// statusRecorder remembers the status written through it.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}
