package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

// TestInternalSentinelsAreLogged: the store's internal sentinels (a lost
// job lease, a moved radar cursor, a lost race) reach the caller as a
// plain service_error, and the log has the cause under the request's id.
func TestInternalSentinelsAreLogged(t *testing.T) {
	base := newEnv(t)
	fs := &faultyStore{Store: base.store}
	e := newEnvOn(t, fs)
	_, key := e.workspace("faults", prospector.PlanDefault, prospector.PlanDefault)
	for _, sentinel := range []error{prospector.ErrLeaseLost, prospector.ErrCursorMoved, prospector.ErrConcurrentUpdate} {
		fs.usage = func() error { return fmt.Errorf("sqlite: usage: %w", sentinel) }
		r := e.do("GET", "/api/v1/account/credit-usage", key, nil)
		msg := r.wantError(t, http.StatusInternalServerError, prospector.EINTERNAL)
		if strings.Contains(msg, sentinel.Error()) {
			t.Errorf("%v: the internal text reached the caller: %q", sentinel, msg)
		}
		if !loggedWith(t, e.logs.String(), r.header.Get("X-Request-Id"), sentinel.Error()) {
			t.Errorf("%v: no error log line with the request id: %s", sentinel, e.logs.String())
		}
	}
}

// loggedWith reports whether an error-level line of logs carries the
// request id and an error holding cause.
func loggedWith(t *testing.T, logs, requestID, cause string) bool {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var rec struct {
			Level     string `json:"level"`
			RequestID string `json:"request_id"`
			Error     string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec.Level == "ERROR" && rec.RequestID == requestID && strings.Contains(rec.Error, cause) {
			return true
		}
	}
	return false
}

// TestWorkflowLogsCarryTheRequestID: a workflow logs without knowing the
// request, and its line still carries the request's id.
func TestWorkflowLogsCarryTheRequestID(t *testing.T) {
	fx := newPushFixture(t, privateHooks(0))
	rc := newReceiver(t, nil)
	r := fx.e.do("POST", "/api/v1/leads/push", fx.key, map[string]any{"lead_ids": []string{fx.ada.ID},
		"destination": "webhook_url", "webhook_url": rc.URL})
	if r.status != http.StatusOK {
		t.Fatalf("push: %d %s", r.status, r.body)
	}
	for _, line := range strings.Split(strings.TrimSpace(fx.e.logs.String()), "\n") {
		var rec struct {
			Msg       string `json:"msg"`
			RequestID string `json:"request_id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "created webhook settings for a push" {
			if rec.RequestID != r.header.Get("X-Request-Id") {
				t.Fatalf("workflow line %s lacks the request id %s", line, r.header.Get("X-Request-Id"))
			}
			return
		}
	}
	t.Fatalf("no workflow line in %s", fx.e.logs.String())
}
