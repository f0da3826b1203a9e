package email

import "testing"

func TestDisposable(t *testing.T) {
	if n := len(disposableDomains); n < 100 || n > 300 {
		t.Errorf("%d disposable domains, want the common 100-300", n)
	}
	for d, want := range map[string]bool{
		"mailinator.com":       true,
		"inbox.mailinator.com": true,
		"yopmail.com":          true,
		"example.test":         false,
		"gmail.com":            false,
		"notmailinator.com":    true,
		"xmailinator.com":      false,
		"com":                  false,
	} {
		if got := isDisposable(d); got != want {
			t.Errorf("isDisposable(%q) = %v", d, got)
		}
	}
}

func TestRole(t *testing.T) {
	for _, l := range []string{"info", "sales", "support", "admin", "noreply", "contact", "hello", "billing", "hr", "jobs", "careers", "office", "team", "marketing", "press"} {
		if !isRole(l) {
			t.Errorf("%q is not a role", l)
		}
	}
	for _, l := range []string{"ada", "ada.testperson", "dev", "information"} {
		if isRole(l) {
			t.Errorf("%q is a role", l)
		}
	}
}
