package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// benchPostings is the listing of one board: n postings whose ids start
// at from.
func benchPostings(from, n int) []prospector.JobPosting {
	ps := make([]prospector.JobPosting, n)
	for i := range ps {
		id := from + i
		ps[i] = prospector.JobPosting{ExternalID: fmt.Sprint(4000000 + id), Title: fmt.Sprintf("Senior Software Engineer %d", id),
			Department: "Engineering", Location: "Berlin, Germany", CountryCode: "DE", Remote: id%3 == 0,
			URL: fmt.Sprintf("https://boards.example/bench/jobs/%d", 4000000+id), SourceHash: fmt.Sprintf("%x", id*7919)}
	}
	return ps
}

// benchBoards stores n watched companies with one greenhouse board each
// and returns the board targets.
func benchBoards(b *testing.B, s prospector.Store, prefix string, n int) []*prospector.SourceTarget {
	b.Helper()
	ctx := context.Background()
	ts := make([]*prospector.SourceTarget, 0, n)
	for start := 0; start < n; start += 1000 {
		var reqs []prospector.WatchRequest
		for i := start; i < min(start+1000, n); i++ {
			reqs = append(reqs, prospector.WatchRequest{Domain: fmt.Sprintf("%s-%d.example", prefix, i),
				Boards: []prospector.BoardRef{{Kind: "greenhouse", Token: fmt.Sprintf("%s%d", prefix, i)}}})
		}
		added, err := s.AddWatches(ctx, reqs, srcT0)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range added {
			bs, err := s.ListTargets(ctx, prospector.TargetFilter{CompanyID: a.CompanyID, Kind: prospector.TargetBoard})
			if err != nil || len(bs) != 1 {
				b.Fatalf("board of %s: %d %v", a.Domain, len(bs), err)
			}
			ts = append(ts, bs[0])
		}
	}
	return ts
}

func benchApply(b *testing.B, s prospector.Store, p *prospector.BoardPoll) prospector.BoardPollResult {
	r, err := s.ApplyBoardPoll(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchBoardPoll measures ApplyBoardPoll on a 50-posting board: the
// first poll of a board (50 openings and 50 signals written), a re-poll
// listing the same postings, a 304, and a poll that edits two postings,
// drops one and adds one.
func BenchBoardPoll(b *testing.B, s prospector.Store) {
	const n = 50
	outcome := func(i int, result string) prospector.PollOutcome {
		return prospector.PollOutcome{At: srcT0.Add(time.Duration(i+1) * time.Minute), Result: result,
			Interval: 6 * time.Hour, Jitter: 0.5}
	}
	b.Run("first", func(b *testing.B) {
		ts := benchBoards(b, s, fmt.Sprintf("first%d", time.Now().UnixNano()), b.N)
		ps := benchPostings(0, n)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if r := benchApply(b, s, &prospector.BoardPoll{TargetID: ts[i].ID, Postings: ps, Outcome: outcome(0, prospector.PollOK)}); r.New != n {
				b.Fatalf("first poll: %+v", r)
			}
		}
	})
	steady := func(name string, next func(i int) *prospector.BoardPoll) {
		b.Run(name, func(b *testing.B) {
			ts := benchBoards(b, s, fmt.Sprintf("%s%d", name, time.Now().UnixNano()), 1)
			benchApply(b, s, &prospector.BoardPoll{TargetID: ts[0].ID, Postings: benchPostings(0, n), Outcome: outcome(0, prospector.PollOK)})
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				p := next(i + 1)
				p.TargetID = ts[0].ID
				benchApply(b, s, p)
			}
		})
	}
	same := benchPostings(0, n)
	steady("unchanged", func(i int) *prospector.BoardPoll {
		return &prospector.BoardPoll{Postings: same, Outcome: outcome(i, prospector.PollOK)}
	})
	steady("notmodified", func(i int) *prospector.BoardPoll {
		return &prospector.BoardPoll{Outcome: outcome(i, prospector.PollNotModified)}
	})
	steady("churn", func(i int) *prospector.BoardPoll {
		ps := benchPostings(i, n) // one dropped, one added
		ps[10].Title += fmt.Sprintf(" (edit %d)", i)
		ps[20].Location = fmt.Sprintf("Remote %d", i)
		return &prospector.BoardPoll{Postings: ps, Outcome: outcome(i, prospector.PollOK)}
	})
}

// BenchBoardCycle measures two poll cycles over boards companies with
// perBoard postings each, applied by workers goroutines as a poller
// would: the first writes every opening and signal, the second lists the
// same postings again. It reports each cycle's wall time and the CPU
// time the process spent in it (all of it, for SQLite, which runs in the
// process; the client's share, for PostgreSQL).
func BenchBoardCycle(b *testing.B, s prospector.Store, boards, perBoard, workers int) {
	for range b.N {
		b.StopTimer()
		ts := benchBoards(b, s, fmt.Sprintf("cycle%d", time.Now().UnixNano()), boards)
		b.StartTimer()
		for cycle, name := range []string{"first", "second"} {
			start, cpu := time.Now(), cpuSeconds()
			var next atomic.Int64
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= len(ts) {
							return
						}
						p := &prospector.BoardPoll{TargetID: ts[i].ID, Postings: benchPostings(i*perBoard, perBoard),
							Outcome: prospector.PollOutcome{At: srcT0.Add(time.Duration(cycle+1) * 6 * time.Hour),
								Result: prospector.PollOK, Interval: 6 * time.Hour, Jitter: 0.5}}
						if _, err := s.ApplyBoardPoll(context.Background(), p); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(time.Since(start).Seconds(), name+"-cycle-s")
			b.ReportMetric(cpuSeconds()-cpu, name+"-cpu-s")
		}
	}
}

// BenchBoardBatch measures ApplyBoardPolls on a batch of 100 polls of
// unchanged boards of 10 openings each, as a poll cycle stores them:
// 304s ("notmodified") and answers listing the same postings
// ("unchanged"). ns/op is per batch; poll-us and poll-cpu-us (the
// process's CPU, SQLite's included) are per poll.
func BenchBoardBatch(b *testing.B, s prospector.Store) {
	const boards, perBoard, batch = 1000, 10, 100
	for _, result := range []string{prospector.PollNotModified, prospector.PollOK} {
		name := map[string]string{prospector.PollNotModified: "notmodified", prospector.PollOK: "unchanged"}[result]
		b.Run(name, func(b *testing.B) {
			ts := benchBoards(b, s, fmt.Sprintf("batch%s%d", name, time.Now().UnixNano()), boards)
			listing := make([][]prospector.JobPosting, boards)
			for i, t := range ts {
				listing[i] = benchPostings(i*perBoard, perBoard)
				benchApply(b, s, &prospector.BoardPoll{TargetID: t.ID, Postings: listing[i],
					Outcome: prospector.PollOutcome{At: srcT0, Result: prospector.PollOK, Interval: 6 * time.Hour, Jitter: 0.5}})
			}
			b.ReportAllocs()
			b.ResetTimer()
			n, cpu := 0, cpuSeconds()
			for k := range b.N {
				ps := make([]*prospector.BoardPoll, batch)
				for j := range ps {
					i := (k*batch + j) % boards
					ps[j] = &prospector.BoardPoll{TargetID: ts[i].ID, Outcome: prospector.PollOutcome{
						At: srcT0.Add(time.Duration(k+1) * time.Minute), Result: result, Interval: 6 * time.Hour, Jitter: 0.5}}
					if result == prospector.PollOK {
						ps[j].Postings = listing[i]
					}
				}
				rs, err := s.ApplyBoardPolls(context.Background(), ps)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rs {
					if r.Seen != perBoard || r.New != 0 {
						b.Fatalf("unchanged board: %+v", r)
					}
				}
				n += batch
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n), "poll-us")
			b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(n), "poll-cpu-us")
		})
	}
}
