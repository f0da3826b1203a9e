package prospector

import "testing"

func TestNormalizeLegalName(t *testing.T) {
	for in, want := range map[string]string{
		"Acme Robotics, Inc.":               "acme robotics",
		"The Acme Robotics Co., Inc.":       "acme robotics",
		"Acme Robotics Holdings, L.L.C.":    "acme robotics",
		"Acme Robotics Limited Partnership": "acme robotics",
		"Tamsin & Crowe, LLC":               "tamsin and crowe",
		"Smith & Co.":                       "smith",
		"Café Lumière S.A.":                 "cafe lumiere",
		"O'Hare-Whitfield Group, Inc.":      "ohare whitfield group",
		"The Company":                       "company",
		"Holdings Inc":                      "holdings",
		"  Northwind   Analytics,   Inc.  ": "northwind analytics",
		"---":                               "",
	} {
		if got := NormalizeLegalName(in); got != want {
			t.Errorf("NormalizeLegalName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFoldAccents(t *testing.T) {
	if got := FoldAccents("josé núñez æsir"); got != "jose nunez aesir" {
		t.Errorf("FoldAccents = %q", got)
	}
}
