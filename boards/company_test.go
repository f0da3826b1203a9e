package boards

import "testing"

func TestConfirm(t *testing.T) {
	for _, tc := range []struct {
		board, name, domain string
		want                Confirmation
	}{
		// Same company, written differently.
		{"Acme", "Acme", "", ConfirmMatch},
		{"ACME, Inc.", "Acme", "", ConfirmMatch},
		{"Acme Inc", "acme incorporated", "", ConfirmMatch},
		{"Acmé GmbH", "Acme", "", ConfirmMatch},
		{"Acme GmbH & Co. KG", "Acme", "", ConfirmMatch},
		{"Acme Pty Ltd", "Acme", "", ConfirmMatch},
		{"Acme S.A.", "Acme SA", "", ConfirmMatch},
		{"The Acme Company", "Acme", "", ConfirmMatch},
		{"Careers at Acme", "Acme Ltd.", "", ConfirmMatch},
		{"Acme Careers", "Acme", "", ConfirmMatch},
		{"Data Dog", "Datadog, Inc.", "", ConfirmMatch},
		{"Smith & Wesson", "Smith and Wesson", "", ConfirmMatch},
		{"Øresund Ventures ApS", "Oresund Ventures", "", ConfirmMatch},
		{"Straße Logistik GmbH", "Strasse Logistik", "", ConfirmMatch},
		{"Kestrel Health B.V.", "", "kestrel-health.example", ConfirmMatch},
		{"Quillfeather Systems, Inc.", "", "quillfeathersystems.test", ConfirmMatch},
		{"Acme", "", "https://www.acme.co.uk/about", ConfirmMatch},
		{"Acme", "", "getacme.example", ConfirmMatch},
		{"Acme", "", "acmehq.test", ConfirmMatch},
		{"Acme", "Something Else Entirely", "acme.example", ConfirmMatch}, // the domain agrees
		// Another company owning the slug.
		{"Acme Health", "Acme", "acme.example", ConfirmMismatch},
		{"Acme", "Acme Health", "acmehealth.example", ConfirmMismatch},
		{"Acme Labs", "Acme", "", ConfirmMismatch},
		{"Acme Group", "Acme", "", ConfirmMismatch},
		{"Acmes", "Acme", "acme.example", ConfirmMismatch},
		{"Acne", "Acme", "", ConfirmMismatch},
		{"Apex Robotics", "Acme Robotics", "acmerobotics.example", ConfirmMismatch},
		{"Acme", "", "notacme.example", ConfirmMismatch},
		{"Acme", "", "acme-health.example", ConfirmMismatch},
		{"Inc", "Acme Inc", "", ConfirmMismatch},
		// Nothing to compare.
		{"", "Acme", "acme.example", ConfirmUnknown},
		{"  ", "Acme", "", ConfirmUnknown},
		{"Acme", "", "", ConfirmUnknown},
		{"Acme", "", "localhost", ConfirmUnknown},
	} {
		if got := Confirm(tc.board, tc.name, tc.domain); got != tc.want {
			t.Errorf("Confirm(%q, %q, %q) = %v, want %v", tc.board, tc.name, tc.domain, got, tc.want)
		}
	}
}

func TestCompanyKey(t *testing.T) {
	for in, want := range map[string]string{
		"ACME, Inc.":             "acme",
		"Acmé GmbH":              "acme",
		"Jobs at Acme Robotics":  "acme robotics",
		"Acme Holdings Pty Ltd":  "acme",
		"Ben & Jerry's":          "ben and jerrys",
		"Inc":                    "inc",
		"":                       "",
		"  Société Générale SA ": "societe generale",
	} {
		if got := CompanyKey(in); got != want {
			t.Errorf("CompanyKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRemoteText(t *testing.T) {
	for in, want := range map[string]bool{
		"Remote": true, "Remote - US": true, "US-Remote": true, "Fully remote (EU)": true, "Anywhere": true,
		"Work from home": true, "WFH": true, "Home office": true, "Homeoffice": true, "Télétravail": true,
		"Madrid (remoto)": true, "Home-based, UK": true,
		"": false, "Hybrid": false, "Berlin": false, "Remoteville, TX": false, "Home": false, "Office": false,
	} {
		if got := RemoteText(in); got != want {
			t.Errorf("RemoteText(%q) = %v, want %v", in, got, want)
		}
	}
}
