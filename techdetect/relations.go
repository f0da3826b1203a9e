package techdetect

import "sort"

// requires drops technologies whose required technologies or categories
// were not detected, until none is left to drop (one removal can undo
// another's requirement).
func (r *run) requires() {
	for changed := true; changed; {
		changed = false
		for _, i := range r.present() {
			t := r.d.techs[i]
			if !r.satisfied(t) {
				delete(r.found, i)
				changed = true
			}
		}
	}
}

func (r *run) satisfied(t *Technology) bool {
	for _, req := range t.Requires {
		j, ok := r.d.byName[req.Name]
		if !ok || r.found[j] == nil {
			return false
		}
	}
	for _, cat := range t.RequiresCategory {
		ok := false
		for j := range r.found {
			for _, c := range r.d.techs[j].Cats {
				ok = ok || c == cat
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// implies adds what the detected technologies imply, transitively; an
// implied technology's confidence is the implying one's scaled by the
// implies tag.
func (r *run) implies() {
	queue := r.present()
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		parent := r.d.techs[i]
		pf := r.found[i]
		for _, ref := range parent.Implies {
			j, ok := r.d.byName[ref.Name]
			if !ok || j == i {
				continue
			}
			conf := pf.confidence * ref.Confidence / 100
			f := r.found[j]
			if f == nil {
				f = &finding{implied: true}
				r.found[j] = f
				queue = append(queue, j)
			}
			if contains(f.impliedBy, parent.Name) {
				continue
			}
			f.impliedBy = append(f.impliedBy, parent.Name)
			if f.implied {
				f.confidence = max(f.confidence, conf)
				if len(f.evidence) < maxEvidence {
					f.evidence = append(f.evidence, Evidence{Kind: "implies", Key: parent.Name, Confidence: conf})
				}
			}
		}
	}
}

// excludes removes technologies that a detected one rules out. Going by
// name order, a technology already removed excludes nothing.
func (r *run) excludes() {
	for _, i := range r.present() {
		if r.found[i] == nil {
			continue
		}
		for _, ref := range r.d.techs[i].Excludes {
			if j, ok := r.d.byName[ref.Name]; ok && j != i {
				delete(r.found, j)
			}
		}
	}
}

// present lists the detected technologies in name order.
func (r *run) present() []int {
	out := make([]int, 0, len(r.found))
	for i := range r.found {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

func (r *run) results() []Detection {
	var out []Detection
	for _, i := range r.present() {
		f := r.found[i]
		if f.confidence <= 0 {
			continue
		}
		t := r.d.techs[i]
		sort.Strings(f.impliedBy)
		out = append(out, Detection{
			Name: t.Name, Categories: r.d.categories(t), Website: t.Website,
			Version: f.version, Confidence: f.confidence, Implied: f.implied,
			ImpliedBy: f.impliedBy, Evidence: f.evidence,
		})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
