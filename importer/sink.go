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
	Store prospector.Store
	// CommitSize is the records between commits; default DefaultCommitSize.
	CommitSize int
	// Stats counts what was committed.
	Stats prospector.UpsertResult

	bulk    prospector.Bulk
	pending prospector.UpsertResult
	rows    int
}

// write runs one upsert of n records in the session, committing when
// CommitSize records wait.
func (s *StoreSink) write(ctx context.Context, n int, upsert func(prospector.Bulk) (prospector.UpsertResult, error)) error {
	if s.bulk == nil {
		b, err := s.Store.BeginBulk(ctx)
		if err != nil {
			return err
		}
		s.bulk = b
	}
	res, err := upsert(s.bulk)
	if err != nil {
		return err
	}
	s.pending.Add(res)
	size := s.CommitSize
	if size <= 0 {
		size = DefaultCommitSize
	}
	if s.rows += n; s.rows >= size {
		return s.commit(ctx)
	}
	return nil
}

// Commit commits what is written so far.
func (s *StoreSink) Commit(ctx context.Context) error {
	if s.bulk == nil {
		return nil
	}
	return s.commit(ctx)
}

func (s *StoreSink) commit(ctx context.Context) error {
	if err := s.bulk.Commit(ctx); err != nil {
		return err
	}
	s.Stats.Add(s.pending)
	s.pending, s.rows = prospector.UpsertResult{}, 0
	return nil
}

// Close ends the session; what was written since the last Commit is
// rolled back.
func (s *StoreSink) Close() error {
	if s.bulk == nil {
		return nil
	}
	err := s.bulk.Close()
	s.bulk, s.pending, s.rows = nil, prospector.UpsertResult{}, 0
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
