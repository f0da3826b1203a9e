package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// watchedBoard stores the sample companies, watches the first and adds
// a greenhouse board target for it.
func watchedBoard(t *testing.T, s prospector.Store) (*prospector.Company, *prospector.SourceTarget) {
	t.Helper()
	ctx := context.Background()
	cs := sampleCompanies()
	if _, err := s.UpsertCompanies(ctx, cs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddWatches(ctx, []prospector.WatchRequest{{Domain: cs[0].Domain, AddedBy: "test"}}, srcT0); err != nil {
		t.Fatal(err)
	}
	b := &prospector.SourceTarget{CompanyID: cs[0].ID, Kind: prospector.TargetBoard, Board: "greenhouse", Ref: "acme",
		Origin: prospector.OriginDiscovered, DiscoveredOn: "https://acme-robotics.example/careers"}
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{b}, srcT0); err != nil {
		t.Fatal(err)
	}
	return cs[0], b
}

func testTargets(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	if b.ID == 0 || b.Domain != co.Domain {
		t.Fatalf("AddTargets did not fill id and domain: %+v", b)
	}
	got, err := s.Target(ctx, b.ID)
	if err != nil || got.Kind != prospector.TargetBoard || got.Board != "greenhouse" || got.Ref != "acme" ||
		got.Origin != prospector.OriginDiscovered || got.DiscoveredOn != "https://acme-robotics.example/careers" ||
		!got.NextPollAt.Equal(srcT0) || got.LastPollAt != nil || got.Health(srcT0) != prospector.HealthNew {
		t.Fatalf("stored target %+v %v", got, err)
	}
	// Discovered again: nothing new; then given as a flag: claimed.
	again := *b
	again.ID = 0
	if n, err := s.AddTargets(ctx, []*prospector.SourceTarget{&again}, srcT0.Add(time.Hour)); err != nil || n != 0 || again.ID != b.ID {
		t.Fatalf("adding a target again: %d %v id %d", n, err, again.ID)
	}
	flag := again
	flag.Origin, flag.DiscoveredOn = prospector.OriginFlag, ""
	if n, err := s.AddTargets(ctx, []*prospector.SourceTarget{&flag}, srcT0); err != nil || n != 0 {
		t.Fatalf("flag: %d %v", n, err)
	}
	if got, _ := s.Target(ctx, b.ID); got.Origin != prospector.OriginFlag || !got.NextPollAt.Equal(srcT0) {
		t.Fatalf("a flag must claim a discovered target and keep its schedule: %+v", got)
	}
	// Refusals write nothing.
	feed := &prospector.SourceTarget{CompanyID: co.ID, Kind: prospector.TargetFeed, Ref: "https://acme-robotics.example/rss",
		Origin: prospector.OriginFlag}
	nul := &prospector.SourceTarget{CompanyID: co.ID, Kind: prospector.TargetBoard, Board: "lever", Ref: "ac\x00me",
		Origin: prospector.OriginFlag}
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{feed, nul}, srcT0); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("NUL in a token: %v", err)
	}
	orphan := &prospector.SourceTarget{CompanyID: 987654, Kind: prospector.TargetFeed, Ref: "https://x.example/rss",
		Origin: prospector.OriginFlag}
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{feed, orphan}, srcT0); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("target of an unknown company: %v", err)
	}
	if ts, _ := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetFeed}); len(ts) != 0 {
		t.Fatalf("a refused batch wrote %d targets", len(ts))
	}
	if _, err := s.Target(ctx, 987654); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("unknown target: %v", err)
	}
	if _, err := s.RecordPoll(ctx, 987654, prospector.PollOutcome{At: srcT0, Result: prospector.PollOK}); !errors.Is(err, prospector.ErrNotFound) {
		t.Fatalf("poll of an unknown target: %v", err)
	}
	if _, err := s.RecordPoll(ctx, b.ID, prospector.PollOutcome{At: srcT0, Result: "maybe"}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("unknown result: %v", err)
	}

	// A failure keeps its error, cleaned; a success clears it.
	fail := prospector.PollOutcome{At: srcT0, Result: prospector.PollFailed, Error: "status 500 \x00from upstream",
		Interval: 6 * time.Hour, Jitter: 0.5}
	got, err = s.RecordPoll(ctx, b.ID, fail)
	if err != nil || got.Failures != 1 || got.LastError != "status 500 from upstream" || got.Health(srcT0) != prospector.HealthFailing {
		t.Fatalf("after a failure: %+v %v", got, err)
	}
	home, err := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: co.ID, Kind: prospector.TargetHomepage})
	if err != nil || len(home) != 1 {
		t.Fatalf("homepage: %d %v", len(home), err)
	}
	ok := prospector.PollOutcome{At: srcT0, Result: prospector.PollOK, ETag: `"abc"`, LastModified: "Mon, 02 Nov 2026 06:00:00 GMT",
		Interval: 24 * time.Hour, Jitter: 0.5}
	if _, err := s.RecordPoll(ctx, home[0].ID, ok); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Target(ctx, home[0].ID)
	if got.ETag != `"abc"` || got.LastModified != ok.LastModified || !got.LastSuccessAt.Equal(srcT0) ||
		!got.NextPollAt.Equal(srcT0.Add(24*time.Hour)) || got.Health(srcT0) != prospector.HealthOK {
		t.Fatalf("after a success: %+v", got)
	}
	all, err := s.ListTargets(ctx, prospector.TargetFilter{})
	if err != nil || len(all) != 2 || all[0].ID >= all[1].ID {
		t.Fatalf("list all: %d %v", len(all), err)
	}
	if page, _ := s.ListTargets(ctx, prospector.TargetFilter{AfterID: all[0].ID, Limit: 1}); len(page) != 1 || page[0].ID != all[1].ID {
		t.Fatalf("keyset page: %+v", page)
	}
	if ts, _ := s.ListTargets(ctx, prospector.TargetFilter{Board: "greenhouse"}); len(ts) != 1 || ts[0].ID != b.ID {
		t.Fatalf("by board: %+v", ts)
	}
	if ts, _ := s.ListTargets(ctx, prospector.TargetFilter{Domain: co.Domain, Kind: prospector.TargetHomepage}); len(ts) != 1 ||
		ts[0].ID != home[0].ID {
		t.Fatalf("by domain and kind: %+v", ts)
	}
	if ts, _ := s.ListTargets(ctx, prospector.TargetFilter{Domain: "elsewhere.example"}); len(ts) != 0 {
		t.Fatalf("by an unknown domain: %+v", ts)
	}
	sum, err := s.SummarizeTargets(ctx, srcT0)
	if err != nil || len(sum) != 2 {
		t.Fatalf("summary: %+v %v", sum, err)
	}
	if bs := sum[0]; bs.Kind != prospector.TargetBoard || bs.Board != "greenhouse" || bs.Targets != 1 || bs.Failing != 1 ||
		bs.Due != 0 || bs.Paused != 0 || bs.LastPollAt == nil || !bs.LastPollAt.Equal(srcT0) {
		t.Fatalf("board summary %+v", bs)
	}
	if hs := sum[1]; hs.Kind != prospector.TargetHomepage || hs.Targets != 1 || hs.Failing != 0 || hs.Due != 0 {
		t.Fatalf("homepage summary %+v", hs)
	}
	if s, _ := s.SummarizeTargets(ctx, srcT0.Add(25*time.Hour)); s[0].Due != 1 || s[1].Due != 1 {
		t.Fatalf("summary a day later: %+v", s)
	}
}

func testDueTargets(t *testing.T, s prospector.Store) {
	ctx := context.Background()
	co, b := watchedBoard(t, s)
	due := func(at time.Time, kinds ...string) []int64 {
		t.Helper()
		ts, err := s.DueTargets(ctx, prospector.DueFilter{Now: at, Kinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, x := range ts {
			ids = append(ids, x.ID)
		}
		return ids
	}
	if ids := due(srcT0); len(ids) != 2 {
		t.Fatalf("new targets are due at once: %v", ids)
	}
	if ids := due(srcT0.Add(-time.Second)); len(ids) != 0 {
		t.Fatalf("due before their time: %v", ids)
	}
	if ids := due(srcT0, prospector.TargetBoard); len(ids) != 1 || ids[0] != b.ID {
		t.Fatalf("due boards: %v", ids)
	}
	// Three failures with a one-minute interval: the third pauses the
	// target for an hour, longer than its interval.
	var got *prospector.SourceTarget
	for i := 0; i < prospector.TargetFailureThreshold; i++ {
		var err error
		got, err = s.RecordPoll(ctx, b.ID, prospector.PollOutcome{At: srcT0, Result: prospector.PollFailed,
			Error: "timeout", Interval: time.Minute, Jitter: 0.5})
		if err != nil {
			t.Fatal(err)
		}
	}
	if got.PausedUntil == nil || !got.PausedUntil.Equal(srcT0.Add(time.Hour)) || got.Health(srcT0) != prospector.HealthPaused {
		t.Fatalf("third failure: %+v", got)
	}
	if ids := due(srcT0.Add(30*time.Minute), prospector.TargetBoard); len(ids) != 0 {
		t.Fatalf("a paused target is due: %v", ids)
	}
	if ids := due(srcT0.Add(time.Hour), prospector.TargetBoard); len(ids) != 1 {
		t.Fatalf("due again once the pause is over: %v", ids)
	}
	// A success schedules the next poll one interval later.
	if _, err := s.RecordPoll(ctx, b.ID, prospector.PollOutcome{At: srcT0.Add(time.Hour), Result: prospector.PollOK,
		Interval: 6 * time.Hour, Jitter: 0.5}); err != nil {
		t.Fatal(err)
	}
	if ids := due(srcT0.Add(6*time.Hour), prospector.TargetBoard); len(ids) != 0 {
		t.Fatalf("due before its interval: %v", ids)
	}
	if ids := due(srcT0.Add(7*time.Hour), prospector.TargetBoard); len(ids) != 1 {
		t.Fatalf("not due after its interval: %v", ids)
	}
	// Soonest first, and limited.
	other := &prospector.SourceTarget{CompanyID: co.ID, Kind: prospector.TargetFeed, Ref: "https://acme-robotics.example/feed",
		Origin: prospector.OriginFlag}
	if _, err := s.AddTargets(ctx, []*prospector.SourceTarget{other}, srcT0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	ts, err := s.DueTargets(ctx, prospector.DueFilter{Now: srcT0.Add(8 * time.Hour), Limit: 2})
	if err != nil || len(ts) != 2 || ts[0].ID != other.ID || !strings.HasPrefix(ts[1].Ref, "https://") {
		t.Fatalf("soonest first, limited: %+v %v", ts, err)
	}
}
