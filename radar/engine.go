// Package radar is the engine behind radars: it matches signals and
// people against each radar's configuration and turns every match into a
// lead of the radar's workspace. A new radar is backfilled from the data
// already stored (Engine.Backfill); new signals are then scanned
// incrementally for every radar (Engine.Scan), from a cursor each radar
// keeps in the store. Both run as durable jobs (package jobs), so they
// survive restarts and, with several nodes on PostgreSQL, each batch is
// applied once. Matching rules: docs/decisions.md ("Radars"); scores:
// docs/scoring.md.
package radar

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// Engine runs the radars of a store. Zero fields get the defaults
// documented on them.
type Engine struct {
	Store EngineStore
	// Searcher is the search index (required): it supplies the people a
	// company signal goes to, and the cards of companies and people that
	// a Catalog completes from the store.
	Searcher prospector.Index
	Logger   *slog.Logger // default slog.Default()
	// AutoSync, when set, makes each batch queue the auto-sync deliveries
	// of the leads it creates in its own transaction (LeadBatch.AutoSync).
	AutoSync prospector.AutoSyncFunc
	Now      func() time.Time
	// Window is how far back signals count: the backfill reads signals
	// detected in it, and the scan skips older ones; default 90 days.
	Window time.Duration
	// ScanBatch is the number of signals one scan transaction covers;
	// default 10,000.
	ScanBatch int
	// ScanBudget is how long one scan job runs before it returns and
	// lets the scheduler enqueue the next; default 20s.
	ScanBudget time.Duration
	// WriteBatch is the number of leads one backfill transaction writes;
	// default 2,000.
	WriteBatch int
}

// EngineStore is what the engine reads and writes: radars and the signals
// they match, the workspace's signal allowance, the lead batches it
// applies, and the cards a Catalog completes from the store.
type EngineStore interface {
	prospector.CatalogStore
	ListRadars(ctx context.Context) ([]*prospector.Radar, error)
	Radar(ctx context.Context, id string) (*prospector.Radar, error)
	RadarBacklog(ctx context.Context) (prospector.RadarBacklog, error)
	BackfillSignals(ctx context.Context, s prospector.BackfillScan) ([]prospector.SignalRef, error)
	SignalsByID(ctx context.Context, ids []int64) ([]*prospector.Signal, error)
	ListSignals(ctx context.Context, after int64, limit int) ([]*prospector.Signal, error)
	RadarSignalsUsed(ctx context.Context, workspaceID string, periodStart time.Time) (int64, error)
	WorkspaceByID(ctx context.Context, id string) (*prospector.Workspace, error)
	ApplyLeadBatch(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error)
}

// Defaults of the Engine fields.
const (
	DefaultWindow     = 90 * 24 * time.Hour
	DefaultScanBatch  = 10000
	DefaultScanBudget = 20 * time.Second
	DefaultWriteBatch = 2000
)

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Engine) logger() *slog.Logger {
	if e.Logger != nil {
		return e.Logger
	}
	return slog.Default()
}

// catalog reads cards from the index, and from the store for rows the
// index has not taken in yet.
func (e *Engine) catalog() prospector.Catalog {
	return prospector.Catalog{Index: e.Searcher, Store: e.Store}
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Stats count what a backfill or scan did.
type Stats struct {
	Signals int // signals read
	Batches int // transactions written
	prospector.LeadBatchResult
}

func (s *Stats) add(r prospector.LeadBatchResult) {
	s.Batches++
	s.LeadsCreated += r.LeadsCreated
	s.LeadsUpdated += r.LeadsUpdated
	s.SignalsAdded += r.SignalsAdded
	s.OverQuota += r.OverQuota
	s.AlreadyStored += r.AlreadyStored
}

// cards holds the companies and people a batch reads, from the
// searcher's cards and, for rows it has not indexed yet, the store.
type cards struct {
	e         *Engine
	companies map[int64]*companyInfo
	people    map[int64]*personInfo
	staff     map[int64][]*personInfo // a company's people, in the index's order
	fanouts   map[int64]int           // radars that fanned out at a company
}

func (e *Engine) newCards() *cards {
	return &cards{e: e, companies: map[int64]*companyInfo{}, people: map[int64]*personInfo{},
		staff: map[int64][]*personInfo{}, fanouts: map[int64]int{}}
}

// fanout returns the people a company signal goes to for radar m. The
// first radar to fan out at a company in a batch asks the index with its
// query, which reads only the cards of the people chosen; from the second
// on, the company's members are read once and each radar picks among them
// (m.pick, which answers as the index does).
func (c *cards) fanout(ctx context.Context, m *matcher, companyID int64) ([]int64, error) {
	c.fanouts[companyID]++
	if c.fanouts[companyID] == 1 {
		ids, err := c.e.Searcher.CompanyPeople(ctx, companyID, m.query)
		if err != nil {
			return nil, err
		}
		ids = ids[:min(len(ids), maxPerCompany)]
		return ids, c.loadPeople(ctx, ids)
	}
	members, err := c.members(ctx, companyID)
	if err != nil {
		return nil, err
	}
	return m.pick(members), nil
}

// members returns the people the index holds at the company, most senior
// first (then by id), as CompanyPeople orders them.
func (c *cards) members(ctx context.Context, companyID int64) ([]*personInfo, error) {
	if m, ok := c.staff[companyID]; ok {
		return m, nil
	}
	ids, err := c.e.Searcher.CompanyPeople(ctx, companyID, prospector.PersonQuery{})
	if err != nil {
		return nil, err
	}
	if err := c.loadPeople(ctx, ids); err != nil {
		return nil, err
	}
	m := make([]*personInfo, 0, len(ids))
	for _, id := range ids {
		if p := c.people[id]; p != nil {
			m = append(m, p)
		}
	}
	c.staff[companyID] = m
	return m, nil
}

func (c *cards) loadCompanies(ctx context.Context, ids []int64) error {
	var missing []int64
	for _, id := range ids {
		if _, ok := c.companies[id]; !ok && id > 0 {
			missing = append(missing, id)
			c.companies[id] = nil // unknown unless found below
		}
	}
	if len(missing) == 0 {
		return nil
	}
	found, err := c.e.catalog().CompanyCards(ctx, missing)
	for _, co := range found {
		c.companies[co.ID] = newCompanyInfo(co)
	}
	return err
}

func (c *cards) loadPeople(ctx context.Context, ids []int64) error {
	var missing []int64
	for _, id := range ids {
		if _, ok := c.people[id]; !ok && id > 0 {
			missing = append(missing, id)
			c.people[id] = nil
		}
	}
	if len(missing) == 0 {
		return nil
	}
	found, err := c.e.catalog().PersonCards(ctx, missing)
	for _, p := range found {
		c.people[p.ID] = newPersonInfo(p)
	}
	return err
}

// hit is one (radar, person, signal) match before scoring.
type hit struct {
	m      int
	person int64
	sig    *sigInfo
}

// match evaluates sigs against the matchers; eligible (nil: always)
// says whether matcher m is to see signal s at all. It returns the lead
// matches, best first.
func (e *Engine) match(ctx context.Context, ms []*matcher, sigs []*sigInfo, c *cards,
	eligible func(m int, s *sigInfo) bool) ([]prospector.LeadMatch, error) {
	byType := map[string][]int{}
	for i, m := range ms {
		for t := range m.types {
			byType[t] = append(byType[t], i)
		}
	}
	var companyIDs, personIDs []int64
	for _, s := range sigs {
		if len(byType[s.Type]) == 0 {
			continue
		}
		if s.CompanyID > 0 {
			companyIDs = append(companyIDs, s.CompanyID)
		}
		if s.PersonID > 0 {
			personIDs = append(personIDs, s.PersonID)
		}
	}
	if err := c.loadCompanies(ctx, companyIDs); err != nil {
		return nil, err
	}
	if err := c.loadPeople(ctx, personIDs); err != nil {
		return nil, err
	}
	type fanKey struct {
		m  int
		co int64
	}
	fanned := map[fanKey][]int64{}
	var hits []hit
	for _, s := range sigs {
		for _, i := range byType[s.Type] {
			m := ms[i]
			if eligible != nil && !eligible(i, s) {
				continue
			}
			co := c.companies[s.CompanyID]
			if !m.companyOK(co) || !m.textOK(s) {
				continue
			}
			if s.PersonID > 0 {
				if p := c.people[s.PersonID]; p != nil && m.personOK(p) {
					hits = append(hits, hit{i, s.PersonID, s})
				}
				continue
			}
			if co == nil {
				continue
			}
			k := fanKey{i, co.id}
			ids, done := fanned[k]
			if !done {
				var err error
				if ids, err = c.fanout(ctx, m, co.id); err != nil {
					return nil, err
				}
				fanned[k] = ids
			}
			for _, id := range ids {
				hits = append(hits, hit{i, id, s})
			}
		}
	}
	return e.leadMatches(ms, hits, c), nil
}

// leadMatches scores the hits and groups them by radar and person.
func (e *Engine) leadMatches(ms []*matcher, hits []hit, c *cards) []prospector.LeadMatch {
	now := e.now()
	type key struct {
		m      int
		person int64
	}
	index := map[key]*prospector.LeadMatch{}
	var out []*prospector.LeadMatch
	for _, h := range hits {
		p := c.people[h.person]
		if p == nil {
			continue // deleted since it was indexed
		}
		m := ms[h.m]
		co := c.companies[h.sig.CompanyID]
		sm := prospector.SignalMatch{SignalID: h.sig.ID, DetectedAt: h.sig.DetectedAt,
			Score: scoreMatch(m, h.sig, p, co, now)}
		k := key{h.m, h.person}
		lm := index[k]
		if lm == nil {
			lm = &prospector.LeadMatch{RadarID: m.radar.ID, WorkspaceID: m.radar.WorkspaceID, Lead: leadCard(p.card, co)}
			index[k] = lm
			out = append(out, lm)
		}
		lm.Signals = append(lm.Signals, sm)
	}
	return sortMatches(out)
}

// leadCard copies what a lead keeps of its person; the company is the
// signal's.
func leadCard(p *prospector.Person, co *companyInfo) prospector.Lead {
	first, last := prospector.SplitName(p.FullName)
	l := prospector.Lead{PersonID: p.ID, FullName: p.FullName, FirstName: first, LastName: last, Title: p.Title,
		Company: p.CompanyName, NetworkURL: p.NetworkURL, City: p.City, Region: p.Region, CountryCode: p.CountryCode}
	if co != nil {
		id := co.id
		l.CompanyID = &id
		if l.Company == "" {
			l.Company = co.card.Name
		}
	}
	return l
}

// sortSignals orders a match's signals best first, then newest.
func sortSignals(ss []prospector.SignalMatch) {
	slices.SortFunc(ss, func(a, b prospector.SignalMatch) int {
		if c := cmp.Compare(b.Score.Total, a.Score.Total); c != 0 {
			return c
		}
		if c := b.DetectedAt.Compare(a.DetectedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.SignalID, a.SignalID)
	})
}

// sortMatches sorts each match's signals and orders the matches by their
// best signal, so a quota that runs out keeps the best leads. It returns
// them as the values a LeadBatch holds.
func sortMatches(ms []*prospector.LeadMatch) []prospector.LeadMatch {
	for _, m := range ms {
		sortSignals(m.Signals)
	}
	slices.SortFunc(ms, func(a, b *prospector.LeadMatch) int {
		if c := cmp.Compare(b.Signals[0].Score.Total, a.Signals[0].Score.Total); c != 0 {
			return c
		}
		if c := b.Signals[0].DetectedAt.Compare(a.Signals[0].DetectedAt); c != 0 {
			return c
		}
		if c := cmp.Compare(a.RadarID, b.RadarID); c != 0 {
			return c
		}
		return cmp.Compare(a.Lead.PersonID, b.Lead.PersonID)
	})
	out := make([]prospector.LeadMatch, len(ms))
	for i, m := range ms {
		out[i] = *m
	}
	return out
}

// quotaLeft returns the radar signals the workspace has left this
// period, and false when it is unlimited or bypassed.
func (e *Engine) quotaLeft(ctx context.Context, workspaceID string) (int64, bool, error) {
	w, err := e.Store.WorkspaceByID(ctx, workspaceID)
	if err != nil {
		return 0, false, err
	}
	if !w.RadarSignals.Enforced() {
		return 0, false, nil
	}
	start, _ := prospector.BillingPeriod(w.PeriodStart, e.now())
	used, err := e.Store.RadarSignalsUsed(ctx, workspaceID, start)
	if err != nil {
		return 0, false, err
	}
	left, _ := w.RadarSignals.Remaining(used)
	return left, true, nil
}
