package importer_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/importer"
)

// failingStore hands out bulk sessions whose people upsert number failAt
// (counting from 1) fails, as a full disk or a lost connection would.
type failingStore struct {
	prospector.Store
	failAt int
}

func (s *failingStore) BeginBulk(ctx context.Context) (prospector.Bulk, error) {
	b, err := s.Store.BeginBulk(ctx)
	return &failingBulk{Bulk: b, failAt: s.failAt}, err
}

type failingBulk struct {
	prospector.Bulk
	calls, failAt int
}

var errInjected = errors.New("injected write failure")

func (b *failingBulk) UpsertPeople(ctx context.Context, ps []*prospector.Person) (prospector.UpsertResult, error) {
	if b.calls++; b.calls == b.failAt {
		return prospector.UpsertResult{}, errInjected
	}
	return b.Bulk.UpsertPeople(ctx, ps)
}

func peopleLines(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, `{"id":"c%d","full_name":"Person %d"}`+"\n", i, i)
	}
	return sb.String()
}

// Batches are committed every CommitSize records; a failure loses only
// what was not committed, and the stats count what was.
func TestImportCommitsEveryCommitSize(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	commits := 0
	stats, err := importer.Import(ctx, &failingStore{Store: st, failAt: 4}, strings.NewReader(peopleLines(5)),
		importer.Options{Kind: importer.People, Format: "jsonl", BatchSize: 1, CommitSize: 2,
			OnProgress: func(s importer.Stats) { commits = s.Inserted }})
	if !errors.Is(err, errInjected) {
		t.Fatalf("import: %v, want the injected failure", err)
	}
	if stats.Inserted != 2 || commits != 2 {
		t.Fatalf("stats %+v (progress saw %d inserted), want the 2 committed people", stats, commits)
	}
	if n, err := st.CountPeople(ctx); err != nil || n != 2 {
		t.Fatalf("%d people stored (%v), want the 2 of the first commit (the third was not committed)", n, err)
	}
	// Re-running the import completes it.
	stats, err = importer.Import(ctx, st, strings.NewReader(peopleLines(5)),
		importer.Options{Kind: importer.People, Format: "jsonl", BatchSize: 1, CommitSize: 2})
	if err != nil || stats.Inserted != 3 || stats.Unchanged != 2 {
		t.Fatalf("re-run: %+v %v", stats, err)
	}
}

// A read failure (a line longer than the reader takes) ends the import,
// and what was written before it is committed, not rolled back.
func TestImportKeepsWritesBeforeAReadFailure(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	body := peopleLines(3) + `{"id":"huge","full_name":"` + strings.Repeat("x", 17<<20) + `"}` + "\n"
	stats, err := importer.Import(ctx, st, strings.NewReader(body),
		importer.Options{Kind: importer.People, Format: "jsonl", BatchSize: 1, CommitSize: 100})
	if err == nil {
		t.Fatal("a 17 MiB line was read")
	}
	if stats.Inserted != 3 {
		t.Fatalf("stats %+v, want the 3 people before the failure", stats)
	}
	if n, err := st.CountPeople(ctx); err != nil || n != 3 {
		t.Fatalf("%d people stored (%v), want the 3 before the failure", n, err)
	}
}
