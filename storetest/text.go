package storetest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// badTexts are the values no engine may store: PostgreSQL refuses them
// with a raw error, SQLite would keep them.
var badTexts = map[string]string{
	"raw NUL":        "VP\x00Sales",
	"escaped NUL":    `VP\u0000Sales`,
	"invalid UTF-8":  "VP\xffSales",
	"lone surrogate": "VP\xed\xa0\x80Sales",
}

// runText: both engines refuse text that is not prospector.ValidText with
// the same typed error, on every kind of column (text, text arrays of
// bulk writes, JSON), and write nothing of the refused call.
func runText(t *testing.T, open Opener) {
	t.Run("TextRefused", func(t *testing.T) { testTextRefused(t, open(t)) })
	t.Run("TextRoundTrip", func(t *testing.T) {
		s := open(t)
		w := NewWorkspace(t, s, "text", prospector.PlanGrowth)
		for _, v := range []string{"", "VP – Sales ✓", `C:\\u0000`, "tab\tand\nnewline", "\u00ff\U0001F600"} {
			TextRoundTrip(t, s, w, v)
		}
	})
}

func wantInvalidText(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, prospector.ErrInvalidText) || prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("%s: got %v, want an error wrapping prospector.ErrInvalidText", what, err)
	}
}

func testTextRefused(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, _ := feedbackLeads(t, s)
	companies, err := s.CountCompanies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range badTexts {
		t.Run(name, func(t *testing.T) {
			r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: bad,
				Config: prospector.RadarConfig{Titles: []string{"VP Sales"}, CompanySizeMin: 1, CompanySizeMax: 10}}
			wantInvalidText(t, "radar name", s.CreateRadar(ctx, r))
			if _, err := s.Radar(ctx, r.ID); !errors.Is(err, prospector.ErrNotFound) {
				t.Fatalf("refused radar was stored: %v", err)
			}
			// Values inside a JSON column are encoded by encoding/json on
			// both engines: a NUL becomes the escape \u0000 and is
			// refused; invalid UTF-8 becomes U+FFFD, and a backslash is
			// escaped, so those are stored as JSON text alike.
			nul := strings.ContainsRune(bad, 0)
			if nul {
				r.Name, r.Config.Titles = "ok", []string{bad}
				wantInvalidText(t, "radar config", s.CreateRadar(ctx, r))
			}

			c := &prospector.Company{Name: "Text Co", Domain: "text-co.example", Keywords: []string{"fine"}, Description: bad}
			_, err := s.UpsertCompanies(ctx, []*prospector.Company{sampleCompanies()[2], c})
			wantInvalidText(t, "company description", err)
			if nul {
				c.Description, c.Keywords = "", []string{"fine", bad}
				_, err = s.UpsertCompanies(ctx, []*prospector.Company{c})
				wantInvalidText(t, "company keywords", err)
			}
			if n, err := s.CountCompanies(ctx); err != nil {
				t.Fatal(err)
			} else if n != companies {
				t.Fatalf("a refused batch wrote companies: %d, want %d", n, companies)
			}
			_, err = s.CompanyByDomain(ctx, "text"+bad+".example")
			wantInvalidText(t, "lookup", err)

			before := leadState(t, s, w, leads[0].ID)
			ev := event(w, leads[0], prospector.EventReply, "2026-11-01T10:00:00Z")
			ev.Content = bad
			_, _, err = s.RecordFeedbackEvent(ctx, ev, time.Now())
			wantInvalidText(t, "feedback content", err)
			ev = event(w, leads[0], prospector.EventReply, "2026-11-01T10:00:00Z")
			ev.Metadata = `{"note":"` + bad + `"}`
			_, _, err = s.RecordFeedbackEvent(ctx, ev, time.Now())
			wantInvalidText(t, "feedback metadata", err)
			if after := leadState(t, s, w, leads[0].ID); !reflect.DeepEqual(after, before) {
				t.Fatalf("a refused event changed the lead: %+v, was %+v", after, before)
			}
		})
	}
}

// TextRoundTrip stores v as a radar's name and one of its titles (a text
// and a JSON column), and as a company's name and keyword (the bulk path:
// arrays, COPY), in workspace w, and checks how the store answers: the
// same typed error on every engine when v is not prospector.ValidText,
// else v read back unchanged. Engines' fuzz targets call it with
// generated values.
func TextRoundTrip(t testing.TB, s prospector.Store, w *prospector.Workspace, v string) {
	t.Helper()
	ctx := context.Background()
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: v,
		Config: prospector.RadarConfig{Titles: []string{v}, CompanySizeMin: 1, CompanySizeMax: 10}}
	err := s.CreateRadar(ctx, r)
	if !prospector.ValidText(v) {
		if !errors.Is(err, prospector.ErrInvalidText) {
			t.Fatalf("%q: radar: got %v, want prospector.ErrInvalidText", v, err)
		}
		c := &prospector.Company{Domain: "text-round-trip.example", Name: v}
		if _, err := s.UpsertCompanies(ctx, []*prospector.Company{c}); !errors.Is(err, prospector.ErrInvalidText) {
			t.Fatalf("%q: company: got %v, want prospector.ErrInvalidText", v, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%q: %v", v, err)
	}
	got, err := s.Radar(ctx, r.ID)
	if err != nil {
		t.Fatalf("%q: read back: %v", v, err)
	}
	if got.Name != v || len(got.Config.Titles) != 1 || got.Config.Titles[0] != v {
		t.Fatalf("%q: read back name %q, titles %q", v, got.Name, got.Config.Titles)
	}
	c := &prospector.Company{Domain: "text-round-trip.example", Name: v, Keywords: []string{v}}
	if _, err := s.UpsertCompanies(ctx, []*prospector.Company{c}); err != nil {
		t.Fatalf("%q: company: %v", v, err)
	}
	co, err := s.CompanyByDomain(ctx, c.Domain)
	if err != nil || co.Name != v || len(co.Keywords) != 1 || co.Keywords[0] != v {
		t.Fatalf("%q: company read back %+v, %v", v, co, err)
	}
}
