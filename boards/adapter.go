// Package boards reads the public job boards companies hire through:
// Greenhouse, Lever (global and EU), Ashby, Workable, SmartRecruiters,
// Recruitee and Personio. One Adapter per kind lists a board's open
// postings, normalised to one Posting shape; Recognize tells a board from a
// URL found on a company's website; Confirm checks that the company a board
// names is the one being watched. Every request goes through a
// prospector.Fetcher, so pacing, robots and the SSRF guard are the
// fetcher's business, not the adapters'.
package boards

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// Adapter lists the postings of one kind of board.
type Adapter interface {
	// Kind is the board kind this adapter reads (KindGreenhouse, ...).
	Kind() string
	// List fetches the board's open postings. With non-empty validators
	// from the previous Listing the request is conditional, and an
	// unchanged board gives a Listing with NotModified set and no
	// postings. A board the vendor does not know gives an error matching
	// ErrNotFound; an answer that cannot be read gives one matching
	// ErrMalformed; any other refusal a *StatusError; transport failures
	// come from the Fetcher. Every error names the board ("lever:acme").
	// A ref whose token or region the kind does not accept is a validation
	// *prospector.Error, and nothing is fetched.
	List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error)
}

// Validators are what a board's last answer said to send next time for a
// conditional request. The zero value asks unconditionally.
type Validators struct {
	ETag         string
	LastModified string
}

// IsZero reports whether there is nothing to send.
func (v Validators) IsZero() bool { return v.ETag == "" && v.LastModified == "" }

// Listing is one poll of a board.
type Listing struct {
	// Ref is the board that answered. It differs from the Ref asked for
	// when the adapter found the board in its vendor's other region (a
	// Lever site on the EU instance, a Personio account on .com): store it
	// and poll that one from then on.
	Ref Ref
	// Company is the company name the board publishes (Greenhouse,
	// Workable, SmartRecruiters, Recruitee), for Confirm; "" when the API
	// gives none (Lever, Ashby, Personio) or the board was not modified.
	Company string
	// NotModified is true when the board is unchanged since the validators
	// sent; Postings is then nil and the previous postings still stand.
	NotModified bool
	// Postings are the board's open postings, in the board's order, one per
	// external id (the first wins); postings without an id or a title are
	// left out. An empty slice is an empty board.
	Postings []Posting
	// Validators are to be sent with the next poll of Ref; empty when the
	// board cannot be polled conditionally (a SmartRecruiters board of
	// several pages).
	Validators Validators
	// Requests is how many HTTP requests the poll made.
	Requests int
}

// Posting is one open job on a board, normalised across kinds.
type Posting struct {
	Source     string // the board kind: KindGreenhouse, ...
	Board      string // the board's token
	ExternalID string // the vendor's id of the posting, unique on its board
	Title      string
	// Level and Function are taxonomy.ParseTitle(Title)'s.
	Level       string
	Function    string
	Department  string
	Location    string // as the board writes it
	CountryCode string // ISO 3166-1 alpha-2; "" when it cannot be told
	Remote      bool   // the board's remote flag, or the location says so
	URL         string // the posting's public page
	PostedAt    time.Time
	UpdatedAt   time.Time // zero when the board does not say
	// ContentHash changes when a field that matters for an edit changes;
	// see (*Posting).Hash.
	ContentHash int64
}

// ErrNotFound matches the error of a board its vendor does not know (a 404,
// or for Personio a redirect): the board is gone or the token is wrong, as
// opposed to a failure to reach it.
var ErrNotFound = errors.New("board not found")

// ErrMalformed matches the error of an answer that could not be read as
// the vendor's format.
var ErrMalformed = errors.New("malformed board response")

// StatusError is an answer other than success, 304 and not-found: a 429 or
// 5xx the fetcher gave up retrying, a 401, and the like.
type StatusError struct {
	Ref        Ref
	Status     int
	RetryAfter time.Duration // from the Retry-After header; 0 when absent
}

func (e *StatusError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("boards: %s: HTTP %d (retry after %s)", e.Ref, e.Status, e.RetryAfter)
	}
	return fmt.Sprintf("boards: %s: HTTP %d", e.Ref, e.Status)
}

func notFound(ref Ref) error { return fmt.Errorf("boards: %s: %w", ref, ErrNotFound) }

func malformed(ref Ref, err error) error {
	return fmt.Errorf("boards: %s: %w: %w", ref, ErrMalformed, err)
}
