package prospector_test

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestParseSubject(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind prospector.SubjectKind
		want string
	}{
		{"https://www.Network.example/in/Jane-Doe/?trk=x", prospector.SubjectProfileURL, "https://network.example/in/jane-doe"},
		{" Jane.Doe@ACME.example ", prospector.SubjectEmail, "jane.doe@acme.example"},
		{"Jane   DOE@www.acme.example", prospector.SubjectName, "jane doe@acme.example"},
		{"WWW.Acme.Example.", prospector.SubjectDomain, "acme.example"},
	} {
		got, err := prospector.ParseSubject(c.in)
		if err != nil || got.Kind != c.kind || got.Value != c.want {
			t.Errorf("ParseSubject(%q) = %+v, %v; want %s %q", c.in, got, err, c.kind, c.want)
		}
	}
	for _, bad := range []string{"", "not a subject", "@acme.example", "Jane Doe@"} {
		if _, err := prospector.ParseSubject(bad); prospector.ErrorCode(err) != prospector.EINVALID {
			t.Errorf("ParseSubject(%q): %v, want a validation error", bad, err)
		}
	}
}

// Every spelling of a suppressed identifier is caught, under another
// secret nothing is, and an empty set suppresses nothing.
func TestSuppressionSet(t *testing.T) {
	const secret = "k1"
	hash := func(s string) string {
		sub, err := prospector.ParseSubject(s)
		if err != nil {
			t.Fatal(err)
		}
		return sub.Hash(secret)
	}
	set := prospector.NewSuppressionSet(secret, []string{hash("https://network.example/in/gone"), hash("gone@mail.example"),
		hash("Ann Other@acme.example"), hash("blocked.example")})
	for _, c := range []struct {
		what string
		p    prospector.Person
		want bool
	}{
		{"by URL", prospector.Person{NetworkURL: "https://network.example/in/gone"}, true},
		{"by address, any case", prospector.Person{Email: "GONE@mail.example"}, true},
		{"by name at the company's domain", prospector.Person{FullName: "ann  other", CompanyDomain: "acme.example"}, true},
		{"by name at the address's domain", prospector.Person{FullName: "Ann Other", Email: "a.o@acme.example"}, true},
		{"the same name elsewhere", prospector.Person{FullName: "Ann Other", CompanyDomain: "other.example"}, false},
		{"by company domain", prospector.Person{FullName: "Bo", CompanyDomain: "blocked.example"}, true},
		{"by address domain", prospector.Person{FullName: "Bo", Email: "bo@blocked.example"}, true},
		{"someone else", prospector.Person{FullName: "Cy", NetworkURL: "https://network.example/in/cy", Email: "cy@mail.example"}, false},
	} {
		if got := set.Person(&c.p); got != c.want {
			t.Errorf("%s: suppressed %v, want %v", c.what, got, c.want)
		}
	}
	if !set.Company(&prospector.Company{Domain: "blocked.example"}) || !set.Lookup("Ann Other", "acme.example", "") {
		t.Error("company or lookup not suppressed")
	}
	other := prospector.NewSuppressionSet("k2", []string{hash("blocked.example")})
	if other.Domain("blocked.example") {
		t.Error("a hash keyed with another secret matched")
	}
	var none *prospector.SuppressionSet
	if none.Person(&prospector.Person{NetworkURL: "https://network.example/in/gone"}) || !none.Empty() {
		t.Error("a nil set suppressed")
	}
}
