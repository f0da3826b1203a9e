package prospector_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestErrorCodes(t *testing.T) {
	want := map[prospector.Code]string{
		prospector.EINVALID: "validation_error", prospector.EUNAUTHORIZED: "unauthorized",
		prospector.ENOTFOUND: "not_found", prospector.ELEADNOTFOUND: "lead_not_found",
		prospector.ERATELIMIT: "rate_limit_exceeded", prospector.EINTERNAL: "service_error",
	}
	for code, s := range want {
		b, err := json.Marshal(code)
		if code.String() != s || err != nil || string(b) != `"`+s+`"` {
			t.Errorf("code %d: %q, JSON %s %v; want %s", code, code.String(), b, err, s)
		}
	}
	for _, c := range []struct {
		err  error
		code prospector.Code
		msg  string
	}{
		{nil, 0, ""},
		{prospector.Errorf(prospector.EINVALID, "name: required"), prospector.EINVALID, "name: required"},
		{fmt.Errorf("wrapped: %w", prospector.ErrNotFound), prospector.ENOTFOUND, "not found"},
		{errors.New("disk on fire"), prospector.EINTERNAL, ""},
		// An *Error without a caller's code is internal: neither its
		// code nor its text is the caller's.
		{&prospector.Error{Message: "secret"}, prospector.EINTERNAL, ""},
		{&prospector.Error{Code: prospector.EINTERNAL, Message: "secret"}, prospector.EINTERNAL, ""},
		{fmt.Errorf("x: %w", prospector.ErrLeaseLost), prospector.EINTERNAL, ""},
		{prospector.ErrCursorMoved, prospector.EINTERNAL, ""},
		{prospector.ErrConcurrentUpdate, prospector.EINTERNAL, ""},
	} {
		if got := prospector.ErrorCode(c.err); got != c.code {
			t.Errorf("ErrorCode(%v) = %v, want %v", c.err, got, c.code)
		}
		if c.err == nil {
			continue
		}
		msg := prospector.ErrorMessage(c.err)
		if internal := prospector.Internal(c.err); internal != (c.code == prospector.EINTERNAL) {
			t.Errorf("Internal(%v) = %v", c.err, internal)
		}
		if c.msg != "" && msg != c.msg || c.msg == "" && msg != prospector.ErrorMessage(errors.New("")) {
			t.Errorf("ErrorMessage(%v) = %q", c.err, msg)
		}
	}
}

// The conflict sentinels have one meaning each: a taken key is the
// caller's 400, a lost race is internal.
func TestConflictSentinels(t *testing.T) {
	if prospector.ErrorCode(prospector.ErrAlreadyExists) != prospector.EINVALID {
		t.Error("ErrAlreadyExists is not a validation error")
	}
	var perr *prospector.Error
	for _, err := range []error{prospector.ErrConcurrentUpdate, prospector.ErrLeaseLost, prospector.ErrCursorMoved} {
		if errors.As(err, &perr) {
			t.Errorf("%v is a caller's *Error", err)
		}
	}
}
