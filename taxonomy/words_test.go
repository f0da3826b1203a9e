package taxonomy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	if got := TextTokens("The Robots of the warehouse, robots AND more"); !reflect.DeepEqual(got, []string{"robots", "warehouse", "more"}) {
		t.Errorf("TextTokens = %q", got)
	}
	if got := TitleTokens("Vice President of Sales, SVP sales"); !reflect.DeepEqual(got, []string{"vp", "sales", "senior"}) {
		t.Errorf("TitleTokens = %q", got)
	}
	// Past setAfter words, repeats are still dropped and order kept.
	var words []string
	for i := range 3 * setAfter {
		words = append(words, fmt.Sprint("w", i%(2*setAfter)))
	}
	got := TextTokens(strings.Join(words, " "))
	if len(got) != 2*setAfter || got[0] != "w0" || got[len(got)-1] != fmt.Sprint("w", 2*setAfter-1) {
		t.Errorf("long text: %d tokens %q", len(got), got)
	}
}

// BenchmarkTextTokens: tokenising is linear in the number of distinct
// words (ns/word stays flat from 25 to 2,500 words); it was quadratic.
func BenchmarkTextTokens(b *testing.B) {
	for _, n := range []int{25, 250, 2500} {
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("w%x", i)
		}
		s := strings.Join(words, " ")
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				TextTokens(s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/word")
		})
	}
}
