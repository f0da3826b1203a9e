// Package sources runs Prospector's own intelligence: it polls the public
// sources of watched companies (their job boards and websites), stores
// what they say through the store's rules (job openings, technologies,
// and the signals both produce), and schedules the polls as durable
// jobs.
//
// It depends on the root package only. The readers of each kind of
// source are given to it as small interfaces (Boards, Sites) that
// package sources/adapters implements over the boards, website and
// techdetect packages, so those technology packages never import each
// other and tests can inject faults; cmd/prospector wires them.
package sources

import (
	"context"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector"
)

// Store is what the poller reads and writes: the watch list it turns
// into targets, the targets it polls and their schedule, the companies a
// find is attributed to, and the job openings and technologies it
// records. Adding and removing watches is the CLI's, not the poller's.
type Store interface {
	Watches(ctx context.Context) ([]*prospector.Watch, error)
	SyncWatches(ctx context.Context, now time.Time) (prospector.WatchSync, error)
	EnsureCompanies(ctx context.Context, cs []*prospector.Company) (int, error)
	CompaniesByID(ctx context.Context, ids []int64) ([]*prospector.Company, error)
	AddTargets(ctx context.Context, ts []*prospector.SourceTarget, now time.Time) (added int, err error)
	Target(ctx context.Context, id int64) (*prospector.SourceTarget, error)
	ListTargets(ctx context.Context, f prospector.TargetFilter) ([]*prospector.SourceTarget, error)
	DueTargets(ctx context.Context, f prospector.DueFilter) ([]*prospector.SourceTarget, error)
	RecordPoll(ctx context.Context, targetID int64, o prospector.PollOutcome) (*prospector.SourceTarget, error)
	ApplyBoardPoll(ctx context.Context, p *prospector.BoardPoll) (prospector.BoardPollResult, error)
	ApplyBoardPolls(ctx context.Context, ps []*prospector.BoardPoll) ([]prospector.BoardPollResult, error)
	ApplyTechCrawl(ctx context.Context, c *prospector.TechCrawl) (prospector.TechCrawlResult, error)
}

// Boards reads job boards.
type Boards interface {
	// List fetches a board's open postings through f. board.Kind is the
	// board's endpoint ("greenhouse", "lever-eu"), as targets store it.
	// With validators of the last answer the request is conditional, and
	// an unchanged board gives a Listing with NotModified set. Every
	// error names the board; one that a host asked to retry later wraps
	// a *prospector.RetryLaterError.
	List(ctx context.Context, f prospector.Fetcher, board prospector.BoardRef, etag, lastModified string) (*Listing, error)
	// Recognize reads the board behind a URL found on a page; false when
	// it names none.
	Recognize(rawURL string) (prospector.BoardRef, bool)
	// Confirm compares the company name a board publishes with the
	// watched company, known by name (empty when unknown) and domain. It
	// returns prospector.NameConfirmed, NameMismatch, or NameUnchecked
	// when it cannot tell.
	Confirm(boardCompany, name, domain string) string
}

// Listing is one poll of a board.
type Listing struct {
	// Board is the board that answered: it differs from the one asked
	// when the vendor keeps the board in its other region.
	Board prospector.BoardRef
	// Company is the company name the board publishes ("" when its API
	// gives none, or when NotModified).
	Company     string
	NotModified bool
	// Postings are the board's open postings, each normalised.
	Postings           []prospector.JobPosting
	ETag, LastModified string
	Requests           int
}

// Sites reads fetched web pages.
type Sites interface {
	// Read analyses one fetched page: url is its final URL, after
	// redirects. It fails only when url is not an absolute http(s) URL.
	Read(url string, header http.Header, body []byte) (*Page, error)
}

// Page is what a company's page tells the sources.
type Page struct {
	URL   string
	Title string
	// Links are the URLs where job boards show up: anchors, iframes and
	// script sources, absolute, each once.
	Links []string
	// Feeds are its RSS, Atom and JSON feeds (kept for the news source).
	Feeds []string
	// Careers are the same-site links most likely to be the careers
	// page, best first.
	Careers []string
	// Technologies are the technologies detected on it, with evidence.
	Technologies []prospector.TechDetection
}

// Enqueuer stores a durable job (jobs.Runner does).
type Enqueuer interface {
	Enqueue(ctx context.Context, j *prospector.Job) (bool, error)
}

// timeNow is the default clock.
func timeNow() time.Time { return time.Now() }
