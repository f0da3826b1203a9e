package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/email"
	"github.com/prospectorhq/prospector/email/smtptest"
)

// emailFixture stores two companies: lumen.example, whose five known
// addresses all follow first.last, and bare.example, with no address
// known. Quinn at Lumen has a profile URL and no address; Rho at Lumen
// has a profile URL and a known address.
func emailFixture(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	cs := []*prospector.Company{
		{Name: "Lumen Works", Domain: "lumen.example", Website: "https://lumen.example", Industry: "Software Development",
			NetworkURL: "https://network.example/company/lumen"},
		{Name: "Bare Systems", Domain: "bare.example", Website: "https://bare.example", Industry: "Software Development"},
	}
	if _, err := e.store.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	lumen, bare := cs[0], cs[1]
	var ps []*prospector.Person
	for i, n := range []string{"Ada Testperson", "Bo Fakename", "Cy Samplerson", "Di Placeholder", "Ed Dummyman"} {
		p := importedPerson(fmt.Sprintf("lumen-%d", i), "", n, "Account Executive", lumen, "", "", "US", nil)
		p.Email = strings.ToLower(strings.ReplaceAll(n, " ", ".")) + "@lumen.example"
		ps = append(ps, p)
	}
	quinn := importedPerson("", "https://network.example/in/quinn", "Quinn Exampleton", "VP of Sales", lumen, "", "", "US", nil)
	rho := importedPerson("", "https://network.example/in/rho", "Rho Mockwell", "CEO", lumen, "", "", "US", nil)
	rho.Email = "rho@lumen.example" // not the pattern: the data knows better
	nob := importedPerson("", "https://network.example/in/nob", "Nob Nocompany", "Consultant", nil, "", "", "US", nil)
	sal := importedPerson("", "https://network.example/in/sal", "Sal Unknownmail", "CTO", bare, "", "", "US", nil)
	ps = append(ps, quinn, rho, nob, sal)
	if _, err := e.store.UpsertPeople(ctx, ps); err != nil {
		t.Fatal(err)
	}
}

type emailAnswer struct {
	email      string
	verified   bool
	confidence float64
}

func (r response) emailAnswer(t *testing.T) emailAnswer {
	t.Helper()
	d := r.data(t)
	if len(d) != 3 {
		t.Fatalf("data has %d members, want email, verified, confidence: %s", len(d), r.body)
	}
	return emailAnswer{d["email"].(string), d["verified"].(bool), d["confidence"].(float64)}
}

func creditsUsed(t *testing.T, e *env, w *prospector.Workspace) int64 {
	t.Helper()
	u, err := e.store.CreditUsage(context.Background(), w.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return u.CreditsUsed
}

const enrichPath = "/api/v1/enrich/email"

func TestEnrichEmailFound(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	cases := []struct {
		name string
		body map[string]any
		want string
		conf float64 // 0.3 + 0.5 * share 1 * min(5,10)/10 for the pattern
	}{
		{"profile URL, pattern", map[string]any{"network_url": "HTTPS://www.network.example/in/quinn/"}, "quinn.exampleton@lumen.example", 0.55},
		{"profile URL, address in the data", map[string]any{"network_url": "https://network.example/in/rho"}, "rho@lumen.example", 0.85},
		{"name and domain", map[string]any{"name": "Dr. Zed Madeup", "company": "https://www.Lumen.example/team"}, "zed.madeup@lumen.example", 0.55},
		{"name and company name", map[string]any{"name": "Zoë Invented", "company": "lumen works"}, "zoe.invented@lumen.example", 0.55},
		{"unknown profile URL, then name and company", map[string]any{"network_url": "https://network.example/in/nobody", "name": "Yan Fiction", "company": "lumen.example"}, "yan.fiction@lumen.example", 0.55},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do("POST", enrichPath, key, c.body)
			got := r.emailAnswer(t)
			if got != (emailAnswer{c.want, false, c.conf}) {
				t.Errorf("got %+v, want %s unverified at %.2f", got, c.want, c.conf)
			}
			if used := creditsUsed(t, e, w); used != int64(i+1) {
				t.Errorf("credits used %d after %d addresses", used, i+1)
			}
		})
	}
}

func TestEnrichEmailNoMatchIsFree(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	for name, body := range map[string]map[string]any{
		"no address known at the domain": {"network_url": "https://network.example/in/sal"},
		"a domain never stored":          {"name": "Ada Testperson", "company": "elsewhere.example"},
		"a domain without mail":          {"name": "Ada Testperson", "company": "gone.nomail.example"},
		"a person without company":       {"network_url": "https://network.example/in/nob"},
		"a disposable domain":            {"name": "Ada Testperson", "company": "mailinator.com"},
	} {
		t.Run(name, func(t *testing.T) {
			got := e.do("POST", enrichPath, key, body).emailAnswer(t)
			if got != (emailAnswer{"", false, 0}) {
				t.Errorf("got %+v, want the empty answer", got)
			}
		})
	}
	if used := creditsUsed(t, e, w); used != 0 {
		t.Errorf("credits used %d for no addresses", used)
	}
}

func TestEnrichEmailErrors(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	_, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	long := strings.Repeat("a", 201)
	for _, c := range []struct {
		body   any
		status int
		code   string
		field  string
	}{
		{map[string]any{}, 400, "validation_error", "name"},
		{nil, 400, "validation_error", "name"},
		{map[string]any{"name": "Ada Testperson"}, 400, "validation_error", "company"},
		{map[string]any{"company": "lumen.example"}, 400, "validation_error", "name"},
		{map[string]any{"name": " ", "company": "lumen.example"}, 400, "validation_error", "name"},
		{map[string]any{"name": "Dr.", "company": "lumen.example"}, 400, "validation_error", "name"},
		{map[string]any{"name": long, "company": "lumen.example"}, 400, "validation_error", "name"},
		{map[string]any{"name": "Ada", "company": long}, 400, "validation_error", "company"},
		{map[string]any{"network_url": "not a url"}, 400, "validation_error", "network_url"},
		{map[string]any{"network_url": "ftp://network.example/in/x"}, 400, "validation_error", "network_url"},
		{map[string]any{"network_url": 42}, 400, "validation_error", "network_url"},
		{map[string]any{"name": "Ada", "company": "lumen.example", "phone": "1"}, 400, "validation_error", "phone"},
		{map[string]any{"network_url": "https://network.example/in/nobody"}, 404, "not_found", "network_url"},
		{map[string]any{"name": "Ada Testperson", "company": "No Such Company"}, 404, "not_found", "company"},
	} {
		msg := e.do("POST", enrichPath, key, c.body).wantError(t, c.status, c.code)
		if !strings.Contains(msg, c.field) {
			t.Errorf("%v: message %q does not name %s", c.body, msg, c.field)
		}
	}
	e.do("POST", enrichPath, "", map[string]any{"network_url": "https://network.example/in/quinn"}).wantError(t, 401, "unauthorized")
}

func TestEnrichEmailCreditsConcurrent(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter, func(w *prospector.Workspace) {
		w.Credits = prospector.Limit{Limit: i64p(10)}
	})
	var mu sync.Mutex
	emails, refused := 0, 0
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do("POST", enrichPath, key, map[string]any{"name": fmt.Sprintf("Person%c Made%c", 'a'+i%26, 'a'+i/26), "company": "lumen.example"})
			mu.Lock()
			defer mu.Unlock()
			switch r.status {
			case 200:
				if r.emailAnswer(t).email != "" {
					emails++
				}
			case 429:
				msg := r.wantError(t, 429, "rate_limit_exceeded")
				if !strings.Contains(msg, "Credit limit reached") || r.header.Get("Retry-After") == "" {
					t.Errorf("429 without the credit message or Retry-After: %q", msg)
				}
				refused++
			default:
				t.Errorf("status %d: %s", r.status, r.body)
			}
		}()
	}
	wg.Wait()
	if emails != 10 || refused != 40 {
		t.Errorf("%d addresses and %d refusals, want 10 and 40", emails, refused)
	}
	if used := creditsUsed(t, e, w); used != int64(emails) {
		t.Errorf("credits used %d, addresses returned %d", used, emails)
	}
	// Out of credits, a lookup without an address is still free and 200.
	if got := e.do("POST", enrichPath, key, map[string]any{"network_url": "https://network.example/in/sal"}).emailAnswer(t); got.email != "" {
		t.Errorf("got %+v", got)
	}
}

func TestEnrichEmailUnlimitedAndBypassed(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	for name, lim := range map[string]prospector.Limit{
		"unlimited": {},
		"bypassed":  {Limit: i64p(1), Bypassed: true},
	} {
		w, key := e.workspace(name, prospector.PlanStarter, prospector.PlanStarter, func(w *prospector.Workspace) { w.Credits = lim })
		for i := range 3 {
			r := e.do("POST", enrichPath, key, map[string]any{"name": fmt.Sprintf("Un%c Limited", 'a'+i), "company": "lumen.example"})
			if r.emailAnswer(t).email == "" {
				t.Fatalf("%s: no address", name)
			}
		}
		if used := creditsUsed(t, e, w); used != 3 {
			t.Errorf("%s: used %d, want 3 counted", name, used)
		}
	}
}

func TestEnrichEmailIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter, func(w *prospector.Workspace) {
		w.Credits = prospector.Limit{Limit: i64p(1)}
	})
	body := map[string]any{"network_url": "https://network.example/in/quinn"}
	hdr := map[string]string{"Idempotency-Key": "retry-1"}
	first := e.doHeader("POST", enrichPath, key, body, hdr)
	if first.emailAnswer(t).email == "" || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first call: %s %v", first.body, first.header)
	}
	// The retry is answered although the only credit is spent.
	again := e.doHeader("POST", enrichPath, key, body, hdr)
	if string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry: %s (replayed %q), first %s", again.body, again.header.Get("Idempotent-Replayed"), first.body)
	}
	if used := creditsUsed(t, e, w); used != 1 {
		t.Errorf("credits used %d after a call and its retry", used)
	}
	// Same key, another body.
	msg := e.doHeader("POST", enrichPath, key, map[string]any{"network_url": "https://network.example/in/rho"}, hdr).
		wantError(t, 400, "validation_error")
	if !strings.Contains(msg, "Idempotency-Key") {
		t.Errorf("message %q does not name Idempotency-Key", msg)
	}
	// Without a key the retry would be charged: there is no credit left.
	e.do("POST", enrichPath, key, body).wantError(t, 429, "rate_limit_exceeded")
	// The key is the workspace's own.
	w2, key2 := e.workspace("other", prospector.PlanStarter, prospector.PlanStarter)
	if e.doHeader("POST", enrichPath, key2, body, hdr).header.Get("Idempotent-Replayed") != "" {
		t.Error("another workspace's key was replayed")
	}
	if used := creditsUsed(t, e, w2); used != 1 {
		t.Errorf("other workspace used %d", used)
	}
	for _, bad := range []string{" ", strings.Repeat("k", 256), "naïve"} {
		e.doHeader("POST", enrichPath, key, body, map[string]string{"Idempotency-Key": bad}).wantError(t, 400, "validation_error")
	}
	for _, ok := range []string{"k", strings.Repeat("k", 255)} {
		if r := e.doHeader("POST", enrichPath, key2, body, map[string]string{"Idempotency-Key": ok}); r.status != http.StatusOK {
			t.Errorf("key of %d characters: %d %s", len(ok), r.status, r.body)
		}
	}
}

// TestEnrichEmailSMTP runs enrich/email against a loopback mail server:
// an acceptance on a domain that rejects random addresses is verified;
// a catch-all domain is never verified and its confidence capped; a
// greylisting server leaves the pattern's confidence.
func TestEnrichEmailSMTP(t *testing.T) {
	for _, c := range []struct {
		name string
		mode func(*smtptest.Server)
		want emailAnswer
	}{
		{"accepted", smtptest.Accepting("quinn.exampleton@lumen.example"), emailAnswer{"quinn.exampleton@lumen.example", true, 0.95}},
		{"catch-all", smtptest.CatchAll, emailAnswer{"quinn.exampleton@lumen.example", false, 0.35}},
		{"greylisted", smtptest.Greylist, emailAnswer{"quinn.exampleton@lumen.example", false, 0.55}},
		{"rejected", smtptest.Accepting("someone.else@lumen.example"), emailAnswer{"", false, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := smtptest.NewServer(t, c.mode)
			e := newEnv(t, func(cfg *apiConfig) {
				cfg.Emails = email.New(email.Config{Resolver: mxResolver{host: "127.0.0.1"}, People: cfg.Store,
					SMTP: email.SMTPConfig{Enabled: true, Port: srv.Port, CommandTimeout: time.Second}})
			})
			emailFixture(t, e)
			w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
			got := e.do("POST", enrichPath, key, map[string]any{"network_url": "https://network.example/in/quinn"}).emailAnswer(t)
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			want := int64(0)
			if c.want.email != "" {
				want = 1
			}
			if used := creditsUsed(t, e, w); used != want {
				t.Errorf("credits used %d", used)
			}
			if len(srv.Recipients()) == 0 {
				t.Error("the mail server was never asked")
			}
		})
	}
}

// TestEnrichEmailFollowsPersonChanges: a person looked up by profile URL
// is kept for repeated lookups, but a change of the person in the store
// is answered once the search index has taken it in.
func TestEnrichEmailFollowsPersonChanges(t *testing.T) {
	e := newEnv(t)
	emailFixture(t, e)
	_, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	rho := map[string]any{"network_url": "https://network.example/in/rho"}
	for range 2 {
		if got := e.do("POST", enrichPath, key, rho).emailAnswer(t); got != (emailAnswer{"rho@lumen.example", false, 0.85}) {
			t.Fatalf("before the change: %+v", got)
		}
	}
	p, err := e.store.PersonByKey(context.Background(), "url:"+prospector.NormalizeProfileURL("https://network.example/in/rho"))
	if err != nil {
		t.Fatal(err)
	}
	p.Email = "rho.mockwell@lumen.example"
	if _, err := e.store.UpsertPeople(context.Background(), []*prospector.Person{p}); err != nil {
		t.Fatal(err)
	}
	e.sync()
	if got := e.do("POST", enrichPath, key, rho).emailAnswer(t); got != (emailAnswer{"rho.mockwell@lumen.example", false, 0.85}) {
		t.Fatalf("after the change reached the index: %+v", got)
	}
}

// countingFinder counts the lookups that reach the finder.
type countingFinder struct {
	prospector.EmailFinder
	lookups atomic.Int64
}

func (c *countingFinder) FindEmail(ctx context.Context, q prospector.EmailQuery) (prospector.EmailResult, error) {
	c.lookups.Add(1)
	return c.EmailFinder.FindEmail(ctx, q)
}

// TestEnrichEmailReplayDoesNoLookup: the Idempotency-Key is checked before
// any work, so a replay reaches neither the finder (nor, with probing on,
// a mail server) and returns the first answer and charge.
func TestEnrichEmailReplayDoesNoLookup(t *testing.T) {
	srv := smtptest.NewServer(t, smtptest.Accepting("quinn.exampleton@lumen.example"))
	var finder *countingFinder
	e := newEnv(t, func(cfg *apiConfig) {
		finder = &countingFinder{EmailFinder: email.New(email.Config{Resolver: mxResolver{host: "127.0.0.1"}, People: cfg.Store,
			SMTP: email.SMTPConfig{Enabled: true, Port: srv.Port, CommandTimeout: time.Second}})}
		cfg.Emails = finder
	})
	emailFixture(t, e)
	w, key := e.workspace("acme", prospector.PlanStarter, prospector.PlanStarter)
	body := map[string]any{"network_url": "https://network.example/in/quinn"}
	hdr := map[string]string{"Idempotency-Key": "retry-1"}
	first := e.doHeader("POST", enrichPath, key, body, hdr)
	if got := first.emailAnswer(t); got != (emailAnswer{"quinn.exampleton@lumen.example", true, 0.95}) {
		t.Fatalf("first call: %+v", got)
	}
	probes := len(srv.Recipients())
	if finder.lookups.Load() != 1 || probes == 0 {
		t.Fatalf("first call: %d lookups, %d probes", finder.lookups.Load(), probes)
	}
	for range 3 {
		again := e.doHeader("POST", enrichPath, key, body, hdr)
		if string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %s (replayed %q), first %s", again.body, again.header.Get("Idempotent-Replayed"), first.body)
		}
	}
	if n := finder.lookups.Load(); n != 1 {
		t.Errorf("%d lookups for a call and its replays, want 1", n)
	}
	if n := len(srv.Recipients()); n != probes {
		t.Errorf("the replays probed the mail server: %d recipients, %d before", n, probes)
	}
	if used := creditsUsed(t, e, w); used != 1 {
		t.Errorf("credits used %d after a call and its replays, want 1", used)
	}
	// The same key with another body is refused before any lookup.
	e.doHeader("POST", enrichPath, key, map[string]any{"network_url": "https://network.example/in/rho"}, hdr).
		wantError(t, 400, "validation_error")
	if n := finder.lookups.Load(); n != 1 {
		t.Errorf("a reused key with another body was looked up: %d lookups", n)
	}
}
