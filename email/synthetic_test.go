package email

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email/smtptest"
)

const demoDomain = "northwind-labs.example"

// isDemo stands for demo.IsCompanyDomain (package demo imports this
// one): the synthetic domains are those the predicate names.
func isDemo(d string) bool { return d == demoDomain }

// staffAt returns three people at domain whose addresses follow flast.
func staffAt(domain string) []*prospector.Person {
	ps := colleagues(FLast, 3)
	for _, p := range ps {
		local, _, _ := strings.Cut(p.Email, "@")
		p.Email = local + "@" + domain
	}
	return ps
}

// TestSyntheticDomain: a synthetic domain is answered as a mail domain
// whose server cannot be asked: no DNS lookup, no SMTP session even with
// probing on, answers from the data's pattern or address, never
// verified, and still no blind guess.
func TestSyntheticDomain(t *testing.T) {
	srv := smtptest.NewServer(t, smtptest.CatchAll)
	q := prospector.EmailQuery{FirstName: "Ada", LastName: "Testperson", Domain: demoDomain, CompanyID: 1}
	for _, c := range []struct {
		name  string
		known []*prospector.Person
		q     prospector.EmailQuery
		want  prospector.EmailResult
	}{
		{"pattern", staffAt(demoDomain), q, pat("atestperson@"+demoDomain, 0.45)},
		{"known address", nil, withKnown(q, "ada@"+demoDomain), knownResult("ada@"+demoDomain, 0.85)},
		{"no evidence: no guess", nil, q, none},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSetup(t, srv, &stubResolver{err: errNXDomain}, c.known, func(cfg *Config) { cfg.Synthetic = isDemo })
			if got := s.find(t, c.q); !sameResult(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			if n := s.resolver.count(); n != 0 {
				t.Fatalf("%d DNS lookups for a synthetic domain", n)
			}
		})
	}
	if cmds := srv.Commands(); len(cmds) != 0 {
		t.Fatalf("a synthetic domain was probed: %q", cmds)
	}
}

// TestSyntheticLeavesOtherDomainsAlone: with the predicate set, any
// other domain is answered exactly as without it, DNS and SMTP included.
func TestSyntheticLeavesOtherDomainsAlone(t *testing.T) {
	const real = "northwind-labs.com"
	q := prospector.EmailQuery{FirstName: "Ada", LastName: "Testperson", Domain: real, CompanyID: 1}
	for _, c := range []struct {
		name     string
		smtp     bool
		resolver func() *stubResolver
		want     prospector.EmailResult
	}{
		{"no mail servers", false, func() *stubResolver { return &stubResolver{err: errNXDomain} }, none},
		{"MX, probing off", false, loopbackMX, pat("atestperson@"+real, 0.45)},
		{"MX, probing on", true, loopbackMX, verified("atestperson@"+real, 0.95)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got [2]prospector.EmailResult
			var lookups, sessions [2]int
			for i, synthetic := range []func(string) bool{nil, isDemo} {
				var srv *smtptest.Server
				if c.smtp {
					srv = smtptest.NewServer(t, smtptest.Accepting("atestperson@"+real))
				}
				s := newSetup(t, srv, c.resolver(), staffAt(real), func(cfg *Config) { cfg.Synthetic = synthetic })
				got[i], lookups[i] = s.find(t, q), s.resolver.count()
				if srv != nil {
					sessions[i], _ = srv.Stats()
				}
			}
			if !sameResult(got[0], c.want) || got[1] != got[0] || lookups[1] != lookups[0] || lookups[0] != 1 || sessions[1] != sessions[0] {
				t.Fatalf("without the predicate %+v (%d lookups, %d sessions), with it %+v (%d, %d); want %+v",
					got[0], lookups[0], sessions[0], got[1], lookups[1], sessions[1], c.want)
			}
		})
	}
}
