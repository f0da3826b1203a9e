package contacts

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

// The product rules of a contact, without HTTP: the seniority base with
// its title-match bonus, and an angle that opens with the company's
// trigger and asks what fits the role.
func TestScoreAndAngle(t *testing.T) {
	for _, c := range []struct {
		level string
		match bool
		want  float64
	}{{"Founder", true, 100}, {"VP", false, 75}, {"VP", true, 85}, {"", false, 20}, {"Intern", true, 30}} {
		if got := contactScore(&prospector.Person{JobLevel: c.level}, c.match); got != c.want {
			t.Errorf("level %q match %v: %v, want %v", c.level, c.match, got, c.want)
		}
	}
	a := outreachAngle("Acme just raised a Series B, so budgets are being set now", taxonomy.RoleDecisionMaker, "Sales")
	if a != "Acme just raised a Series B, so budgets are being set now: tie it to more qualified pipeline for the sales team; "+
		"lead with the business case and ask for a 15-minute call." {
		t.Errorf("angle %q", a)
	}
	if a := outreachAngle("", "", "Knitting"); !strings.HasPrefix(a, "No recent trigger: open with a problem their team already has;") {
		t.Errorf("angle without a trigger %q", a)
	}
}
