// Package search keeps an in-memory index of companies and people:
// roaring bitmaps of row ids per industry, country, size band, title
// word, level, function, keyword and place. The database stays the
// source of truth; the index follows its change sequence (Follow) and
// answers queries in well under a millisecond at millions of rows.
package search

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prospectorhq/prospector/taxonomy"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/prospectorhq/prospector"
)

// Field names of the terms.
const (
	fIndustry  = "ind"
	fCountry   = "cty"
	fSize      = "sz"
	fKeyword   = "kw"
	fPlace     = "loc"
	fRevenue   = "rev"
	fTitle     = "tt"
	fLevel     = "lvl"
	fFunction  = "fn"
	fCoSize    = "csz"
	fCoIndustr = "cind"
)

// Index is safe for concurrent use: queries share a read lock, applying
// changes takes the write lock.
type Index struct {
	mu sync.RWMutex

	companies  *postings
	companyAll *roaring.Bitmap
	facts      factTable[companyFacts]
	// cards keep each row's list-item fields, so result pages need no
	// database read; their repetitive fields are ids into strs.
	cards      recordArena
	strs       strtab
	companySeq int64

	people         *postings // the person's own terms
	personCards    recordArena
	personFacts    factTable[personFacts] // what a card lacks to tell a person's terms
	peopleCo       *postings              // terms taken from the person's company
	peopleAll      *roaring.Bitmap
	members        memberLists // people under their company
	personSeq      int64
	erasureSeq     int64 // the last erasure applied (erase.go)
	signals        signalSet
	byDomain       map[uint64]uint32 // hash of a company's domain -> its id
	seed           maphash.Seed
	store          Changes
	optimizedAtLen uint64
	gen            uint64 // bumped by every applied batch; keys the filter cache
	cache          filterCache
	peopleVersion  atomic.Uint64 // bumped by every applied batch of people
}

// companyFacts are what people searches filter on through a person's
// company.
type companyFacts struct {
	size, industry string
}

// personFacts are the fields of a person's terms its card does not
// hold.
type personFacts struct {
	level, function string
}

// PeopleVersion changes whenever the index takes in changed people. The
// index reads people the store has already committed, so a cache that
// notes the version before reading a person from the store holds the
// person no longer than the index's lag behind the store.
func (ix *Index) PeopleVersion() uint64 { return ix.peopleVersion.Load() }

// Changes is what the index reads from the store: the rows written after
// a sequence number, in order, and the erasure feed with the rows an
// erased id may hold anew (erase.go). The whole prospector.Store
// satisfies it.
type Changes interface {
	CompaniesChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Company, error)
	PeopleChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Person, error)
	SignalsChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Signal, error)
	ErasuresSince(ctx context.Context, seq int64, limit int) ([]prospector.Erasure, error)
	CompaniesByID(ctx context.Context, ids []int64) ([]*prospector.Company, error)
	PeopleByID(ctx context.Context, ids []int64) ([]*prospector.Person, error)
}

// New returns an empty index over st; Sync or Follow fills it.
func New(st Changes) *Index {
	return &Index{
		store: st, companies: newPostings("c", true), companyAll: roaring.New(),
		people: newPostings("p", false), peopleCo: newPostings("pc", false), peopleAll: roaring.New(),
		byDomain: map[uint64]uint32{}, seed: maphash.MakeSeed(), strs: newStrtab(),
	}
}

var _ prospector.Index = (*Index)(nil)

// Stats describes the index, for logs and benchmarks.
type Stats struct {
	Companies, People uint64
	Terms             int
	Bytes             uint64 // serialized size of the bitmaps
}

// Stats returns the index's size.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := Stats{Companies: ix.companyAll.GetCardinality(), People: ix.peopleAll.GetCardinality(),
		Terms: len(ix.companies.lists) + len(ix.people.lists) + len(ix.peopleCo.lists)}
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		for _, l := range p.lists {
			s.Bytes += l.GetSizeInBytes()
		}
	}
	return s
}

// batchSize is how many changed rows one catch-up step reads.
const batchSize = 10000

// Sync applies every change the store has recorded since the last call:
// the first call builds the index from scratch. It returns the number of
// rows applied. Companies come first (people and signals read their
// facts and domains); people and signals then load side by side, each
// reading its next batch while the last is indexed.
func (ix *Index) Sync(ctx context.Context) (int, error) {
	// Erasures first: a row deleted and then written anew under the same
	// id must end present (syncErasures reads such rows back).
	erased, err := ix.syncErasures(ctx)
	if err != nil {
		return erased, err
	}
	// A company's terms are worked out off the applying goroutine, half
	// of a batch on the reader and half on a helper: tokenising was the
	// longest part of the companies phase, which people wait for.
	readCompanies := func(ctx context.Context, seq int64, limit int) ([]companyRow, error) {
		cs, err := ix.store.CompaniesChangedSince(ctx, seq, limit)
		rows := make([]companyRow, len(cs))
		terms := func(from, to int) {
			for i := from; i < to; i++ {
				rows[i] = companyRow{cs[i], companyTerms(cs[i])}
			}
		}
		var wg sync.WaitGroup
		wg.Go(func() { terms(0, len(cs)/2) })
		terms(len(cs)/2, len(cs))
		wg.Wait()
		return rows, err
	}
	applied, err := catchUp(ctx, ix, "companies", func() int64 { return ix.companySeq }, 0, readCompanies,
		func(r companyRow) int64 { return r.Seq }, ix.applyCompanyRows)
	if err != nil {
		return applied, err
	}
	var (
		wg                sync.WaitGroup
		people, signals   int
		peopleErr, sigErr error
	)
	wg.Go(func() { people, peopleErr = ix.syncPeople(ctx) })
	signals, sigErr = catchUp(ctx, ix, "signals", func() int64 { return ix.signals.seq }, 0, ix.store.SignalsChangedSince,
		func(s *prospector.Signal) int64 { return s.Seq }, ix.applySignals)
	wg.Wait()
	applied += people + signals + erased
	if err := errors.Join(peopleErr, sigErr); err != nil {
		return applied, err
	}
	if applied > 0 {
		ix.optimize()
	}
	return applied, nil
}

// syncPeople catches up with the people. A cold build reads them in two
// ranges of seq side by side, each on its own connection: reading was
// the longest path of a cold build once indexing a batch cost less than
// reading it. The ranges end at the last seq when the build began, so a
// person written meanwhile (whose new seq is past it) is read once more
// by the catch-up that follows, after its older version; no person is in
// both ranges. Applying order within a cold build does not matter
// otherwise: every answer is ordered by rank key.
func (ix *Index) syncPeople(ctx context.Context) (int, error) {
	ix.mu.RLock()
	cold := ix.personSeq == 0
	ix.mu.RUnlock()
	read, last := ix.store.PeopleChangedSince, func(p *prospector.Person) int64 { return p.Seq }
	applied := 0
	if cold {
		lo, hi, err := seqBounds(ctx, read, last)
		if err != nil {
			return 0, fmt.Errorf("search: sync people: %w", err)
		}
		if hi-lo > 4*batchSize {
			mid := lo + (hi-lo)/2
			var (
				wg     sync.WaitGroup
				n1, n2 int
				e1, e2 error
			)
			wg.Go(func() {
				n1, e1 = catchUp(ctx, ix, "people", func() int64 { return 0 }, mid, read, last, ix.applyPeople)
			})
			n2, e2 = catchUp(ctx, ix, "people", func() int64 { return mid }, hi, read, last, ix.applyPeople)
			wg.Wait()
			if err := errors.Join(e1, e2); err != nil {
				return n1 + n2, err
			}
			applied = n1 + n2
		}
	}
	n, err := catchUp(ctx, ix, "people", func() int64 { return ix.personSeq }, 0, read, last, ix.applyPeople)
	return applied + n, err
}

// seqBounds returns the first and the last seq of the rows read finds
// (0, 0 for none), probing one row at a time: about twice log2(last)
// reads of one row.
func seqBounds[T any](ctx context.Context, read func(context.Context, int64, int) ([]T, error), last func(T) int64) (lo, hi int64, err error) {
	after := func(seq int64) (int64, error) { // the first seq past seq, 0 for none
		rows, err := read(ctx, seq, 1)
		if err != nil || len(rows) == 0 {
			return 0, err
		}
		return last(rows[0]), nil
	}
	if lo, err = after(0); err != nil || lo == 0 {
		return 0, 0, err
	}
	hi = lo
	step := int64(1)
	for { // double the step until nothing lies past hi+step
		next, err := after(hi + step)
		if err != nil {
			return 0, 0, err
		}
		if next == 0 {
			break
		}
		hi, step = next, step*2
	}
	for step > 1 { // then narrow it down
		step /= 2
		next, err := after(hi + step)
		if err != nil {
			return 0, 0, err
		}
		if next != 0 {
			hi = next
		}
	}
	next, err := after(hi) // past the last: rows written meanwhile
	if err != nil || next == 0 {
		return lo, hi, err
	}
	return lo, next, nil
}

// catchUp reads one kind of change in batches from the position seq
// reports (read under the read lock) and applies each, until the store
// has no more or, with upTo above 0, up to seq upTo. The next batch is
// read while the last is applied: reading rows and indexing them each
// took about half of a cold start.
func catchUp[T any](ctx context.Context, ix *Index, kind string, seq func() int64, upTo int64,
	read func(context.Context, int64, int) ([]T, error), last func(T) int64, apply func([]T) error) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ix.mu.RLock()
	from := seq()
	ix.mu.RUnlock()
	batches := make(chan []T, 1)
	var readErr error
	go func() {
		defer close(batches)
		for {
			rows, err := read(ctx, from, batchSize)
			if err != nil {
				readErr = fmt.Errorf("search: sync %s: %w", kind, err)
				return
			}
			if upTo > 0 {
				n := len(rows)
				for n > 0 && last(rows[n-1]) > upTo {
					n--
				}
				rows = rows[:n]
			}
			if len(rows) == 0 {
				return
			}
			from = last(rows[len(rows)-1])
			select {
			case batches <- rows:
			case <-ctx.Done():
				return
			}
		}
	}()
	applied := 0
	for rows := range batches {
		if err := apply(rows); err != nil {
			cancel()
			for range batches { // let the reader finish
			}
			return applied, err
		}
		applied += len(rows)
	}
	return applied, readErr
}

// optimize run-compresses the bitmaps when the index has grown by half
// since it last did: cheap enough after bulk loads, skipped for trickles.
func (ix *Index) optimize() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	n := ix.companyAll.GetCardinality() + ix.peopleAll.GetCardinality()
	if n < ix.optimizedAtLen*3/2 {
		return
	}
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		p.optimize()
	}
	ix.trim()
	ix.optimizedAtLen = n
	ix.gen++
}

// companyRow is a company with its terms.
type companyRow struct {
	*prospector.Company
	terms []string
}

func (ix *Index) applyCompanies(cs []*prospector.Company) error {
	rows := make([]companyRow, len(cs))
	for i, c := range cs {
		rows[i] = companyRow{c, companyTerms(c)}
	}
	return ix.applyCompanyRows(rows)
}

func (ix *Index) applyCompanyRows(rows []companyRow) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	var (
		card, packed []byte // reused: put copies
		terms        adds   // put in ix.companies before the lock is let go
	)
	defer terms.flush(ix.companies)
	for _, r := range rows {
		c := r.Company
		key, err := rankKey(companyTier(c.EmployeeRange), c.ID, companyTierShift)
		if err != nil {
			return err
		}
		id := uint32(c.ID)
		if old := ix.companyKey(id); old != 0 {
			ix.companyAll.Remove(old)
		}
		ix.companies.set(id, key, r.terms, &terms)
		ix.companyAll.Add(key)
		facts := companyFacts{size: c.EmployeeRange, industry: strings.ToLower(c.Industry)}
		if old, ok := ix.facts.get(id); ok && old != facts {
			// People filtered through this company must see the change.
			was, terms := old.terms(), facts.terms()
			ix.members.each(id, func(pid uint32) bool {
				ix.peopleCo.move(pid, ix.people.keys[pid], was, terms)
				return true
			})
		}
		ix.facts.set(id, facts)
		card = appendCompanyCard(card[:0], c)
		packed = ix.strs.packInto(packed[:0], card, 0, companyModes)
		ix.cards.put(id, packed)
		ix.byDomain[maphash.String(ix.seed, c.Domain)] = id
		if c.Seq > ix.companySeq {
			ix.companySeq = c.Seq
		}
	}
	return nil
}

func (ix *Index) companyKey(id uint32) uint32 {
	if int(id) < len(ix.companies.keys) {
		return ix.companies.keys[id]
	}
	return 0
}

func (f companyFacts) terms() []string {
	var out []string
	if f.size != "" {
		out = append(out, term(fCoSize, f.size))
	}
	if f.industry != "" {
		out = append(out, term(fCoIndustr, f.industry))
	}
	return out
}

func companyTerms(c *prospector.Company) []string {
	var out []string
	if c.Industry != "" {
		out = append(out, term(fIndustry, strings.ToLower(c.Industry)))
	}
	if c.CountryCode != "" {
		out = append(out, term(fCountry, c.CountryCode))
	}
	if c.EmployeeRange != "" {
		out = append(out, term(fSize, c.EmployeeRange))
	}
	if c.RevenueUSD != nil {
		out = append(out, term(fRevenue, prospector.RevenueBand(*c.RevenueUSD)))
	}
	text := c.Name + " " + c.Industry + " " + c.Description + " " + strings.Join(c.Keywords, " ")
	for _, w := range taxonomy.TextTokens(text) { // distinct already
		out = append(out, term(fKeyword, w))
	}
	for _, w := range taxonomy.TextTokens(c.City + " " + c.Region) {
		out = append(out, term(fPlace, w))
	}
	return out
}

func (ix *Index) applyPeople(ps []*prospector.Person) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	ix.peopleVersion.Add(1)
	memo := newPersonMemo()
	var (
		ids          []uint32
		card, packed []byte // reused: put copies
		own, ofCo    adds   // put in ix.people and ix.peopleCo before the lock is let go
	)
	defer func() { own.flush(ix.people); ofCo.flush(ix.peopleCo) }()
	for _, p := range ps {
		key, err := rankKey(personTier(p.JobLevel), p.ID, personTierShift)
		if err != nil {
			return err
		}
		id := uint32(p.ID)
		var was, wasCo []string // the terms it had
		if int(id) < len(ix.people.keys) && ix.people.keys[id] != 0 {
			ix.peopleAll.Remove(ix.people.keys[id])
			was = ix.personTermsOf(id)
			facts, _ := ix.facts.get(ix.members.ownerOf(id))
			wasCo = facts.terms()
		}
		ix.people.move(id, key, was, nil)
		ids = ix.personTermIDs(p, memo, ids[:0])
		own.add(key, ids)
		ix.peopleAll.Add(key)
		card = appendPersonCard(card[:0], p)
		packed = ix.strs.packInto(packed[:0], card, 0, personModes)
		ix.personCards.put(id, packed)
		ix.personFacts.set(id, personFacts{level: p.JobLevel, function: p.JobFunction})
		var co uint32
		if p.CompanyID != nil {
			co = uint32(*p.CompanyID)
		}
		if co != 0 {
			if ix.members.ownerOf(id) != co {
				ix.members.insert(id, co, nil)
			}
			facts, _ := ix.facts.get(co)
			ix.peopleCo.move(id, key, wasCo, nil)
			ofCo.add(key, memoIDs(ix.peopleCo, memo.co, facts, facts.terms))
		} else {
			ix.members.remove(id)
			ix.peopleCo.move(id, 0, wasCo, nil)
		}
		if p.Seq > ix.personSeq {
			ix.personSeq = p.Seq
		}
	}
	return nil
}

// personMemo keeps, for one batch, the term ids each distinct title,
// place and company facts give: people share few of them, and
// tokenising and joining terms again for every person was a third of
// a cold build's indexing time.
type personMemo struct {
	field map[[3]string][]uint32 // {field, value, region of a place} -> ids in people
	co    map[companyFacts][]uint32
}

func newPersonMemo() personMemo {
	return personMemo{field: map[[3]string][]uint32{}, co: map[companyFacts][]uint32{}}
}

// memoIDs returns the term ids in p of terms(), computed once per k.
func memoIDs[K comparable](p *postings, memo map[K][]uint32, k K, terms func() []string) []uint32 {
	if ids, ok := memo[k]; ok {
		return ids
	}
	ts := terms()
	ids := make([]uint32, len(ts))
	for i, t := range ts {
		ids[i] = p.termID(t)
	}
	memo[k] = ids
	return ids
}

// personTermIDs appends the ids in ix.people of personTerms(p) to out.
func (ix *Index) personTermIDs(p *prospector.Person, memo personMemo, out []uint32) []uint32 {
	one := func(field, value string) []string { return []string{term(field, value)} }
	out = append(out, memoIDs(ix.people, memo.field, [3]string{fTitle, p.Title}, func() []string {
		return termsOf(fTitle, taxonomy.TitleTokens(p.Title))
	})...)
	if p.JobLevel != "" {
		out = append(out, memoIDs(ix.people, memo.field, [3]string{fLevel, p.JobLevel}, func() []string { return one(fLevel, p.JobLevel) })...)
	}
	if p.JobFunction != "" {
		out = append(out, memoIDs(ix.people, memo.field, [3]string{fFunction, p.JobFunction}, func() []string { return one(fFunction, p.JobFunction) })...)
	}
	if p.CountryCode != "" {
		out = append(out, memoIDs(ix.people, memo.field, [3]string{fCountry, p.CountryCode}, func() []string { return one(fCountry, p.CountryCode) })...)
	}
	return append(out, memoIDs(ix.people, memo.field, [3]string{fPlace, p.City, p.Region}, func() []string {
		return termsOf(fPlace, taxonomy.TextTokens(p.City+" "+p.Region))
	})...)
}

func termsOf(field string, values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = term(field, v)
	}
	return out
}

// personTermsOf returns the terms of an indexed person, from its card
// and facts as they were indexed.
func (ix *Index) personTermsOf(id uint32) []string {
	rec := ix.personCards.get(int64(id))
	if rec == nil {
		return nil
	}
	var p prospector.Person
	decodePersonCard(&p, int64(id), ix.strs.unpack(nil, rec, 0, len(personModes)), new(float64))
	facts, _ := ix.personFacts.get(id)
	p.JobLevel, p.JobFunction = facts.level, facts.function
	return personTerms(&p)
}

func personTerms(p *prospector.Person) []string {
	var out []string
	for _, w := range taxonomy.TitleTokens(p.Title) {
		out = append(out, term(fTitle, w))
	}
	if p.JobLevel != "" {
		out = append(out, term(fLevel, p.JobLevel))
	}
	if p.JobFunction != "" {
		out = append(out, term(fFunction, p.JobFunction))
	}
	if p.CountryCode != "" {
		out = append(out, term(fCountry, p.CountryCode))
	}
	for _, w := range taxonomy.TextTokens(p.City + " " + p.Region) {
		out = append(out, term(fPlace, w))
	}
	return out
}

// CompanyCards returns the cards the index holds for ids.
func (ix *Index) CompanyCards(ids []int64) []*prospector.Company {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]*prospector.Company, 0, len(ids))
	slab := make([]prospector.Company, len(ids))
	counts := make([]int64, len(ids))
	join := make([]byte, 0, 48*len(ids)) // URLs of the page, joined from prefix and rest
	for i, id := range ids {
		if rec := ix.cards.get(id); rec != nil {
			var f [9]string
			rest := ix.strs.strings(rec, 0, f[:], &join)
			fillCompany(&slab[i], id, &f, rest, &counts[i])
			out = append(out, &slab[i])
		}
	}
	return out
}

// PersonCards returns the cards the index holds for ids.
func (ix *Index) PersonCards(ids []int64) []*prospector.Person {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]*prospector.Person, 0, len(ids))
	slab := make([]prospector.Person, len(ids))
	scores := make([]float64, len(ids))
	join := make([]byte, 0, 48*len(ids)) // URLs of the page, joined from prefix and rest
	for i, id := range ids {
		if rec := ix.personCards.get(id); rec != nil {
			var f [8]string
			rest := ix.strs.strings(rec, 0, f[:], &join)
			fillPerson(&slab[i], id, &f, rest, &scores[i])
			out = append(out, &slab[i])
		}
	}
	return out
}
