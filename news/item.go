package news

import "time"

// Item is one news article: an entry of a feed or a GDELT result.
type Item struct {
	Title   string
	Summary string // plain text: HTML stripped, whitespace collapsed
	Link    string // absolute URL of the article
	GUID    string // the feed's id for the entry; the link when it gives none
	// Published is when the source says the article appeared (GDELT: when
	// it saw it); zero when the source gives no usable date.
	Published time.Time
	// Source names where the item came from: the feed's URL, or "gdelt".
	Source string
	// Domain, Language and SourceCountry are what GDELT says of the
	// article's site; feeds leave them empty.
	Domain        string
	Language      string
	SourceCountry string
}
