package adapters

import (
	"net/http"
	"strconv"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/techdetect"
	"github.com/prospectorhq/prospector/website"
)

// Sites reads company pages with website.Analyze and detects their
// technologies with a techdetect.Detector.
type Sites struct {
	Detector *techdetect.Detector
	Limits   website.Limits // zero: website's defaults
}

var _ sources.Sites = Sites{}

// Read analyses one fetched page. It fails only when url is not an
// absolute http(s) URL.
func (s Sites) Read(url string, header http.Header, body []byte) (*sources.Page, error) {
	p, err := website.Analyze(url, header, body, s.Limits)
	if err != nil {
		return nil, err
	}
	out := &sources.Page{URL: url, Title: p.Title}
	for _, l := range p.Links {
		out.Links = append(out.Links, l.URL)
	}
	out.Links = append(append(out.Links, p.IFrames...), p.ScriptSrcs...)
	for _, f := range p.Feeds {
		out.Feeds = append(out.Feeds, f.URL)
	}
	for _, c := range p.Careers {
		out.Careers = append(out.Careers, c.URL)
	}
	if s.Detector != nil {
		for _, d := range s.Detector.Detect(techdetect.Input{URL: url, Header: header, Page: p}) {
			out.Technologies = append(out.Technologies, detection(d, url))
		}
	}
	return out, nil
}

// detection is a techdetect detection as the store keeps it: category
// names (the ID when no loaded file names it), and each piece of
// evidence with the page it was found on.
func detection(d techdetect.Detection, url string) prospector.TechDetection {
	td := prospector.TechDetection{Name: d.Name, Version: d.Version, Confidence: d.Confidence}
	for _, c := range d.Categories {
		name := c.Name
		if name == "" {
			name = "category " + strconv.Itoa(c.ID)
		}
		td.Categories = append(td.Categories, name)
	}
	for _, e := range d.Evidence {
		td.Evidence = append(td.Evidence, prospector.TechEvidence{Kind: e.Kind, Key: e.Key, Value: e.Match, URL: url})
	}
	return td
}
