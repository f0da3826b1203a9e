package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// runIntegration covers webhook settings, outreach integrations and the
// delivery outbox.
func runIntegration(t *testing.T, open Opener) {
	t.Run("WebhookSettings", func(t *testing.T) { testWebhookSettings(t, open(t)) })
	t.Run("OutreachIntegration", func(t *testing.T) { testOutreachIntegration(t, open(t)) })
	t.Run("Deliveries", func(t *testing.T) { testDeliveries(t, open(t)) })
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

func testWebhookSettings(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "hooks", prospector.PlanGrowth)
	if _, err := s.WebhookSettings(ctx, w.ID); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("no settings yet: err = %v, want ErrNotFound", err)
	}
	in := &prospector.WebhookSettings{
		WorkspaceID: w.ID, URL: "https://hooks.example.com/in?x=1", AuthHeader: "X-Receiver-Token", AuthValue: "tok_secret_value",
		DisabledFields: []string{"phone", "dispatched_at"},
		CustomFields:   map[string]json.RawMessage{"team": json.RawMessage(`"sales"`), "lead.priority": json.RawMessage(`1`)},
		Template:       `{"items":"{{leads}}"}`, AutoSync: true, SigningSecret: prospector.NewWebhookSecret(),
	}
	if err := s.CreateWebhookSettings(ctx, in); err != nil {
		t.Fatal(err)
	}
	if in.CreatedAt.IsZero() || !in.UpdatedAt.Equal(in.CreatedAt) {
		t.Fatalf("create did not fill created_at and updated_at: %+v", in)
	}
	got, err := s.WebhookSettings(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != in.URL || got.AuthHeader != in.AuthHeader || got.AuthValue != in.AuthValue || got.Template != in.Template ||
		!got.AutoSync || got.SigningSecret != in.SigningSecret || !reflect.DeepEqual(got.DisabledFields, in.DisabledFields) ||
		len(got.CustomFields) != 2 || !sameJSON(t, got.CustomFields["team"], in.CustomFields["team"]) ||
		!sameJSON(t, got.CustomFields["lead.priority"], []byte("1")) || got.DisabledAt != nil || got.DisabledReason != "" ||
		!got.CreatedAt.Equal(in.CreatedAt) {
		t.Fatalf("read back %+v, want %+v", got, in)
	}
	if err := s.CreateWebhookSettings(ctx, in); !errors.Is(err, prospector.ErrAlreadyExists) {
		t.Fatalf("second create: err = %v, want ErrAlreadyExists", err)
	}
	orphan := &prospector.WebhookSettings{WorkspaceID: "ws_missing", SigningSecret: prospector.NewWebhookSecret()}
	if err := s.CreateWebhookSettings(ctx, orphan); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("settings of a missing workspace: err = %v, want ErrNotFound", err)
	}
	for name, bad := range map[string]prospector.WebhookSettings{
		"header with CRLF":   {AuthHeader: "X-Token", AuthValue: "a\r\nHost: evil"},
		"reserved header":    {AuthHeader: "Host", AuthValue: "x"},
		"webhook- header":    {AuthHeader: "webhook-signature", AuthValue: "x"},
		"header not a token": {AuthHeader: "X Token", AuthValue: "x"},
		"value alone":        {AuthValue: "x"},
		"ftp url":            {URL: "ftp://example.com/"},
		"user info":          {URL: "https://u:p@example.com/"},
		"auto-sync, no url":  {AutoSync: true},
		"no secret":          {URL: "https://example.com/"},
	} {
		bad.WorkspaceID = w.ID
		if name != "no secret" {
			bad.SigningSecret = prospector.NewWebhookSecret()
		}
		if err := s.UpdateWebhookSettings(ctx, &bad); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("%s: err = %v, want validation error", name, err)
		}
	}

	time.Sleep(2 * time.Millisecond)
	got.URL, got.AuthHeader, got.AuthValue, got.DisabledFields, got.CustomFields, got.Template = "https://b.example.com/", "", "", nil, nil, ""
	if err := s.UpdateWebhookSettings(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := s.WebhookSettings(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.URL != "https://b.example.com/" || again.AuthHeader != "" || len(again.DisabledFields) != 0 ||
		len(again.CustomFields) != 0 || again.Template != "" || !again.UpdatedAt.After(again.CreatedAt) {
		t.Fatalf("update not kept: %+v", again)
	}
	if err := s.UpdateWebhookSettings(ctx, &prospector.WebhookSettings{WorkspaceID: "ws_missing",
		SigningSecret: prospector.NewWebhookSecret()}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("update of missing settings: err = %v, want ErrNotFound", err)
	}

	now := time.Now().UTC().Truncate(time.Second)
	if changed, err := s.DisableWebhookAutoSync(ctx, w.ID, "https://other.example.com/", "gone", now); err != nil || changed {
		t.Fatalf("disable for another url: changed=%v err=%v, want nothing changed", changed, err)
	}
	if changed, err := s.DisableWebhookAutoSync(ctx, w.ID, "https://b.example.com/", "410 Gone", now); err != nil || !changed {
		t.Fatalf("disable: changed=%v err=%v", changed, err)
	}
	off, err := s.WebhookSettings(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if off.AutoSync || off.DisabledReason != "410 Gone" || off.DisabledAt == nil || !off.DisabledAt.Equal(now) {
		t.Fatalf("disabled settings read back %+v", off)
	}
	if changed, err := s.DisableWebhookAutoSync(ctx, w.ID, "https://b.example.com/", "again", now); err != nil || changed {
		t.Fatalf("disable twice: changed=%v err=%v, want nothing changed", changed, err)
	}
}

func testOutreachIntegration(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "tools", prospector.PlanGrowth)
	if _, err := s.OutreachIntegration(ctx, w.ID, prospector.DestinationOutreachToolA); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("none yet: err = %v", err)
	}
	a := &prospector.OutreachIntegration{WorkspaceID: w.ID, Tool: prospector.DestinationOutreachToolA,
		BaseURL: "https://api.tool-a.example", APIKey: "ka_1", CampaignID: "cmp_1"}
	if err := s.PutOutreachIntegration(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := s.OutreachIntegration(ctx, w.ID, prospector.DestinationOutreachToolA)
	if err != nil {
		t.Fatal(err)
	}
	if got.BaseURL != a.BaseURL || got.APIKey != "ka_1" || got.CampaignID != "cmp_1" || got.ListID != "" || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("read back %+v, want %+v", got, a)
	}
	time.Sleep(2 * time.Millisecond)
	a2 := &prospector.OutreachIntegration{WorkspaceID: w.ID, Tool: prospector.DestinationOutreachToolA,
		BaseURL: "https://api2.tool-a.example/base", APIKey: "ka_2", CampaignID: "cmp_2"}
	if err := s.PutOutreachIntegration(ctx, a2); err != nil {
		t.Fatal(err)
	}
	got, err = s.OutreachIntegration(ctx, w.ID, prospector.DestinationOutreachToolA)
	if err != nil {
		t.Fatal(err)
	}
	if got.APIKey != "ka_2" || got.CampaignID != "cmp_2" || !got.CreatedAt.Equal(a.CreatedAt) || !got.UpdatedAt.After(got.CreatedAt) {
		t.Fatalf("replace: %+v (created_at must be kept)", got)
	}
	b := &prospector.OutreachIntegration{WorkspaceID: w.ID, Tool: prospector.DestinationOutreachToolB,
		BaseURL: "https://tool-b.example", APIKey: "kb", ListID: "list-9"}
	if err := s.PutOutreachIntegration(ctx, b); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListOutreachIntegrations(ctx, w.ID)
	if err != nil || len(list) != 2 || list[0].Tool != prospector.DestinationOutreachToolA || list[1].ListID != "list-9" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	for name, bad := range map[string]prospector.OutreachIntegration{
		"unknown tool":       {Tool: "outreach_tool_c", BaseURL: "https://x.example", APIKey: "k", CampaignID: "c"},
		"a without campaign": {Tool: prospector.DestinationOutreachToolA, BaseURL: "https://x.example", APIKey: "k"},
		"b with campaign":    {Tool: prospector.DestinationOutreachToolB, BaseURL: "https://x.example", APIKey: "k", CampaignID: "c", ListID: "l"},
		"no key":             {Tool: prospector.DestinationOutreachToolB, BaseURL: "https://x.example", ListID: "l"},
		"bad url":            {Tool: prospector.DestinationOutreachToolB, BaseURL: "file:///etc/passwd", APIKey: "k", ListID: "l"},
		"slash in list":      {Tool: prospector.DestinationOutreachToolB, BaseURL: "https://x.example", APIKey: "k", ListID: "a/b"},
		"dot-dot list":       {Tool: prospector.DestinationOutreachToolB, BaseURL: "https://x.example", APIKey: "k", ListID: ".."},
	} {
		bad.WorkspaceID = w.ID
		if err := s.PutOutreachIntegration(ctx, &bad); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("%s: err = %v, want validation error", name, err)
		}
	}
	orphan := *b
	orphan.WorkspaceID = "ws_missing"
	if err := s.PutOutreachIntegration(ctx, &orphan); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("missing workspace: err = %v, want ErrNotFound", err)
	}
}

func testDeliveries(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	w := NewWorkspace(t, s, "outbox", prospector.PlanGrowth)
	other := NewWorkspace(t, s, "other", prospector.PlanGrowth)
	url := "https://hooks.example.com/in"
	at := time.Now().UTC().Truncate(time.Second)
	add := func(ws, lead, url string, next time.Time) (*prospector.Delivery, bool) {
		t.Helper()
		d := &prospector.Delivery{WorkspaceID: ws, DestinationKind: prospector.DestinationWebhook, DestinationURL: url,
			LeadID: lead, Payload: []byte(`{"id":"` + lead + `","full_name":"Ada Lovelace"}`), NextAttemptAt: next}
		created, err := s.AddDelivery(ctx, d)
		if err != nil {
			t.Fatalf("add delivery of %s: %v", lead, err)
		}
		return d, created
	}
	d1, created := add(w.ID, "ld_1", url, at)
	if !created || d1.ID == "" || d1.Status != prospector.DeliveryPending || d1.Attempts != 0 || !d1.NextAttemptAt.Equal(at) || d1.CreatedAt.IsZero() {
		t.Fatalf("add: created=%v %+v", created, d1)
	}
	got, err := s.Delivery(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.WorkspaceID != w.ID || got.DestinationKind != prospector.DestinationWebhook || got.DestinationURL != url ||
		got.LeadID != "ld_1" || !sameJSON(t, got.Payload, d1.Payload) || got.Status != prospector.DeliveryPending ||
		!got.NextAttemptAt.Equal(at) || got.DeliveredAt != nil || got.LastError != "" || !got.CreatedAt.Equal(d1.CreatedAt) {
		t.Fatalf("read back %+v, want %+v", got, d1)
	}
	// Once per lead and destination.
	dup, created := add(w.ID, "ld_1", url, at.Add(time.Hour))
	if created || dup.ID != d1.ID || !dup.NextAttemptAt.Equal(at) {
		t.Fatalf("duplicate add: created=%v id %s, want the existing %s", created, dup.ID, d1.ID)
	}
	if _, created := add(w.ID, "ld_1", url+"/v2", at); !created {
		t.Fatal("another destination is another delivery")
	}
	if _, created := add(other.ID, "ld_1", url, at); !created {
		t.Fatal("another workspace is another delivery")
	}
	time.Sleep(2 * time.Millisecond)
	d2, _ := add(w.ID, "ld_2", url, at.Add(-time.Minute))
	if _, err := s.AddDelivery(ctx, &prospector.Delivery{WorkspaceID: "ws_missing", DestinationKind: prospector.DestinationWebhook,
		DestinationURL: url, LeadID: "ld_x"}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("delivery of a missing workspace: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Delivery(ctx, "msg_nope"); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown delivery: err = %v", err)
	}

	list, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID})
	if err != nil || len(list) != 3 || list[0].ID != d2.ID {
		t.Fatalf("list: %d deliveries (%v), newest first want %s", len(list), err, d2.ID)
	}
	if l, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID, Limit: 1}); err != nil {
		t.Fatal(err)
	} else if len(l) != 1 {
		t.Fatalf("limit 1: %d", len(l))
	}
	due, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{Status: prospector.DeliveryPending, DueBefore: at})
	if err != nil || len(due) != 4 || due[0].ID != d2.ID {
		t.Fatalf("due: %d (%v), oldest due first want %s", len(due), err, d2.ID)
	}
	if l, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{DueBefore: at.Add(-30 * time.Second)}); err != nil {
		t.Fatal(err)
	} else if len(l) != 1 {
		t.Fatalf("due a minute ago: %d, want 1", len(l))
	}

	next := at.Add(5 * time.Minute)
	fail := prospector.DeliveryUpdate{Status: prospector.DeliveryPending, Attempts: 1, NextAttemptAt: next,
		LastStatusCode: 503, LastError: "HTTP 503: busy"}
	if err := s.MarkDelivery(ctx, d1.ID, 0, fail, at); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkDelivery(ctx, d1.ID, 0, fail, at); !errors.Is(err, prospector.ErrConcurrentUpdate) {
		t.Fatalf("same attempt recorded twice: err = %v, want ErrConcurrentUpdate", err)
	}
	if err := s.MarkDelivery(ctx, "msg_nope", 0, fail, at); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown delivery: err = %v, want ErrNotFound", err)
	}
	got, err = s.Delivery(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Attempts != 1 || !got.NextAttemptAt.Equal(next) || got.LastStatusCode != 503 || got.LastError != "HTTP 503: busy" ||
		got.Status != prospector.DeliveryPending || !got.UpdatedAt.Equal(at) {
		t.Fatalf("after a failed attempt: %+v", got)
	}
	done := at.Add(6 * time.Minute)
	if err := s.MarkDelivery(ctx, d1.ID, 1, prospector.DeliveryUpdate{Status: prospector.DeliveryDelivered, Attempts: 2,
		NextAttemptAt: done, LastStatusCode: 204, DeliveredAt: &done}, done); err != nil {
		t.Fatal(err)
	}
	got, err = s.Delivery(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != prospector.DeliveryDelivered || got.Attempts != 2 || got.LastStatusCode != 204 || got.LastError != "" ||
		got.DeliveredAt == nil || !got.DeliveredAt.Equal(done) {
		t.Fatalf("after delivery: %+v", got)
	}
	if l, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: w.ID, Status: prospector.DeliveryDelivered}); err != nil {
		t.Fatal(err)
	} else if len(l) != 1 || l[0].ID != d1.ID {
		t.Fatalf("by status: %+v", l)
	}
	if err := s.MarkDelivery(ctx, d2.ID, 0, prospector.DeliveryUpdate{Status: "lost", NextAttemptAt: at}, at); err == nil {
		t.Fatal("an unknown status must be refused")
	}

	// A payload that is not JSON is refused and nothing is queued; a
	// delivery without payload or due time carries {} and is due now.
	if _, err := s.AddDelivery(ctx, &prospector.Delivery{WorkspaceID: other.ID, DestinationKind: prospector.DestinationWebhook,
		DestinationURL: url, LeadID: "ld_bad", Payload: []byte(`{"id":`)}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("payload that is not JSON: err = %v, want a validation error", err)
	}
	before := time.Now().Add(-time.Millisecond)
	bare := &prospector.Delivery{WorkspaceID: other.ID, DestinationKind: prospector.DestinationWebhook, DestinationURL: url,
		LeadID: "ld_bare"}
	if created, err := s.AddDelivery(ctx, bare); err != nil || !created {
		t.Fatalf("bare delivery: created %v, %v", created, err)
	}
	got, err = s.Delivery(ctx, bare.ID)
	if err != nil || !sameJSON(t, got.Payload, []byte(`{}`)) || got.NextAttemptAt.Before(before) ||
		got.NextAttemptAt.After(time.Now()) || !got.NextAttemptAt.Equal(bare.NextAttemptAt) {
		t.Fatalf("bare delivery read back %+v (%v), added %+v", got, err, bare)
	}
	l, err := s.ListDeliveries(ctx, prospector.DeliveryFilter{WorkspaceID: other.ID})
	if err != nil || len(l) != 2 {
		t.Fatalf("other workspace: %d deliveries, %v; want the two valid ones", len(l), err)
	}
}
