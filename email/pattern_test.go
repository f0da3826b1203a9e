package email

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestPatternLocal(t *testing.T) {
	want := map[pattern]string{
		patFirstDotLast: "ada.testperson", patFLast: "atestperson", patFirst: "ada",
		patFirstL: "adat", patFDotLast: "a.testperson", patFirstUnderLast: "ada_testperson",
		patFirstLast: "adatestperson", patLastF: "testpersona", patLastDotFirst: "testperson.ada",
		patLast: "testperson",
	}
	for p := range numPatterns {
		if got := p.local("ada", "testperson"); got != want[p] {
			t.Errorf("%s: got %q, want %q", p, got, want[p])
		}
		if got := p.local("ada", ""); (got != "") != (p == patFirst) {
			t.Errorf("%s without last name: got %q", p, got)
		}
		if got := p.local("", "testperson"); got != "" {
			t.Errorf("%s without first name: got %q", p, got)
		}
	}
}

func TestInferPatterns(t *testing.T) {
	t.Run("FLast", func(t *testing.T) {
		s := inferPatterns(colleagues(patFLast, 3), "example.test")
		if s.known != 3 || s.explained[patFLast] != 3 || s.rank()[0] != patFLast {
			t.Errorf("stats %+v, rank %v; want flast explaining 3 of 3 and first", s, s.rank())
		}
	})
	t.Run("MajorityWins", func(t *testing.T) {
		people := append(colleagues(patLastDotFirst, 3), colleagues(patFirstDotLast, 5)[3:]...)
		s := inferPatterns(people, "example.test")
		if s.known != 5 || s.rank()[0] != patLastDotFirst || s.rank()[1] != patFirstDotLast {
			t.Errorf("stats %+v, rank %v; want last.first then first.last", s, s.rank())
		}
		if got := s.evidence(patLastDotFirst); got != 0.6*0.5 {
			t.Errorf("evidence %v, want 0.3", got)
		}
	})
	t.Run("PriorBreaksTies", func(t *testing.T) {
		s := inferPatterns(nil, "example.test")
		for i, p := range s.rank() {
			if p != pattern(i) {
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
		if s.known != 1 || s.explained[patFLast] != 1 {
			t.Errorf("stats %+v; want one flast address", s)
		}
	})
}
