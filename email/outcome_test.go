package email

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// memOutcomes is a fixed Outcomes source for example.test.
type memOutcomes struct {
	o   *prospector.EmailOutcomes
	err error
}

func (m *memOutcomes) EmailOutcomes(_ context.Context, domain string) (*prospector.EmailOutcomes, error) {
	if domain != "example.test" || m.o == nil {
		return &prospector.EmailOutcomes{}, m.err
	}
	return m.o, m.err
}

func TestClassifyAddress(t *testing.T) {
	for _, c := range []struct {
		first, last, addr string
		norm              string
		patterns          []string
		ok                bool
	}{
		{"Ada", "Testperson", "ATestperson@Example.test", "atestperson@example.test", []string{"flast"}, true},
		{"Zoë", "O'Néil", "zoe.oneil@example.test", "zoe.oneil@example.test", []string{"first.last"}, true},
		{"Ada", "", "ada@example.test", "ada@example.test", []string{"first"}, true},
		{"Ada", "Testperson", "info@example.test", "info@example.test", nil, true}, // a role mailbox says nothing
		{"Ada", "Testperson", "a123@example.test", "a123@example.test", nil, true},
		{"Ada", "Testperson", "not an address", "", nil, false},
		{"Ada", "Testperson", "", "", nil, false},
	} {
		norm, patterns, ok := ClassifyAddress(c.first, c.last, c.addr)
		if norm != c.norm || !reflect.DeepEqual(patterns, c.patterns) || ok != c.ok {
			t.Errorf("%s %s %q: %q %v %v, want %q %v %v", c.first, c.last, c.addr, norm, patterns, ok, c.norm, c.patterns, c.ok)
		}
	}
}

func TestFindEmailWithOutcomes(t *testing.T) {
	const flast, firstLast = "atestperson@example.test", "ada.testperson@example.test"
	threeFLast := colleagues(FLast, 3) // evidence 0.3: 0.45 without feedback
	outcomes := func(ps map[string]prospector.PatternOutcome, bounced ...string) *prospector.EmailOutcomes {
		o := &prospector.EmailOutcomes{Patterns: ps, Undeliverable: map[string]bool{}}
		for _, a := range bounced {
			o.Undeliverable[a] = true
		}
		return o
	}
	for _, c := range []struct {
		name  string
		known []*prospector.Person
		o     *prospector.EmailOutcomes
		q     prospector.EmailQuery
		want  prospector.EmailResult
	}{
		{"NoFeedback", threeFLast, nil, ada, pat(flast, 0.45)},
		// 0.3 × 3/(3+1)
		{"BounceLowers", threeFLast, outcomes(map[string]prospector.PatternOutcome{"": {Bounces: 1}, "flast": {Bounces: 1}}),
			ada, pat(flast, 0.3+0.5*0.225)},
		// 4 of 4 known follow flast: 0.4
		{"ReplyRaises", threeFLast, outcomes(map[string]prospector.PatternOutcome{"": {Replies: 1}, "flast": {Replies: 1}}),
			ada, pat(flast, 0.5)},
		// A reply following no pattern dilutes the share: 3/4 × 0.4
		{"ReplyOffPattern", threeFLast, outcomes(map[string]prospector.PatternOutcome{"": {Replies: 1}}), ada, pat(flast, 0.45)},
		// Replies alone are evidence: 2 of 2 follow first.last, 0.2
		{"RepliesWithoutKnown", nil, outcomes(map[string]prospector.PatternOutcome{"": {Replies: 2}, "first.last": {Replies: 2}}),
			ada, pat(firstLast, 0.4)},
		// Enough bounces put another pattern first: of 5 known (2 by
		// replies), flast 0.3 × 3/9 = 0.1 < first.last 0.2
		{"BouncesReorder", threeFLast, outcomes(map[string]prospector.PatternOutcome{"": {Bounces: 6, Replies: 2},
			"flast": {Bounces: 6}, "first.last": {Replies: 2}}), ada, pat(firstLast, 0.4)},
		{"BouncedAddressSkipped", threeFLast, outcomes(map[string]prospector.PatternOutcome{"": {Bounces: 1}, "flast": {Bounces: 1}}, flast),
			ada, none},
		{"BouncedKnownSkipped", threeFLast, outcomes(nil, "ada.t@example.test"), withKnown(ada, "ada.t@example.test"), pat(flast, 0.45)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSetup(t, nil, nil, c.known, func(cfg *Config) { cfg.Outcomes = &memOutcomes{o: c.o} })
			if got := s.find(t, c.q); !sameResult(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	s := newSetup(t, nil, nil, threeFLast, func(cfg *Config) { cfg.Outcomes = &memOutcomes{err: errors.New("down")} })
	if _, err := s.f.FindEmail(context.Background(), ada); err == nil {
		t.Fatal("an Outcomes failure was swallowed")
	}
}

// TestOutcomesKeptBriefly: a domain's outcomes are read once per
// OutcomesTTL; a new one shows after that time, or at once when the node
// that recorded it says so (ForgetOutcomes).
func TestOutcomesKeptBriefly(t *testing.T) {
	const flast = "atestperson@example.test"
	src := &memOutcomes{}
	s := newSetup(t, nil, nil, colleagues(FLast, 3), func(cfg *Config) { cfg.Outcomes = src })
	if got := s.find(t, ada); !sameResult(got, pat(flast, 0.45)) {
		t.Fatalf("before any outcome: %+v", got)
	}
	src.o = &prospector.EmailOutcomes{Undeliverable: map[string]bool{flast: true}}
	if got := s.find(t, ada); !sameResult(got, pat(flast, 0.45)) {
		t.Fatalf("within the second the outcomes are kept: %+v", got)
	}
	s.clock.advance(time.Second)
	if got := s.find(t, ada); !sameResult(got, none) {
		t.Fatalf("a second later the bounce is not counted: %+v", got)
	}
	src.o = nil
	s.f.ForgetOutcomes("Example.TEST")
	if got := s.find(t, ada); !sameResult(got, pat(flast, 0.45)) {
		t.Fatalf("after ForgetOutcomes the new outcomes are not read: %+v", got)
	}
}
