package prospector

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// JobPosting is one posting as a job board's API lists it, normalised
// by the board's adapter.
type JobPosting struct {
	ExternalID  string // the board's id of the posting; required
	Title       string
	Department  string
	Location    string
	CountryCode string // ISO 3166-1 alpha-2 when the location tells it
	Remote      bool
	URL         string
	PostedAt    *time.Time
	// SourceHash is the adapter's hash of what it read beyond these
	// fields (the description, say), so editing those counts as a
	// change too; empty when it keeps none.
	SourceHash string
}

// Bounds of a posting's text, in bytes, that Normalize applies.
const (
	maxPostingTitle = 500
	maxPostingText  = 300
	maxPostingID    = 200
)

// Normalize cleans a posting's text (no NUL, valid UTF-8, trimmed,
// bounded) and upper-cases the country code: what an
// adapter calls on every posting it returns.
func (p *JobPosting) Normalize() {
	p.ExternalID = cleanText(p.ExternalID, maxPostingID)
	p.Title = cleanText(p.Title, maxPostingTitle)
	p.Department = cleanText(p.Department, maxPostingText)
	p.Location = cleanText(p.Location, maxPostingText)
	p.CountryCode = upperASCII(cleanText(p.CountryCode, 2))
	p.URL = cleanText(p.URL, maxURLBytes)
	p.SourceHash = cleanText(p.SourceHash, maxPostingText)
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// Validate returns an EINVALID naming the field of a posting that cannot
// be stored: no external id, or text with a NUL byte or invalid UTF-8.
func (p *JobPosting) Validate() error {
	if p.ExternalID == "" {
		return Errorf(EINVALID, "external_id: required")
	}
	for _, f := range []struct{ name, v string }{{"external_id", p.ExternalID}, {"title", p.Title},
		{"department", p.Department}, {"location", p.Location}, {"country_code", p.CountryCode}, {"url", p.URL},
		{"source_hash", p.SourceHash}} {
		if err := checkText(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// ContentHash covers the fields an edit changes: title, department,
// location, country, remote, URL and the adapter's SourceHash. It leaves
// out the posted time, which some vendors bump whenever the description
// is touched (as boards.Posting.Hash does).
func (p *JobPosting) ContentHash() int64 {
	h := newContentHasher()
	h.str(p.Title, p.Department, p.Location, p.CountryCode, p.URL, p.SourceHash)
	if p.Remote {
		h.str("remote")
	}
	return h.sum()
}

// JobOpening is a posting as stored, with its provenance and life:
// FirstSeenAt and LastSeenAt are the first and last successful polls
// that listed it, ClosedAt the poll that closed it (nil while open), and
// Misses the successful polls in a row that did not list it.
type JobOpening struct {
	ID          int64
	CompanyID   int64
	Source      string // the board's vendor ("greenhouse")
	BoardToken  string
	ExternalID  string
	Title       string
	Level       string // taxonomy.ParseTitle of Title
	Function    string
	Department  string
	Location    string
	CountryCode string
	Remote      bool
	URL         string
	PostedAt    *time.Time
	FirstSeenAt time.Time
	LastSeenAt  time.Time
	ClosedAt    *time.Time
	Misses      int
	ContentHash int64
}

// BoardPoll is one successful poll of a board target: what ApplyBoardPoll
// stores. A failed poll is recorded with RecordPoll and closes nothing.
type BoardPoll struct {
	TargetID int64
	// Outcome is the poll's result (PollOK or PollNotModified), time,
	// validators and schedule.
	Outcome PollOutcome
	// Postings is everything the board lists, each normalised; ignored
	// when the outcome is PollNotModified.
	Postings []JobPosting
	// CompanyName is the company name the board's API returned, if any,
	// and NameCheck the caller's verdict on it.
	CompanyName string
	NameCheck   string
}

// Validate returns an EINVALID, before anything is written, when the
// poll failed (a failure is recorded with RecordPoll, never applied), its
// name check is unknown, or its company name or a posting cannot be
// stored.
func (p *BoardPoll) Validate() error {
	if err := p.Outcome.validateSuccess(); err != nil {
		return err
	}
	if err := checkText("company_name", p.CompanyName); err != nil {
		return err
	}
	switch p.NameCheck {
	case NameUnchecked, NameConfirmed, NameMismatch:
	default:
		return Errorf(EINVALID, "name_check: %q is not a name check", p.NameCheck)
	}
	if p.Outcome.Result == PollNotModified {
		return nil
	}
	for i := range p.Postings {
		if err := p.Postings[i].Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Same reports whether the poll lists what the board listed at its last
// successful poll, which t records: a 304, or postings with the
// PostingsHash t keeps.
func (p *BoardPoll) Same(t *SourceTarget) bool {
	if p.Outcome.Result == PollNotModified {
		return true
	}
	return t.ContentHash != nil && *t.ContentHash == PostingsHash(p.Postings)
}

// Record writes the poll onto its target: the schedule (AfterPoll), the
// hash of its postings (a 304 keeps the last one) and the board's
// company name and name check when the poll carries them.
func (p *BoardPoll) Record(t *SourceTarget) {
	t.AfterPoll(p.Outcome)
	if p.Outcome.Result == PollOK {
		h := PostingsHash(p.Postings)
		t.ContentHash = &h
	}
	if p.CompanyName != "" || p.NameCheck != "" {
		t.BoardCompanyName, t.NameCheck = cleanText(p.CompanyName, maxPostingText), p.NameCheck
	}
}

// Stale reports whether a poll at at is no later than the target's last
// success: the same poll applied again, which must write nothing.
func (t *SourceTarget) Stale(at time.Time) bool {
	return t.LastSuccessAt != nil && !at.UTC().Truncate(time.Microsecond).After(*t.LastSuccessAt)
}

// BoardPollOrder returns the indexes of ps in the order a store applies
// them in one transaction: by target, then by time. Every writer locks
// targets in the same order, so two batches never deadlock.
func BoardPollOrder(ps []*BoardPoll) []int {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ps[a].TargetID, ps[b].TargetID); c != 0 {
			return c
		}
		return ps[a].Outcome.At.Compare(ps[b].Outcome.At)
	})
	return idx
}

// BoardPollResult counts what one board poll changed.
type BoardPollResult struct {
	New      int
	Changed  int
	Reopened int
	Seen     int // listed again, unchanged
	Missed   int // absent for the first time: still open
	Closed   int
	Signals  int // company_hiring signals written
	// Duplicate is true when the poll was no later than the target's last
	// success: the same poll applied again (a job run twice). Nothing
	// was written.
	Duplicate bool
}

// JobOpeningFilter selects the openings of one company, newest first
// (FirstSeenAt, then id, descending).
type JobOpeningFilter struct {
	CompanyID  int64
	ActiveOnly bool       // only openings not closed
	Since      *time.Time // FirstSeenAt at or after
	Offset     int
	Limit      int
}

// JobOpeningStore keeps job openings.
type JobOpeningStore interface {
	// ApplyBoardPoll stores one successful poll of a board target in one
	// transaction: the openings PlanBoardPoll decides, a company_hiring
	// signal per new opening, and the poll's outcome on the target
	// (AfterPoll, the board's name check, the hash of its postings).
	// Polls of one board are serialised, so two nodes applying the same
	// poll at once write it once. A poll no later than the target's last
	// success is a Duplicate and writes nothing. EINVALID (nothing
	// written) when a posting is invalid or the outcome is a failure;
	// ErrNotFound when the target does not exist or is not a board.
	ApplyBoardPoll(ctx context.Context, p *BoardPoll) (BoardPollResult, error)
	// ApplyBoardPolls stores several polls in one transaction, each as
	// ApplyBoardPoll would, in BoardPollOrder, and returns their results
	// in the order given: what a poll cycle does with the polls of
	// unchanged boards, whose own transactions would cost more than the
	// little they write. Errors as ApplyBoardPoll's, for the whole batch:
	// nothing is written when one poll is refused.
	ApplyBoardPolls(ctx context.Context, ps []*BoardPoll) ([]BoardPollResult, error)
	// JobOpenings returns the openings matching f.
	JobOpenings(ctx context.Context, f JobOpeningFilter) ([]*JobOpening, error)
}
