package importer

import (
	"context"

	"github.com/prospectorhq/prospector"
)

// StoreSink writes generated batches (the demo generator's) to a store
// through the same derivations as an import, counting what it wrote.
type StoreSink struct {
	Store prospector.Store
	Stats prospector.UpsertResult
}

func (s *StoreSink) add(res prospector.UpsertResult, err error) error {
	s.Stats.Add(res)
	return err
}

// Companies upserts companies, filling their ids.
func (s *StoreSink) Companies(ctx context.Context, cs []*prospector.Company) error {
	return s.add(s.Store.UpsertCompanies(ctx, cs))
}

// People derives job level and function from titles and upserts.
func (s *StoreSink) People(ctx context.Context, ps []*prospector.Person) error {
	for _, p := range ps {
		DeriveTitle(p)
	}
	return s.add(s.Store.UpsertPeople(ctx, ps))
}

// Signals upserts signals.
func (s *StoreSink) Signals(ctx context.Context, ss []*prospector.Signal) error {
	return s.add(s.Store.UpsertSignals(ctx, ss))
}

// NewsEvents upserts news events.
func (s *StoreSink) NewsEvents(ctx context.Context, es []*prospector.NewsEvent) error {
	return s.add(s.Store.UpsertNewsEvents(ctx, es))
}

// FinancingEvents upserts financing events.
func (s *StoreSink) FinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) error {
	return s.add(s.Store.UpsertFinancingEvents(ctx, es))
}
