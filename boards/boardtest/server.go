package boardtest

import (
	"embed"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

//go:embed testdata
var fixtures embed.FS

// Fixture returns the fixture file of a kind ("greenhouse", "lever",
// "ashby", "workable", "smartrecruiters", "recruitee", "personio", or
// "greenhouse_board" for Greenhouse's board endpoint): three postings of
// a generated company in the vendor's documented format (Ashby's also
// holds an unlisted fourth). FixtureToken names the board it belongs to.
func Fixture(name string) []byte {
	for _, ext := range []string{".json", ".xml"} {
		if b, err := fixtures.ReadFile("testdata/" + name + ext); err == nil {
			return b
		}
	}
	panic("boardtest: no fixture " + name)
}

// FixtureToken is the board token the fixture of a kind was written for
// (its postings' URLs use it).
func FixtureToken(kind string) string {
	switch kind {
	case "greenhouse":
		return "quillfeather"
	case "lever", "lever-eu":
		return "bluefin"
	case "ashby":
		return "lumenpath"
	case "workable":
		return "tidewater"
	case "smartrecruiters":
		return "OrchardMetrics"
	case "recruitee":
		return "kestrel"
	case "personio", "personio-com":
		return "brightforge"
	}
	return ""
}

// Server is an httptest server answering as the board vendors' APIs do,
// for every endpoint name of the boards package: greenhouse, lever,
// lever-eu, ashby, workable, smartrecruiters, recruitee, personio and
// personio-com. Requests reach an endpoint in two ways:
//   - by path prefix: {URL}/{endpoint}/... (see BaseURLs), the form
//     --source-base-url NAME={URL}/{endpoint} gives; for Recruitee and
//     Personio the board's token is then the first segment after it;
//   - by Host, as --resolve gives: boards-api.greenhouse.io,
//     api.lever.co, api.eu.lever.co, api.ashbyhq.com, apply.workable.com,
//     api.smartrecruiters.com, {token}.recruitee.com,
//     {token}.jobs.personio.de and {token}.jobs.personio.com.
//
// Boards are added with AddFixture, AddBoard or AddGenerated; knobs add,
// edit and remove postings, inject failures, 429s and latency. Answers
// carry an ETag (a hash of the body) and Last-Modified (the board's last
// change), and conditional requests get 304. A board the server does not
// hold is answered as its vendor does (see the boards package). Safe for
// concurrent use.
type Server struct {
	*httptest.Server

	mu      sync.Mutex
	boards  map[string]*board // endpoint + "/" + token
	faults  map[string]*fault // same keys; endpoint + "/" for a whole endpoint
	stats   map[string]*Stats // per endpoint
	latency time.Duration
	root    string // the endpoint paths without a known prefix are for
	nextID  uint64
	empty   int // hits on the page unknown Personio boards redirect to
	// descSize is the size of the descriptions AddGenerated writes.
	descSize int
}

type board struct {
	endpoint, token string
	company         string
	items           [][]byte
	modified        time.Time
	raw             []byte // SetBody: served as is
	cache           []byte // rendered answer for the current items
}

type fault struct {
	status     int
	retryAfter time.Duration
	remaining  int // 0: until cleared
}

// Stats counts the requests an endpoint answered.
type Stats struct {
	Requests    int // every request, 304s and failures included
	NotModified int // answered 304
	Failed      int // answered by an injected failure
}

// NewServer starts a Server; close it with Close.
func NewServer() *Server {
	s := &Server{boards: map[string]*board{}, faults: map[string]*fault{}, stats: map[string]*Stats{}, nextID: 5_000_000}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURLs maps every endpoint name to this server, for
// boards.NewRegistry.
func (s *Server) BaseURLs() map[string]string {
	out := map[string]string{}
	for _, e := range []string{"greenhouse", "lever", "lever-eu", "ashby", "workable", "smartrecruiters", "recruitee",
		"personio", "personio-com"} {
		out[e] = s.URL + "/" + e
	}
	return out
}

func key(endpoint, token string) string { return endpoint + "/" + token }

// AddFixture adds the board token on endpoint with the kind's fixture
// postings (see Fixture).
func (s *Server) AddFixture(endpoint, token string) error {
	k, ok := kindOf(endpoint)
	if !ok {
		return fmt.Errorf("boardtest: unknown endpoint %q", endpoint)
	}
	return s.AddBoard(endpoint, token, Fixture(k.name))
}

// AddBoard adds (or replaces) a board from a document in the vendor's
// format; a nil doc is an empty board. The company name the board
// answers with is the one doc carries, if any (see SetCompany).
func (s *Server) AddBoard(endpoint, token string, doc []byte) error {
	k, ok := kindOf(endpoint)
	if !ok {
		return fmt.Errorf("boardtest: unknown endpoint %q", endpoint)
	}
	b := &board{endpoint: endpoint, token: token, modified: time.Now()}
	if doc != nil {
		var err error
		if b.company, b.items, err = k.split(doc); err != nil {
			return fmt.Errorf("boardtest: %s fixture: %w", endpoint, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boards[key(endpoint, token)] = b
	return nil
}

// AddGenerated adds a board of n generated postings (GenerateJobs(n,
// seed)) belonging to company.
func (s *Server) AddGenerated(endpoint, token, company string, n int, seed uint64) error {
	k, ok := kindOf(endpoint)
	if !ok {
		return fmt.Errorf("boardtest: unknown endpoint %q", endpoint)
	}
	jobs := GenerateJobs(n, seed)
	s.mu.Lock()
	for i := range jobs {
		s.nextID++
		jobs[i].ID = k.newID(s.nextID)
		if s.descSize > 0 {
			jobs[i].Description = GenerateDescription(s.descSize, seed<<8+uint64(i))
		}
	}
	s.mu.Unlock()
	b := &board{endpoint: endpoint, token: token, company: company, modified: time.Now(), items: make([][]byte, n)}
	for i, j := range jobs {
		b.items[i] = k.item(b, j)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boards[key(endpoint, token)] = b
	return nil
}

// SetDescriptionSize makes the postings AddGenerated adds from then on
// carry descriptions of about size bytes of text (in each vendor's
// fields for it: Greenhouse's escaped HTML content, Lever's and Ashby's
// HTML and plain text), as real boards' postings do; 0, the default,
// writes a one-line stub, which keeps tests' fixtures small.
func (s *Server) SetDescriptionSize(size int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.descSize = size
}

// RemoveBoard drops a board: it is then answered as unknown.
func (s *Server) RemoveBoard(endpoint, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.boards, key(endpoint, token))
}

// SetCompany sets the company name a board answers with (Greenhouse's
// board name and company_name, Workable's account name, SmartRecruiters'
// and Recruitee's company) for postings added from then on and, for
// Greenhouse and Workable, the board itself.
func (s *Server) SetCompany(endpoint, token, company string) {
	s.update(endpoint, token, func(b *board) { b.company = company })
}

// AddPosting appends j to a board and returns its id (j.ID, or the next
// one the server picks).
func (s *Server) AddPosting(endpoint, token string, j Job) (string, error) {
	k, ok := kindOf(endpoint)
	if !ok {
		return "", fmt.Errorf("boardtest: unknown endpoint %q", endpoint)
	}
	var err error
	s.mu.Lock()
	if j.ID == "" {
		s.nextID++
		j.ID = k.newID(s.nextID)
	}
	s.mu.Unlock()
	found := s.update(endpoint, token, func(b *board) { b.items = append(b.items, k.item(b, j)) })
	if !found {
		err = fmt.Errorf("boardtest: no board %s", key(endpoint, token))
	}
	return j.ID, err
}

// RemovePosting drops the posting with the vendor id id and reports
// whether there was one.
func (s *Server) RemovePosting(endpoint, token, id string) bool {
	k, _ := kindOf(endpoint)
	removed := false
	s.update(endpoint, token, func(b *board) {
		for i, it := range b.items {
			if k.id(it) == id {
				b.items = append(b.items[:i:i], b.items[i+1:]...)
				removed = true
				return
			}
		}
	})
	return removed
}

// SetTitle rewrites the title of the posting with id and reports whether
// there was one.
func (s *Server) SetTitle(endpoint, token, id, title string) bool {
	k, _ := kindOf(endpoint)
	done := false
	s.update(endpoint, token, func(b *board) {
		for i, it := range b.items {
			if k.id(it) == id {
				if out, err := k.setTitle(it, title); err == nil {
					b.items[i], done = out, true
				}
				return
			}
		}
	})
	return done
}

// PostingIDs returns a board's posting ids in order.
func (s *Server) PostingIDs(endpoint, token string) []string {
	k, _ := kindOf(endpoint)
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	if b := s.boards[key(endpoint, token)]; b != nil {
		for _, it := range b.items {
			ids = append(ids, k.id(it))
		}
	}
	return ids
}

// SetBody makes a board answer exactly body with status 200 (a malformed
// document, say) until cleared with a nil body.
func (s *Server) SetBody(endpoint, token string, body []byte) {
	s.update(endpoint, token, func(b *board) { b.raw = body })
}

// Fail makes the next times requests for a board (token "" for every
// board of the endpoint) answer status; times 0 fails until ClearFaults.
func (s *Server) Fail(endpoint, token string, status, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[key(endpoint, token)] = &fault{status: status, remaining: times}
}

// RateLimit makes the next times requests for a board (token "" for the
// whole endpoint) answer 429 with Retry-After in whole seconds.
func (s *Server) RateLimit(endpoint, token string, retryAfter time.Duration, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[key(endpoint, token)] = &fault{status: http.StatusTooManyRequests, retryAfter: retryAfter, remaining: times}
}

// ClearFaults removes every injected failure.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.faults)
}

// ServeAtRoot makes requests whose path names no endpoint (and whose Host
// is no vendor's) go to endpoint, so a server can stand for one vendor at
// its root: --source-base-url greenhouse=http://127.0.0.1:9001. Recruitee
// and Personio still take the token as the first path segment.
func (s *Server) ServeAtRoot(endpoint string) error {
	if _, ok := kindOf(endpoint); !ok {
		return fmt.Errorf("boardtest: unknown endpoint %q", endpoint)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.root = endpoint
	return nil
}

// SetLatency delays every answer by d.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// Stats returns the counts of an endpoint.
func (s *Server) Stats(endpoint string) Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.stats[endpoint]; st != nil {
		return *st
	}
	return Stats{}
}

// EmptyPageHits is how many requests reached the page unknown Personio
// boards redirect to: a client that follows the redirect lands there.
func (s *Server) EmptyPageHits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.empty
}

// update runs fn on a board under the lock, marks it modified and reports
// whether the board exists.
func (s *Server) update(endpoint, token string, fn func(*board)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.boards[key(endpoint, token)]
	if b == nil {
		return false
	}
	fn(b)
	b.cache = nil
	// Last-Modified has one-second resolution: a change must move it.
	now := time.Now().Truncate(time.Second)
	if !now.After(b.modified) {
		now = b.modified.Add(time.Second)
	}
	b.modified = now
	return true
}

func etagOf(body []byte) string {
	h := fnv.New64a()
	_, _ = h.Write(body)
	return fmt.Sprintf(`"%x"`, h.Sum64())
}
