package webhook

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// TestDeliveryAtRealReceiver: the default envelope, the workspace's auth
// header and the Standard Webhooks headers, as a receiver sees them.
func TestDeliveryAtRealReceiver(t *testing.T) {
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"received":true}`))
	})
	s := settings()
	s.SigningSecret = prospector.NewWebhookSecret()
	s.AuthHeader, s.AuthValue = "X-Receiver-Token", "rt_0123456789abcdef"
	c := NewClient(Config{AllowPrivate: true})
	p := testPayload()
	p.DispatchedAt = time.Now().UTC()
	res, err := c.Send(context.Background(), s, rc.URL+"/hooks/leads?src=prospector", "msg_fixed", p)
	if err != nil || res.StatusCode != http.StatusAccepted || !res.OK() || res.Response != `{"received":true}` {
		t.Fatalf("send: %+v, %v", res, err)
	}
	got := rc.last(t)
	if got.path != "/hooks/leads?src=prospector" {
		t.Errorf("path %s", got.path)
	}
	for name, want := range map[string]string{
		"Content-Type":      "application/json",
		"User-Agent":        "Prospector-Webhooks/1",
		"X-Receiver-Token":  "rt_0123456789abcdef",
		"Webhook-Id":        "msg_fixed",
		"Webhook-Timestamp": strconv.FormatInt(p.DispatchedAt.Unix(), 10),
	} {
		if v := got.header.Get(name); v != want {
			t.Errorf("header %s = %q, want %q", name, v, want)
		}
	}
	if err := Verify(s.SigningSecret, got.header, got.body, time.Now(), 0); err != nil {
		t.Fatalf("receiver cannot verify the signature: %v", err)
	}
	var env struct {
		Source       string           `json:"source"`
		WorkspaceID  string           `json:"workspace_id"`
		LeadCount    int              `json:"lead_count"`
		Leads        []map[string]any `json:"leads"`
		DispatchedAt string           `json:"dispatched_at"`
	}
	if err := json.Unmarshal(got.body, &env); err != nil {
		t.Fatal(err)
	}
	if env.Source != SourcePush || env.WorkspaceID != "ws_1" || env.LeadCount != 2 || len(env.Leads) != 2 ||
		env.DispatchedAt != wire.Timestamp(p.DispatchedAt) {
		t.Fatalf("envelope %s", got.body)
	}
	for _, f := range LeadFields() {
		if _, ok := env.Leads[1][f]; !ok {
			t.Errorf("lead entry lacks %s: %v", f, env.Leads[1])
		}
	}
	if len(env.Leads[0]) != len(LeadFields()) {
		t.Errorf("lead entry has %d members, want the contract's %d", len(env.Leads[0]), len(LeadFields()))
	}

	// A retry of the same delivery keeps its webhook-id; the signature
	// covers the new timestamp.
	p.DispatchedAt = p.DispatchedAt.Add(2 * time.Second)
	if _, err := c.Send(context.Background(), s, rc.URL, "msg_fixed", p); err != nil {
		t.Fatal(err)
	}
	again := rc.last(t)
	if again.header.Get(HeaderID) != "msg_fixed" || Verify(s.SigningSecret, again.header, again.body, time.Now(), 0) != nil {
		t.Fatalf("retry headers %v", again.header)
	}
}

func TestAuthHeaderValidation(t *testing.T) {
	rc := newReceiver(t, nil)
	c := NewClient(Config{AllowPrivate: true})
	for name, h := range map[string][2]string{
		"CRLF injection":      {"X-Token", "abc\r\nX-Admin: 1"},
		"LF":                  {"X-Token", "abc\ndef"},
		"NUL":                 {"X-Token", "abc\x00"},
		"other control":       {"X-Token", "abc\x07"},
		"name with space":     {"X Token", "v"},
		"name with colon":     {"X-Token:", "v"},
		"name non-ASCII":      {"X-Tökén", "v"},
		"Host":                {"Host", "internal.example"},
		"Content-Length":      {"content-length", "0"},
		"Transfer-Encoding":   {"Transfer-Encoding", "chunked"},
		"Connection":          {"Connection", "close"},
		"Proxy-Authorization": {"Proxy-Authorization", "Basic x"},
		"webhook-signature":   {"Webhook-Signature", "v1,forged"},
		"webhook-id":          {"webhook-id", "msg_forged"},
		"Content-Type":        {"Content-Type", "text/plain"},
		"User-Agent":          {"User-Agent", "x"},
		"value without name":  {"", "v"},
		"name without value":  {"X-Token", ""},
		"leading space":       {"X-Token", " v"},
	} {
		_, err := c.Deliver(context.Background(), Request{URL: rc.URL, ID: "msg_1", Body: []byte(`{}`), AuthHeader: h[0], AuthValue: h[1]})
		if prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("%s: %v, want a validation error", name, err)
			continue
		}
		if h[1] != "" && len(h[1]) > 3 && strings.Contains(err.Error(), h[1]) {
			t.Errorf("%s: error %q quotes the value", name, err)
		}
		if err := (&prospector.WebhookSettings{AuthHeader: h[0], AuthValue: h[1], SigningSecret: vectorSecret}).Validate(); err == nil {
			t.Errorf("%s: settings with it validate", name)
		}
	}
	if rc.hits.Load() != 0 {
		t.Fatalf("%d requests sent with a bad header", rc.hits.Load())
	}
	for _, h := range [][2]string{{"Authorization", "Bearer abc.def"}, {"X-Api-Key", "k_1"}, {"x-custom_auth!", "tab\tinside"}} {
		if _, err := c.Deliver(context.Background(), Request{URL: rc.URL, ID: "msg_1", Body: []byte(`{}`), AuthHeader: h[0], AuthValue: h[1]}); err != nil {
			t.Errorf("%v refused: %v", h, err)
		}
		if got := rc.last(t).header.Get(h[0]); got != h[1] {
			t.Errorf("%s arrived as %q", h[0], got)
		}
	}
}

func TestResponseTruncatedAndRedacted(t *testing.T) {
	const auth = "rt_secret_token_value"
	long := strings.Repeat("é", 3000) // 2 bytes each: the cut falls inside one
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
		if n == 1 {
			w.Write([]byte("x" + long))
			return
		}
		if n == 3 { // text no store accepts as it is
			w.Write([]byte("bad\x00byte \xff and {\"e\":\"\\u0000\"}"))
			return
		}
		// A receiver that echoes what it got.
		w.Write([]byte("you sent " + r.Header.Get("X-Token") + " signed " + r.Header.Get(HeaderSignature)))
	})
	c := NewClient(Config{AllowPrivate: true})
	s := settings()
	s.AuthHeader, s.AuthValue = "X-Token", auth
	res, err := c.Send(context.Background(), s, rc.URL, "msg_1", testPayload())
	if err != nil || res.StatusCode != 503 || res.OK() {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(res.Response) > MaxResponse || len(res.Response) < MaxResponse-1 || !utf8.ValidString(res.Response) || strings.ContainsRune(res.Response, utf8.RuneError) {
		t.Fatalf("response of %d bytes (valid %v), want at most %d on a character boundary", len(res.Response), utf8.ValidString(res.Response), MaxResponse)
	}
	if res.RetryAfter != 2*time.Minute {
		t.Errorf("Retry-After read as %s", res.RetryAfter)
	}
	res, err = c.Send(context.Background(), s, rc.URL, "msg_1", testPayload())
	if err != nil || strings.Contains(res.Response, auth) || !strings.Contains(res.Response, "you sent [redacted]") {
		t.Fatalf("echoed response %q must not show the auth value", res.Response)
	}
	res, err = c.Send(context.Background(), s, rc.URL, "msg_1", testPayload())
	if want := "bad\uFFFDbyte \uFFFD and {\"e\":\"\uFFFD\"}"; err != nil || res.Response != want {
		t.Fatalf("response %q, %v; want %q, text the stores accept", res.Response, err, want)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{"": 0, "0": 0, "-5": 0, "30": 30 * time.Second, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second, now.Add(-time.Hour).Format(http.TimeFormat): 0} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q = %s, want %s", v, got, want)
		}
	}
}
