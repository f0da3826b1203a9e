package search_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/search"
)

// peopleFeed is a store of people only, whose PeopleChangedSince moves
// one person to a new seq (with a new title) the first time a read
// reaches past seq moveAt: a write landing while a cold build reads.
type peopleFeed struct {
	mu      sync.Mutex
	people  []*prospector.Person // by seq
	moveAt  int64
	moveID  int64
	moved   bool
	lastSeq int64
}

func (f *peopleFeed) PeopleChangedSince(_ context.Context, seq int64, limit int) ([]*prospector.Person, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.moved && seq > f.moveAt {
		f.moved = true
		for i, p := range f.people {
			if p.ID == f.moveID {
				q := *p
				f.lastSeq += 3
				q.Seq, q.Title = f.lastSeq, "Chief Gardener"
				f.people = append(append(f.people[:i:i], f.people[i+1:]...), &q)
				break
			}
		}
	}
	i := sort.Search(len(f.people), func(i int) bool { return f.people[i].Seq > seq })
	return append([]*prospector.Person(nil), f.people[i:min(i+limit, len(f.people))]...), nil
}

func (f *peopleFeed) CompaniesChangedSince(context.Context, int64, int) ([]*prospector.Company, error) {
	return nil, nil
}
func (f *peopleFeed) SignalsChangedSince(context.Context, int64, int) ([]*prospector.Signal, error) {
	return nil, nil
}
func (f *peopleFeed) ErasuresSince(context.Context, int64, int) ([]prospector.Erasure, error) {
	return nil, nil
}
func (f *peopleFeed) CompaniesByID(context.Context, []int64) ([]*prospector.Company, error) {
	return nil, nil
}
func (f *peopleFeed) PeopleByID(context.Context, []int64) ([]*prospector.Person, error) {
	return nil, nil
}

// TestColdBuildReadsEveryPersonOnce: a cold build of more people than
// one read range holds finds every one of them, and a person written
// while it reads ends with the version written last.
func TestColdBuildReadsEveryPersonOnce(t *testing.T) {
	const n = 45000
	f := &peopleFeed{moveAt: 3 * n * 3 / 4, moveID: 7}
	for i := int64(1); i <= n; i++ {
		f.lastSeq = 3 * i // gaps between seqs, as other tables' writes leave
		f.people = append(f.people, &prospector.Person{ID: i, ExternalID: fmt.Sprint("p", i), FullName: "Person",
			Title: []string{"Sales Manager", "Software Engineer", "Head of Marketing"}[i%3], JobLevel: "IC", CountryCode: "US",
			Seq: f.lastSeq})
	}
	ix := search.New(f)
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := ix.Stats().People; got != n {
		t.Fatalf("people indexed: %d, want %d", got, n)
	}
	count := func(title string) (total int, has7 bool) {
		pos := prospector.SearchPosition{}
		for {
			page, err := ix.SearchPeople(context.Background(), prospector.PersonQuery{Titles: []string{title}}, pos, 1000)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range page.IDs {
				has7 = has7 || id == 7
			}
			total += len(page.IDs)
			if page.Next == nil {
				return total, has7
			}
			pos = *page.Next
		}
	}
	if total, has7 := count("gardener"); total != 1 || !has7 {
		t.Errorf("gardeners: %d (person 7 among them: %v), want person 7 alone", total, has7)
	}
	if total, has7 := count("software engineer"); total != n/3-1 || has7 {
		t.Errorf("software engineers: %d (person 7 among them: %v), want %d without person 7", total, has7, n/3-1)
	}
}
