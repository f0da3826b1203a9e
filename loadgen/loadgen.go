// Package loadgen drives an HTTP endpoint with a fixed number of
// concurrent workers over keep-alive connections and reports latency
// percentiles and throughput. It is the project's load benchmark engine;
// it never targets anything but the addresses it is given (loopback in
// every shipped benchmark), and stops by itself after Duration.
package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Request is one request a worker sends; a Config may rotate several.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// Config says what to send, how hard and for how long.
type Config struct {
	Requests    []Request
	Concurrency int
	Duration    time.Duration
	// Warmup runs before measuring, to open connections and fill caches.
	Warmup time.Duration
}

// Result summarises one run.
type Result struct {
	Requests   int
	Errors     int // transport errors
	Non2xx     int
	Elapsed    time.Duration
	P50, P99   time.Duration
	Max        time.Duration
	Throughput float64 // requests per second
}

func (r Result) String() string {
	return fmt.Sprintf("%8.0f req/s  p50 %7.3f ms  p99 %7.3f ms  max %7.3f ms  (%d requests, %d errors, %d non-2xx)",
		r.Throughput, ms(r.P50), ms(r.P99), ms(r.Max), r.Requests, r.Errors, r.Non2xx)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run drives the requests until cfg.Duration has passed or ctx ends.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Concurrency < 1 || len(cfg.Requests) == 0 || cfg.Duration <= 0 {
		return Result{}, fmt.Errorf("loadgen: need concurrency >= 1, a request and a duration")
	}
	tr := &http.Transport{MaxIdleConns: cfg.Concurrency * 2, MaxIdleConnsPerHost: cfg.Concurrency * 2, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	if cfg.Warmup > 0 {
		if _, err := drive(ctx, client, cfg, cfg.Warmup); err != nil {
			return Result{}, err
		}
	}
	return drive(ctx, client, cfg, cfg.Duration)
}

type workerStats struct {
	lat            []time.Duration
	errors, non2xx int
}

func drive(ctx context.Context, client *http.Client, cfg Config, d time.Duration) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	stats := make([]workerStats, cfg.Concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			st := &stats[w]
			st.lat = make([]time.Duration, 0, 1<<14)
			for i := w; ctx.Err() == nil; i++ {
				rq := cfg.Requests[i%len(cfg.Requests)]
				t0 := time.Now()
				status, err := send(ctx, client, rq)
				if ctx.Err() != nil {
					return
				}
				st.lat = append(st.lat, time.Since(t0))
				switch {
				case err != nil:
					st.errors++
				case status < 200 || status > 299:
					st.non2xx++
				}
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	res := Result{Elapsed: elapsed}
	for _, st := range stats {
		all = append(all, st.lat...)
		res.Errors += st.errors
		res.Non2xx += st.non2xx
	}
	res.Requests = len(all)
	if len(all) == 0 {
		return res, fmt.Errorf("loadgen: no request completed")
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	res.P50, res.P99, res.Max = pct(all, 0.50), pct(all, 0.99), all[len(all)-1]
	res.Throughput = float64(len(all)) / elapsed.Seconds()
	return res, nil
}

func pct(sorted []time.Duration, p float64) time.Duration {
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

func send(ctx context.Context, client *http.Client, rq Request) (int, error) {
	var body io.Reader
	if rq.Body != nil {
		body = bytes.NewReader(rq.Body)
	}
	req, err := http.NewRequestWithContext(ctx, rq.Method, rq.URL, body)
	if err != nil {
		return 0, err
	}
	for k, v := range rq.Header {
		req.Header[k] = v
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}
