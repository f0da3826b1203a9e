package news

import (
	"strconv"
	"strings"
)

// currencyCodes are the ISO codes and words written beside amounts.
var currencyCodes = words(`usd eur gbp chf jpy cad aud nzd inr sek nok dkk sgd hkd cny brl zar ils pln
	dollars dollar euros euro pounds pound us$ a$ c$`)

// multipliers scale an amount: "$25M", "€1.2 billion", "300k".
var multipliers = map[string]float64{
	"k": 1e3, "thousand": 1e3,
	"m": 1e6, "mn": 1e6, "mm": 1e6, "mln": 1e6, "million": 1e6, "millions": 1e6,
	"b": 1e9, "bn": 1e9, "bln": 1e9, "billion": 1e9, "billions": 1e9,
	"t": 1e12, "tn": 1e12, "trillion": 1e12,
}

// money is an amount found in a sentence.
type money struct {
	start, end int // tokens
	value      float64
}

// moneyAt reads an amount starting at token i: a currency sign or code
// before a number ("$25M", "€1.2 billion", "USD 300,000"), or a number
// with a currency word after it ("5 million euros", "300,000 USD"). ok is
// false when no amount starts at i.
func moneyAt(toks []token, i int) (money, bool) {
	t := &toks[i]
	switch {
	case t.isCurrency() || (!t.punct && currencyCodes.has(t.w) && !strings.HasSuffix(t.w, "s") && t.w != "euro" && t.w != "pound" && t.w != "dollar"):
		if i+1 >= len(toks) || !toks[i+1].num {
			return money{}, false
		}
		v, end, ok := numberAt(toks, i+1)
		if !ok {
			return money{}, false
		}
		return money{start: i, end: end, value: v}, true
	case t.num && !t.punct:
		v, end, ok := numberAt(toks, i)
		if !ok || end >= len(toks) {
			return money{}, false
		}
		if n := &toks[end]; !n.punct && currencyCodes.has(n.w) {
			return money{start: i, end: end + 1, value: v}, true
		}
	}
	return money{}, false
}

// numberAt reads a number at token i with its multiplier, attached
// ("85m", "2.1B") or as the next word ("120 million").
func numberAt(toks []token, i int) (float64, int, bool) {
	w := toks[i].w
	j := 0
	for j < len(w) && (w[j] >= '0' && w[j] <= '9' || w[j] == '.' || w[j] == ',') {
		j++
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(w[:j], ",", ""), 64)
	if err != nil {
		return 0, i, false
	}
	end := i + 1
	if suffix := w[j:]; suffix != "" {
		m, ok := multipliers[suffix]
		if !ok {
			return 0, i, false
		}
		return v * m, end, true
	}
	if end < len(toks) && !toks[end].punct {
		if m, ok := multipliers[toks[end].w]; ok && len(toks[end].w) > 1 {
			return v * m, end + 1, true
		}
	}
	return v, end, true
}

// firstMoney returns the first amount in tokens [from, to).
func firstMoney(toks []token, from, to int) (money, bool) {
	for i := from; i < to && i < len(toks); i++ {
		if m, ok := moneyAt(toks, i); ok {
			return m, true
		}
	}
	return money{}, false
}

// financing is a financing type found in a sentence.
type financing struct {
	start, end int
	normalized string
}

// financingTags are the families of each normalised financing type.
var financingTags = map[string][]string{
	"pre_seed": {"equity", "venture"}, "seed": {"equity", "venture"}, "angel": {"equity", "venture"},
	"growth_equity": {"equity"}, "private_equity": {"equity"}, "equity_crowdfunding": {"equity"},
	"venture": {"equity", "venture"}, "debt": {"debt"}, "convertible_note": {"debt", "convertible"},
	"bridge": {"venture"}, "grant": {"grant", "non_dilutive"}, "ipo": {"equity", "public"},
}

// financingAt reads a financing type at token i: "Series B", "seed round",
// "pre-seed funding", "debt financing", "credit facility", "grant".
func financingAt(toks []token, i int) (financing, bool) {
	w := toks[i].w
	next := func(k int) string {
		if i+k < len(toks) && !toks[i+k].punct {
			return toks[i+k].w
		}
		return ""
	}
	f := financing{start: i, end: i + 1}
	switch {
	case w == "series" && len(next(1)) == 1 && next(1)[0] >= 'a' && next(1)[0] <= 'j':
		f.normalized, f.end = "series_"+next(1), i+2
	case w == "pre-seed" || w == "preseed" || (w == "pre" && next(1) == "seed"):
		f.normalized = "pre_seed"
		if w == "pre" {
			f.end = i + 2
		}
	case w == "seed":
		f.normalized = "seed"
	case w == "angel":
		f.normalized = "angel"
	case w == "growth" && (next(1) == "funding" || next(1) == "equity" || next(1) == "round" || next(1) == "financing"):
		f.normalized = "growth_equity"
	case w == "private" && next(1) == "equity":
		f.normalized, f.end = "private_equity", i+2
	case w == "crowdfunding" || w == "crowdfunded":
		f.normalized = "equity_crowdfunding"
	case w == "debt" || w == "loan" || w == "loans" || (w == "credit" && (next(1) == "facility" || next(1) == "line")) || w == "venture-debt":
		f.normalized = "debt"
		if w == "credit" {
			f.end = i + 2
		}
	case w == "convertible" || (w == "convertible-note"):
		f.normalized = "convertible_note"
		if next(1) == "note" || next(1) == "notes" {
			f.end = i + 2
		}
	case w == "bridge" && (next(1) == "round" || next(1) == "financing" || next(1) == "loan"):
		f.normalized = "bridge"
	case w == "grant" || w == "grants":
		f.normalized = "grant"
	case w == "venture" && (next(1) == "funding" || next(1) == "round" || next(1) == "financing" || next(1) == "capital"):
		f.normalized = "venture"
	default:
		return financing{}, false
	}
	// The round's word belongs to its type: "seed round", "debt financing".
	if f.end < len(toks) && !toks[f.end].punct {
		switch toks[f.end].w {
		case "round", "funding", "financing", "extension":
			if f.normalized != "convertible_note" {
				f.end++
			}
		}
	}
	return f, true
}

// firstFinancing returns the first financing type in tokens [from, to).
func firstFinancing(toks []token, from, to int) (financing, bool) {
	for i := from; i < to && i < len(toks); i++ {
		if toks[i].punct {
			continue
		}
		if f, ok := financingAt(toks, i); ok {
			return f, true
		}
	}
	return financing{}, false
}
