package sources

import (
	"context"
	"fmt"
	"sync"

	"github.com/prospectorhq/prospector"
)

// batchSize is how many polls of unchanged boards a cycle stores in one
// transaction. Such a poll writes little (the openings' last sighting,
// the schedule), and a transaction of its own cost a 304 poll three
// times as much CPU as the rest of its work together.
const batchSize = 100

// batch holds a cycle's polls of unchanged boards (prospector.BoardPoll
// Same) until there are batchSize of them, then they are stored
// together (Store.ApplyBoardPolls).
type batch struct {
	mu      sync.Mutex
	polls   []*prospector.BoardPoll
	results []*Result
}

// add keeps a poll and its result (whose Openings the store fills) and
// returns a full batch to store, if this poll filled one.
func (b *batch) add(p *prospector.BoardPoll, r *Result) ([]*prospector.BoardPoll, []*Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.polls, b.results = append(b.polls, p), append(b.results, r)
	if len(b.polls) < batchSize {
		return nil, nil
	}
	return b.take()
}

// take empties the batch and returns what it held; b.mu held.
func (b *batch) take() ([]*prospector.BoardPoll, []*Result) {
	ps, rs := b.polls, b.results
	b.polls, b.results = nil, nil
	return ps, rs
}

// rest empties the batch, at the end of a cycle.
func (b *batch) rest() ([]*prospector.BoardPoll, []*Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.take()
}

// storeBatch stores a batch in one transaction and fills its results.
// When the store refuses the batch, each poll is stored alone, so one
// refused poll fails itself (recorded on its target) and never the
// others; the error is the store's own.
func (p *Poller) storeBatch(ctx context.Context, ps []*prospector.BoardPoll, rs []*Result) error {
	if len(ps) == 0 {
		return nil
	}
	res, err := p.Store.ApplyBoardPolls(ctx, ps)
	if err == nil {
		for i, r := range rs {
			r.Openings = res[i]
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for i, poll := range ps {
		res, err := p.Store.ApplyBoardPoll(ctx, poll)
		if err == nil {
			rs[i].Openings = res
			continue
		}
		if storeError(err) {
			return fmt.Errorf("sources: store poll of %s: %w", Label(rs[i].Target), err)
		}
		failed, err := p.fail(ctx, rs[i].Target, poll.Outcome.At, err)
		if err != nil {
			return err
		}
		*rs[i] = *failed
	}
	return nil
}
