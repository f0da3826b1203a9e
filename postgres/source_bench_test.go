package postgres_test

import (
	"testing"

	"github.com/prospectorhq/prospector/storetest"
)

// BenchmarkBoardPoll: one 50-posting board poll (docs/sources.md,
// "Storage").
func BenchmarkBoardPoll(b *testing.B) { storetest.BenchBoardPoll(b, openURL(b, freshSchema(b))) }

// BenchmarkBoardCycle: two cycles over 10,000 boards of 10 postings, four
// polls applied at once. Slow: run it alone (-bench BoardCycle -benchtime 1x).
func BenchmarkBoardCycle(b *testing.B) {
	storetest.BenchBoardCycle(b, openURL(b, freshSchema(b)), 10_000, 10, 4)
}

// BenchmarkSECDay: a day's 500 Form D notices looked up and stored
// against 100,000 companies (docs/sources.md, "SEC EDGAR").
func BenchmarkSECDay(b *testing.B) { storetest.BenchSECDay(b, openURL(b, freshSchema(b)), 100_000) }

// BenchmarkNews: a feed of 50 new stories, and the same feed again.
func BenchmarkNews(b *testing.B) { storetest.BenchNews(b, openURL(b, freshSchema(b))) }

// BenchmarkBoardBatch: a cycle's batch of 100 polls of unchanged boards.
func BenchmarkBoardBatch(b *testing.B) { storetest.BenchBoardBatch(b, openURL(b, freshSchema(b))) }
