package postgres_test

import (
	"context"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/storetest"
)

// FuzzStoreText sends generated strings through the store's text paths
// into PostgreSQL (a text column, a jsonb document, the arrays and COPY of
// bulk writes): each is either stored and read back unchanged or refused
// with prospector.ErrInvalidText, never a raw database error. CI runs it
// with a count (.ci/run); without TEST_DATABASE_URL it skips.
func FuzzStoreText(f *testing.F) {
	baseURL(f)
	db := openURL(f, freshSchema(f))
	w := prospector.NewWorkspace("fuzz", prospector.PlanGrowth)
	if err := db.CreateWorkspace(context.Background(), w); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"", "VP Sales", "VP\x00Sales", `VP\u0000Sales`, `VP\\u0000Sales`, "caf\xe9",
		"\xed\xa0\x80", "Zoë – 東京 ✓", "\\", `"quoted"`, "tab\tnew\nline", "\u2028\ufeff", "'; DROP TABLE radars; --"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) { storetest.TextRoundTrip(t, db, w, v) })
}
