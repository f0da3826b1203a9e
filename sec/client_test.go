package sec

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector/sec/sectest"
)

const testUA = "Prospector/test (ops@prospector.example)"

func newTestClient(t *testing.T, srv *sectest.Server, opts Options) *Client {
	t.Helper()
	if opts.ContactEmail == "" {
		opts.ContactEmail = "ops@prospector.example"
	}
	opts.BaseURL, opts.DataURL = srv.URL, srv.URL
	c, err := NewClient(&sectest.Fetcher{UserAgent: testUA}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientRefusesWithoutContactEmail(t *testing.T) {
	f := &sectest.Fetcher{UserAgent: testUA}
	for _, email := range []string{"", "ops", "ops@localhost", "not an email@", "@prospector.example"} {
		if _, err := NewClient(f, Options{ContactEmail: email}); !errors.Is(err, ErrNoContactEmail) {
			t.Errorf("%q: %v", email, err)
		}
	}
	if _, err := NewClient(f, Options{ContactEmail: "Ops Team <ops@prospector.example>"}); err != nil {
		t.Errorf("named address refused: %v", err)
	}
	if _, err := NewClient(f, Options{ContactEmail: "ops@prospector.example", Rate: 11}); err == nil {
		t.Error("a rate above the SEC's 10/s was accepted")
	}
	var zero Client
	if _, _, err := zero.DailyIndex(context.Background(), sectest.DefaultDay); !errors.Is(err, ErrNoContactEmail) {
		t.Errorf("zero client ran: %v", err)
	}
}

func TestClientDailyIndex(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	c := newTestClient(t, srv, Options{})
	ctx := context.Background()
	es, ok, err := c.DailyIndex(ctx, sectest.DefaultDay)
	if err != nil || !ok || len(es) != 6 {
		t.Fatalf("DailyIndex: %d, %v, %v", len(es), ok, err)
	}
	for _, e := range es {
		if !Wanted(e.FormType) {
			t.Errorf("unwanted form %s kept", e.FormType)
		}
	}
	// A day without an index (a holiday) is no failure, whether the
	// archive answers 404 or 403.
	for _, status := range []int{http.StatusNotFound, http.StatusForbidden} {
		srv.SetMissingStatus(status)
		es, ok, err = c.DailyIndex(ctx, sectest.DefaultDay.AddDate(0, 0, 1))
		if err != nil || ok || es != nil {
			t.Errorf("missing day (%d): %v %v %v", status, es, ok, err)
		}
	}
	if ua := srv.Requests()[0].UserAgent; ua != testUA {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestClientFormDFlow(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	c := newTestClient(t, srv, Options{})
	ctx := context.Background()
	es, _, err := c.DailyIndex(ctx, sectest.DefaultDay)
	if err != nil {
		t.Fatal(err)
	}
	events := map[string]string{}
	skipped := 0
	for _, e := range es {
		if e.FormType != FormD && e.FormType != FormDA {
			continue
		}
		o, err := c.FormD(ctx, e)
		if err != nil {
			t.Fatalf("%s: %v", e.Accession, err)
		}
		if o.IsAmendment {
			subs, err := c.Submissions(ctx, o.Issuer.CIK)
			if err != nil {
				t.Fatal(err)
			}
			ResolveOriginal(o, subs)
			if o.OriginalMethod != OriginalFileNumber {
				t.Errorf("original found by %s", o.OriginalMethod)
			}
		}
		ev := o.Event(c.BaseURL())
		if ev == nil {
			skipped++
			continue
		}
		events[ev.ExternalID] = ev.Amount // the index lists the D before its D/A
	}
	want := map[string]string{"sec-formd-1900001-0001900001-26-000001": "$4,000,000", "sec-formd-1900004-0001900004-26-000001": "$750,000"}
	if len(events) != 2 || events["sec-formd-1900001-0001900001-26-000001"] != want["sec-formd-1900001-0001900001-26-000001"] ||
		events["sec-formd-1900004-0001900004-26-000001"] != "$750,000" || skipped != 1 {
		t.Errorf("events = %v, skipped %d", events, skipped)
	}
	if _, err := c.Submissions(ctx, "1999999"); !errors.Is(err, ErrMissing) {
		t.Errorf("unknown CIK: %v", err)
	}
}

// When primary_doc.xml is not at the folder's root, the filing index
// names the XML document.
func TestClientFormDThroughFilingIndex(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	doc, _ := srv.File("/Archives/edgar/data/1900004/000190000426000001/primary_doc.xml")
	folder := "/Archives/edgar/data/1900099/000190009926000001/"
	srv.Put(folder+"formd_x1.xml", doc)
	srv.Put(folder+"0001900099-26-000001-index.htm", []byte(`<html><body><table class="tableFile" summary="Document Format Files">
<tr><th>Seq</th><th>Description</th><th>Document</th><th>Type</th><th>Size</th></tr>
<tr><td>1</td><td></td><td><a href="`+folder+`xslFormDX01/formd_x1.xml">formd_x1.html</a></td><td>D</td><td></td></tr>
<tr><td>1</td><td></td><td><a href="formd_x1.xml">formd_x1.xml</a></td><td>D</td><td>4100</td></tr></table></body></html>`))
	c := newTestClient(t, srv, Options{})
	o, err := c.FormD(context.Background(), IndexEntry{FormType: "D", CIK: "1900099", Accession: "0001900099-26-000001", DateFiled: "2026-05-04"})
	if err != nil || o.Issuer.Name != "Bluefield Coatings LLC" {
		t.Fatalf("FormD: %v %v", o, err)
	}
	if _, err := c.FormD(context.Background(), IndexEntry{FormType: "D", CIK: "1900098", Accession: "0001900098-26-000001"}); !errors.Is(err, ErrMissing) {
		t.Errorf("missing filing: %v", err)
	}
}

func TestClientExecutiveChanges(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	c := newTestClient(t, srv, Options{})
	ctx := context.Background()
	r, err := c.ExecutiveChanges(ctx, IndexEntry{FormType: "8-K", CompanyName: "Northwind Analytics Inc", CIK: "1900003",
		DateFiled: "2026-05-04", Accession: "0001900003-26-000007"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasItem || len(r.Changes) != 4 || len(r.Unparsed) != 0 ||
		r.DocumentURL != srv.URL+"/Archives/edgar/data/1900003/000190000326000007/nwan-20260430.htm" {
		t.Errorf("report = %+v", r)
	}
	if sigs := r.Signals(); len(sigs) != 4 || sigs[1].Title != "Anneliese Okonkwo-Barrett appointed Chief Financial Officer" {
		t.Errorf("signals = %+v", sigs)
	}
	// An 8-K whose index lists no Item 5.02 costs one request.
	before := len(srv.Requests())
	r, err = c.ExecutiveChanges(ctx, IndexEntry{FormType: "8-K", CIK: "1900005", DateFiled: "2026-05-04", Accession: "0001900005-26-000011"})
	if err != nil || r.HasItem || len(r.Changes) != 0 {
		t.Errorf("no 5.02: %+v %v", r, err)
	}
	if n := len(srv.Requests()) - before; n != 1 {
		t.Errorf("%d requests for an 8-K without Item 5.02", n)
	}
}

func TestClientBacksOffWhenThrottled(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	now := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	c := newTestClient(t, srv, Options{Now: func() time.Time { return now }})
	ctx := context.Background()

	srv.Throttle(1, http.StatusTooManyRequests, "120")
	_, _, err := c.DailyIndex(ctx, sectest.DefaultDay)
	var be *BackoffError
	if !errors.As(err, &be) || be.Status != 429 || be.Wait != 2*time.Minute {
		t.Fatalf("429: %v", err)
	}
	// Until the wait is over nothing is sent.
	sent := len(srv.Requests())
	now = now.Add(30 * time.Second)
	_, err = c.Submissions(ctx, "1900001")
	if !errors.As(err, &be) || be.Wait != 90*time.Second || len(srv.Requests()) != sent {
		t.Fatalf("during backoff: %v, %d requests", err, len(srv.Requests())-sent)
	}
	now = now.Add(91 * time.Second)
	if _, err := c.Submissions(ctx, "1900001"); err != nil {
		t.Fatalf("after backoff: %v", err)
	}

	// The SEC's 403 rate page without Retry-After: the default wait.
	srv.Throttle(1, http.StatusForbidden, "")
	_, err = c.Submissions(ctx, "1900001")
	if !errors.As(err, &be) || be.Status != 403 || be.Wait != DefaultBackoff || !strings.Contains(be.Error(), "back off") {
		t.Fatalf("403: %v", err)
	}
}

func TestClientUndeclaredToolIsThrottled(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	srv.RequireContactEmail(true)
	c, err := NewClient(&sectest.Fetcher{UserAgent: "Go-http-client/1.1"}, Options{ContactEmail: "ops@prospector.example", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var be *BackoffError
	if _, _, err := c.DailyIndex(context.Background(), sectest.DefaultDay); !errors.As(err, &be) {
		t.Fatalf("undeclared tool: %v", err)
	}
}

// Two clients sharing a bucket (two nodes) together stay under the rate.
func TestClientsSharingABucketStayUnderTheRate(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	bucket := NewLocalBucket()
	a := newTestClient(t, srv, Options{Bucket: bucket})
	b := newTestClient(t, srv, Options{Bucket: bucket})
	ctx := context.Background()
	done := make(chan error, 2)
	for _, c := range []*Client{a, b} {
		go func() {
			for range 8 {
				if _, err := c.Submissions(ctx, "1900001"); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.MaxPerSecond(); n > MaxRate {
		t.Errorf("%d requests within one second", n)
	}
}

func TestLocalBucketPaces(t *testing.T) {
	b := NewLocalBucket()
	now := time.Unix(0, 0)
	b.Now = func() time.Time { return now }
	ctx := context.Background()
	var waits []time.Duration
	for range 4 {
		w, err := b.Reserve(ctx, "sec.gov", 10, 1)
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w)
	}
	if waits[0] != 0 || waits[1] != 100*time.Millisecond || waits[3] != 300*time.Millisecond {
		t.Errorf("waits = %v", waits)
	}
	// Idle time refills up to the burst, never beyond.
	now = now.Add(10 * time.Second)
	w1, err := b.Reserve(ctx, "sec.gov", 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Reserve(ctx, "sec.gov", 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	w3, err := b.Reserve(ctx, "sec.gov", 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	if w1 != 0 || w2 != 0 || w3 != 100*time.Millisecond {
		t.Errorf("burst waits = %v %v %v", w1, w2, w3)
	}
	if w, err := b.Reserve(ctx, "other", 10, 1); err != nil {
		t.Fatal(err)
	} else if w != 0 {
		t.Error("keys share a bucket")
	}
	if _, err := b.Reserve(ctx, "k", 0, 1); err == nil {
		t.Error("zero rate accepted")
	}
}

func TestClientWaitHonoursContext(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	bucket := NewLocalBucket()
	c := newTestClient(t, srv, Options{Bucket: bucket, Rate: 0.5})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Submissions(ctx, "1900001"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submissions(ctx, "1900001"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second request within 2 s: %v", err)
	}
}

func TestClientDailyIndexListsAFilingOnce(t *testing.T) {
	srv := sectest.New()
	defer srv.Close()
	idx, _ := srv.File("/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx")
	// A notice of two issuers is listed under both CIKs.
	co := "D           Acme Robotics Holdings LLC                                    1900011     20260504    edgar/data/1900011/0001900001-26-000001.txt\n"
	srv.Put("/Archives/edgar/daily-index/2026/QTR2/form.20260504.idx", append(idx, co...))
	c := newTestClient(t, srv, Options{})
	es, _, err := c.DailyIndex(context.Background(), sectest.DefaultDay)
	if err != nil || len(es) != 6 {
		t.Fatalf("%d entries, %v", len(es), err)
	}
}

func TestFilingIndexKeepsDocumentsOnItsHost(t *testing.T) {
	page := []byte(`<table class="tableFile"><tr><td>1</td><td>8-K</td><td><a href="http://10.0.0.8/x.htm">x.htm</a></td><td>8-K</td></tr>
<tr><td>2</td><td>8-K</td><td><a href="/ix?doc=/Archives/edgar/data/1/000000000126000001/y.htm">y.htm</a></td><td>8-K</td></tr></table>`)
	fi, err := ParseFilingIndex(page, "https://www.sec.gov/Archives/edgar/data/1/000000000126000001/0000000001-26-000001-index.htm")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := fi.Main("8-K")
	if !ok || len(fi.Documents) != 1 || d.URL != "https://www.sec.gov/Archives/edgar/data/1/000000000126000001/y.htm" || d.Name != "y.htm" {
		t.Errorf("documents = %+v", fi.Documents)
	}
}
