package sources

import (
	"context"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// pollBoard lists a board and stores the listing (openings, their
// hiring signals and the outcome, in one transaction), or records the
// failure. co caches company names; nil reads them from the store.
//
// The board's company name, when its API gives one, is checked against
// the watched company (Boards.Confirm). A board found on a page that
// names another company is recorded with the mismatch and its postings
// are not taken: the poll is stored as an empty listing, so nothing is
// opened (and openings it gave before close as they would had the board
// emptied). A board given with --board is the operator's word and is
// taken whatever its name; an unknown name is taken too.
//
// With bt set (a cycle), a poll listing what the last one did is kept in
// bt to be stored with others in one transaction; its Result's Openings
// are filled then, and it is marked deferred.
func (p *Poller) pollBoard(ctx context.Context, t *prospector.SourceTarget, co *companies, bt *batch) (*Result, error) {
	if co == nil {
		co = newCompanies(p.Store)
	}
	at := p.now()
	l, err := p.Boards.List(ctx, p.Fetcher, prospector.BoardRef{Kind: t.Board, Token: t.Ref}, t.ETag, t.LastModified)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return p.fail(ctx, t, at, err)
	}
	result := prospector.PollOK
	if l.NotModified {
		result = prospector.PollNotModified
	}
	poll := &prospector.BoardPoll{TargetID: t.ID, Outcome: p.outcome(t.Kind, at, result), Postings: l.Postings}
	poll.Outcome.ETag, poll.Outcome.LastModified = l.ETag, l.LastModified
	if l.Company != "" {
		name, err := co.name(ctx, t.CompanyID)
		if err != nil {
			return nil, fmt.Errorf("sources: company of %s: %w", Label(t), err)
		}
		poll.CompanyName = cleanName(l.Company)
		poll.NameCheck = p.Boards.Confirm(l.Company, name, t.Domain)
	}
	if poll.NameCheck == prospector.NameMismatch && t.Origin == prospector.OriginDiscovered {
		poll.Postings = []prospector.JobPosting{}
	}
	r := &Result{Target: t, Status: result, NameCheck: poll.NameCheck}
	if poll.NameCheck == prospector.NameMismatch {
		r.Error = fmt.Sprintf("the board names another company (%q)", poll.CompanyName)
		if t.Origin == prospector.OriginDiscovered {
			r.Status = StatusSkipped
		}
	}
	if poll.NameCheck == prospector.NameConfirmed {
		if err := co.learn(ctx, t.CompanyID, t.Domain, l.Company); err != nil {
			return nil, fmt.Errorf("sources: name of %s: %w", t.Domain, err)
		}
	}
	if bt != nil && poll.Validate() == nil && poll.Same(t) {
		// r is complete: once in the batch, another worker may store
		// and report it.
		r.deferred = true
		if ps, rs := bt.add(poll, r); ps != nil {
			if err := p.storeBatch(ctx, ps, rs); err != nil {
				return nil, err
			}
			return &Result{deferred: true, flushed: rs}, nil
		}
		return r, nil
	}
	res, err := p.Store.ApplyBoardPoll(ctx, poll)
	if err != nil {
		if storeError(err) {
			return nil, fmt.Errorf("sources: store poll of %s: %w", Label(t), err)
		}
		return p.fail(ctx, t, at, err)
	}
	r.Openings = res
	return r, nil
}
