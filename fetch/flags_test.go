package fetch

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestParseResolve(t *testing.T) {
	got, err := ParseResolve([]string{"Company.Test=127.0.0.1:9001", "boards-api.greenhouse.io=[::1]:9002", "x.test=fixtures.local:80"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"company.test": "127.0.0.1:9001", "boards-api.greenhouse.io": "[::1]:9002", "x.test": "fixtures.local:80"}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	for _, bad := range []string{"company.test", "=127.0.0.1:80", "company.test=127.0.0.1", "company.test:443=127.0.0.1:80",
		"https://company.test=127.0.0.1:80", "company.test=127.0.0.1:0", "company.test=127.0.0.1:http",
		"company.test=[fe80::1%eth0]:80", "a..test=127.0.0.1:80", "company.test=bad host:80"} {
		_, err := ParseResolve([]string{bad})
		if err == nil || prospector.ErrorCode(err) != prospector.EINVALID || !strings.HasPrefix(prospector.ErrorMessage(err), "--resolve ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := ParseResolve([]string{"a.test=127.0.0.1:1", "A.test=127.0.0.1:2"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate host: %v", err)
	}
	if _, err := New(Config{Resolve: map[string]string{"a.test": "nowhere"}}); err == nil || !strings.Contains(err.Error(), "--resolve") {
		t.Errorf("bad Config.Resolve: %v", err)
	}
}

func TestParseBaseURLs(t *testing.T) {
	got, err := ParseBaseURLs([]string{"greenhouse=http://127.0.0.1:9001", "lever-eu=https://mirror.example/lever/"})
	if err != nil {
		t.Fatal(err)
	}
	if got["greenhouse"].String() != "http://127.0.0.1:9001" || got["lever-eu"].String() != "https://mirror.example/lever" {
		t.Fatalf("%v", got)
	}
	for _, bad := range []string{"greenhouse", "=http://x.test", "Greenhouse=http://x.test", "greenhouse=ftp://x.test",
		"greenhouse=/relative", "greenhouse=http://u:p@x.test", "greenhouse=http://x.test/?q=1", "greenhouse=http://x.test/#f",
		"greenhouse=http://x.test:70000", "green house=http://x.test", "greenhouse=http://"} {
		_, err := ParseBaseURLs([]string{bad})
		if err == nil || prospector.ErrorCode(err) != prospector.EINVALID || !strings.HasPrefix(prospector.ErrorMessage(err), "--source-base-url ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	pol := BaseURLPolicies(got)
	if pol["127.0.0.1:9001"] != APIPolicy() || pol["mirror.example"] != APIPolicy() || len(pol) != 2 {
		t.Fatalf("policies %v", pol)
	}
	if _, err := New(Config{Hosts: pol}); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseBaseURLs([]string{"ashby=http://a.test", "ashby=http://b.test"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate name: %v", err)
	}
}
