// Package adapters implements the interfaces of package sources over the
// technology packages: Boards over package boards, Sites over website
// and techdetect. It is the one place where they meet, so that none of
// them imports another; cmd/prospector and tests wire it.
package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards"
	"github.com/prospectorhq/prospector/sources"
)

// Boards reads job boards through a boards.Registry.
type Boards struct {
	Registry *boards.Registry
}

var _ sources.Boards = Boards{}

// List lists a board's postings (boards.Adapter.List), normalised into
// the root's JobPosting. A refusal that carries Retry-After wraps a
// *prospector.RetryLaterError, so the poller comes back then.
func (b Boards) List(ctx context.Context, f prospector.Fetcher, board prospector.BoardRef, etag, lastModified string) (*sources.Listing, error) {
	ref, err := boards.ParseRef(board.Kind + ":" + board.Token)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", board, err)
	}
	l, err := b.Registry.List(ctx, f, ref, boards.Validators{ETag: etag, LastModified: lastModified})
	if err != nil {
		var se *boards.StatusError
		if errors.As(err, &se) && se.RetryAfter > 0 {
			return nil, fmt.Errorf("%w (%w)", err, &prospector.RetryLaterError{Host: board.String(), Status: se.Status,
				Until: time.Now().Add(se.RetryAfter)})
		}
		return nil, err
	}
	out := &sources.Listing{Board: prospector.BoardRef{Kind: l.Ref.Endpoint(), Token: l.Ref.Token},
		Company: l.Company, NotModified: l.NotModified, ETag: l.Validators.ETag,
		LastModified: l.Validators.LastModified, Requests: l.Requests,
		Postings: make([]prospector.JobPosting, 0, len(l.Postings))}
	for i := range l.Postings {
		out.Postings = append(out.Postings, JobPosting(&l.Postings[i]))
	}
	return out, nil
}

// JobPosting is a board's posting as the store takes it, normalised.
func JobPosting(p *boards.Posting) prospector.JobPosting {
	jp := prospector.JobPosting{ExternalID: p.ExternalID, Title: p.Title, Department: p.Department,
		Location: p.Location, CountryCode: p.CountryCode, Remote: p.Remote, URL: p.URL}
	if !p.PostedAt.IsZero() {
		t := p.PostedAt
		jp.PostedAt = &t
	}
	jp.Normalize()
	return jp
}

// Recognize reads the board behind a URL (boards.Recognize); the kind
// is the board's endpoint, as targets store it.
func (Boards) Recognize(rawURL string) (prospector.BoardRef, bool) {
	ref, ok := boards.Recognize(rawURL)
	if !ok {
		return prospector.BoardRef{}, false
	}
	return prospector.BoardRef{Kind: ref.Endpoint(), Token: ref.Token}, true
}

// Confirm is boards.Confirm as a name check.
func (Boards) Confirm(boardCompany, name, domain string) string {
	switch boards.Confirm(boardCompany, name, domain) {
	case boards.ConfirmMatch:
		return prospector.NameConfirmed
	case boards.ConfirmMismatch:
		return prospector.NameMismatch
	}
	return prospector.NameUnchecked
}
