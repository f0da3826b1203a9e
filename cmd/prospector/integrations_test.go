package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sqlite"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/prospectorhq/prospector/wire"
)

func TestIntegrationsWebhookCommand(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATA": dir}
	if _, _, err := cli(t, vars, "workspace", "create", "acme"); err != nil {
		t.Fatal(err)
	}
	out, _, err := cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--show")
	if err != nil || !strings.Contains(out, "no webhook settings") {
		t.Fatalf("show before any: %q %v", out, err)
	}
	// Private destinations are refused unless the operator allows them.
	_, _, err = cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--url", "http://127.0.0.1:9/hook")
	if err == nil || !strings.Contains(err.Error(), "refused: webhook target 127.0.0.1 is a loopback address") {
		t.Fatalf("loopback url: %v", err)
	}
	const auth = "Bearer rt_0123456789abcdef"
	out, _, err = cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--url", "https://hooks.example.com/in",
		"--auth-header", "Authorization", "--auth-value", auth, "--disable-field", "phone", "--disable-field", "email",
		"--custom-field", "team=emea", "--custom-field-json", "lead.priority=1", "--auto-sync=true")
	if err != nil {
		t.Fatal(err)
	}
	secret := lastLine(out)
	if !strings.HasPrefix(secret, "whsec_") || !strings.Contains(out, "shown only this once") || !strings.Contains(out, "created webhook settings") {
		t.Fatalf("create must print the signing secret last:\n%s", out)
	}
	if _, err := webhook.ParseSecret(secret); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, auth) || strings.Contains(out, "rt_0123456789abcdef") {
		t.Fatalf("create echoed the auth value:\n%s", out)
	}
	show, _, err := cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--show")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"https://hooks.example.com/in", "auto-sync       true", "Authorization: Bearer…",
		"disabled fields email, phone", `lead.priority=1, team="emea"`, "default envelope", "whsec_"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
	if strings.Contains(show, secret) || strings.Contains(show, secret[6:16]) || strings.Contains(show, "rt_0123456789abcdef") {
		t.Fatalf("show reveals a secret:\n%s", show)
	}
	// Changes without --rotate-secret print no secret; rotation prints a new one.
	out, _, err = cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--enable-field", "email")
	if err != nil || strings.Contains(out, "whsec_"+secret[6:]) || strings.Contains(out, "shown only") || !strings.Contains(out, "disabled fields phone") {
		t.Fatalf("update: %q %v", out, err)
	}
	out, _, err = cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--rotate-secret")
	if rotated := lastLine(out); err != nil || !strings.HasPrefix(rotated, "whsec_") || rotated == secret {
		t.Fatalf("rotate: %q %v", out, err)
	}
	tmpl := filepath.Join(dir, "shape.json")
	os.WriteFile(tmpl, []byte(`{"items":{"{{#leads}}":{"name":"{{lead.full_name}}","team":"{{custom.team}}"}}}`), 0o600)
	if out, _, err := cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--template", tmpl); err != nil || !strings.Contains(out, "template (") {
		t.Fatalf("template: %q %v", out, err)
	}
	os.WriteFile(tmpl, []byte(`{"a":"{{lead.email}}"}`), 0o600)
	for _, bad := range [][]string{
		{"--template", tmpl},
		{"--template", filepath.Join(dir, "missing.json")},
		{"--disable-field", "salary"},
		{"--auth-header", "Host", "--auth-value", "x"},
		{"--auth-header", "X-Token", "--auth-value", "a\r\nb"},
		{"--custom-field", "novalue"},
		{"--custom-field-json", "x={bad"},
		{"--url", "ftp://example.com/"},
		{"--url", "https://user:pw@example.com/"},
		{"--url", ""}, // auto-sync needs a url
		{"--show", "--auto-sync=false"},
		{"--auth-value-env", "NOPE"},
	} {
		if _, _, err := cli(t, vars, append([]string{"integrations", "webhook", "--workspace", "acme"}, bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	// --auth-value-env keeps the value off the command line.
	vars["HOOK_TOKEN"] = "env-token-value-123"
	if _, _, err := cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--auth-header", "X-Token", "--auth-value-env", "HOOK_TOKEN"); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w, err := st.WorkspaceByName(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.WebhookSettings(context.Background(), w.ID)
	if err != nil || s.AuthHeader != "X-Token" || s.AuthValue != "env-token-value-123" || s.Template == "" || !s.AutoSync {
		t.Fatalf("stored settings %+v, %v", s, err)
	}
}

func TestIntegrationsOutreachCommand(t *testing.T) {
	vars := map[string]string{"PROSPECTOR_DATA": t.TempDir()}
	if _, _, err := cli(t, vars, "workspace", "create", "acme"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{
		{"--tool", "outreach_tool_c", "--base-url", "https://a.example", "--api-key", "k", "--campaign", "c"},
		{"--tool", "outreach_tool_a", "--base-url", "https://a.example", "--api-key", "k"},
		{"--tool", "outreach_tool_a", "--base-url", "https://a.example", "--api-key", "k", "--list", "l"},
		{"--tool", "outreach_tool_b", "--base-url", "https://b.example", "--api-key", "k", "--campaign", "c"},
		{"--tool", "outreach_tool_b", "--base-url", "http://10.0.0.8", "--api-key", "k", "--list", "l"},
		{"--tool", "outreach_tool_b", "--base-url", "https://b.example", "--list", "l"},
	} {
		if _, _, err := cli(t, vars, append([]string{"integrations", "outreach", "--workspace", "acme"}, bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	out, _, err := cli(t, vars, "integrations", "outreach", "--workspace", "acme", "--tool", "outreach_tool_a",
		"--base-url", "https://api.tool-a.example", "--api-key", "ka_secret_key_123456", "--campaign", "cmp_1")
	if err != nil || strings.Contains(out, "ka_secret_key_123456") || !strings.Contains(out, "campaign cmp_1") {
		t.Fatalf("outreach a: %q %v", out, err)
	}
	// Only the flags that change.
	if _, _, err := cli(t, vars, "integrations", "outreach", "--workspace", "acme", "--tool", "outreach_tool_a", "--campaign", "cmp_2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(t, vars, "integrations", "outreach", "--workspace", "acme", "--tool", "outreach_tool_b",
		"--base-url", "http://127.0.0.1:9", "--api-key", "kb", "--list", "list-1", "--allow-private-webhooks"); err != nil {
		t.Fatal(err)
	}
	show, _, err := cli(t, vars, "integrations", "outreach", "--workspace", "acme", "--show")
	if err != nil || !strings.Contains(show, "outreach_tool_a  https://api.tool-a.example  api key ka_se… (20 chars)") ||
		!strings.Contains(show, "campaign cmp_2") || !strings.Contains(show, "list list-1") || strings.Contains(show, "ka_secret_key_123456") {
		t.Fatalf("show:\n%s %v", show, err)
	}
}

func TestDeliveriesCommands(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header
	status := http.StatusServiceUnavailable
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Header.Clone())
		w.WriteHeader(status)
	}))
	defer rc.Close()
	dir := t.TempDir()
	vars := map[string]string{"PROSPECTOR_DATA": dir, "PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS": "1"}
	if _, _, err := cli(t, vars, "workspace", "create", "acme"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(t, vars, "integrations", "webhook", "--workspace", "acme", "--url", rc.URL+"/hook?token=t0k3n", "--auto-sync=true"); err != nil {
		t.Fatal(err)
	}
	// Auto-sync queues a lead (as the radar will), then the process stops.
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.WorkspaceByName(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	ob := &webhook.Outbox{Store: st, Client: webhook.NewClient(webhook.Config{AllowPrivate: true}), Enqueue: st.EnqueueJob}
	ds, err := ob.Queue(ctx, w.ID, []wire.Lead{{ID: "ld_1", FullName: "Ada Lovelace"}})
	if err != nil || len(ds) != 1 {
		t.Fatalf("queue: %v", err)
	}
	id := ds[0].ID
	// It is still pending: redeliver refuses.
	st.Close()
	if _, _, err := cli(t, vars, "deliveries", "redeliver", id); err == nil || !strings.Contains(err.Error(), "still pending") {
		t.Fatalf("redeliver pending: %v", err)
	}
	list, _, err := cli(t, vars, "deliveries", "list", "--workspace", "acme")
	if err != nil || !strings.Contains(list, id) || !strings.Contains(list, "pending") || !strings.Contains(list, "0/8") ||
		strings.Contains(list, "t0k3n") {
		t.Fatalf("list:\n%s %v", list, err)
	}
	// Mark it dead, then send it again now: 503, so it is retried later.
	st, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st.MarkDelivery(ctx, id, 0, prospector.DeliveryUpdate{Status: prospector.DeliveryDead, Attempts: 8,
		NextAttemptAt: ds[0].NextAttemptAt, LastError: "gave up"}, ds[0].NextAttemptAt)
	st.Close()
	out, _, err := cli(t, vars, "deliveries", "redeliver", id, "--now")
	if err != nil || !strings.Contains(out, "pending (HTTP 503)") || !strings.Contains(out, "next attempt at") {
		t.Fatalf("redeliver --now (503): %q %v", out, err)
	}
	st, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st.MarkDelivery(ctx, id, 1, prospector.DeliveryUpdate{Status: prospector.DeliveryDead, Attempts: 8,
		NextAttemptAt: ds[0].NextAttemptAt, LastError: "gave up"}, ds[0].NextAttemptAt)
	st.Close()
	mu.Lock()
	status = http.StatusOK
	mu.Unlock()
	out, _, err = cli(t, vars, "deliveries", "redeliver", id, "--now")
	if err != nil || !strings.Contains(out, "delivered (HTTP 200)") {
		t.Fatalf("redeliver --now: %q %v", out, err)
	}
	mu.Lock()
	if len(got) != 2 || got[0].Get(webhook.HeaderID) != id || got[1].Get(webhook.HeaderID) != id {
		t.Fatalf("receiver got %d requests, webhook-id must stay %s", len(got), id)
	}
	mu.Unlock()
	list, _, err = cli(t, vars, "deliveries", "list", "--workspace", "acme", "--status", "delivered")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, id) || !strings.Contains(list, "delivered") || !strings.Contains(list, "200") {
		t.Fatalf("list delivered:\n%s", list)
	}
	// Queued redelivery (for the server's runner).
	out, _, err = cli(t, vars, "deliveries", "redeliver", id)
	if err != nil || !strings.Contains(out, "queued delivery "+id) {
		t.Fatalf("redeliver: %q %v", out, err)
	}
	for _, bad := range [][]string{
		{"deliveries", "redeliver", "msg_nope"},
		{"deliveries", "list"},
		{"deliveries", "list", "--workspace", "acme", "--status", "lost"},
		{"deliveries", "list", "--workspace", "nope"},
	} {
		if _, _, err := cli(t, vars, bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestDeliveryCommandsHelp(t *testing.T) {
	for args, want := range map[string]string{
		"serve --help":                 "--allow-private-webhooks",
		"integrations webhook --help":  "--rotate-secret",
		"integrations outreach --help": "--campaign",
		"deliveries list --help":       "--status",
		"deliveries redeliver --help":  "same webhook-id",
		"--help":                       "integrations",
	} {
		out, _, err := cli(t, nil, strings.Fields(args)...)
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("prospector %s: want %q in:\n%s", args, want, out)
		}
	}
}
