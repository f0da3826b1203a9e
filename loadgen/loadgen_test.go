package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunCountsEveryRequestAndStatus(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := served.Add(1)
		if r.Header.Get("X-Test") != "yes" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if n%2 == 0 {
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	res, err := Run(context.Background(), Config{
		Requests:    []Request{{Method: "GET", URL: srv.URL, Header: http.Header{"X-Test": {"yes"}}}},
		Concurrency: 4, Duration: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.Errors != 0 || int64(res.Requests) > served.Load() {
		t.Fatalf("result %+v, served %d", res, served.Load())
	}
	if res.Non2xx == 0 || res.Non2xx == res.Requests {
		t.Fatalf("every other answer is 429: non2xx %d of %d", res.Non2xx, res.Requests)
	}
	if res.P50 > res.P99 || res.P99 > res.Max || res.Throughput <= 0 {
		t.Fatalf("inconsistent percentiles %+v", res)
	}
	if _, err := Run(context.Background(), Config{Concurrency: 1, Duration: time.Second}); err == nil {
		t.Fatal("no requests accepted")
	}
}
