package prospector

import (
	"context"
	"regexp"
	"strings"
	"time"
)

// Kinds of source target: what one row of the poll schedule fetches.
const (
	TargetBoard    = "board"    // a job board's API: Board names the vendor, Ref the board token
	TargetHomepage = "homepage" // a watched company's homepage
	TargetCareers  = "careers"  // a careers page found on the homepage
	TargetFeed     = "feed"     // an RSS or Atom feed
	// TargetGDELT is a GDELT DOC search for the company's name: Ref is
	// the name searched, not a URL (the API's base URL is the source's
	// setting), so a renamed company gets a new target.
	TargetGDELT = "gdelt"
)

// How a target became known.
const (
	OriginFlag       = "flag"       // watch add --board or --feed
	OriginWatch      = "watch"      // the homepage of a domain given to watch add
	OriginRadar      = "radar"      // the homepage of a company a radar names
	OriginDiscovered = "discovered" // found on a page; DiscoveredOn names it
)

// Board name checks: whether the company name a board's API returns
// matches the company the board is filed under (another company can own
// a slug).
const (
	NameUnchecked = ""          // the board gives no name, or nobody compared it
	NameConfirmed = "confirmed" // the board's name is the company's
	NameMismatch  = "mismatch"  // the board names another company
)

// SourceTarget is one thing polled on a schedule: a job board, a
// homepage, a careers page or a feed, always on behalf of one company.
// Its natural key is (CompanyID, Kind, Board, Ref).
type SourceTarget struct {
	ID        int64
	CompanyID int64
	Domain    string // the company's domain, read with the target
	Kind      string // one of the Target* kinds
	Board     string // the board vendor ("greenhouse") of a board target, else ""
	// Ref is the board token of a board target, else the URL polled.
	Ref          string
	Origin       string // one of the Origin* values
	DiscoveredOn string // the page a discovered target was found on
	// ETag and LastModified are the validators of the last successful
	// fetch, sent back to make the next one conditional.
	ETag         string
	LastModified string
	// ContentHash is the hash of what the last successful poll read (for
	// a board, PostingsHash of its postings); nil before one.
	ContentHash   *int64
	LastPollAt    *time.Time
	LastSuccessAt *time.Time
	NextPollAt    time.Time
	// Failures counts the failed polls since the last success.
	Failures    int
	LastError   string
	PausedUntil *time.Time
	// BoardCompanyName is the company name the board's API gave, and
	// NameCheck the verdict on it (one of the Name* values).
	BoardCompanyName string
	NameCheck        string
	CreatedAt        time.Time
}

// HomepageTarget is the homepage target of a watched domain: its
// https root, due at once.
func HomepageTarget(companyID int64, domain, origin string) *SourceTarget {
	return &SourceTarget{CompanyID: companyID, Domain: domain, Kind: TargetHomepage, Ref: "https://" + domain + "/",
		Origin: origin}
}

// boardShape is a board vendor's name: the boards package's kinds
// ("greenhouse", "lever_eu"), which the root does not list.
var boardShape = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// maxBoardToken bounds a board token, in bytes.
const maxBoardToken = 200

// Validate returns an EINVALID naming the field that is malformed: an
// unknown kind or origin, a board vendor on a target that is not a board
// (or none on one), a board token that is empty, long or holds spaces, a
// URL that is not http(s), or text with a NUL byte.
func (t *SourceTarget) Validate() error {
	switch t.Kind {
	case TargetBoard:
		if !boardShape.MatchString(t.Board) {
			return Errorf(EINVALID, "board: %q is not a board kind", t.Board)
		}
		if err := checkText("token", t.Ref); err != nil {
			return err
		}
		if t.Ref == "" || len(t.Ref) > maxBoardToken || strings.ContainsAny(t.Ref, " \t\r\n/?#") {
			return Errorf(EINVALID, "token: %q is not a board token", t.Ref)
		}
	case TargetHomepage, TargetCareers, TargetFeed:
		if t.Board != "" {
			return Errorf(EINVALID, "board: only board targets name one")
		}
		if err := checkWebURL("url", t.Ref); err != nil {
			return err
		}
	case TargetGDELT:
		if t.Board != "" {
			return Errorf(EINVALID, "board: only board targets name one")
		}
		if err := checkText("name", t.Ref); err != nil {
			return err
		}
		if strings.TrimSpace(t.Ref) == "" || len(t.Ref) > maxIssuerText {
			return Errorf(EINVALID, "name: %q is not a company name to search", t.Ref)
		}
	default:
		return Errorf(EINVALID, "kind: %q is not a target kind", t.Kind)
	}
	switch t.Origin {
	case OriginFlag, OriginWatch, OriginRadar:
	case OriginDiscovered:
		if err := checkWebURL("discovered_on", t.DiscoveredOn); err != nil {
			return err
		}
	default:
		return Errorf(EINVALID, "origin: %q is not a target origin", t.Origin)
	}
	if t.CompanyID <= 0 {
		return Errorf(EINVALID, "company_id: required")
	}
	return nil
}

// Target health, as sources list and status show it.
const (
	HealthNew     = "new"     // never polled
	HealthOK      = "ok"      // the last poll succeeded
	HealthFailing = "failing" // the last poll failed, below the pause threshold
	HealthPaused  = "paused"  // failed TargetFailureThreshold times or more; waits until PausedUntil
)

// Health returns the target's health at now.
func (t *SourceTarget) Health(now time.Time) string {
	switch {
	case t.PausedUntil != nil && t.PausedUntil.After(now):
		return HealthPaused
	case t.Failures > 0:
		return HealthFailing
	case t.LastPollAt == nil:
		return HealthNew
	}
	return HealthOK
}

// Poll results.
const (
	PollOK          = "ok"           // the resource was read
	PollNotModified = "not_modified" // a conditional request answered 304
	PollFailed      = "failed"       // nothing usable came back
)

// PollOutcome is what one poll of a target came to, as the poller
// reports it; AfterPoll turns it into the target's new schedule.
type PollOutcome struct {
	At     time.Time
	Result string // one of the Poll* results
	// ETag and LastModified are the new validators of a successful poll;
	// empty ones keep the stored ones (a 304 need not repeat them).
	ETag         string
	LastModified string
	Error        string // why a failed poll failed; kept as LastError
	// RetryAt is when a host that answered 429 or 503 asked to be
	// polled again (RetryLaterError.Until); zero when it did not.
	RetryAt time.Time
	// Interval is the target's regular interval (PollIntervals.For);
	// Jitter, in [0, 1), spreads next polls over ±JitterFraction of it so
	// targets added together do not stay in step.
	Interval time.Duration
	Jitter   float64
}

// Validate returns an EINVALID unless the result is one of the Poll*
// results.
func (o *PollOutcome) Validate() error {
	switch o.Result {
	case PollOK, PollNotModified, PollFailed:
		return nil
	}
	return Errorf(EINVALID, "result: %q is not a poll result", o.Result)
}

// validateSuccess is Validate for what only a successful poll may carry.
func (o *PollOutcome) validateSuccess() error {
	if o.Result == PollFailed {
		return Errorf(EINVALID, "result: a failed poll is recorded with RecordPoll, never applied")
	}
	return o.Validate()
}

// JitterFraction is how far a poll's next time may move from the
// regular interval, either way.
const JitterFraction = 0.1

// AfterPoll applies a poll's outcome to the target's schedule and
// health. A success (or a 304) clears the failures and schedules the
// next poll one jittered interval later; a failure counts, and waits the
// later of the interval and TargetBackoff of the failures so far, and of
// RetryAt. From TargetFailureThreshold failures on, PausedUntil says
// until when the target waits.
func (t *SourceTarget) AfterPoll(o PollOutcome) {
	at := o.At.UTC().Truncate(time.Microsecond)
	t.LastPollAt = &at
	wait := jittered(o.Interval, o.Jitter)
	if o.Result != PollFailed {
		t.LastSuccessAt = &at
		t.Failures, t.LastError, t.PausedUntil = 0, "", nil
		if o.ETag != "" || o.LastModified != "" {
			t.ETag, t.LastModified = cleanText(o.ETag, maxValidator), cleanText(o.LastModified, maxValidator)
		}
		t.NextPollAt = at.Add(wait)
		return
	}
	t.Failures++
	t.LastError = cleanText(o.Error, maxPollError)
	t.PausedUntil = nil
	if b := TargetBackoff(t.Failures); b > 0 {
		until := at.Add(b)
		t.PausedUntil = &until
		wait = max(wait, b)
	}
	next := at.Add(wait)
	if retry := o.RetryAt.UTC().Truncate(time.Microsecond); retry.After(next) {
		next = retry
	}
	t.NextPollAt = next
}

// Bounds of what AfterPoll keeps of a poll, in bytes.
const (
	maxPollError = 500
	maxValidator = 512
)

// jittered moves d by up to ±JitterFraction; jitter in [0, 1) picks
// where (0.5 leaves it unchanged).
func jittered(d time.Duration, jitter float64) time.Duration {
	jitter = min(max(jitter, 0), 1)
	return d + time.Duration(float64(d)*JitterFraction*(2*jitter-1))
}

// PollIntervals are the regular intervals between polls of each kind of
// target; DefaultPollIntervals are the documented defaults.
type PollIntervals struct {
	Board   time.Duration
	Website time.Duration // homepage and careers pages
	Feed    time.Duration
}

// DefaultPollIntervals: boards every 6 hours, websites daily, feeds
// every 6 hours.
var DefaultPollIntervals = PollIntervals{Board: 6 * time.Hour, Website: 24 * time.Hour, Feed: 6 * time.Hour}

// For returns the interval of a kind of target; an unknown kind gets the
// website interval, the most sparing.
func (p PollIntervals) For(kind string) time.Duration {
	switch kind {
	case TargetBoard:
		return p.Board
	case TargetFeed:
		return p.Feed
	}
	return p.Website
}

// TargetFilter selects targets for sources list and status. Zero fields
// do not filter; targets come by id, after AfterID, at most Limit (0: all).
type TargetFilter struct {
	CompanyID int64
	Domain    string // the company's normalised domain
	Kind      string
	Board     string
	AfterID   int64
	Limit     int
}

// DueFilter selects the targets a poll cycle should fetch now: those of
// watched companies whose NextPollAt has come and which are not paused,
// soonest first, of Kinds (empty: any), at most Limit.
type DueFilter struct {
	Now   time.Time
	Kinds []string
	Limit int
}

// TargetSummary counts the targets of one kind (and board vendor) for
// sources list.
type TargetSummary struct {
	Kind    string
	Board   string
	Targets int
	Due     int // of watched companies, due at the summary's time
	Failing int // one failure or more
	Paused  int
	// LastPollAt is the most recent poll of any of them; nil when none.
	LastPollAt *time.Time
}

// TargetStore keeps the poll schedule.
type TargetStore interface {
	// AddTargets inserts the targets not stored yet, due at once, and
	// fills every target's ID (and Domain) with the stored row's; a
	// target already stored keeps its schedule and origin, except that a
	// flag claims a discovered target (its Origin becomes OriginFlag).
	// EINVALID (nothing written) when a target's kind, board or ref is
	// malformed or holds a NUL; ErrNotFound when a company does not exist.
	AddTargets(ctx context.Context, ts []*SourceTarget, now time.Time) (added int, err error)
	// Target returns one target; ErrNotFound when there is none.
	Target(ctx context.Context, id int64) (*SourceTarget, error)
	// ListTargets returns the targets matching f, by id.
	ListTargets(ctx context.Context, f TargetFilter) ([]*SourceTarget, error)
	// DueTargets returns the targets due under f.
	DueTargets(ctx context.Context, f DueFilter) ([]*SourceTarget, error)
	// RecordPoll applies a poll's outcome to a target (AfterPoll) and
	// returns it as stored. Board polls that succeed go through
	// ApplyBoardPoll and homepage crawls through ApplyTechCrawl instead,
	// which record them in the same transaction as what they read.
	// ErrNotFound when the target does not exist.
	RecordPoll(ctx context.Context, targetID int64, o PollOutcome) (*SourceTarget, error)
	// SummarizeTargets counts the targets per kind and board vendor at now.
	SummarizeTargets(ctx context.Context, now time.Time) ([]TargetSummary, error)
}
