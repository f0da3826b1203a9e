package fetch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// benchBody is about the size of a small board's job list.
var benchBody = bytes.Repeat([]byte(`{"id":4012345,"title":"Account Executive","location":{"name":"Remote"}},`), 60)

// benchSite answers every request with benchBody and records nothing.
func benchSite(b *testing.B) *site {
	s := &site{Server: httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"b1"`)
		w.Write(benchBody)
	}))}
	b.Cleanup(s.Close)
	return s
}

// BenchmarkFetch is the client's cost per request on loopback, pacing
// off (an unlimited policy for the fixture's host): guard, pacer, budget,
// headers, body read. Compare with BenchmarkRawHTTP.
func BenchmarkFetch(b *testing.B) {
	s := benchSite(b)
	c := newClient(b, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 64}}})
	req := prospector.FetchRequest{URL: s.URL + "/v1/boards/acme/jobs", Accept: "application/json"}
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	b.ResetTimer()
	for b.Loop() {
		res, err := c.Fetch(context.Background(), req)
		if err != nil || len(res.Body) != len(benchBody) {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchResolved goes through a --resolve override, as the
// fixture benchmarks of the source cycle do.
func BenchmarkFetchResolved(b *testing.B) {
	s := benchSite(b)
	c := newClient(b, Config{Resolve: map[string]string{"boards-api.greenhouse.io": s.addr()},
		Hosts: map[string]HostPolicy{"boards-api.greenhouse.io": {Concurrency: 64}}})
	req := prospector.FetchRequest{URL: "https://boards-api.greenhouse.io/v1/boards/acme/jobs", Accept: "application/json"}
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Fetch(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFetchParallel(b *testing.B) {
	s := benchSite(b)
	c := newClient(b, Config{AllowPrivate: true, Hosts: map[string]HostPolicy{"127.0.0.1:" + s.port(): {Concurrency: 64}}})
	req := prospector.FetchRequest{URL: s.URL + "/v1/boards/acme/jobs"}
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Fetch(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkRawHTTP is the standard library alone, for comparison.
func BenchmarkRawHTTP(b *testing.B) {
	s := benchSite(b)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer hc.CloseIdleConnections()
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	b.ResetTimer()
	for b.Loop() {
		res, err := hc.Get(s.URL + "/v1/boards/acme/jobs")
		if err != nil {
			b.Fatal(err)
		}
		io.ReadAll(res.Body)
		res.Body.Close()
	}
}

// BenchmarkVendorPacing runs 100 board fetches on each of three vendor
// API hosts at once, under the default policies, against a loopback
// fixture that answers after 50 ms (the benchmark setting), and
// reports the rate each host gets. Run with -benchtime 1x: one iteration
// takes about 5 s. At 20 req/s a host, 3,334 boards take under 3 minutes.
func BenchmarkVendorPacing(b *testing.B) {
	s := &site{Server: httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		w.Write(benchBody)
	}))}
	defer s.Close()
	hosts := []string{"boards-api.greenhouse.io", "api.lever.co", "api.ashbyhq.com"}
	resolve := map[string]string{}
	for _, h := range hosts {
		resolve[h] = s.addr()
	}
	const perHost = 100
	for b.Loop() {
		c := newClient(b, Config{Resolve: resolve})
		start := time.Now()
		var wg sync.WaitGroup
		for _, h := range hosts {
			for i := range perHost {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := c.Fetch(context.Background(), prospector.FetchRequest{URL: fmt.Sprintf("https://%s/boards/b%d", h, i)}); err != nil {
						b.Error(err)
					}
				}()
			}
		}
		wg.Wait()
		b.ReportMetric(perHost/time.Since(start).Seconds(), "req/s/host")
	}
}
