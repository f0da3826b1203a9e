package email

import "testing"

func TestParseAddress(t *testing.T) {
	long := "a"
	for len(long) < 64 {
		long += "a"
	}
	tests := []struct {
		in            string
		local, domain string // "" when invalid
	}{
		{"ada.testperson@example.test", "ada.testperson", "example.test"},
		{"  Ada.Testperson@Example.TEST ", "ada.testperson", "example.test"},
		{"a+tag@mail.example.test", "a+tag", "mail.example.test"},
		{"o'neil@example.test", "o'neil", "example.test"},
		{"x!#$%&'*+/=?^_`{|}~-y@example.test", "x!#$%&'*+/=?^_`{|}~-y", "example.test"},
		{long + "@example.test", long, "example.test"},
		{long + "a@example.test", "", ""},
		{"ada@xn--bcher-kva.example", "ada", "xn--bcher-kva.example"},
		{"ada@example", "", ""},
		{"ada", "", ""},
		{"@example.test", "", ""},
		{"ada@", "", ""},
		{".ada@example.test", "", ""},
		{"ada.@example.test", "", ""},
		{"ada..t@example.test", "", ""},
		{"ada t@example.test", "", ""},
		{"\"ada\"@example.test", "", ""},
		{"ada@@example.test", "", ""},
		{"ada@exa_mple.test", "", ""},
		{"ada@-example.test", "", ""},
		{"ada@example-.test", "", ""},
		{"ada@example..test", "", ""},
		{"ada@192.168.0.1", "", ""},
		{"ada@[127.0.0.1]", "", ""},
		{"adé@example.test", "", ""},
		{"ada@exämple.test", "", ""},
	}
	for _, tt := range tests {
		local, domain, ok := parseAddress(tt.in)
		if ok != (tt.local != "") || local != tt.local || domain != tt.domain {
			t.Errorf("parseAddress(%q) = %q, %q, %v; want %q, %q", tt.in, local, domain, ok, tt.local, tt.domain)
		}
	}
}

func TestFoldName(t *testing.T) {
	tests := map[string]string{
		"Ada":              "ada",
		"ÉLODIE":           "elodie",
		"O'Neil":           "oneil",
		"O’Neil":           "oneil",
		"Anne-Marie":       "annemarie",
		"van der Testerer": "vandertesterer",
		"Straße":           "strasse",
		"Øresund":          "oresund",
		"Łukasz":           "lukasz",
		"Şebnem":           "sebnem",
		"Ærø":              "aero",
		"Nguyễn":           "nguyen",
		"Jr.":              "jr",
		"Zoë 2":            "zoe",
		"Иван":             "",
		"":                 "",
	}
	for in, want := range tests {
		if got := foldName(in); got != want {
			t.Errorf("foldName(%q) = %q, want %q", in, got, want)
		}
	}
}
