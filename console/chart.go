package console

import "strconv"

// Charts are drawn on the server as SVG: horizontal bars, each with its
// label and its number written beside it and a fill pattern of its own,
// so they read without colour; every chart's numbers are also in a table
// on the page.

// chartBar is one bar, laid out.
type chartBar struct {
	Label   string
	Text    string // the number, as written beside the bar
	Y       int    // top of the row
	Width   int    // the bar's length, 0 to barSpan
	Pattern string // fill: the id of one of the chart's patterns
}

// chart is a laid-out bar chart.
type chart struct {
	ID     string // prefix of the element ids, unique on the page
	Title  string
	Bars   []chartBar
	Height int
}

// Layout of a chart, in viewBox units of a 640-wide box that the SVG
// scales to its width (part-chart.html places labels, bars and numbers:
// labels end at 160, bars start at 170, numbers start at 440).
const (
	barSpan   = 260 // a full bar's length
	rowHeight = 34
)

// patterns are the fills bars take in turn: solid, hatched, dotted.
var patterns = []string{"solid", "hatch", "dots"}

// chartItem is a value to draw: Value on a scale of Max, written as Text.
type chartItem struct {
	Label string
	Value float64
	Text  string
}

// newChart lays items out on a common scale whose full length is max
// (the largest value when max is 0).
func newChart(id, title string, items []chartItem, max float64) chart {
	if max <= 0 {
		for _, it := range items {
			max = maxf(max, it.Value)
		}
	}
	c := chart{ID: id, Title: title, Height: len(items)*rowHeight + 8}
	for i, it := range items {
		w := 0
		if max > 0 {
			w = int(it.Value / max * barSpan)
		}
		c.Bars = append(c.Bars, chartBar{Label: it.Label, Text: it.Text, Y: i*rowHeight + 4, Width: min(max0(w), barSpan),
			Pattern: id + "-" + patterns[i%len(patterns)]})
	}
	return c
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func max0(n int) int { return max(n, 0) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
