package email

import (
	"context"
	"errors"
	"fmt"
	"github.com/prospectorhq/prospector/email/smtptest"
	"math"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// ada is the person most tests look for.
var ada = prospector.EmailQuery{FirstName: "Ada", LastName: "Testperson", Domain: "example.test", CompanyID: 1}

// setup is a Finder wired to a loopback server (nil for probing off), a
// resolver and the company's people.
type setup struct {
	f        *Finder
	srv      *smtptest.Server
	resolver *stubResolver
	people   *memPeople
	clock    *testClock
}

// newSetup builds the Finder; opts adjust its Config last.
func newSetup(t *testing.T, srv *smtptest.Server, resolver *stubResolver, known []*prospector.Person, opts ...func(*Config)) *setup {
	t.Helper()
	if resolver == nil {
		resolver = loopbackMX()
	}
	s := &setup{
		srv:      srv,
		resolver: resolver,
		people:   &memPeople{byCompany: map[int64][]*prospector.Person{1: known}},
		clock:    &testClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)},
	}
	cfg := Config{Resolver: resolver, People: s.people, Now: s.clock.now}
	if srv != nil {
		cfg.SMTP = SMTPConfig{
			Enabled:        true,
			HeloName:       "verifier.example.test",
			Port:           srv.Port,
			ConnectTimeout: 500 * time.Millisecond,
			CommandTimeout: 200 * time.Millisecond,
		}
	}
	for _, o := range opts {
		o(&cfg)
	}
	s.f = New(cfg)
	return s
}

func (s *setup) find(t *testing.T, q prospector.EmailQuery) prospector.EmailResult {
	t.Helper()
	r, err := s.f.FindEmail(context.Background(), q)
	if err != nil {
		t.Fatalf("FindEmail: %v", err)
	}
	return r
}

func sameResult(got, want prospector.EmailResult) bool {
	return got.Email == want.Email && got.Verified == want.Verified &&
		got.Evidence == want.Evidence && math.Abs(got.Confidence-want.Confidence) < 1e-9
}

func pat(email string, conf float64) prospector.EmailResult {
	return prospector.EmailResult{Email: email, Confidence: conf, Evidence: prospector.EvidencePattern}
}

func verified(email string, conf float64) prospector.EmailResult {
	return prospector.EmailResult{Email: email, Verified: true, Confidence: conf, Evidence: prospector.EvidenceSMTPAccepted}
}

func catchAll(email string, conf float64) prospector.EmailResult {
	return prospector.EmailResult{Email: email, Confidence: conf, Evidence: prospector.EvidenceCatchAll}
}

func knownResult(email string, conf float64) prospector.EmailResult {
	return prospector.EmailResult{Email: email, Confidence: conf, Evidence: prospector.EvidenceKnown}
}

var none = prospector.EmailResult{Evidence: prospector.EvidenceNone}

func withKnown(q prospector.EmailQuery, known string) prospector.EmailQuery {
	q.Known = known
	return q
}

func TestFindEmail(t *testing.T) {
	const (
		flast     = "atestperson@example.test"
		firstLast = "ada.testperson@example.test"
	)
	threeFLast := colleagues(FLast, 3) // evidence 0.3: pattern 0.45, catch-all 0.29
	mixed := append(colleagues(FLast, 3), colleagues(FirstDotLast, 8)[7:]...)
	tests := []struct {
		name     string
		smtp     []func(*smtptest.Server) // nil: probing off
		resolver *stubResolver            // nil: MX at the test server
		known    []*prospector.Person
		q        prospector.EmailQuery
		want     prospector.EmailResult
	}{
		{name: "PatternOnly", known: threeFLast, q: ada, want: pat(flast, 0.45)},
		{name: "MajorityPatternWins", known: mixed, q: ada, want: pat(flast, 0.3+0.5*0.75*0.4)},
		{name: "TenKnownAllAgree", known: colleagues(LastF, 12), q: ada, want: pat("testpersona@example.test", 0.8)},
		{name: "FoldedName", known: threeFLast, q: prospector.EmailQuery{FirstName: "Zoë", LastName: "O'Néil-Smíth", Domain: "Example.TEST", CompanyID: 1}, want: pat("zoneilsmith@example.test", 0.45)},
		{name: "NoPatternEvidence", q: ada, want: none},
		{name: "NoCompany", known: threeFLast, q: prospector.EmailQuery{FirstName: "Ada", LastName: "Testperson", Domain: "example.test"}, want: none},
		{name: "KnownAddressesFitNoPattern", known: []*prospector.Person{{FirstName: "Bea", LastName: "Sampleton", Email: "u123@example.test"}}, q: ada, want: none},
		{name: "NoFirstName", known: threeFLast, q: prospector.EmailQuery{LastName: "Testperson", Domain: "example.test", CompanyID: 1}, want: none},
		{name: "Known", q: withKnown(ada, "Ada.T@Example.test"), want: knownResult("ada.t@example.test", 0.85)},
		{name: "KnownBadSyntax", known: threeFLast, q: withKnown(ada, "ada..t@example.test"), want: pat(flast, 0.45)},
		{name: "KnownDisposable", known: threeFLast, q: withKnown(ada, "ada@mailinator.com"), want: pat(flast, 0.45)},
		{name: "DisposableDomain", known: threeFLast, q: prospector.EmailQuery{FirstName: "Ada", LastName: "Testperson", Domain: "yopmail.com", CompanyID: 1}, want: none},
		{name: "KnownRoleCapped", q: withKnown(ada, "info@example.test"), want: knownResult("info@example.test", 0.5)},
		{name: "RoleNeverGenerated", known: colleagues(First, 3), q: prospector.EmailQuery{FirstName: "Sales", Domain: "example.test", CompanyID: 1}, want: none},
		{name: "NoLastNameFirstOnly", known: colleagues(First, 3), q: prospector.EmailQuery{FirstName: "Ada", Domain: "example.test", CompanyID: 1}, want: pat("ada@example.test", 0.45)},
		{name: "NXDomain", known: threeFLast, resolver: &stubResolver{err: errNXDomain}, q: withKnown(ada, "ada@example.test"), want: none},
		{name: "NullMX", known: threeFLast, resolver: &stubResolver{mx: []*net.MX{{Host: ".", Pref: 0}}}, q: ada, want: none},
		{name: "TempDNSFailure", smtp: nil, known: threeFLast, resolver: &stubResolver{err: errTempDNS}, q: ada, want: pat(flast, 0.45)},
		{name: "TempDNSFailureProbing", smtp: []func(*smtptest.Server){smtptest.Accepting(flast)}, known: threeFLast, resolver: &stubResolver{err: errTempDNS}, q: ada, want: pat(flast, 0.45)},
		{name: "Accepted", smtp: []func(*smtptest.Server){smtptest.Accepting(flast)}, known: threeFLast, q: ada, want: verified(flast, 0.95)},
		{name: "AcceptedWithoutPatternEvidence", smtp: []func(*smtptest.Server){smtptest.Accepting(firstLast)}, q: ada, want: verified(firstLast, 0.95)},
		{name: "KnownAccepted", smtp: []func(*smtptest.Server){smtptest.Accepting("ada.t@example.test")}, q: withKnown(ada, "ada.t@example.test"), want: verified("ada.t@example.test", 0.99)},
		{name: "KnownRejectedPatternAccepted", smtp: []func(*smtptest.Server){smtptest.Accepting(flast)}, known: threeFLast, q: withKnown(ada, "ada.old@example.test"), want: verified(flast, 0.95)},
		{name: "KnownRejectedNoOtherAnswer", smtp: []func(*smtptest.Server){}, q: withKnown(ada, "ada.old@example.test"), want: none},
		{name: "RejectedThenAccepted", smtp: []func(*smtptest.Server){smtptest.Accepting(firstLast)}, known: threeFLast, q: ada, want: verified(firstLast, 0.95)},
		{name: "AllRejected", smtp: []func(*smtptest.Server){}, known: threeFLast, q: ada, want: none},
		{name: "CatchAll", smtp: []func(*smtptest.Server){smtptest.CatchAll}, known: threeFLast, q: ada, want: catchAll(flast, 0.29)},
		{name: "CatchAllKnown", smtp: []func(*smtptest.Server){smtptest.CatchAll}, known: threeFLast, q: withKnown(ada, "ada.t@example.test"), want: catchAll("ada.t@example.test", 0.5)},
		{name: "CatchAllNoEvidence", smtp: []func(*smtptest.Server){smtptest.CatchAll}, q: ada, want: none}, // acceptance proves nothing and nothing else supports a guess
		{name: "CatchAllStrongEvidence", smtp: []func(*smtptest.Server){smtptest.CatchAll}, known: colleagues(FLast, 10), q: ada, want: catchAll(flast, 0.5)},
		{name: "Greylisted", smtp: []func(*smtptest.Server){smtptest.Greylist}, known: threeFLast, q: ada, want: pat(flast, 0.45)},
		{name: "GreylistedKnown", smtp: []func(*smtptest.Server){smtptest.Greylist}, q: withKnown(ada, "ada.t@example.test"), want: knownResult("ada.t@example.test", 0.85)},
		{name: "GreylistedNoEvidence", smtp: []func(*smtptest.Server){smtptest.Greylist}, q: ada, want: none},
		{name: "PolicyBlockIsNotRejection", smtp: []func(*smtptest.Server){smtptest.Policy}, known: threeFLast, q: ada, want: pat(flast, 0.45)},
		{name: "SlowServerTimesOut", smtp: []func(*smtptest.Server){smtptest.Accepting(flast), smtptest.Slow(400 * time.Millisecond)}, known: threeFLast, q: ada, want: pat(flast, 0.45)},
		{name: "HELOFallback", smtp: []func(*smtptest.Server){smtptest.Accepting(flast), smtptest.RejectEHLO}, known: threeFLast, q: ada, want: verified(flast, 0.95)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var srv *smtptest.Server
			if tt.smtp != nil {
				srv = smtptest.NewServer(t, tt.smtp...)
			}
			s := newSetup(t, srv, tt.resolver, tt.known)
			if got := s.find(t, tt.q); !sameResult(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestFindEmailSession checks the conversation: catch-all probe first,
// candidates in rank order until one is accepted, then RSET and QUIT,
// and never DATA (which newSMTPServer checks for every test).
func TestFindEmailSession(t *testing.T) {
	srv := smtptest.NewServer(t, smtptest.Accepting("ada.testperson@example.test"))
	s := newSetup(t, srv, nil, colleagues(FLast, 3))
	s.find(t, ada)
	cmds := srv.Commands()
	if len(cmds) != 7 {
		t.Fatalf("commands %q, want 7", cmds)
	}
	want := []string{
		"EHLO verifier.example.test",
		"MAIL FROM:<verify@verifier.example.test>",
		"", // the random address
		"RCPT TO:<atestperson@example.test>",
		"RCPT TO:<ada.testperson@example.test>",
		"RSET",
		"QUIT",
	}
	for i, w := range want {
		if w != "" && cmds[i] != w {
			t.Errorf("command %d is %q, want %q", i, cmds[i], w)
		}
	}
	random, ok := strings.CutPrefix(cmds[2], "RCPT TO:<")
	local, _, _ := strings.Cut(random, "@")
	if !ok || len(local) != 20 || !strings.HasSuffix(random, "@example.test>") {
		t.Errorf("catch-all probe %q, want 20 random characters at example.test", cmds[2])
	}
}

// TestFindEmailNextMX checks that a host refusing connections is passed
// over for the next MX by preference.
func TestFindEmailNextMX(t *testing.T) {
	srv := smtptest.NewServer(t, smtptest.Accepting("atestperson@example.test"))
	var dialed []string
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		if strings.HasPrefix(addr, "mx1.down") {
			return nil, errors.New("connection refused")
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	s := newSetup(t, srv, &stubResolver{mx: []*net.MX{
		{Host: "127.0.0.1", Pref: 20},
		{Host: "mx1.down.example.test", Pref: 10},
	}}, colleagues(FLast, 3), func(c *Config) { c.Dial = dial })
	if got, want := s.find(t, ada), verified("atestperson@example.test", 0.95); !sameResult(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if len(dialed) != 2 || !strings.HasPrefix(dialed[0], "mx1.down") {
		t.Errorf("dialed %q, want the preferred host first, then the loopback", dialed)
	}
}

// TestFindEmailCached asks twice: the second answer must come from the
// caches, with no DNS, SMTP or People call.
func TestFindEmailCached(t *testing.T) {
	modes := map[string][]func(*smtptest.Server){
		"Accepted":             {smtptest.Accepting("atestperson@example.test")},
		"RejectedThenAccepted": {smtptest.Accepting("ada.testperson@example.test")},
		"AllRejected":          {},
		"CatchAll":             {smtptest.CatchAll},
		"Greylisted":           {smtptest.Greylist},
		"Slow":                 {smtptest.Slow(300 * time.Millisecond)},
	}
	for name, opts := range modes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := smtptest.NewServer(t, opts...)
			s := newSetup(t, srv, nil, colleagues(FLast, 3))
			first := s.find(t, ada)
			sessions, _ := srv.Stats()
			dns, people := s.resolver.count(), s.people.count()
			if sessions != 1 || dns != 1 || people != 1 {
				t.Fatalf("first call: %d sessions, %d DNS, %d People calls; want 1 each", sessions, dns, people)
			}
			second := s.find(t, ada)
			if !sameResult(first, second) {
				t.Errorf("second answer %+v differs from first %+v", second, first)
			}
			sessions, _ = srv.Stats()
			if sessions != 1 || s.resolver.count() != 1 || s.people.count() != 1 {
				t.Errorf("second call made calls: %d sessions, %d DNS, %d People", sessions, s.resolver.count(), s.people.count())
			}
		})
	}
}

// TestFindEmailCacheExpiry moves the clock past each TTL in turn.
func TestFindEmailCacheExpiry(t *testing.T) {
	t.Run("Verdicts", func(t *testing.T) {
		srv := smtptest.NewServer(t, smtptest.Accepting("atestperson@example.test"))
		s := newSetup(t, srv, nil, colleagues(FLast, 3))
		s.find(t, ada)
		s.clock.advance(6*time.Hour - time.Second) // everything still fresh
		s.find(t, ada)
		if n, _ := srv.Stats(); n != 1 || s.resolver.count() != 1 || s.people.count() != 1 {
			t.Fatalf("before DomainTTL: %d sessions, %d DNS, %d People; want 1 each", n, s.resolver.count(), s.people.count())
		}
		s.clock.advance(2 * time.Second) // domain facts expire, the verdict does not
		s.find(t, ada)
		if s.resolver.count() != 2 || s.people.count() != 2 {
			t.Errorf("after DomainTTL: %d DNS, %d People; want 2 each", s.resolver.count(), s.people.count())
		}
		if rs := srv.Recipients(); len(rs) != 3 || rs[2] == "atestperson@example.test" {
			t.Errorf("after DomainTTL recipients %q; want only a new catch-all probe", rs)
		}
		s.clock.advance(18 * time.Hour) // the verdict expires too
		s.find(t, ada)
		if rs := srv.Recipients(); len(rs) != 5 || rs[4] != "atestperson@example.test" {
			t.Errorf("after AddressTTL recipients %q; want the address asked again", rs)
		}
	})
	t.Run("UnknownIsShortLived", func(t *testing.T) {
		srv := smtptest.NewServer(t, smtptest.Greylist)
		s := newSetup(t, srv, nil, colleagues(FLast, 3))
		s.find(t, ada)
		s.clock.advance(9 * time.Minute)
		s.find(t, ada)
		if n, _ := srv.Stats(); n != 1 {
			t.Fatalf("within 10 minutes: %d sessions, want 1", n)
		}
		s.clock.advance(2 * time.Minute)
		s.find(t, ada)
		if n, _ := srv.Stats(); n != 2 || s.resolver.count() != 1 || s.people.count() != 1 {
			t.Errorf("after 11 minutes: %d sessions, %d DNS, %d People; want 2, 1, 1", n, s.resolver.count(), s.people.count())
		}
	})
}

// TestFindEmailPerDomainLimit runs five lookups at one domain at once
// with PerDomain 1: the server must never see two sessions at a time.
func TestFindEmailPerDomainLimit(t *testing.T) {
	srv := smtptest.NewServer(t, smtptest.Slow(10*time.Millisecond))
	s := newSetup(t, srv, nil, colleagues(FLast, 3), func(c *Config) { c.SMTP.PerDomain = 1 })
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			if _, err := s.f.FindEmail(context.Background(), fakeQuery(i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	sessions, maxActive := srv.Stats()
	if sessions < 2 || maxActive != 1 {
		t.Errorf("%d sessions, at most %d at once; want several, 1 at once", sessions, maxActive)
	}
	if len(s.f.prober.sems) != 0 {
		t.Errorf("%d semaphores left after all sessions ended", len(s.f.prober.sems))
	}
}

func TestFindEmailErrors(t *testing.T) {
	t.Run("People", func(t *testing.T) {
		errDown := errors.New("store down")
		s := newSetup(t, nil, nil, nil)
		s.people.err = errDown
		r, err := s.f.FindEmail(context.Background(), ada)
		if !errors.Is(err, errDown) || r.Email != "" {
			t.Errorf("got %+v, %v; want no result and the store error", r, err)
		}
	})
	t.Run("Canceled", func(t *testing.T) {
		s := newSetup(t, nil, nil, colleagues(FLast, 3))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.f.FindEmail(ctx, ada); !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	})
	t.Run("DeadlineDuringSMTP", func(t *testing.T) {
		srv := smtptest.NewServer(t, smtptest.Slow(500*time.Millisecond))
		s := newSetup(t, srv, nil, colleagues(FLast, 3), func(c *Config) { c.SMTP.CommandTimeout = 5 * time.Second })
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := s.f.FindEmail(ctx, ada)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 400*time.Millisecond {
			t.Errorf("err %v after %v, want the deadline promptly", err, time.Since(start))
		}
		if s.f.verdicts.len() != 0 || s.f.catchAll.len() != 0 {
			t.Error("an interrupted session left verdicts in the cache")
		}
	})
}

// BenchmarkFindEmailCached measures answers served from the caches:
// pattern, MX, catch-all flag and SMTP verdicts all warm.
func BenchmarkFindEmailCached(b *testing.B) {
	queries := make([]prospector.EmailQuery, 100)
	accepted := make([]string, len(queries))
	for i := range queries {
		queries[i] = prospector.EmailQuery{FirstName: fmt.Sprintf("Bench%c", 'a'+rune(i%26)), LastName: fmt.Sprintf("Testperson%c", 'a'+rune(i/26)), Domain: "example.test", CompanyID: 1}
		accepted[i] = FLast.Local(foldName(queries[i].FirstName), foldName(queries[i].LastName)) + "@example.test"
	}
	srv := smtptest.NewServer(b, smtptest.Accepting(accepted...))
	people := &memPeople{byCompany: map[int64][]*prospector.Person{1: colleagues(FLast, 10)}}
	f := New(Config{Resolver: loopbackMX(), People: people, SMTP: SMTPConfig{Enabled: true, Port: srv.Port}})
	for _, q := range queries {
		if r, err := f.FindEmail(context.Background(), q); err != nil || !r.Verified {
			b.Fatalf("warming up: %+v, %v", r, err)
		}
	}
	sessions, _ := srv.Stats()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := f.FindEmail(context.Background(), queries[i%len(queries)]); err != nil {
			b.Fatal(err)
		}
	}
	if n, _ := srv.Stats(); n != sessions || people.count() != 1 {
		b.Errorf("cached answers made calls: %d sessions after %d, %d People calls", n, sessions, people.count())
	}
}
