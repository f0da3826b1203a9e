package email

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestPatternLocal(t *testing.T) {
	want := map[Pattern]string{
		FirstDotLast: "ada.testperson", FLast: "atestperson", First: "ada",
		FirstL: "adat", FDotLast: "a.testperson", FirstUnderLast: "ada_testperson",
		FirstLast: "adatestperson", LastF: "testpersona", LastDotFirst: "testperson.ada",
		Last: "testperson",
	}
	for p := range NumPatterns {
		if got := p.Local("ada", "testperson"); got != want[p] {
			t.Errorf("%s: got %q, want %q", p, got, want[p])
		}
		if got := p.Local("ada", ""); (got != "") != (p == First) {
			t.Errorf("%s without last name: got %q", p, got)
		}
		if got := p.Local("", "testperson"); got != "" {
			t.Errorf("%s without first name: got %q", p, got)
		}
	}
}

func TestInferPatterns(t *testing.T) {
	t.Run("FLast", func(t *testing.T) {
		s := inferPatterns(colleagues(FLast, 3), "example.test")
		if s.known != 3 || s.explained[FLast] != 3 || s.rank()[0] != FLast {
			t.Errorf("stats %+v, rank %v; want flast explaining 3 of 3 and first", s, s.rank())
		}
	})
	t.Run("MajorityWins", func(t *testing.T) {
		people := append(colleagues(LastDotFirst, 3), colleagues(FirstDotLast, 5)[3:]...)
		s := inferPatterns(people, "example.test")
		if s.known != 5 || s.rank()[0] != LastDotFirst || s.rank()[1] != FirstDotLast {
			t.Errorf("stats %+v, rank %v; want last.first then first.last", s, s.rank())
		}
		if got := s.evidence(LastDotFirst); got != 0.6*0.5 {
			t.Errorf("evidence %v, want 0.3", got)
		}
	})
	t.Run("PriorBreaksTies", func(t *testing.T) {
		s := inferPatterns(nil, "example.test")
		for i, p := range s.rank() {
			if p != Pattern(i) {
				t.Fatalf("rank %v, want the prior order", s.rank())
			}
		}
	})
	t.Run("Skipped", func(t *testing.T) {
		people := []*prospector.Person{
			{FirstName: "Bea", LastName: "Sampleton", Email: "bsampleton@other.test"}, // another domain
			{FirstName: "Bea", LastName: "Sampleton", Email: "BSampleton@example.test"},
			{FirstName: "Bea", LastName: "Sampleton", Email: "bsampleton@example.test"}, // same address
			{FirstName: "Info", Email: "info@example.test"},                             // role
			{FirstName: "", LastName: "Fakeley", Email: "fakeley@example.test"},         // no first name
			{FirstName: "Cal", LastName: "Mockwell", Email: ""},
			{FirstName: "Dot", LastName: "Stubbs", Email: "not an address"},
		}
		s := inferPatterns(people, "example.test")
		if s.known != 1 || s.explained[FLast] != 1 {
			t.Errorf("stats %+v; want one flast address", s)
		}
	})
}
