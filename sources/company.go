package sources

import (
	"context"
	"strings"
	"sync"

	"github.com/prospectorhq/prospector"
)

// companies caches the names of the companies a cycle polls for, since
// every board's name check reads its company's.
type companies struct {
	st Store
	mu sync.Mutex
	m  map[int64]*prospector.Company
}

func newCompanies(st Store) *companies {
	return &companies{st: st, m: map[int64]*prospector.Company{}}
}

// load reads the companies of ids not cached yet, in batches.
func (c *companies) load(ctx context.Context, ids []int64) error {
	var missing []int64
	c.mu.Lock()
	for _, id := range ids {
		if _, ok := c.m[id]; !ok {
			missing = append(missing, id)
			c.m[id] = nil
		}
	}
	c.mu.Unlock()
	for len(missing) > 0 {
		n := min(len(missing), 500)
		cs, err := c.st.CompaniesByID(ctx, missing[:n])
		if err != nil {
			return err
		}
		c.mu.Lock()
		for _, co := range cs {
			c.m[co.ID] = co
		}
		c.mu.Unlock()
		missing = missing[n:]
	}
	return nil
}

// name returns the real name of a company: "" when it is unknown or
// still the stand-in a watch gave it (its domain).
func (c *companies) name(ctx context.Context, id int64) (string, error) {
	c.mu.Lock()
	co, ok := c.m[id]
	c.mu.Unlock()
	if !ok {
		if err := c.load(ctx, []int64{id}); err != nil {
			return "", err
		}
		c.mu.Lock()
		co = c.m[id]
		c.mu.Unlock()
	}
	if co == nil || co.Name == "" || strings.EqualFold(co.Name, co.Domain) {
		return "", nil
	}
	return co.Name, nil
}

// learn gives a company still named after its domain the name a source
// found (EnsureCompanies leaves real names alone); the error is the
// store's.
func (c *companies) learn(ctx context.Context, id int64, domain, name string) error {
	name = cleanName(name)
	if name == "" {
		return nil
	}
	if known, err := c.name(ctx, id); err != nil || known != "" {
		return err
	}
	co := &prospector.Company{Domain: domain, Name: name}
	if _, err := c.st.EnsureCompanies(ctx, []*prospector.Company{co}); err != nil {
		return err
	}
	c.mu.Lock()
	if old := c.m[id]; old != nil {
		updated := *old
		updated.Name = name
		c.m[id] = &updated
	}
	c.mu.Unlock()
	return nil
}

// maxLearnedName bounds a name learned from the web, in bytes.
const maxLearnedName = 200

// cleanName is text from the web made fit for a company name: what the
// store refuses (NUL, invalid UTF-8) replaced, spaces collapsed, bounded.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(prospector.CleanText(s)), " ")
	if len(s) > maxLearnedName {
		return ""
	}
	return s
}

// titleSeparators split a page title into the company name and the rest:
// "Acme | Robots for warehouses", "Home - Acme".
var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " • ", ": ", " :: "}

// NameFromTitle returns the part of a page title that names the company
// of domain, as confirm judges it ("Acme" in "Acme | Robots for
// warehouses" for acme.example); "" when no part does. A title is the
// company's own page speaking, but it often names a product or a page
// ("Home"), so only a part matching the domain is taken.
func NameFromTitle(title, domain string, confirm func(boardCompany, name, domain string) string) string {
	parts := []string{cleanName(title)}
	for _, sep := range titleSeparators {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" && confirm(p, "", domain) == prospector.NameConfirmed {
			return p
		}
	}
	return ""
}
