package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// The Standard Webhooks specification's known-answer vector (also the
// test vector of its reference libraries).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorPayload   = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSignKnownAnswer(t *testing.T) {
	key, err := ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	if got := Sign(key, vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorPayload)); got != vectorSignature {
		t.Fatalf("Sign = %s\n want %s", got, vectorSignature)
	}
	// The prefix is optional, as in the reference libraries.
	bare, err := ParseSecret(vectorSecret[len("whsec_"):])
	if err != nil || string(bare) != string(key) {
		t.Fatalf("secret without prefix: %v", err)
	}
	h := http.Header{}
	h.Set(HeaderID, vectorID)
	h.Set(HeaderTimestamp, strconv.Itoa(vectorTimestamp))
	h.Set(HeaderSignature, "v1,bm90IGl0 "+vectorSignature) // several signatures, space-separated
	at := time.Unix(vectorTimestamp, 0).Add(time.Minute)
	if err := Verify(vectorSecret, h, []byte(vectorPayload), at, 0); err != nil {
		t.Fatalf("verify the vector: %v", err)
	}
	for name, tc := range map[string]struct {
		secret, body string
		at           time.Time
		mutate       func(http.Header)
		want         error
	}{
		"body changed":   {vectorSecret, `{"test": 2432232315}`, at, nil, ErrBadSignature},
		"other id":       {vectorSecret, vectorPayload, at, func(h http.Header) { h.Set(HeaderID, "msg_other") }, ErrBadSignature},
		"other time":     {vectorSecret, vectorPayload, at, func(h http.Header) { h.Set(HeaderTimestamp, "1614265331") }, ErrBadSignature},
		"other secret":   {prospector.NewWebhookSecret(), vectorPayload, at, nil, ErrBadSignature},
		"stale":          {vectorSecret, vectorPayload, at.Add(time.Hour), nil, ErrStaleTimestamp},
		"future":         {vectorSecret, vectorPayload, at.Add(-time.Hour), nil, ErrStaleTimestamp},
		"no signature":   {vectorSecret, vectorPayload, at, func(h http.Header) { h.Del(HeaderSignature) }, ErrNoSignature},
		"v2 only":        {vectorSecret, vectorPayload, at, func(h http.Header) { h.Set(HeaderSignature, "v2,"+vectorSignature[3:]) }, ErrBadSignature},
		"invalid secret": {"whsec_short", vectorPayload, at, nil, ErrInvalidSecret},
	} {
		hh := h.Clone()
		if tc.mutate != nil {
			tc.mutate(hh)
		}
		if err := Verify(tc.secret, hh, []byte(tc.body), tc.at, 0); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
}

func TestSecretsRoundTrip(t *testing.T) {
	s := prospector.NewWebhookSecret()
	key, err := ParseSecret(s)
	if err != nil || len(key) != 32 || s == prospector.NewWebhookSecret() {
		t.Fatalf("new secret %s: %d bytes, %v", s, len(key), err)
	}
	now := time.Now()
	body := []byte(`{"lead_count":1}`)
	h := http.Header{}
	h.Set(HeaderID, "msg_x")
	h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(HeaderSignature, Sign(key, "msg_x", now, body))
	if err := Verify(s, h, body, now, 0); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"whsec_!!!", "whsec_c2hvcnQ=", ""} {
		if _, err := ParseSecret(bad); err == nil {
			t.Errorf("ParseSecret(%q) accepted", bad)
		}
	}
	if m := prospector.MaskSecret(s); len(m) > 30 || m[:8] != s[:8] || containsAny(m, s[10:]) {
		t.Errorf("mask %q shows too much of %s", m, s)
	}
	if m := prospector.MaskSecret("Bearer abcdefghijklmnop"); m != "Beare… (23 chars)" {
		t.Errorf("mask = %q", m)
	}
	if m := prospector.MaskSecret("short"); m != "… (5 chars)" {
		t.Errorf("mask of a short secret = %q", m)
	}
}

func containsAny(s, secret string) bool {
	for i := 0; i+6 <= len(secret); i++ {
		if strings.Contains(s, secret[i:i+6]) {
			return true
		}
	}
	return false
}
