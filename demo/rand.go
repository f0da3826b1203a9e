package demo

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

// Streams of the generator's PCGs: sizes is replayed once to total the
// people weights before the main pass, so it must not share state with
// the main stream.
const (
	streamMain  = 0x70726f7370656374
	streamSizes = 0x73697a6573000001
)

func newRand(seed int64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), stream))
}

// weights is a cumulative weight table for picking an index.
type weights []float64

func newWeights(ws ...float64) weights {
	cum := make(weights, len(ws))
	var sum float64
	for i, w := range ws {
		sum += w
		cum[i] = sum
	}
	return cum
}

func (w weights) pick(r *rand.Rand) int {
	x := r.Float64() * w[len(w)-1]
	for i, c := range w {
		if x < c {
			return i
		}
	}
	return len(w) - 1
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// between returns a uniform integer in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// round1 rounds to one decimal; round2 to two.
func round1(x float64) float64 { return math.Round(x*10) / 10 }
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// significant rounds x to n significant digits.
func significant(x float64, n int) float64 {
	if x <= 0 {
		return 0
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(x)))
	return math.Round(x*p) / p
}

// scramble is a bijection on uint32 (lowbias32): distinct inputs give
// distinct outputs, so scrambled sequence numbers make unique slugs that
// do not look sequential.
func scramble(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// hex8 formats x as eight lowercase hex digits.
func hex8(x uint32) string {
	const digits = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = digits[x&15]
		x >>= 4
	}
	return string(b[:])
}

func itoa(n int) string { return strconv.Itoa(n) }

// window is the span before Now that detected_at and found_at cover.
const window = 180 * 24 * time.Hour

// recent returns a time in [now-window, now], more recent more likely.
func recent(r *rand.Rand, now time.Time) time.Time {
	secs := int64(math.Pow(r.Float64(), 1.7) * window.Seconds())
	return now.Add(-time.Duration(secs) * time.Second)
}

// day formats t's UTC date as YYYY-MM-DD.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

func ptr[T any](v T) *T { return &v }
