// Package importer loads companies, people, signals and news and
// financing events from JSONL or CSV files into a store: streaming, in
// batched transactions, upserting by natural key, reporting each bad line
// and going on with the good ones.
package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/prospectorhq/prospector"
)

// Kind is what a file holds.
type Kind string

const (
	Companies       Kind = "companies"
	People          Kind = "people"
	Signals         Kind = "signals"
	NewsEvents      Kind = "news-events"
	FinancingEvents Kind = "financing-events"
)

// Kinds lists every kind, in the order files should be imported.
func Kinds() []Kind { return []Kind{Companies, People, Signals, NewsEvents, FinancingEvents} }

// ParseKind returns the Kind named s.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q: want one of companies, people, signals, news-events, financing-events", s)
}

// FormatOf picks the format from a file name's extension.
func FormatOf(name string) (string, error) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".jsonl"), strings.HasSuffix(lower, ".ndjson"), strings.HasSuffix(lower, ".json"):
		return "jsonl", nil
	case strings.HasSuffix(lower, ".csv"):
		return "csv", nil
	}
	return "", fmt.Errorf("cannot tell the format of %q from its extension: pass --format jsonl or csv", name)
}

// Stats counts what an import did.
type Stats struct {
	Read      int // data lines seen (not blank lines or the CSV header)
	Inserted  int
	Updated   int
	Unchanged int
	Rejected  int
}

// setWritten takes the write counts from what was committed.
func (s *Stats) setWritten(r prospector.UpsertResult) {
	s.Inserted, s.Updated, s.Unchanged = r.Inserted, r.Updated, r.Unchanged
}

// Options configure one import.
type Options struct {
	Kind      Kind
	Format    string // jsonl or csv
	BatchSize int    // records per store call; default DefaultBatchSize
	// CommitSize is how many records (about: whole batches) are written
	// between commits; default DefaultCommitSize.
	CommitSize int
	// OnLineError hears about each rejected line.
	OnLineError func(line int, reason string)
	// OnProgress is called after each batch.
	OnProgress func(Stats)
}

type pending struct {
	line int
	item any
}

// DefaultBatchSize is the records of one store call unless Options say
// otherwise: 2M people imported as fast in batches of 12,500 as of
// 25,000, with less memory held (batches wait parsed in memory; larger
// ones made the collector run all the time under the import's limit).
const DefaultBatchSize = 12500

// DefaultCommitSize is the records written between commits unless
// Options say otherwise. Commits are what SQLite pays for per page
// touched, and a batch of new people touches most of the natural-key
// index: 2M people went at 48,300/s committing every 12,500 and at
// 59,900/s every 100,000, with the same memory (uncommitted pages wait in
// SQLite's cache or its WAL, not in Go).
const DefaultCommitSize = 100000

// Store is what an import reads and writes: it writes through a bulk
// session and reads the ids that link people and signals to companies and
// people already stored.
type Store interface {
	prospector.BulkStore
	CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error)
	CompanyIDsByNetworkURL(ctx context.Context, urls []string) (map[string]int64, error)
	PersonIDsByKey(ctx context.Context, keys []string) (map[string]int64, error)
	PeopleByID(ctx context.Context, ids []int64) ([]*prospector.Person, error)
}

// Import reads r to the end. Bad lines are reported and skipped; an error
// is returned only when reading or the store fails. When reading fails,
// what was written before is committed; when the store fails, what was
// committed stays and the rest is rolled back. Re-running the import is
// safe. Stats count committed writes only.
//
// Parsing, and for people linking to companies, run ahead of writing on
// goroutines of their own, so they overlap on a multi-core machine;
// callbacks still run on the caller's goroutine, in line order.
func Import(ctx context.Context, st Store, r io.Reader, opt Options) (stats Stats, err error) {
	if opt.BatchSize <= 0 {
		opt.BatchSize = DefaultBatchSize
	}
	if opt.CommitSize <= 0 {
		opt.CommitSize = DefaultCommitSize
	}
	parse, prepare, flush, err := kindFuncs(opt.Kind)
	if err != nil {
		return stats, err
	}
	var src source
	switch opt.Format {
	case "jsonl":
		src = newJSONLSource(r)
	case "csv":
		cs, err := newCSVSource(r)
		if err != nil {
			return stats, err
		}
		src = cs
	default:
		return stats, fmt.Errorf("unknown format %q: want jsonl or csv", opt.Format)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One batch is read (and one prepared) while one is written; memory
	// holds no more batches than that, whatever the file's size.
	read := make(chan *parsedBatch, 1)
	batches := (<-chan *parsedBatch)(read)
	if prepare != nil {
		read = make(chan *parsedBatch)
		prepared := make(chan *parsedBatch, 1)
		go prepareBatches(ctx, st, prepare, read, prepared)
		batches = prepared
	}
	go readBatches(ctx, src, parse, opt.BatchSize, read)

	reject := func(line int, err error) {
		stats.Rejected++
		if opt.OnLineError != nil {
			opt.OnLineError(line, err.Error())
		}
	}
	w, err := st.BeginBulk(ctx)
	if err != nil {
		return stats, err
	}
	defer func() { err = errors.Join(err, w.Close()) }()
	c := newCommitter(w, opt.CommitSize)
	commit := func() error {
		err := c.commit(ctx)
		stats.setWritten(c.committed)
		return err
	}
	for b := range batches {
		stats.Read += b.read
		for _, rj := range b.rejects {
			reject(rj.line, rj.err)
		}
		if b.err != nil {
			// Reading (or linking) failed; what was written before is
			// sound, so it is kept rather than rolled back.
			if err := commit(); err != nil {
				return stats, errors.Join(b.err, err)
			}
			return stats, b.err
		}
		if len(b.items) > 0 {
			res, err := flush(ctx, st, w, b.items, reject)
			if err != nil {
				return stats, err
			}
			err = c.wrote(ctx, len(b.items), res)
			stats.setWritten(c.committed)
			if err != nil {
				return stats, err
			}
		}
		if opt.OnProgress != nil {
			opt.OnProgress(stats)
		}
	}
	if err := ctx.Err(); err != nil {
		return stats, err
	}
	if err := commit(); err != nil {
		return stats, err
	}
	return stats, nil
}

type rejection struct {
	line int
	err  error
}

// parsedBatch is up to one batch of parsed records, with the lines
// rejected while parsing them; err ends the import.
type parsedBatch struct {
	items   []pending
	rejects []rejection
	read    int
	err     error
}

// readBatches parses the source into batches until it ends, fails or ctx
// is cancelled, then closes out.
func readBatches(ctx context.Context, src source, parse func(record) (any, error), size int, out chan<- *parsedBatch) {
	defer close(out)
	b := &parsedBatch{items: make([]pending, 0, size)}
	send := func() bool {
		select {
		case out <- b:
			b = &parsedBatch{items: make([]pending, 0, size)}
			return true
		case <-ctx.Done():
			return false
		}
	}
	for ctx.Err() == nil {
		rec, line, err := src.next()
		if err == io.EOF {
			send()
			return
		}
		var le *lineError
		if err != nil && !errors.As(err, &le) {
			b.err = err
			send()
			return
		}
		b.read++
		if err == nil {
			var item any
			if item, err = parse(rec); err == nil {
				b.items = append(b.items, pending{line: line, item: item})
			} else if !errors.As(err, &le) {
				b.err = err
				send()
				return
			}
		}
		if err != nil {
			b.rejects = append(b.rejects, rejection{line, err})
		}
		if (len(b.items) == size || len(b.rejects) == size) && !send() {
			return
		}
	}
}

// flushFunc writes a batch through w; reads it needs go to st.
type flushFunc func(ctx context.Context, st Store, w prospector.Bulk, batch []pending, reject func(int, error)) (prospector.UpsertResult, error)

// prepareFunc does the reads a batch needs before it is written, such as
// resolving references. It runs on the reading side of the pipeline, so
// it overlaps with the write of the batch before.
type prepareFunc func(ctx context.Context, st Store, batch []pending) error

func kindFuncs(k Kind) (func(record) (any, error), prepareFunc, flushFunc, error) {
	switch k {
	case Companies:
		return func(r record) (any, error) { return parseCompany(r) }, nil, flushCompanies, nil
	case People:
		return func(r record) (any, error) { return parsePerson(r) }, linkPeople, flushPeople, nil
	case Signals:
		return func(r record) (any, error) { return parseSignal(r) }, nil, flushSignals, nil
	case NewsEvents:
		return func(r record) (any, error) { return parseNewsEvent(r) }, nil, flushNews, nil
	case FinancingEvents:
		return func(r record) (any, error) { return parseFinancingEvent(r) }, nil, flushFinancing, nil
	}
	return nil, nil, nil, fmt.Errorf("unknown kind %q", k)
}

// prepareBatches runs prepare on each batch from in and passes it on,
// until in closes or ctx is cancelled; then it closes out. A failure
// travels with its batch, as a read failure does.
func prepareBatches(ctx context.Context, st Store, prepare prepareFunc, in <-chan *parsedBatch, out chan<- *parsedBatch) {
	defer close(out)
	for b := range in {
		if b.err == nil && len(b.items) > 0 {
			b.err = prepare(ctx, st, b.items)
		}
		select {
		case out <- b:
		case <-ctx.Done():
			return
		}
	}
}
