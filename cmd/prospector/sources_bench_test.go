package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/boards/boardtest"
)

// The sources benchmark (docs/benchmarks.md): a cycle over 10,000
// watched companies with one board each, spread over Greenhouse, Lever
// and Ashby fixture servers on loopback with 50 ms of latency, at the
// default politeness (each fixture host paced as its vendor's API).
// Targets: wall time at most 5 minutes, at most 200 MB of RSS above the
// process's baseline, and a second cycle over the unchanged boards at
// most 10% of the first's CPU. The fixtures run in a child process, so
// their memory and CPU are not counted. Opt-in, minutes long:
//
//	PROSPECTOR_BENCH_SOURCES=1 go test ./cmd/prospector -run X -bench SourcesCycle -benchtime 1x -timeout 30m
//
// PROSPECTOR_BENCH_SOURCES_BOARDS, _POSTINGS and _DESCRIPTION (bytes of
// each posting's text) change the size.
func BenchmarkSourcesCycle(b *testing.B) {
	if os.Getenv("PROSPECTOR_BENCH_SOURCES") != "1" {
		b.Skip("set PROSPECTOR_BENCH_SOURCES=1 to run the sources benchmark")
	}
	boards := envInt("PROSPECTOR_BENCH_SOURCES_BOARDS", 10000)
	postings := envInt("PROSPECTOR_BENCH_SOURCES_POSTINGS", 10)
	bases := startBenchFixtures(b, boards, postings)
	vars := map[string]string{"PROSPECTOR_DATA": b.TempDir()}
	watchBenchBoards(b, vars, boards)
	args := []string{"sources", "run", "--once", "--source", "boards", "--allow-private-sources",
		"--contact-email", "bench@example.test"}
	for name, u := range bases {
		args = append(args, "--source-base-url", name+"="+u)
	}
	for i := 0; i < b.N; i++ {
		first := measureCycle(b, vars, args, "")
		second := measureCycle(b, vars, args, os.Getenv("PROSPECTOR_BENCH_SOURCES_PROFILE"))
		b.ReportMetric(first.wall.Seconds(), "first-wall-s")
		b.ReportMetric(first.cpu.Seconds(), "first-cpu-s")
		b.ReportMetric(float64(first.rssAbove)/(1<<20), "first-rss-above-MB")
		b.ReportMetric(second.wall.Seconds(), "second-wall-s")
		b.ReportMetric(second.cpu.Seconds(), "second-cpu-s")
		b.ReportMetric(float64(second.rssAbove)/(1<<20), "second-rss-above-MB")
		b.ReportMetric(100*second.cpu.Seconds()/first.cpu.Seconds(), "second/first-cpu-%")
		b.Logf("%d boards of %d postings: baseline RSS %.0f MB; first cycle %s wall, %s CPU, peak RSS %.0f MB above baseline (Go heap peak %.0f MB); second %s wall, %s CPU (%.1f%%), %.0f MB above (heap %.0f MB)",
			boards, postings, float64(first.baseline)/(1<<20), first.wall.Round(time.Second), first.cpu.Round(10*time.Millisecond),
			float64(first.rssAbove)/(1<<20), float64(first.heapPeak)/(1<<20), second.wall.Round(time.Second),
			second.cpu.Round(10*time.Millisecond), 100*second.cpu.Seconds()/first.cpu.Seconds(),
			float64(second.rssAbove)/(1<<20), float64(second.heapPeak)/(1<<20))
		b.Logf("system CPU: first cycle %s, second %s", first.sys.Round(10*time.Millisecond), second.sys.Round(10*time.Millisecond))
		b.Logf("syscalls and context switches: first cycle %v, second %v", first.io, second.io)
		b.Logf("first cycle:\n%s", first.summary)
		b.Logf("second cycle:\n%s", second.summary)
		if first.wall > 5*time.Minute || first.rssAbove > 200<<20 || second.cpu > first.cpu/10 {
			b.Errorf("over target: wall %s (5m), RSS %.0f MB above baseline (200), second cycle CPU %.1f%% of the first (10%%)",
				first.wall, float64(first.rssAbove)/(1<<20), 100*second.cpu.Seconds()/first.cpu.Seconds())
		}
	}
}

// BenchmarkSourcesHTTPFloor is the floor under the second cycle's CPU:
// the standard library's HTTP client alone sends the second cycle's
// conditional requests (one a board, each answered 304) at the cycle's
// pacing (per vendor, 4 in flight and starts 50 ms apart) to the same
// fixtures, with nothing parsed or stored. Same switch and sizes as
// BenchmarkSourcesCycle:
//
//	PROSPECTOR_BENCH_SOURCES=1 go test ./cmd/prospector -run X -bench SourcesHTTPFloor -benchtime 1x
func BenchmarkSourcesHTTPFloor(b *testing.B) {
	if os.Getenv("PROSPECTOR_BENCH_SOURCES") != "1" {
		b.Skip("set PROSPECTOR_BENCH_SOURCES=1 to run the sources benchmark")
	}
	boards := envInt("PROSPECTOR_BENCH_SOURCES_BOARDS", 10000)
	bases := startBenchFixtures(b, boards, envInt("PROSPECTOR_BENCH_SOURCES_POSTINGS", 10))
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer hc.CloseIdleConnections()
	// The paths the adapters request (package boards).
	paths := map[string]string{"greenhouse": "/v1/boards/%s/jobs?content=true", "lever": "/v0/postings/%s?mode=json",
		"ashby": "/posting-api/job-board/%s"}
	etags := make([]string, boards)
	pass := func(conditional bool) {
		var wg sync.WaitGroup
		for v, name := range benchVendors {
			wg.Go(func() {
				slots := make(chan struct{}, 4)
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
				var inflight sync.WaitGroup
				for i := v; i < boards; i += 3 {
					<-tick.C
					slots <- struct{}{}
					inflight.Go(func() {
						defer func() { <-slots }()
						req, _ := http.NewRequest(http.MethodGet, bases[name]+fmt.Sprintf(paths[name], fmt.Sprintf("bench%05d", i)), nil)
						if conditional {
							req.Header.Set("If-None-Match", etags[i])
						}
						res, err := hc.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, res.Body)
						res.Body.Close()
						switch {
						case !conditional:
							etags[i] = res.Header.Get("ETag")
						case res.StatusCode != http.StatusNotModified:
							b.Errorf("board %d: HTTP %d, want 304", i, res.StatusCode)
						}
					})
				}
				inflight.Wait()
			})
		}
		wg.Wait()
	}
	for range b.N {
		pass(false)
		cpu0, sys0, start := cpuTime(), sysTime(), time.Now()
		pass(true)
		cpu, sys := cpuTime()-cpu0, sysTime()-sys0
		b.ReportMetric(float64(cpu.Microseconds())/float64(boards), "cpu-us/request")
		b.Logf("%d conditional requests: %s wall, %s CPU (kernel %s), %.0f us a request",
			boards, time.Since(start).Round(time.Second), cpu.Round(10*time.Millisecond), sys.Round(10*time.Millisecond),
			float64(cpu.Microseconds())/float64(boards))
	}
}

type cycleCost struct {
	wall, cpu, sys     time.Duration // sys: the part of cpu spent in the kernel
	baseline, rssAbove int64
	heapPeak           uint64 // Go heap in use, at its peak
	summary            string
	io                 map[string]int64 // /proc/self/io and context switches: the cycle's share
}

// measureCycle runs sources run --once in-process and measures its wall
// time, CPU time and peak resident memory above the RSS before it.
// With profile set, it writes the cycle's CPU profile there.
func measureCycle(b *testing.B, vars map[string]string, args []string, profile string) cycleCost {
	b.Helper()
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	runtime.GC()
	debug.FreeOSMemory()
	var c cycleCost
	c.baseline = rss()
	// The kernel keeps the peak RSS (VmHWM) once it is reset here, so the
	// cycle is not sampled for it: a 20 Hz sampler cost about 5 ms of CPU
	// a second on this machine (timer wake-ups, /proc reads, the stop of
	// ReadMemStats), 80 us a board of a second cycle that is not the
	// cycle's own. The Go heap is sampled once a second (a coarser peak).
	hwm := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	peak := c.baseline
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !hwm {
					peak = max(peak, rss())
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				c.heapPeak = max(c.heapPeak, ms.HeapInuse)
			}
		}
	}()
	var out bytes.Buffer
	io0 := procCounters()
	cpu0, sys0, start := cpuTime(), sysTime(), time.Now()
	err := run(context.Background(), args, func(k string) string { return vars[k] }, &out, io.Discard)
	c.wall, c.cpu, c.sys = time.Since(start), cpuTime()-cpu0, sysTime()-sys0
	c.io = procCounters()
	for k, v := range io0 {
		c.io[k] -= v
	}
	close(done)
	wg.Wait()
	if err != nil {
		b.Fatalf("sources run: %v", err)
	}
	if hwm {
		peak = max(peak, peakRSSBytes())
	}
	c.rssAbove, c.summary = max(peak, rss())-c.baseline, out.String()
	return c
}

// watchBenchBoards watches n companies with one board each, a third on
// each vendor, through the store (watch add would take as long and say
// nothing more).
func watchBenchBoards(b *testing.B, vars map[string]string, n int) {
	b.Helper()
	st, err := (storeOptions{}).open(context.Background(), &env{getenv: func(k string) string { return vars[k] }})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var reqs []prospector.WatchRequest
	for i := range n {
		reqs = append(reqs, prospector.WatchRequest{Domain: fmt.Sprintf("bench%05d.test", i), AddedBy: "bench",
			Boards: []prospector.BoardRef{{Kind: benchVendors[i%3], Token: fmt.Sprintf("bench%05d", i)}}})
		if len(reqs) == 500 || i == n-1 {
			if _, err := st.AddWatches(context.Background(), reqs, time.Now()); err != nil {
				b.Fatal(err)
			}
			reqs = reqs[:0]
		}
	}
}

var benchVendors = []string{"greenhouse", "lever", "ashby"}

// benchDescriptionSize is the length of the text of each generated
// posting: about 650 words, the length of a typical posting's
// description, which the three vendors' APIs return with every posting
// (Greenhouse's with content=true, as the adapter asks). Before, the
// fixtures carried a one-line stub (PROSPECTOR_BENCH_SOURCES_DESCRIPTION=0).
const benchDescriptionSize = 4000

// startBenchFixtures starts the fixture process and returns the base
// URL of each vendor's server.
func startBenchFixtures(b *testing.B, boards, postings int) map[string]string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchFixtureProcess$", "-test.timeout=0")
	cmd.Env = append(os.Environ(), "PROSPECTOR_BENCH_FIXTURE=1", fmt.Sprintf("PROSPECTOR_BENCH_FIXTURE_SIZE=%d/%d/%d", boards, postings,
		envInt("PROSPECTOR_BENCH_SOURCES_DESCRIPTION", benchDescriptionSize)))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "FIXTURES "); ok {
			out := map[string]string{}
			for _, f := range strings.Fields(line) {
				name, u, _ := strings.Cut(f, "=")
				out[name] = u
			}
			go io.Copy(io.Discard, stdout)
			return out
		}
	}
	b.Fatalf("the fixture process did not start: %v", sc.Err())
	return nil
}

// TestBenchFixtureProcess is the benchmark's fixture process, not a
// test: it serves the generated boards until its stdin closes.
func TestBenchFixtureProcess(t *testing.T) {
	if os.Getenv("PROSPECTOR_BENCH_FIXTURE") != "1" {
		t.Skip("the sources benchmark's fixture process")
	}
	var boards, postings, desc int
	fmt.Sscanf(os.Getenv("PROSPECTOR_BENCH_FIXTURE_SIZE"), "%d/%d/%d", &boards, &postings, &desc)
	var line []string
	for v, name := range benchVendors {
		s := boardtest.NewServer()
		defer s.Close()
		s.SetDescriptionSize(desc)
		for i := v; i < boards; i += 3 {
			token := fmt.Sprintf("bench%05d", i)
			if err := s.AddGenerated(name, token, token, postings, uint64(i)); err != nil {
				t.Fatal(err)
			}
		}
		s.SetLatency(50 * time.Millisecond)
		line = append(line, name+"="+s.URL+"/"+name)
	}
	fmt.Println("FIXTURES " + strings.Join(line, " "))
	io.Copy(io.Discard, os.Stdin)
}

// procCounters reads this process's read and write system calls, bytes
// written to storage, and context switches (where the kernel's share
// of a cycle's CPU goes); empty where /proc does not say.
func procCounters() map[string]int64 {
	out := map[string]int64{}
	for _, file := range []string{"/proc/self/io", "/proc/self/status"} {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			switch k {
			case "syscr", "syscw", "write_bytes", "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches":
			default:
				continue
			}
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); ok && err == nil {
				out[strings.TrimSuffix(k, "_ctxt_switches")] = n
			}
		}
	}
	return out
}

// rss is this process's resident set size in bytes.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// peakRSSBytes is this process's peak resident set size (VmHWM) in bytes,
// since the last reset through /proc/self/clear_refs; 0 where /proc does
// not say.
func peakRSSBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func sysTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Stime.Nano())
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
