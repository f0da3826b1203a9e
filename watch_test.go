package prospector

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseBoardRef(t *testing.T) {
	b, err := ParseBoardRef("Greenhouse:acme")
	if err != nil || b != (BoardRef{Kind: "greenhouse", Token: "acme"}) || b.String() != "greenhouse:acme" {
		t.Fatalf("%+v %v", b, err)
	}
	for _, s := range []string{"greenhouse", "greenhouse:", ":acme", "green house:acme", "greenhouse:a b"} {
		if _, err := ParseBoardRef(s); ErrorCode(err) != EINVALID {
			t.Errorf("%q: err = %v, want validation error", s, err)
		}
	}
}

func TestWatchRequestValidate(t *testing.T) {
	good := WatchRequest{Domain: "acme.example", Boards: []BoardRef{{"lever", "acme"}}, Feeds: []string{"https://acme.example/rss"}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	ts := good.Targets(9)
	if len(ts) != 3 || ts[0].Kind != TargetHomepage || ts[0].Ref != "https://acme.example/" || ts[1].Origin != OriginFlag ||
		ts[2].Kind != TargetFeed || ts[2].CompanyID != 9 {
		t.Fatalf("targets %+v", ts)
	}
	for _, r := range []WatchRequest{{Domain: "Acme.example"}, {Domain: "not a domain"},
		{Domain: "acme.example", Feeds: []string{"acme.example/rss"}}, {Domain: "acme.example", AddedBy: "x\x00"},
		{Domain: "acme.example", Boards: []BoardRef{{"greenhouse", ""}}}} {
		if err := r.Validate(); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: err = %v, want validation error", r, err)
		}
	}
}

func TestRadarWatchRefs(t *testing.T) {
	c := &RadarConfig{CompanyID: 4, FollowersCompanyURL: "https://network.example/company/rival",
		CompetitorURLs: []string{"https://rival.example", "https://network.example/company/other", "https://b.example", "https://rival.example"}}
	ids, domains, urls := RadarWatchRefs(c)
	if !slices.Equal(ids, []int64{4}) || !slices.Equal(domains, []string{"b.example", "rival.example"}) ||
		!slices.Equal(urls, []string{"https://network.example/company/rival", "https://network.example/company/other"}) {
		t.Fatalf("ids %v domains %v urls %v", ids, domains, urls)
	}
	if ids, domains, urls := RadarWatchRefs(&RadarConfig{Titles: []string{"VP Sales"}}); ids != nil || domains != nil || urls != nil {
		t.Fatal("a radar naming no company watches nothing")
	}
}

// TestPlanRadarWatches: references count through the domains the store
// resolved, unresolved ones name nothing, and only differences are
// planned.
func TestPlanRadarWatches(t *testing.T) {
	refs := map[string]RadarRefs{
		"r1": {CompanyIDs: []int64{7, 8}, Domains: []string{"rival.example"}, ProfileURLs: []string{"https://network.example/company/acme"}},
		"r2": {ProfileURLs: []string{"https://network.example/company/unknown"}},
	}
	byID := map[int64]string{7: "seven.example"} // 8 is not stored
	byURL := map[string]string{"https://network.example/company/acme": "acme.example"}
	have := map[RadarWatch]bool{{"r1", "rival.example"}: true, {"r1", "gone.example"}: true, {"r3", "old.example"}: true}
	add, drop := PlanRadarWatches(refs, byID, byURL, have)
	sortW := func(ws []RadarWatch) []RadarWatch {
		slices.SortFunc(ws, func(a, b RadarWatch) int { return strings.Compare(a.Radar+a.Domain, b.Radar+b.Domain) })
		return ws
	}
	if want := []RadarWatch{{"r1", "acme.example"}, {"r1", "seven.example"}}; !reflect.DeepEqual(sortW(add), want) {
		t.Errorf("add %v, want %v", add, want)
	}
	if want := []RadarWatch{{"r1", "gone.example"}, {"r3", "old.example"}}; !reflect.DeepEqual(sortW(drop), want) {
		t.Errorf("drop %v, want %v", drop, want)
	}
}
