// Package demo generates realistic, deterministic and obviously
// synthetic prospecting data: companies, their people, buying signals,
// news and financing events.
//
// Nothing describes a real person or company: names are drawn from word
// tables, every domain is under the reserved .example TLD, profile URLs
// are under network.example and sources under news.example. The same
// Config always produces the same data, and memory stays flat whatever
// the totals: the generator works a chunk of companies at a time and
// keeps only counters, the random streams and fixed-size tables.
package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/prospectorhq/prospector"
)

// Config sizes one generation.
type Config struct {
	Companies int // e.g. 2,000 for serve's small demo, up to 200,000
	People    int // spread over the companies, bigger ones getting more
	Seed      int64
	// Now is the reference time: detected_at and found_at are spread
	// over the 180 days before it. It is required, so that a run never
	// depends on the clock.
	Now time.Time
}

// Sink receives batches in dependency order: a chunk's companies, then
// their people, then signals and events that refer to both. Companies
// and People must fill each item's ID; the generator uses those IDs for
// the references that follow. Generate does not touch an item again
// once its batch is handed over, so a sink may keep them.
type Sink interface {
	Companies(ctx context.Context, cs []*prospector.Company) error
	People(ctx context.Context, ps []*prospector.Person) error
	Signals(ctx context.Context, ss []*prospector.Signal) error
	NewsEvents(ctx context.Context, es []*prospector.NewsEvent) error
	FinancingEvents(ctx context.Context, es []*prospector.FinancingEvent) error
}

// Progress is the cumulative count of items handed to the sink.
type Progress struct{ Companies, People, Signals, NewsEvents, FinancingEvents int }

const (
	chunkCompanies = 1000  // companies generated and emitted together
	batchSize      = 10000 // most people or signals in one sink call: big batches amortise index writes
)

// generator is the state of one Generate call: the random streams and
// counters, the fixed-size uniqueness tables, and the pending batches.
type generator struct {
	cfg  Config
	sink Sink
	now  time.Time
	salt uint32 // varies slugs with the seed

	r     *rand.Rand
	sizes *rand.Rand // headcounts only, replayed once to total the weights

	totalWeight, cumWeight float64
	companySeq, assigned   int // companies begun, people assigned to them

	personSeq, signalSeq, newsSeq, financingSeq int

	domainUses []uint16 // by (brand, noun): how many domains share it
	emailSeen  []uint32 // stamp per address hash slot, see emailSlots
	emailStamp uint32

	progress Progress
	people   []*prospector.Person // not yet handed to the sink
	signals  []*prospector.Signal
}

// Generate streams cfg.Companies companies and exactly cfg.People people,
// with their signals and events, into sink, calling progress (when not
// nil) after each chunk. It returns an error for a negative count,
// people without companies or a zero Now, ctx's error when it is
// cancelled, and the first sink error, wrapped.
func Generate(ctx context.Context, cfg Config, sink Sink, progress func(Progress)) error {
	switch {
	case cfg.Companies < 0 || cfg.People < 0:
		return errors.New("demo: negative count")
	case cfg.People > 0 && cfg.Companies == 0:
		return errors.New("demo: people need at least one company")
	case cfg.Now.IsZero():
		return errors.New("demo: Config.Now is required")
	}
	g := &generator{
		cfg:        cfg,
		sink:       sink,
		now:        cfg.Now.UTC(),
		salt:       scramble(uint32(cfg.Seed) ^ uint32(uint64(cfg.Seed)>>32)),
		r:          newRand(cfg.Seed, streamMain),
		domainUses: make([]uint16, len(brandHeads)*len(brandTails)*len(nouns)),
		emailSeen:  make([]uint32, emailSlots),
	}
	sizes := newRand(cfg.Seed, streamSizes)
	for range cfg.Companies {
		g.totalWeight += peopleWeight(sampleSize(sizes))
	}
	g.sizes = newRand(cfg.Seed, streamSizes)

	for done := 0; done < cfg.Companies; done += chunkCompanies {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := g.chunk(ctx, min(chunkCompanies, cfg.Companies-done)); err != nil {
			return err
		}
		if progress != nil {
			progress(g.progress)
		}
	}
	return nil
}

// chunk generates and emits n companies with everything that refers to
// them.
func (g *generator) chunk(ctx context.Context, n int) error {
	plans := make([]plan, n)
	cs := make([]*prospector.Company, n)
	for i := range plans {
		g.company(&plans[i])
		cs[i] = plans[i].c
	}
	if err := g.sink.Companies(ctx, cs); err != nil {
		return fmt.Errorf("demo: companies: %w", err)
	}
	g.progress.Companies += n
	for i := range plans {
		if cs[i].ID == 0 {
			return errors.New("demo: sink left a company ID unset")
		}
		plans[i].id = ptr(cs[i].ID)
	}

	for i := range plans {
		p := &plans[i]
		g.emailStamp++
		for k := range p.people {
			g.people = append(g.people, g.person(p, k))
			if len(g.people) == batchSize {
				if err := g.flushPeople(ctx); err != nil {
					return err
				}
			}
		}
	}
	if err := g.flushPeople(ctx); err != nil {
		return err
	}

	var news []*prospector.NewsEvent
	var financings []*prospector.FinancingEvent
	for i := range plans {
		p := &plans[i]
		for _, e := range g.financings(p) {
			financings = append(financings, e)
			g.signals = append(g.signals, g.fundingSignal(p, e))
		}
		g.companySignals(p)
		news = append(news, g.newsEvents(p)...)
	}
	if err := g.flushSignals(ctx, 0); err != nil {
		return err
	}
	if len(news) > 0 {
		if err := g.sink.NewsEvents(ctx, news); err != nil {
			return fmt.Errorf("demo: news events: %w", err)
		}
		g.progress.NewsEvents += len(news)
	}
	if len(financings) > 0 {
		if err := g.sink.FinancingEvents(ctx, financings); err != nil {
			return fmt.Errorf("demo: financing events: %w", err)
		}
		g.progress.FinancingEvents += len(financings)
	}
	return nil
}

// flushPeople hands the pending people to the sink, then generates their
// signals, which need the IDs the sink filled.
func (g *generator) flushPeople(ctx context.Context) error {
	if len(g.people) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := g.sink.People(ctx, g.people); err != nil {
		return fmt.Errorf("demo: people: %w", err)
	}
	g.progress.People += len(g.people)
	for _, per := range g.people {
		if per.ID == 0 {
			return errors.New("demo: sink left a person ID unset")
		}
		g.personSignals(per)
	}
	g.people = nil
	return g.flushSignals(ctx, batchSize)
}

// flushSignals hands the pending signals to the sink in batches when
// threshold or more are pending.
func (g *generator) flushSignals(ctx context.Context, threshold int) error {
	if len(g.signals) == 0 || len(g.signals) < threshold {
		return nil
	}
	for len(g.signals) > 0 {
		n := min(len(g.signals), batchSize)
		if err := g.sink.Signals(ctx, g.signals[:n:n]); err != nil {
			return fmt.Errorf("demo: signals: %w", err)
		}
		g.progress.Signals += n
		g.signals = g.signals[n:]
	}
	g.signals = nil
	return nil
}
