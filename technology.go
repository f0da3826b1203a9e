package prospector

import (
	"context"
	"slices"
	"strings"
	"time"
)

// TechDetection is one technology found on a company's site in one
// crawl, with the evidence that matched.
type TechDetection struct {
	Name       string // as the fingerprint names it ("HubSpot")
	Categories []string
	Version    string
	Confidence int // 0 to 100
	Evidence   []TechEvidence
}

// TechEvidence is one thing that matched, as techdetect reports it: the
// rule kind (headers, cookies, meta, scriptSrc, scripts, html, url,
// implies), where (the header, cookie or meta name, the script URL, the
// implying technology), the text matched (empty for a presence check),
// and the page it was on.
type TechEvidence struct {
	Kind  string `json:"kind"`
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Bounds of stored evidence: a technology's evidence stays a few KiB
// however much of a page matched.
const (
	MaxTechEvidence      = 8
	maxEvidenceKindBytes = 32
	maxEvidenceBytes     = 256
	maxEvidenceURLBytes  = 512
	maxTechNameBytes     = 100
)

// BoundEvidence returns at most MaxTechEvidence items of ev, each cleaned
// (no NUL, valid UTF-8) and cut to its bounds, dropping repeats and items
// that say nothing (no key and no value).
func BoundEvidence(ev []TechEvidence) []TechEvidence {
	out := make([]TechEvidence, 0, min(len(ev), MaxTechEvidence))
	for _, e := range ev {
		b := TechEvidence{Kind: cleanText(e.Kind, maxEvidenceKindBytes), Key: cleanText(e.Key, maxEvidenceBytes),
			Value: cleanText(e.Value, maxEvidenceBytes), URL: cleanText(e.URL, maxEvidenceURLBytes)}
		if (b.Key == "" && b.Value == "") || slices.Contains(out, b) {
			continue
		}
		if out = append(out, b); len(out) == MaxTechEvidence {
			break
		}
	}
	return out
}

// Technology states.
const (
	// TechCandidate: seen in the last crawl only; one more confirms it.
	TechCandidate = "candidate"
	// TechActive: seen in two crawls in a row (a tech_changes "added"
	// signal was written) and not removed since.
	TechActive = "active"
	// TechRemoved: absent long enough after being active (a "removed"
	// signal was written).
	TechRemoved = "removed"
)

// Technology is one technology of a company as stored.
type Technology struct {
	ID         int64
	CompanyID  int64
	Name       string
	Categories []string
	Version    string
	Confidence int
	Evidence   []TechEvidence // of the last crawl that saw it
	State      string         // one of the Tech* states
	// Misses counts the crawls in a row that did not see an active
	// technology.
	Misses      int
	FirstSeenAt time.Time // the first crawl that ever saw it
	LastSeenAt  time.Time
	// AddedAt is when it last became active, RemovedAt when it was last
	// removed; nil when it never was.
	AddedAt   *time.Time
	RemovedAt *time.Time
}

// TechCrawl is one successful crawl of a company's site: the detections
// of every page fetched in it (the homepage, and the careers page when
// fetched with it), recorded on the company's homepage target.
type TechCrawl struct {
	TargetID int64
	// Outcome is the crawl's result (PollOK or PollNotModified, the
	// latter when no page changed), time, validators and schedule.
	Outcome    PollOutcome
	Detections []TechDetection // ignored when not modified
}

// Validate returns an EINVALID, before anything is written, when the
// crawl failed or a detection cannot be stored.
func (c *TechCrawl) Validate() error {
	if err := c.Outcome.validateSuccess(); err != nil {
		return err
	}
	for i := range c.Detections {
		if err := c.Detections[i].Validate(); err != nil {
			return err
		}
	}
	return nil
}

// TechCrawlResult counts what one crawl changed.
type TechCrawlResult struct {
	Candidates int // seen for the first time (or again after removal)
	Added      int // confirmed: tech_changes signal
	Removed    int // removed: tech_changes signal
	Seen       int // active and seen again
	Forgotten  int // candidates that missed their confirming crawl
	Signals    int
	// Duplicate: the crawl was no later than the target's last success;
	// nothing was written.
	Duplicate bool
}

// TechnologyStore keeps the technologies of companies.
type TechnologyStore interface {
	// ApplyTechCrawl stores one successful crawl in one transaction: the
	// technologies PlanTechCrawl decides, their tech_changes signals, and
	// the crawl's outcome on the homepage target (AfterPoll). Crawls of
	// one company are serialised; one no later than the target's last
	// success is a Duplicate and writes nothing. EINVALID (nothing
	// written) when a detection is invalid or the outcome is a failure;
	// ErrNotFound when the target does not exist or is not a homepage.
	ApplyTechCrawl(ctx context.Context, c *TechCrawl) (TechCrawlResult, error)
	// Technologies returns a company's active technologies by name, or
	// with all every one stored (candidates and removed ones too).
	Technologies(ctx context.Context, companyID int64, all bool) ([]*Technology, error)
}

// techKey is how detections and stored rows are matched: by name,
// ignoring case.
func techKey(name string) string { return strings.ToLower(name) }

// Validate returns an EINVALID naming the field of a detection that
// cannot be stored: no name, a long one, or text with a NUL byte.
func (d *TechDetection) Validate() error {
	if d.Name == "" || len(d.Name) > maxTechNameBytes {
		return Errorf(EINVALID, "technology: %q is not a technology name", d.Name)
	}
	if err := checkText("technology", d.Name); err != nil {
		return err
	}
	if err := checkText("version", d.Version); err != nil {
		return err
	}
	for _, c := range d.Categories {
		if err := checkText("categories", c); err != nil {
			return err
		}
	}
	return nil
}
