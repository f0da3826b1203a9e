package news

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
)

// ErrNotFeed is returned by ParseFeed for bytes that are no RSS, Atom or
// JSON Feed document (an HTML page, an error message).
var ErrNotFeed = errors.New("news: not an RSS, Atom or JSON feed")

// maxFeedItems bounds the items read from one feed; feeds list the newest
// first and a poll only needs what is new.
const maxFeedItems = 500

// ParseFeed reads a feed the caller fetched (RSS 0.9x to 2.0, RSS 1.0/RDF,
// Atom 0.3/1.0 or JSON Feed) into items, newest first as the feed lists
// them. feedURL is where the bytes came from: relative links resolve
// against it and it becomes each item's Source. gofeed reads the usual
// broken feeds (unescaped ampersands, HTML entities, stray bytes, a
// declared charset); ParseFeed also drops a byte-order mark and leading
// junk before the first tag. Entries with neither title nor link are
// skipped. A feed cut short (a body cap, a dropped connection) keeps the
// entries before the cut. Relative links resolve against the root's
// xml:base, else the feed's site link, else feedURL. It returns
// ErrNotFeed for bytes gofeed cannot tell as a feed, and a wrapped parse
// error for a feed it cannot read at all.
func ParseFeed(body []byte, feedURL string) ([]Item, error) {
	body = trimLeading(body)
	f, err := newFeedParser().Parse(bytes.NewReader(body))
	if err != nil && !errors.Is(err, gofeed.ErrFeedTypeNotDetected) {
		if fixed := closeTruncated(body); fixed != nil {
			f, err = newFeedParser().Parse(bytes.NewReader(fixed))
		}
	}
	if err != nil {
		if errors.Is(err, gofeed.ErrFeedTypeNotDetected) {
			return nil, ErrNotFeed
		}
		return nil, fmt.Errorf("news: parse feed %s: %w", feedURL, err)
	}
	base := feedBase(body, feedURL, f.Link)
	var out []Item
	for _, e := range f.Items {
		if e == nil {
			continue
		}
		if len(out) == maxFeedItems {
			break
		}
		it := Item{Title: plainText(e.Title), Source: feedURL}
		it.Link = entryLink(base, e)
		if it.Title == "" && it.Link == "" {
			continue
		}
		it.Summary = plainText(e.Description)
		if it.Summary == "" {
			it.Summary = plainText(e.Content)
		}
		if it.Summary == it.Title {
			it.Summary = ""
		}
		it.GUID = strings.TrimSpace(e.GUID)
		if it.GUID == "" {
			it.GUID = it.Link
		}
		it.Published = entryTime(e)
		out = append(out, it)
	}
	return out, nil
}

// newFeedParser returns gofeed's parser with our lean RSS translator. It
// is only ever given bytes: its HTTP client is never used.
func newFeedParser() *gofeed.Parser {
	p := gofeed.NewParser()
	p.RSSTranslator = rssTranslator{}
	return p
}

// xmlBaseRE finds an xml:base attribute near the top of a document.
var xmlBaseRE = regexp.MustCompile(`xml:base\s*=\s*["']([^"']+)["']`)

// feedBase returns the URL relative links resolve against.
func feedBase(body []byte, feedURL, siteLink string) *url.URL {
	base, err := url.Parse(feedURL)
	if err != nil {
		base = nil
	}
	head := body[:min(len(body), 2048)]
	if m := xmlBaseRE.FindSubmatch(head); m != nil {
		if u, err := resolve(base, string(m[1])); err == nil && u.IsAbs() {
			return u
		}
	}
	if siteLink != "" {
		if u, err := resolve(base, siteLink); err == nil && u.IsAbs() {
			return u
		}
	}
	return base
}

// closeTruncated repairs a feed cut after some complete entries: it keeps
// the document up to the last "</item>" or "</entry>" and closes it. It
// returns nil when there is no complete entry to keep.
func closeTruncated(body []byte) []byte {
	for _, c := range []struct{ end, close string }{
		{"</item>", "</channel></rss>"}, {"</entry>", "</feed>"},
	} {
		i := bytes.LastIndex(body, []byte(c.end))
		if i < 0 {
			continue
		}
		closing := c.close
		if bytes.Contains(body[:min(len(body), 2048)], []byte("<rdf:RDF")) {
			closing = "</rdf:RDF>"
			if bytes.Contains(body[:i], []byte("<channel")) && !bytes.Contains(body[:i], []byte("</channel>")) {
				closing = "</channel></rdf:RDF>"
			}
		}
		out := append([]byte{}, body[:i+len(c.end)]...)
		return append(out, closing...)
	}
	return nil
}

// trimLeading drops a UTF-8 byte-order mark and anything before the first
// "<" or "{" (whitespace, a stray line from a misconfigured server).
func trimLeading(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexAny(b, "<{"); i > 0 {
		b = b[i:]
	}
	return b
}

// entryLink returns the entry's absolute http(s) link: its link, else an
// alternate link, else a GUID that is a URL.
func entryLink(base *url.URL, e *gofeed.Item) string {
	cands := append([]string{e.Link}, e.Links...)
	cands = append(cands, e.GUID)
	for _, c := range cands {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		u, err := resolve(base, c)
		if err == nil && u != nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return u.String()
		}
	}
	return ""
}

func resolve(base *url.URL, ref string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return nil, err
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	return u, nil
}

// entryTime returns when the entry was published, else updated, in UTC;
// zero when the feed gives no date gofeed can read, or one more than a
// day in the future (a broken clock or a placeholder).
func entryTime(e *gofeed.Item) time.Time {
	for _, t := range []*time.Time{e.PublishedParsed, e.UpdatedParsed} {
		if t != nil && !t.IsZero() && t.Year() > 1990 && t.Before(time.Now().Add(24*time.Hour)) {
			return t.UTC()
		}
	}
	return time.Time{}
}
