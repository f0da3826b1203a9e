package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// BenchmarkPacedNotModified is a second cycle's HTTP as the client does
// it: three vendor API hosts under their default policy (4 in flight,
// starts 50 ms apart), four workers each, every request conditional and
// answered 304 after 50 ms. The fixture runs in-process, so its CPU is
// counted; the "stdlib" case is the same requests at the same pacing
// with net/http alone, and the difference is the client's own cost.
//
//	go test ./fetch -run X -bench PacedNotModified -benchtime 1x
func BenchmarkPacedNotModified(b *testing.B) {
	s := &site{Server: httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		w.Header().Set("ETag", `"b1"`)
		w.WriteHeader(http.StatusNotModified)
	}))}
	defer s.Close()
	hosts := []string{"boards-api.greenhouse.io", "api.lever.co", "api.ashbyhq.com"}
	resolve := map[string]string{}
	for _, h := range hosts {
		resolve[h] = s.addr()
	}
	const perHost = 150
	run := func(b *testing.B, get func(ctx context.Context, host string, i int) error) {
		for b.Loop() {
			cpu0 := rusageCPU()
			var wg sync.WaitGroup
			for _, h := range hosts {
				jobs := make(chan int)
				for range 4 {
					wg.Go(func() {
						for i := range jobs {
							if err := get(context.Background(), h, i); err != nil {
								b.Error(err)
							}
						}
					})
				}
				go func() {
					for i := range perHost {
						jobs <- i
					}
					close(jobs)
				}()
			}
			wg.Wait()
			b.ReportMetric(float64((rusageCPU()-cpu0).Microseconds())/float64(perHost*len(hosts)), "cpu-us/request")
		}
	}
	b.Run("client", func(b *testing.B) {
		c := newClient(b, Config{Resolve: resolve})
		run(b, func(ctx context.Context, h string, i int) error {
			res, err := c.Fetch(ctx, prospector.FetchRequest{URL: fmt.Sprintf("https://%s/v1/boards/b%d/jobs", h, i), ETag: `"b1"`,
				Accept: "application/json"})
			if err == nil && !res.NotModified {
				err = fmt.Errorf("status %d", res.Status)
			}
			return err
		})
	})
	b.Run("stdlib", func(b *testing.B) {
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
		defer hc.CloseIdleConnections()
		var mu sync.Mutex
		next := map[string]time.Time{}
		run(b, func(ctx context.Context, h string, i int) error {
			mu.Lock()
			at := time.Now()
			if next[h].After(at) {
				at = next[h]
			}
			next[h] = at.Add(APIInterval)
			mu.Unlock()
			time.Sleep(time.Until(at))
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/v1/boards/b%d/jobs", s.URL, i), nil)
			req.Host = h
			req.Header.Set("If-None-Match", `"b1"`)
			res, err := hc.Do(req)
			if err != nil {
				return err
			}
			res.Body.Close()
			return nil
		})
	})
}

func rusageCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
