package prospector

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prospectorhq/prospector/taxonomy"
)

// ClosingMisses is how many successful polls in a row must miss an
// opening before it is closed: a board that briefly drops a posting
// (a re-publish, a cache) does not close it.
const ClosingMisses = 2

// BoardPlan is what one successful poll of a board changes, as
// PlanBoardPoll decides it. Every opening in it carries its new values.
type BoardPlan struct {
	At     time.Time     // the poll's time, as stored (UTC, microseconds)
	Insert []*JobOpening // new openings (IDs unset)
	// Update are openings written whole: changed (another content hash)
	// or reopened (listed again after they closed).
	Update []*JobOpening
	Seen   []int64       // open, listed, unchanged: LastSeenAt and Misses move
	Missed []*JobOpening // open, absent: Misses grows, still open
	Close  []*JobOpening // absent ClosingMisses times in a row: ClosedAt set
	// Signals are the company_hiring signals of the new openings, and
	// those of changed and reopened ones with their current title and
	// URL (an upsert by ExternalID, so an unchanged one writes nothing).
	Signals []*Signal
	Result  BoardPollResult
}

// PlanBoardPoll applies the rules of job openings to one successful poll
// of board target t at time at. stored holds the board's openings that
// are open, and any closed ones the poll lists again (others are
// ignored); of each it reads only ID, ExternalID, ContentHash, Misses,
// ClosedAt and FirstSeenAt, so a store need read no more. When same is true the board answered what it answered last
// time (a 304, or the same PostingsHash), postings is ignored, and the
// poll lists exactly the openings the last one did: every open opening
// the last poll saw is seen again, and every one it missed is missed
// again.
//
// The rules: a posting not stored is new, and gets a company_hiring
// signal (title: the job title; source_url: the posting; detected_at:
// first seen; ExternalID from HiringSignalID, so re-polling creates
// nothing new). A stored open one is seen; if its content hash differs
// it is changed. A stored closed one that is listed again reopens: it
// keeps FirstSeenAt and its signal, and gets no new one (boards take a
// posting down and put the same one back). An open opening not listed
// is missed; at ClosingMisses misses in a row it closes at this poll. A
// failed poll never reaches this function, so it closes nothing.
//
// It returns an EINVALID when a posting is invalid (JobPosting.Validate);
// a posting listed twice counts once, with its first values.
func PlanBoardPoll(t *SourceTarget, stored []*JobOpening, postings []JobPosting, same bool, at time.Time) (*BoardPlan, error) {
	at = at.UTC().Truncate(time.Microsecond)
	plan := &BoardPlan{At: at}
	byID := make(map[string]*JobOpening, len(stored))
	for _, o := range stored {
		byID[o.ExternalID] = o
	}
	listed := make(map[string]bool, len(postings))
	if same {
		for _, o := range stored {
			if o.ClosedAt == nil && o.Misses == 0 {
				listed[o.ExternalID] = true
				plan.Seen = append(plan.Seen, o.ID)
			}
		}
		postings = nil
	}
	for i := range postings {
		p := &postings[i]
		if err := p.Validate(); err != nil {
			return nil, err
		}
		if listed[p.ExternalID] {
			continue
		}
		listed[p.ExternalID] = true
		hash := p.ContentHash()
		o, ok := byID[p.ExternalID]
		switch {
		case !ok:
			o = newOpening(t, p, hash, at)
			plan.Insert = append(plan.Insert, o)
			plan.Signals = append(plan.Signals, HiringSignal(t.Domain, o))
		case o.ClosedAt != nil:
			fillOpening(o, p, hash, at)
			plan.Update = append(plan.Update, o)
			plan.Signals = append(plan.Signals, HiringSignal(t.Domain, o))
			plan.Result.Reopened++
		case o.ContentHash != hash:
			fillOpening(o, p, hash, at)
			plan.Update = append(plan.Update, o)
			plan.Signals = append(plan.Signals, HiringSignal(t.Domain, o))
			plan.Result.Changed++
		default:
			o.LastSeenAt, o.Misses = at, 0
			plan.Seen = append(plan.Seen, o.ID)
		}
	}
	for _, o := range stored {
		if o.ClosedAt != nil || listed[o.ExternalID] {
			continue
		}
		o.Misses++
		if o.Misses >= ClosingMisses {
			closed := at
			o.ClosedAt = &closed
			plan.Close = append(plan.Close, o)
		} else {
			plan.Missed = append(plan.Missed, o)
		}
	}
	plan.Result.New, plan.Result.Seen = len(plan.Insert), len(plan.Seen)
	plan.Result.Missed, plan.Result.Closed = len(plan.Missed), len(plan.Close)
	return plan, nil
}

func newOpening(t *SourceTarget, p *JobPosting, hash int64, at time.Time) *JobOpening {
	o := &JobOpening{CompanyID: t.CompanyID, Source: t.Board, BoardToken: t.Ref, ExternalID: p.ExternalID,
		FirstSeenAt: at}
	fillOpening(o, p, hash, at)
	return o
}

// fillOpening writes a listed posting's content onto its opening, open
// and seen at at.
func fillOpening(o *JobOpening, p *JobPosting, hash int64, at time.Time) {
	ti := taxonomy.ParseTitle(p.Title)
	o.Title, o.Level, o.Function = p.Title, ti.Level, ti.Function
	o.Department, o.Location, o.CountryCode, o.Remote, o.URL = p.Department, p.Location, p.CountryCode, p.Remote, p.URL
	o.PostedAt = nil
	if p.PostedAt != nil {
		posted := p.PostedAt.UTC().Truncate(time.Microsecond)
		o.PostedAt = &posted
	}
	o.ContentHash, o.LastSeenAt, o.ClosedAt, o.Misses = hash, at, nil, 0
}

// HiringSignalID is the ExternalID of an opening's company_hiring
// signal: stable across polls, and distinct per company, so a board two
// watched companies both claim gives each its own signal.
func HiringSignalID(domain string, o *JobOpening) string {
	return "job:" + domain + ":" + o.Source + ":" + o.BoardToken + ":" + o.ExternalID
}

// HiringSignal is the company_hiring signal of an opening. Its detail
// starts with "Hiring", so the default job_posting_keywords of a radar
// tracking hiring (["hiring"]) match it, and names the department,
// location, remote and the board.
func HiringSignal(domain string, o *JobOpening) *Signal {
	companyID := o.CompanyID
	title := o.Title
	if title == "" {
		title = "Job opening " + o.ExternalID
	}
	parts := []string{"Hiring: " + title}
	for _, s := range []string{o.Department, o.Location} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if o.Remote {
		parts = append(parts, "remote")
	}
	parts = append(parts, "on the "+o.Source+" job board")
	return &Signal{ExternalID: HiringSignalID(domain, o), Type: "company_hiring", CompanyID: &companyID,
		CompanyDomain: domain, Title: title, Detail: strings.Join(parts, " · "), SourceURL: o.URL,
		DetectedAt: o.FirstSeenAt}
}

// PostingsHash is the hash of a board's whole listing, in any order: two
// polls with the same hash list the same postings with the same content.
// ApplyBoardPoll keeps it on the target to read an unchanged board like
// a 304.
func PostingsHash(ps []JobPosting) int64 {
	type entry struct {
		id   string
		hash int64
	}
	es := make([]entry, len(ps))
	for i := range ps {
		es[i] = entry{ps[i].ExternalID, ps[i].ContentHash()}
	}
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.id, b.id) })
	h := newContentHasher()
	for i, e := range es {
		if i > 0 && e.id == es[i-1].id {
			continue // listed twice: PlanBoardPoll keeps the first
		}
		h.str(e.id, strconv.FormatInt(e.hash, 36))
	}
	return h.sum()
}
