package api

import "testing"

// isCleanPath is the fast check of canonical's; every path of up to
// seven characters of '/', '.' and 'a', and some real ones, must get the
// answer cleanPath gives.
func TestIsCleanPathAgreesWithCleanPath(t *testing.T) {
	paths := []string{"/api/v1/account/key-info", "/api/v1//account", "/api/v1/signals/company/https%3A%2F%2Fx"}
	var grow func(p string)
	grow = func(p string) {
		paths = append(paths, p)
		if len(p) < 7 {
			for _, c := range "/.a" {
				grow(p + string(c))
			}
		}
	}
	grow("")
	for _, p := range paths {
		if got, want := isCleanPath(p), p != "" && p[0] == '/' && cleanPath(p) == p; got != want {
			t.Errorf("isCleanPath(%q) = %v, cleanPath says %v", p, got, want)
		}
	}
}
