package prospector

import (
	"strings"
	"testing"
	"time"
)

func testStory(signal string) *NewsStory {
	amount, ft := "$25M", "Series B"
	published := time.Date(2026, 5, 5, 9, 30, 0, 0, time.UTC)
	return &NewsStory{
		Event: &NewsEvent{ExternalID: "news-0123456789abcdef01234567", CompanyDomain: "WWW.Acme-Robotics.example",
			EventType: "news_event", Categories: []string{"receives_financing"}, FoundAt: published.Add(time.Hour),
			Attributes: NewsAttributes{Amount: &amount, FinancingType: &ft}},
		URL: "https://news.example/acme-raises", Source: "https://news.example/feed.xml",
		Headline: "Acme Robotics raises $25M Series B", Published: &published, SignalType: signal,
	}
}

func TestNewsStorySignal(t *testing.T) {
	st := testStory("funding_announcement")
	st.Normalize()
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	if st.Event.CompanyDomain != "acme-robotics.example" {
		t.Fatalf("domain %q", st.Event.CompanyDomain)
	}
	st.Event.CompanyID = 5
	s := st.Signal()
	if s.ExternalID != st.Event.ExternalID || s.Type != "funding_announcement" || *s.CompanyID != 5 ||
		s.Title != "Acme Robotics raises $25M Series B" || s.Detail != "Funding: receives_financing; $25M; Series B" ||
		s.SourceURL != st.URL || !s.DetectedAt.Equal(*st.Published) {
		t.Fatalf("signal %+v", s)
	}
	st.SignalType = "company_hiring"
	if d := st.Signal().Detail; !strings.HasPrefix(d, "Hiring: ") {
		t.Fatalf("a hiring signal's detail %q does not start as a radar's default keyword expects", d)
	}
	st.SignalType, st.Published = "", nil
	if st.Signal() != nil || !st.When().Equal(st.Event.FoundAt) {
		t.Fatal("no signal type must give no signal; no date means the found time")
	}
}

func TestNewsStoryValidate(t *testing.T) {
	for name, c := range map[string]struct {
		edit  func(*NewsStory)
		field string
	}{
		"no id":       {func(s *NewsStory) { s.Event.ExternalID = "" }, "event.id"},
		"no company":  {func(s *NewsStory) { s.Event.CompanyDomain = "" }, "event.company_domain"},
		"no found_at": {func(s *NewsStory) { s.Event.FoundAt = time.Time{} }, "event.found_at"},
		"url":         {func(s *NewsStory) { s.URL = "javascript:alert(1)" }, "url"},
		"signal type": {func(s *NewsStory) { s.SignalType = "keyword_post" }, "signal_type"},
		"NUL":         {func(s *NewsStory) { s.Headline = "Acme\x00" }, "headline"},
		"NUL escaped": {func(s *NewsStory) { v := `x\u0000`; s.Event.Attributes.Contact = &v }, "event.attributes.contact"},
		"bad UTF-8":   {func(s *NewsStory) { s.Event.Attributes.JobTitleTags = []string{"\xff"} }, "job_title_tags"},
	} {
		st := testStory("")
		st.Normalize()
		c.edit(st)
		err := st.Validate()
		if ErrorCode(err) != EINVALID || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: err = %v, want a validation error naming %s", name, err, c.field)
		}
	}
}
