package importer

import (
	"context"

	"github.com/prospectorhq/prospector"
)

// StoreSink writes generated batches (the demo generator's) to a store
// through the same derivations as an import, in a bulk session committed
// every CommitSize records as an import is. Commit commits the rest;
// Close ends the session, dropping what was not committed.
type StoreSink struct {
	Store prospector.BulkStore
	// CommitSize is the records between commits; default DefaultCommitSize.
	CommitSize int

	c *committer // the session's, from the first write
}

// Stats counts what was committed.
func (s *StoreSink) Stats() prospector.UpsertResult {
	if s.c == nil {
		return prospector.UpsertResult{}
	}
	return s.c.committed
}

// write runs one upsert of n records in the session, committing when
// CommitSize records wait.
func (s *StoreSink) write(ctx context.Context, n int, upsert func(prospector.Bulk) (prospector.UpsertResult, error)) error {
	if s.c == nil || s.c.bulk == nil { // first write, or after Close
		b, err := s.Store.BeginBulk(ctx)
		if err != nil {
			return err
		}
		done := s.Stats()
		s.c = newCommitter(b, s.CommitSize)
		s.c.committed = done
	}
	res, err := upsert(s.c.bulk)
	if err != nil {
		return err
	}
	return s.c.wrote(ctx, n, res)
}

// Commit commits what is written so far.
func (s *StoreSink) Commit(ctx context.Context) error {
	if s.c == nil || s.c.bulk == nil {
		return nil
	}
	return s.c.commit(ctx)
}

// Close ends the session; what was written since the last Commit is
// rolled back. Stats still report what was committed.
func (s *StoreSink) Close() error {
	if s.c == nil || s.c.bulk == nil {
		return nil
	}
	err := s.c.bulk.Close()
	s.c.bulk = nil
	return err
}

// Companies upserts companies, filling their ids.
func (s *StoreSink) Companies(ctx context.Context, cs []*prospector.Company) error {
	return s.write(ctx, len(cs), func(b prospector.Bulk) (prospector.UpsertResult, error) { return b.UpsertCompanies(ctx, cs) })
}

// People derives job level and function from titles and upserts.
func (s *StoreSink) People(ctx context.Context, ps []*prospector.Person) error {
	for _, p := range ps {
		DeriveTitle(p)
	}
	return s.write(ctx, len(ps), func(b prospector.Bulk) (prospector.UpsertResult, error) { return b.UpsertPeople(ctx, ps) })
}

// Signals upserts signals.
func (s *StoreSink) Signals(ctx context.Context, ss []*prospector.Signal) error {
	return s.write(ctx, len(ss), func(b prospector.Bulk) (prospector.UpsertResult, error) { return b.UpsertSignals(ctx, ss) })
}

// NewsEvents upserts news events.
func (s *StoreSink) NewsEvents(ctx context.Context, es []*prospector.NewsEvent) error {
	return s.write(ctx, len(es), func(b prospector.Bulk) (prospector.UpsertResult, error) { return b.UpsertNewsEvents(ctx, es) })
}

// FinancingEvents upserts financing events.
func (s *StoreSink) FinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) error {
	return s.write(ctx, len(es), func(b prospector.Bulk) (prospector.UpsertResult, error) {
		return b.UpsertFinancingEvents(ctx, es)
	})
}
