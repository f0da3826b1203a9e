package prospector

import (
	"testing"
	"time"
)

func TestAfterPoll(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tg := &SourceTarget{ETag: `"old"`}
	tg.AfterPoll(PollOutcome{At: t0, Result: PollOK, ETag: `"v1"`, Interval: 6 * time.Hour, Jitter: 0.5})
	if tg.ETag != `"v1"` || !tg.NextPollAt.Equal(t0.Add(6*time.Hour)) || tg.Health(t0) != HealthOK {
		t.Fatalf("success: %+v", tg)
	}
	tg.AfterPoll(PollOutcome{At: t0, Result: PollNotModified, Interval: 6 * time.Hour, Jitter: 0})
	if tg.ETag != `"v1"` || !tg.NextPollAt.Equal(t0.Add(6*time.Hour-36*time.Minute)) {
		t.Fatalf("304 without validators must keep them; jitter 0 is -10%%: %+v", tg)
	}
	// Failures: two keep the interval, the third pauses for 1 h (the
	// interval is longer, so it decides), and a 24 h backoff beats a 6 h
	// interval.
	for i := 1; i <= 8; i++ {
		tg.AfterPoll(PollOutcome{At: t0, Result: PollFailed, Error: "status 500", Interval: 6 * time.Hour, Jitter: 0.5})
		want := max(6*time.Hour, TargetBackoff(i))
		if tg.Failures != i || !tg.NextPollAt.Equal(t0.Add(want)) || tg.LastError != "status 500" {
			t.Fatalf("failure %d: next %v, want %v", i, tg.NextPollAt, t0.Add(want))
		}
		if (i >= TargetFailureThreshold) != (tg.PausedUntil != nil) || (tg.PausedUntil != nil && !tg.PausedUntil.Equal(t0.Add(TargetBackoff(i)))) {
			t.Fatalf("failure %d: paused until %v", i, tg.PausedUntil)
		}
	}
	if tg.Health(t0) != HealthPaused || tg.Health(t0.Add(25*time.Hour)) != HealthFailing {
		t.Fatalf("health paused then failing: %s %s", tg.Health(t0), tg.Health(t0.Add(25*time.Hour)))
	}
	retry := t0.Add(30 * time.Hour)
	tg.AfterPoll(PollOutcome{At: t0, Result: PollFailed, RetryAt: retry, Interval: 6 * time.Hour, Jitter: 0.5})
	if !tg.NextPollAt.Equal(retry) {
		t.Fatalf("Retry-After beyond the backoff: next %v", tg.NextPollAt)
	}
	tg.AfterPoll(PollOutcome{At: t0, Result: PollOK, Interval: time.Hour, Jitter: 0.5})
	if tg.Failures != 0 || tg.PausedUntil != nil || tg.LastError != "" {
		t.Fatalf("a success must clear the failures: %+v", tg)
	}
	if (&SourceTarget{}).Health(t0) != HealthNew {
		t.Fatal("a target never polled is new")
	}
}

func TestSourceTargetValidate(t *testing.T) {
	ok := []SourceTarget{
		{CompanyID: 1, Kind: TargetBoard, Board: "greenhouse", Ref: "acme", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetBoard, Board: "lever_eu", Ref: "acme-gmbh", Origin: OriginDiscovered,
			DiscoveredOn: "https://acme.example/careers"},
		{CompanyID: 1, Kind: TargetFeed, Ref: "https://acme.example/feed.xml", Origin: OriginFlag},
		*HomepageTarget(1, "acme.example", OriginRadar),
		{CompanyID: 1, Kind: TargetGDELT, Ref: "Acme Robotics", Origin: OriginWatch},
	}
	for _, tg := range ok {
		if err := tg.Validate(); err != nil {
			t.Errorf("%+v: %v", tg, err)
		}
	}
	bad := []SourceTarget{
		{CompanyID: 1, Kind: "sitemap", Ref: "https://a.example/", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetBoard, Board: "Green House", Ref: "acme", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetBoard, Board: "greenhouse", Ref: "", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetBoard, Board: "greenhouse", Ref: "a/b", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetBoard, Board: "greenhouse", Ref: "a\x00", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetFeed, Ref: "ftp://a.example/feed", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetFeed, Ref: "https://user:pw@a.example/feed", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetFeed, Board: "greenhouse", Ref: "https://a.example/feed", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetCareers, Ref: "https://a.example/jobs", Origin: OriginDiscovered},
		{CompanyID: 1, Kind: TargetCareers, Ref: "https://a.example/jobs", Origin: "guess"},
		{Kind: TargetFeed, Ref: "https://a.example/feed", Origin: OriginFlag},
		{CompanyID: 1, Kind: TargetGDELT, Ref: " ", Origin: OriginWatch},
		{CompanyID: 1, Kind: TargetGDELT, Ref: "Acme\x00", Origin: OriginWatch},
		{CompanyID: 1, Kind: TargetGDELT, Board: "greenhouse", Ref: "Acme", Origin: OriginWatch},
	}
	for _, tg := range bad {
		if err := tg.Validate(); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: err = %v, want validation error", tg, err)
		}
	}
}
