package boards

import (
	"context"
	"encoding/xml"
	"strings"

	"github.com/prospectorhq/prospector"
)

// personio reads the XML feed: GET
// https://{account}.jobs.personio.de/xml?language=en, one <position> per
// published job inside <workzag-jobs>. Redirects are never followed: an
// unknown account is sent to a page that looks like an empty feed, so a
// 3xx (or a 404) means not found. Accounts live on .de or .com; a ref
// without a region is asked on .de first, then on .com (never by
// following a redirect), and the Listing's Ref then says RegionCom. The
// feed names no company (<subcompany> is an optional legal entity per
// position, not the board's owner).
type personio struct{ r *Registry }

func (a *personio) Kind() string { return KindPersonio }

type personioFeed struct {
	XMLName   xml.Name `xml:"workzag-jobs"`
	Positions []struct {
		ID         string   `xml:"id"`
		Name       string   `xml:"name"`
		Office     string   `xml:"office"`
		Additional []string `xml:"additionalOffices>office"`
		Department string   `xml:"department"`
		CreatedAt  string   `xml:"createdAt"`
	} `xml:"position"`
}

func (a *personio) List(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	ref, err := checkRef(ref, KindPersonio, RegionCom)
	if err != nil {
		return nil, err
	}
	return listEitherHost(ctx, f, ref, v, RegionCom, a.list)
}

func (a *personio) list(ctx context.Context, f prospector.Fetcher, ref Ref, v Validators) (*Listing, error) {
	resp, err := get(ctx, f, ref, a.r.hostURL(ref)+"/xml?language=en", v, "application/xml", true)
	if err != nil {
		return nil, err
	}
	l := &Listing{Ref: ref, Validators: nextValidators(resp, v), Requests: 1}
	if resp.NotModified {
		l.NotModified = true
		return l, nil
	}
	if l.Postings, err = parsePersonio(ref, resp.Body); err != nil {
		return nil, err
	}
	return l, nil
}

func parsePersonio(ref Ref, body []byte) ([]Posting, error) {
	var doc personioFeed
	if err := xml.Unmarshal(body, &doc); err != nil {
		return nil, malformed(ref, err)
	}
	host := ".jobs.personio.de"
	if ref.Region == RegionCom {
		host = ".jobs.personio.com"
	}
	c := newCollector(ref, len(doc.Positions))
	for _, p := range doc.Positions {
		id := strings.TrimSpace(p.ID)
		link := ""
		if id != "" {
			link = "https://" + ref.Token + host + "/job/" + id
		}
		loc := p.Office
		remote := false
		for _, o := range append([]string{p.Office}, p.Additional...) {
			remote = remote || RemoteText(o)
		}
		c.add(Posting{
			ExternalID: id, Title: p.Name, Department: p.Department, Location: loc, URL: link,
			PostedAt: parseTime(p.CreatedAt),
		}, "", remote)
	}
	return c.out, nil
}
