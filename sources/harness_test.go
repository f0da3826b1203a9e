package sources_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/prospectorhq/prospector/boards/boardtest"
	"github.com/prospectorhq/prospector/fetch"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/sources/adapters"
	"github.com/prospectorhq/prospector/sources/sourcetest"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/techdetect"
)

// The company of the Greenhouse fixture, and a domain boards.Confirm
// matches with its name ("Quillfeather Systems, Inc.").
const (
	qfDomain = "quillfeather-systems.test"
	qfToken  = "quillfeather"
)

// harness is a poller over a temp-dir SQLite store, the board fixture
// server (behind a proxy that counts requests in flight) and a site
// fixture reached through Resolve, with the real fetch client.
type harness struct {
	t      *testing.T
	st     prospector.Store
	boards *boardtest.Server
	site   *sourcetest.Site
	client *fetch.Client
	poller *sources.Poller
	// boardInFlight is the most board requests ever in flight at once.
	mu            sync.Mutex
	inflight, max int
	boardStarts   []time.Time
}

type harnessOption func(*fetch.Config, *harness)

// onStore runs the harness on st instead of a temp-dir SQLite store.
func onStore(st prospector.Store) harnessOption {
	return func(_ *fetch.Config, h *harness) { h.st = st }
}

// fastSites paces the site fixture's hosts 20 ms apart instead of a
// second, for tests that are not about politeness.
func fastSites(hosts ...string) harnessOption {
	return func(c *fetch.Config, _ *harness) {
		for _, h := range hosts {
			c.Hosts[h] = fetch.HostPolicy{Concurrency: 1, Interval: 20 * time.Millisecond}
		}
	}
}

func newHarness(t *testing.T, siteHosts []string, opts ...harnessOption) *harness {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, st: st, boards: boardtest.NewServer(), site: sourcetest.NewSite()}
	t.Cleanup(h.boards.Close)
	t.Cleanup(h.site.Close)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.inflight++
		h.max = max(h.max, h.inflight)
		h.boardStarts = append(h.boardStarts, time.Now())
		h.mu.Unlock()
		defer func() { h.mu.Lock(); h.inflight--; h.mu.Unlock() }()
		h.boards.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	bases := map[string]string{}
	parsed := map[string]*url.URL{}
	for name, base := range h.boards.BaseURLs() {
		bases[name] = strings.Replace(base, h.boards.URL, proxy.URL, 1)
		parsed[name], _ = url.Parse(bases[name])
	}
	reg, err := boards.NewRegistry(bases)
	if err != nil {
		t.Fatal(err)
	}
	resolve := map[string]string{}
	for _, host := range siteHosts {
		resolve[host] = h.site.Addr()
	}
	cfg := fetch.Config{Version: "test", Contact: "ops@example.test", AllowPrivate: true, Resolve: resolve,
		Hosts: fetch.BaseURLPolicies(parsed)}
	for _, o := range opts {
		o(&cfg, h)
	}
	if h.client, err = fetch.New(cfg); err != nil {
		t.Fatal(err)
	}
	det, err := techdetect.Load()
	if err != nil {
		t.Fatal(err)
	}
	h.poller = &sources.Poller{Store: h.st, Fetcher: h.client, Boards: adapters.Boards{Registry: reg},
		Sites: adapters.Sites{Detector: det}, Logger: slog.New(slog.DiscardHandler)}
	return h
}

// watch watches domain with the boards given (SOURCE:TOKEN).
func (h *harness) watch(domain string, boardRefs ...string) {
	h.t.Helper()
	req := prospector.WatchRequest{Domain: domain, AddedBy: "test"}
	for _, b := range boardRefs {
		ref, err := boards.ParseRef(b)
		if err != nil {
			h.t.Fatal(err)
		}
		req.Boards = append(req.Boards, prospector.BoardRef{Kind: ref.Endpoint(), Token: ref.Token})
	}
	if _, err := h.st.AddWatches(context.Background(), []prospector.WatchRequest{req}, time.Now()); err != nil {
		h.t.Fatal(err)
	}
}

// cycle runs one cycle polling every matching target now.
func (h *harness) cycle(o sources.CycleOptions) *sources.Summary {
	h.t.Helper()
	o.All = true
	sum, err := h.poller.Cycle(context.Background(), o)
	if err != nil {
		h.t.Fatal(err)
	}
	return sum
}

// target returns the one target of domain of kind (and board).
func (h *harness) target(domain, kind, board string) *prospector.SourceTarget {
	h.t.Helper()
	ts, err := h.st.ListTargets(context.Background(), prospector.TargetFilter{Domain: domain, Kind: kind, Board: board})
	if err != nil || len(ts) != 1 {
		h.t.Fatalf("targets %s %s %s: %d, %v", domain, kind, board, len(ts), err)
	}
	return ts[0]
}

func (h *harness) company(domain string) *prospector.Company {
	h.t.Helper()
	co, err := h.st.CompanyByDomain(context.Background(), domain)
	if err != nil {
		h.t.Fatal(err)
	}
	return co
}

func (h *harness) openings(domain string, activeOnly bool) map[string]*prospector.JobOpening {
	h.t.Helper()
	os, err := h.st.JobOpenings(context.Background(), prospector.JobOpeningFilter{CompanyID: h.company(domain).ID,
		ActiveOnly: activeOnly, Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]*prospector.JobOpening{}
	for _, o := range os {
		out[o.ExternalID] = o
	}
	return out
}

func (h *harness) signals(domain, typ string) []*prospector.Signal {
	h.t.Helper()
	id := h.company(domain).ID
	ss, err := h.st.SignalFeed(context.Background(), prospector.SignalFeedFilter{Type: typ, CompanyID: &id, Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	return ss
}

// staticResolver answers every name it knows with one address.
type staticResolver map[string]string

func (r staticResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if a, ok := r[host]; ok {
		return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}
