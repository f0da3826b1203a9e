package boardtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

func get(t *testing.T, url string, req prospector.FetchRequest) *prospector.FetchResponse {
	t.Helper()
	req.URL = url
	resp, err := (&Fetcher{}).Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestEveryFixtureLoads(t *testing.T) {
	s := NewServer()
	defer s.Close()
	for _, e := range []string{"greenhouse", "lever", "lever-eu", "ashby", "workable", "smartrecruiters", "recruitee",
		"personio", "personio-com"} {
		if err := s.AddFixture(e, FixtureToken(e)); err != nil {
			t.Fatal(err)
		}
		want := 3
		if e == "ashby" {
			want = 4 // one unlisted
		}
		if ids := s.PostingIDs(e, FixtureToken(e)); len(ids) != want {
			t.Errorf("%s: ids %v", e, ids)
		}
	}
	var board struct{ Name string }
	resp := get(t, s.URL+"/greenhouse/v1/boards/quillfeather", prospector.FetchRequest{})
	if err := json.Unmarshal(resp.Body, &board); err != nil || board.Name != "Quillfeather Systems, Inc." {
		t.Errorf("board endpoint: %s (%v)", resp.Body, err)
	}
}

func TestLastModifiedAlone(t *testing.T) {
	s := NewServer()
	defer s.Close()
	if err := s.AddFixture("lever", "bluefin"); err != nil {
		t.Fatal(err)
	}
	u := s.URL + "/lever/v0/postings/bluefin"
	first := get(t, u, prospector.FetchRequest{})
	if first.LastModified == "" || first.ETag == "" {
		t.Fatalf("no validators: %v", first.Header)
	}
	if again := get(t, u, prospector.FetchRequest{LastModified: first.LastModified}); !again.NotModified {
		t.Fatalf("If-Modified-Since alone: status %d", again.Status)
	}
	s.RemovePosting("lever", "bluefin", s.PostingIDs("lever", "bluefin")[0])
	after := get(t, u, prospector.FetchRequest{LastModified: first.LastModified})
	if after.NotModified || after.LastModified == first.LastModified {
		t.Fatalf("a change within the same second must move Last-Modified: %d %s", after.Status, after.LastModified)
	}
	if st := s.Stats("lever"); st.Requests != 3 || st.NotModified != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestFaultsCountDown(t *testing.T) {
	s := NewServer()
	defer s.Close()
	if err := s.AddFixture("ashby", "lumenpath"); err != nil {
		t.Fatal(err)
	}
	u := s.URL + "/ashby/posting-api/job-board/lumenpath"
	s.RateLimit("ashby", "", 1500*time.Millisecond, 2)
	for range 2 {
		if r := get(t, u, prospector.FetchRequest{}); r.Status != 429 || r.Header.Get("Retry-After") != "2" {
			t.Fatalf("status %d, Retry-After %q", r.Status, r.Header.Get("Retry-After"))
		}
	}
	if r := get(t, u, prospector.FetchRequest{}); r.Status != 200 {
		t.Fatalf("third request: %d", r.Status)
	}
	s.Fail("ashby", "lumenpath", 500, 0)
	for range 3 {
		if r := get(t, u, prospector.FetchRequest{}); r.Status != 500 {
			t.Fatalf("status %d", r.Status)
		}
	}
	s.ClearFaults()
	if r := get(t, u, prospector.FetchRequest{}); r.Status != 200 {
		t.Fatalf("after ClearFaults: %d", r.Status)
	}
	if st := s.Stats("ashby"); st.Failed != 5 || st.Requests != 7 {
		t.Errorf("stats %+v", st)
	}
}

func TestLatency(t *testing.T) {
	s := NewServer()
	defer s.Close()
	if err := s.AddFixture("workable", "tidewater"); err != nil {
		t.Fatal(err)
	}
	s.SetLatency(time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := (&Fetcher{}).Fetch(ctx, prospector.FetchRequest{URL: s.URL + "/workable/api/v1/widget/accounts/tidewater"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the answer held back past the deadline", err)
	}
}

func TestUnknownBoardsAnswerLikeTheirVendor(t *testing.T) {
	s := NewServer()
	defer s.Close()
	for path, status := range map[string]int{
		"/greenhouse/v1/boards/nope/jobs":             404,
		"/lever-eu/v0/postings/nope":                  404,
		"/ashby/posting-api/job-board/nope":           404,
		"/workable/api/v1/widget/accounts/nope":       404,
		"/smartrecruiters/v1/companies/nope/postings": 200,
		"/recruitee/nope/api/offers/":                 404,
		"/personio/nope/xml":                          302,
		"/monster/anything":                           404,
		"/greenhouse/v2/boards/nope/jobs":             404,
	} {
		r := get(t, s.URL+path, prospector.FetchRequest{NoRedirects: true})
		if r.Status != status {
			t.Errorf("%s: %d, want %d", path, r.Status, status)
		}
		if status == 302 && !strings.HasSuffix(r.Header.Get("Location"), emptyPagePath) {
			t.Errorf("%s redirects to %q", path, r.Header.Get("Location"))
		}
	}
}

func TestServeAtRoot(t *testing.T) {
	s := NewServer()
	defer s.Close()
	if err := s.ServeAtRoot("recruitee"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddFixture("recruitee", "kestrel"); err != nil {
		t.Fatal(err)
	}
	if r := get(t, s.URL+"/kestrel/api/offers/", prospector.FetchRequest{}); r.Status != http.StatusOK ||
		!strings.Contains(string(r.Body), "Kestrel Health") {
		t.Fatalf("status %d", r.Status)
	}
	if err := s.ServeAtRoot("monster"); err == nil {
		t.Error("ServeAtRoot accepted an unknown endpoint")
	}
}

func TestGenerateJobsIsDeterministic(t *testing.T) {
	a, b := GenerateJobs(50, 9), GenerateJobs(50, 9)
	for i := range a {
		if a[i] != b[i] || a[i].Title == "" || a[i].Location == "" {
			t.Fatalf("job %d: %+v vs %+v", i, a[i], b[i])
		}
	}
	if c := GenerateJobs(50, 10); c[0] == a[0] && c[1] == a[1] && c[2] == a[2] {
		t.Error("another seed gave the same jobs")
	}
}
