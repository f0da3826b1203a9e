package prospector

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// The rules of technology changes (docs/decisions.md, "Sources").
const (
	// TechRemovalMisses: an active technology absent from this many
	// crawls in a row is removed...
	TechRemovalMisses = 3
	// TechRemovalAge: ...and so is one absent from a crawl this long
	// after it was last seen, whichever comes first.
	TechRemovalAge = 30 * 24 * time.Hour
)

// TechPlan is what one crawl changes, as PlanTechCrawl decides it.
type TechPlan struct {
	At     time.Time     // the crawl's time, as stored (UTC, microseconds)
	Insert []*Technology // new candidates (IDs unset)
	// Update are rows written whole: state changes, new content,
	// misses.
	Update []*Technology
	// Seen are active rows seen again with the same content: only
	// LastSeenAt and Misses move.
	Seen    []int64
	Delete  []int64 // candidates that missed their confirming crawl
	Signals []*Signal
	Result  TechCrawlResult
}

// PlanTechCrawl applies the rules of technology changes to one
// successful crawl at time at of the company with that id and domain,
// whose stored technologies are stored. When same is true no page
// changed (304s), detections is ignored, and the crawl sees what the
// last one saw: the candidates, and the active technologies it did not
// miss.
//
// The rules: a technology detected for the first time (or again after
// its removal) is a candidate. A candidate detected again by the next
// crawl is added: it becomes active and gets a tech_changes signal whose
// detail names it and its evidence. A candidate the next crawl misses is
// forgotten (or, if it had been removed before, stays removed). An
// active technology absent from TechRemovalMisses crawls in a row, or
// from a crawl TechRemovalAge or more after it was last seen, is
// removed, with a tech_changes signal. Crawling the same page again
// creates nothing new: signal ids derive from the company, the
// technology and when it was added (TechSignalID).
//
// It returns an EINVALID when a detection is invalid; a technology
// detected twice in the crawl counts once, with its first values.
func PlanTechCrawl(companyID int64, domain string, stored []*Technology, detections []TechDetection, same bool, at time.Time) (*TechPlan, error) {
	at = at.UTC().Truncate(time.Microsecond)
	plan := &TechPlan{At: at}
	byKey := make(map[string]*Technology, len(stored))
	for _, t := range stored {
		byKey[techKey(t.Name)] = t
	}
	if same {
		detections = nil
		for _, t := range stored {
			if t.State == TechCandidate || (t.State == TechActive && t.Misses == 0) {
				detections = append(detections, TechDetection{Name: t.Name, Categories: t.Categories,
					Version: t.Version, Confidence: t.Confidence, Evidence: t.Evidence})
			}
		}
	}
	seen := make(map[string]bool, len(detections))
	for i := range detections {
		d := &detections[i]
		if err := d.Validate(); err != nil {
			return nil, err
		}
		k := techKey(d.Name)
		if seen[k] {
			continue
		}
		seen[k] = true
		ev := BoundEvidence(d.Evidence)
		t, ok := byKey[k]
		switch {
		case !ok:
			t = &Technology{CompanyID: companyID, Name: d.Name, State: TechCandidate, FirstSeenAt: at}
			fillTech(t, d, ev, at)
			plan.Insert = append(plan.Insert, t)
			plan.Result.Candidates++
		case t.State == TechCandidate:
			fillTech(t, d, ev, at)
			added := at
			t.State, t.AddedAt = TechActive, &added
			plan.Update = append(plan.Update, t)
			plan.Signals = append(plan.Signals, TechSignal(domain, t, true, at))
			plan.Result.Added++
		case t.State == TechRemoved:
			fillTech(t, d, ev, at)
			t.State = TechCandidate
			plan.Update = append(plan.Update, t)
			plan.Result.Candidates++
		default: // active
			if sameTechContent(t, d, ev) {
				t.LastSeenAt, t.Misses = at, 0
				plan.Seen = append(plan.Seen, t.ID)
			} else {
				fillTech(t, d, ev, at)
				plan.Update = append(plan.Update, t)
			}
			plan.Result.Seen++
		}
	}
	for _, t := range stored {
		if seen[techKey(t.Name)] {
			continue
		}
		switch t.State {
		case TechCandidate:
			if t.RemovedAt == nil {
				plan.Delete = append(plan.Delete, t.ID)
			} else {
				t.State = TechRemoved
				plan.Update = append(plan.Update, t)
			}
			plan.Result.Forgotten++
		case TechActive:
			t.Misses++
			if t.Misses >= TechRemovalMisses || at.Sub(t.LastSeenAt) >= TechRemovalAge {
				removed := at
				t.State, t.RemovedAt = TechRemoved, &removed
				plan.Signals = append(plan.Signals, TechSignal(domain, t, false, at))
				plan.Result.Removed++
			}
			plan.Update = append(plan.Update, t)
		}
	}
	return plan, nil
}

// fillTech writes a detection onto a technology seen at at.
func fillTech(t *Technology, d *TechDetection, ev []TechEvidence, at time.Time) {
	t.Categories, t.Version, t.Confidence, t.Evidence = slices.Clone(d.Categories), d.Version, d.Confidence, ev
	t.LastSeenAt, t.Misses = at, 0
}

func sameTechContent(t *Technology, d *TechDetection, ev []TechEvidence) bool {
	return t.Version == d.Version && t.Confidence == d.Confidence && slices.Equal(t.Categories, d.Categories) &&
		slices.Equal(t.Evidence, ev)
}

// TechSignalID is the ExternalID of the tech_changes signal that adds
// (or removes) a technology: the company, the technology and when it
// became active, so each addition and its removal are one signal each
// however often the site is crawled.
func TechSignalID(domain string, t *Technology, added bool) string {
	verb := "removed"
	if added {
		verb = "added"
	}
	var since string
	if t.AddedAt != nil {
		since = strconv.FormatInt(t.AddedAt.UnixMicro(), 10)
	}
	return "tech:" + domain + ":" + techKey(t.Name) + ":" + verb + ":" + since
}

// TechSignal is the tech_changes signal of a technology added or removed
// at at: its title says which, its detail names the technology, its
// categories and the evidence (for a removal, the last evidence seen),
// and its source URL is the page of the first evidence.
func TechSignal(domain string, t *Technology, added bool, at time.Time) *Signal {
	companyID := t.CompanyID
	name := t.Name
	if len(t.Categories) > 0 {
		name += " (" + strings.Join(t.Categories, ", ") + ")"
	}
	var title, detail string
	if added {
		title = t.Name + " added"
		detail = name + " detected on " + domain + " in two crawls in a row"
	} else {
		title = t.Name + " removed"
		detail = name + " no longer detected on " + domain + " since " + t.LastSeenAt.Format("2006-01-02") +
			" (" + strconv.Itoa(t.Misses) + " crawls without it)"
	}
	var ev []string
	source := "https://" + domain + "/"
	for i, e := range t.Evidence {
		what := strings.TrimSpace(e.Kind + " " + e.Key)
		if e.Value != "" && e.Value != e.Key {
			what += ": " + e.Value
		}
		ev = append(ev, what)
		if i == 0 && e.URL != "" {
			source = e.URL
		}
	}
	if len(ev) > 0 {
		detail += "; evidence: " + strings.Join(ev, "; ")
	}
	return &Signal{ExternalID: TechSignalID(domain, t, added), Type: "tech_changes", CompanyID: &companyID,
		CompanyDomain: domain, Title: title, Detail: detail, SourceURL: source, DetectedAt: at}
}
