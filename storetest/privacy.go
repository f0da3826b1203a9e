package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func runPrivacy(t *testing.T, open Opener) {
	t.Run("SuppressPerson", func(t *testing.T) { testSuppressPerson(t, open(t)) })
	t.Run("SuppressDomain", func(t *testing.T) { testSuppressDomain(t, open(t)) })
	t.Run("FindSubject", func(t *testing.T) { testFindSubject(t, open(t)) })
	t.Run("Audit", func(t *testing.T) { testAudit(t, open(t)) })
	t.Run("Retention", func(t *testing.T) { testRetention(t, open(t)) })
	t.Run("SuppressSECPerson", func(t *testing.T) { testSuppressSECPerson(t, open(t)) })
}

// An officer suppressed by name at the company's domain is left out of a
// filing applied later, with their job_change signal, and counted.
func testSuppressSECPerson(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co := secCompany(t, s, "Acme Robotics", "acme-robotics.example")
	suppress(t, s, "Jane Roe@acme-robotics.example", "")
	k := eightK("0001234567-26-000020", "2026-05-05")
	k.Match = resolvedTo(co)
	applyFiling(t, s, k, prospector.FilingResult{Status: prospector.FilingApplied, Suppressed: 1})
	if sigs := companySignals(t, s, co.ID); len(sigs) != 0 {
		t.Fatalf("signals of a suppressed officer: %v", sigs)
	}
	sub, _ := prospector.ParseSubject("Jane Roe@acme-robotics.example")
	rec, err := s.FindSubject(ctx, sub, "")
	if err != nil || len(rec.SECFilings) != 0 {
		t.Fatalf("filings naming the suppressed officer: %+v, %v", rec, err)
	}
}

// suppress suppresses (and erases) subject s.
func suppress(t *testing.T, s prospector.Store, subject, reason string) *prospector.Erased {
	t.Helper()
	ctx := context.Background()
	sub, err := prospector.ParseSubject(subject)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := prospector.SuppressionSecret(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	e := &prospector.Suppression{Hash: sub.Hash(secret), Kind: sub.Kind, Reason: reason, CreatedAt: now}
	res, err := s.EraseSubject(ctx, prospector.EraseRequest{Subject: sub, Suppress: []*prospector.Suppression{e}, Actor: prospector.ActorCLI,
		SubjectID: e.ID()}, now)
	if err != nil {
		t.Fatalf("suppress %s: %v", subject, err)
	}
	return res
}

func erasures(t *testing.T, s prospector.Store) map[string][]int64 {
	t.Helper()
	es, err := s.ErasuresSince(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int64{}
	for i, e := range es {
		if i > 0 && e.Seq <= es[i-1].Seq {
			t.Fatalf("erasure seqs do not ascend: %+v", es)
		}
		out[e.Kind] = append(out[e.Kind], e.RowID)
	}
	return out
}

// A suppressed person is deleted, recorded in the erasure feed, and left
// out (counted) by every later upsert, in bulk sessions too; others at
// the same company are untouched; unsuppressing lets them back.
func testSuppressPerson(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	target := fx.people[0]
	res := suppress(t, s, target.NetworkURL, "asked by e-mail")
	if res.People != 1 || res.Companies != 0 || !res.Suppressed {
		t.Fatalf("erased %+v, want one person", res)
	}
	if _, err := s.PersonByKey(ctx, target.NaturalKey()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("suppressed person still stored: %v", err)
	}
	if e := erasures(t, s); len(e["person"]) != 1 || e["person"][0] != target.ID || len(e["signal"]) == 0 {
		t.Fatalf("erasure feed %v, want person %d and its signals", e, target.ID)
	}
	again := *target
	again.ID = 0
	other := &prospector.Person{ExternalID: "new1", FullName: "Dana Field", CompanyID: &fx.acme.ID,
		CompanyDomain: fx.acme.Domain, NetworkURL: "https://network.example/in/new1"}
	got, err := s.UpsertPeople(ctx, []*prospector.Person{&again, other})
	if err != nil || got != (prospector.UpsertResult{Inserted: 1, Suppressed: 1}) {
		t.Fatalf("re-import: %+v, %v; want 1 inserted, 1 suppressed", got, err)
	}
	b, err := s.BeginBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again.ID = 0
	got, err = b.UpsertPeople(ctx, []*prospector.Person{&again})
	if err == nil {
		err = b.Commit(ctx)
	}
	b.Close()
	if err != nil || got.Suppressed != 1 || got.Inserted != 0 {
		t.Fatalf("bulk re-import: %+v, %v", got, err)
	}
	// By e-mail and by name at the company's domain too.
	suppress(t, s, "carol@"+fx.acme.Domain, "")
	suppress(t, s, "Dana  FIELD@"+fx.acme.Domain, "")
	byMail := &prospector.Person{ExternalID: "x1", FullName: "Carol Lane", Email: "Carol@" + fx.acme.Domain}
	byName := &prospector.Person{ExternalID: "x2", FullName: "dana field", CompanyDomain: fx.acme.Domain}
	if got, err := s.UpsertPeople(ctx, []*prospector.Person{byMail, byName}); err != nil || got.Suppressed != 2 {
		t.Fatalf("by e-mail and name: %+v, %v", got, err)
	}
	if _, err := s.PersonByKey(ctx, other.NaturalKey()); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("Dana Field, suppressed by name at the domain, is still stored: %v", err)
	}
	list, err := s.ListSuppressions(ctx)
	if err != nil || len(list) != 3 {
		t.Fatalf("list: %d, %v", len(list), err)
	}
	for _, e := range list {
		raw, _ := json.Marshal(e)
		if strings.Contains(string(raw), "network.example") || strings.Contains(strings.ToLower(string(raw)), "carol") {
			t.Fatalf("list holds a raw value: %s", raw)
		}
	}
	first := list[len(list)-1]
	if first.Kind != prospector.SubjectProfileURL || first.Reason != "asked by e-mail" {
		t.Fatalf("oldest entry %+v", first)
	}
	if err := s.Unsuppress(ctx, first.ID(), &prospector.AuditEvent{Action: prospector.AuditPrivacyUnsupp, Actor: "cli"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Unsuppress(ctx, first.ID(), nil); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("second unsuppress: %v", err)
	}
	again.ID = 0
	if got, err := s.UpsertPeople(ctx, []*prospector.Person{&again}); err != nil || got.Inserted != 1 {
		t.Fatalf("after unsuppress: %+v, %v", got, err)
	}
}

// A suppressed domain takes its company, everyone at it and its signals,
// watch and openings; nothing at the domain can be written again.
func testSuppressDomain(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	fx := seedRadarData(t, s)
	if _, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: fx.acme.Domain, AddedBy: "test"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	res := suppress(t, s, " www."+strings.ToUpper(fx.acme.Domain)+".", "company asked")
	if res.Companies != 1 || res.People != 2 || res.Signals == 0 {
		t.Fatalf("erased %+v, want acme and its two people", res)
	}
	if ids, err := s.CompanyIDsByDomain(ctx, []string{fx.acme.Domain, fx.blue.Domain}); err != nil || len(ids) != 1 {
		t.Fatalf("companies left: %v, %v", ids, err)
	}
	if ws, err := s.Watches(ctx); err != nil || len(ws) != 0 {
		t.Fatalf("watches left: %+v, %v", ws, err)
	}
	e := erasures(t, s)
	if len(e["company"]) != 1 || e["company"][0] != fx.acme.ID || len(e["person"]) != 2 {
		t.Fatalf("erasure feed %v", e)
	}
	co := sampleCompanies()[0]
	if got, err := s.UpsertCompanies(ctx, []*prospector.Company{co, sampleCompanies()[2]}); err != nil ||
		got != (prospector.UpsertResult{Unchanged: 1, Suppressed: 1}) {
		t.Fatalf("re-import companies: %+v, %v", got, err)
	}
	p := &prospector.Person{ExternalID: "d1", FullName: "Eli Stone", CompanyDomain: fx.acme.Domain}
	q := &prospector.Person{ExternalID: "d2", FullName: "Fay Stone", Email: "fay@" + fx.acme.Domain}
	if got, err := s.UpsertPeople(ctx, []*prospector.Person{p, q}); err != nil || got.Suppressed != 2 {
		t.Fatalf("re-import people: %+v, %v", got, err)
	}
	sg := &prospector.Signal{ExternalID: "ds1", Type: "company_hiring", CompanyDomain: fx.acme.Domain, DetectedAt: time.Now()}
	if got, err := s.UpsertSignals(ctx, []*prospector.Signal{sg}); err != nil || got.Suppressed != 1 {
		t.Fatalf("re-import signal: %+v, %v", got, err)
	}
	if set, err := s.SuppressionSet(ctx); err != nil || !set.Domain(fx.acme.Domain) || set.Domain(fx.blue.Domain) {
		t.Fatalf("set: %v", err)
	}
}

// FindSubject lists a person's leads in every workspace, with their
// deliveries and lookups; erasing removes them, cancels the pending
// delivery and writes an audit event to each workspace.
func testFindSubject(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w, leads, otherLead := feedbackLeads(t, s)
	person := leads[0]
	for _, l := range leads {
		if l.FullName == otherLead.FullName {
			person = l
		}
	}
	d := &prospector.Delivery{ID: prospector.NewDeliveryID(), WorkspaceID: w.ID, DestinationKind: prospector.DestinationWebhook,
		DestinationURL: "https://hooks.example/in", LeadID: person.ID, Payload: []byte(`{"full_name":"x"}`)}
	if _, err := s.AddDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	sub, err := prospector.ParseSubject(person.NetworkURL)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.FindSubject(ctx, sub, "")
	if err != nil {
		t.Fatal(err)
	}
	wsNames := map[string]int{}
	for _, l := range rec.Leads {
		wsNames[l.Workspace]++
	}
	if len(rec.People) != 1 || wsNames["fb"] != 2 || wsNames["other"] != 1 || len(rec.Deliveries) != 1 ||
		rec.Deliveries[0].Status != "pending" || rec.Suppressed {
		t.Fatalf("find: %d people, leads per workspace %v, deliveries %+v", len(rec.People), wsNames, rec.Deliveries)
	}
	res, err := s.EraseSubject(ctx, prospector.EraseRequest{Subject: sub, Actor: "cli", SubjectID: "abc"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if res.Leads != 3 || res.Cancelled != 1 || res.People != 1 || res.Suppressed || len(res.Workspaces) != 2 {
		t.Fatalf("erase: %+v", res)
	}
	got, err := s.Delivery(ctx, d.ID)
	if err != nil || got.Status == prospector.DeliveryPending || string(got.Payload) != "{}" {
		t.Fatalf("delivery after erasure: %+v, %v", got, err)
	}
	rec, err = s.FindSubject(ctx, sub, "")
	if err != nil || len(rec.People)+len(rec.Leads)+len(rec.Deliveries) != 0 {
		t.Fatalf("find after erasure: %+v, %v", rec, err)
	}
	trail, err := s.AuditEvents(ctx, w.ID, time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	var erased *prospector.AuditEvent
	for _, e := range trail {
		if e.Action == prospector.AuditPrivacyErase {
			erased = e
		}
	}
	if erased == nil || erased.Target != "abc" || !strings.Contains(erased.Detail, `"leads_removed":2`) ||
		strings.Contains(erased.Detail, "network.example") {
		t.Fatalf("workspace trail %+v", trail)
	}
	// Not suppressed: the person may come back.
	p := &prospector.Person{ExternalID: "back", FullName: person.FullName, NetworkURL: person.NetworkURL}
	if r, err := s.UpsertPeople(ctx, []*prospector.Person{p}); err != nil || r.Inserted != 1 {
		t.Fatalf("re-import after delete without suppression: %+v, %v", r, err)
	}
}

// The audit trail reads per workspace, from a time on, oldest first, and
// keeps no secret.
func testAudit(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "audited", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "quiet", prospector.PlanGrowth)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i, a := range []string{prospector.AuditKeyCreate, prospector.AuditLeadsExport, prospector.AuditKeyRevoke} {
		e := &prospector.AuditEvent{WorkspaceID: w.ID, Action: a, Actor: "psk_abcd", Target: "key_1",
			Detail: `{"leads":["l1"]}`, CreatedAt: t0.Add(time.Duration(i) * time.Hour)}
		if err := s.AppendAudit(ctx, e); err != nil || e.ID == 0 {
			t.Fatalf("append: %v", err)
		}
	}
	all, err := s.AuditEvents(ctx, w.ID, time.Time{}, 100)
	if err != nil || len(all) != 3 || all[0].Action != prospector.AuditKeyCreate || all[2].Action != prospector.AuditKeyRevoke ||
		!all[1].CreatedAt.Equal(t0.Add(time.Hour)) || all[1].Detail != `{"leads":["l1"]}` || all[1].Actor != "psk_abcd" {
		t.Fatalf("trail: %+v, %v", all, err)
	}
	since, err := s.AuditEvents(ctx, w.ID, t0.Add(time.Hour), 100)
	if err != nil || len(since) != 2 {
		t.Fatalf("since: %d, %v", len(since), err)
	}
	if none, err := s.AuditEvents(ctx, other.ID, time.Time{}, 100); err != nil || len(none) != 0 {
		t.Fatalf("other workspace: %+v, %v", none, err)
	}
}

// Retention deletes only what is past its window, and never a pending
// delivery.
func testRetention(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	old, recent := now.Add(-100*24*time.Hour), now.Add(-time.Hour)
	w, leads, _ := feedbackLeads(t, s)
	for i, at := range []time.Time{old, recent} {
		l := lookup(w.ID, "", "h", 1)
		l.ID = prospector.NewID("eml")
		if _, _, err := s.RecordEmailLookup(ctx, l, at); err != nil {
			t.Fatalf("lookup %d: %v", i, err)
		}
		ev := event(w, leads[i], "replied", at.Format(time.RFC3339))
		if _, _, err := s.RecordFeedbackEvent(ctx, ev, at); err != nil {
			t.Fatalf("feedback %d: %v", i, err)
		}
	}
	var ds []*prospector.Delivery
	for i := range 3 {
		d := &prospector.Delivery{ID: prospector.NewDeliveryID(), WorkspaceID: w.ID, DestinationKind: prospector.DestinationWebhook,
			DestinationURL: "https://hooks.example/in", LeadID: leads[i].ID, Payload: []byte(`{}`)}
		if _, err := s.AddDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for i, at := range []time.Time{old, recent} {
		if err := s.MarkDelivery(ctx, ds[i].ID, 0, prospector.DeliveryUpdate{Status: prospector.DeliveryDelivered, Attempts: 1,
			NextAttemptAt: at, DeliveredAt: &at}, at); err != nil {
			t.Fatal(err)
		}
	}
	co, b := watchedBoard(t, s)
	j1, j2 := jobPosting("1", "Backend Engineer"), jobPosting("2", "Account Executive")
	applyPoll(t, s, boardPoll(b.ID, old.Add(-48*time.Hour), j1, j2), prospector.BoardPollResult{New: 2, Signals: 2})
	applyPoll(t, s, boardPoll(b.ID, old.Add(-24*time.Hour), j2), prospector.BoardPollResult{Seen: 1, Missed: 1})
	applyPoll(t, s, boardPoll(b.ID, old, j2), prospector.BoardPollResult{Seen: 1, Closed: 1})
	window := 30 * 24 * time.Hour
	r := prospector.Retention{EmailLookups: window, FeedbackEvents: window, Deliveries: window, ClosedOpenings: window}
	got, err := s.PurgeExpired(ctx, r, now, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got != (prospector.Purged{EmailLookups: 1, FeedbackEvents: 1, Deliveries: 1, ClosedOpenings: 1}) {
		t.Fatalf("purged %+v, want one of each", got)
	}
	if got, err := s.PurgeExpired(ctx, r, now, 100); err != nil || got.Total() != 0 {
		t.Fatalf("second pass purged %+v, %v", got, err)
	}
	if d, err := s.Delivery(ctx, ds[2].ID); err != nil || d.Status != prospector.DeliveryPending {
		t.Fatalf("pending delivery: %+v, %v", d, err)
	}
	if _, err := s.Delivery(ctx, ds[1].ID); err != nil {
		t.Fatalf("recent delivery: %v", err)
	}
	if os := openingsByID(t, s, co.ID, false); len(os) != 1 || os["2"] == nil {
		t.Fatalf("openings left: %v", os)
	}
	// A zero window keeps everything.
	if got, err := s.PurgeExpired(ctx, prospector.Retention{}, now.Add(1000*24*time.Hour), 100); err != nil || got.Total() != 0 {
		t.Fatalf("zero windows purged %+v, %v", got, err)
	}
}
