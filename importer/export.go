package importer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// FileSink writes generated batches as JSONL files in the import format,
// one per kind, so the demo dataset can be imported elsewhere (and the
// importer measured on it). It numbers companies and people itself.
type FileSink struct {
	files   map[Kind]*os.File
	writers map[Kind]*bufio.Writer
	nextID  int64
}

// NewFileSink creates KIND.jsonl for every kind in dir.
func NewFileSink(dir string) (*FileSink, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	s := &FileSink{files: map[Kind]*os.File{}, writers: map[Kind]*bufio.Writer{}}
	for _, k := range Kinds() {
		f, err := os.Create(filepath.Join(dir, string(k)+".jsonl"))
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("export: %w", err)
		}
		s.files[k], s.writers[k] = f, bufio.NewWriterSize(f, 1<<20)
	}
	return s, nil
}

// Close flushes and closes every file.
func (s *FileSink) Close() error {
	var first error
	for k, f := range s.files {
		if w := s.writers[k]; w != nil {
			if err := w.Flush(); err != nil && first == nil {
				first = err
			}
		}
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *FileSink) write(k Kind, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("export %s: %w", k, err)
	}
	w := s.writers[k]
	w.Write(b)
	return w.WriteByte('\n')
}

// Companies writes companies.
func (s *FileSink) Companies(_ context.Context, cs []*prospector.Company) error {
	for _, c := range cs {
		s.nextID++
		c.ID = s.nextID
		if err := s.write(Companies, map[string]any{
			"name": c.Name, "domain": c.Domain, "website": c.Website, "industry": c.Industry,
			"description": c.Description, "keywords": c.Keywords, "city": c.City, "region": c.Region,
			"country": c.CountryCode, "employee_count": c.EmployeeCount, "employee_range": c.EmployeeRange,
			"founded": c.Founded, "revenue_usd": c.RevenueUSD, "network_url": c.NetworkURL, "ticker": c.Ticker,
		}); err != nil {
			return err
		}
	}
	return nil
}

// People writes people.
func (s *FileSink) People(_ context.Context, ps []*prospector.Person) error {
	for _, p := range ps {
		s.nextID++
		p.ID = s.nextID
		if err := s.write(People, map[string]any{
			"id": p.ExternalID, "network_url": p.NetworkURL, "full_name": p.FullName, "first_name": p.FirstName,
			"last_name": p.LastName, "title": p.Title, "company": p.CompanyName, "company_domain": p.CompanyDomain,
			"email": p.Email, "phone": p.Phone, "city": p.City, "region": p.Region, "country": p.CountryCode,
		}); err != nil {
			return err
		}
	}
	return nil
}

// Signals writes signals, naming people by profile URL or id.
func (s *FileSink) Signals(_ context.Context, ss []*prospector.Signal) error {
	for _, sg := range ss {
		rec := map[string]any{"id": sg.ExternalID, "type": sg.Type, "company_domain": sg.CompanyDomain,
			"title": sg.Title, "detail": sg.Detail, "source_url": sg.SourceURL,
			"detected_at": sg.DetectedAt.Format(time.RFC3339Nano), "score": sg.Score}
		if kind, v, ok := cutKey(sg.PersonKey); ok {
			if kind == "url" {
				rec["person_network_url"] = v
			} else {
				rec["person_id"] = v
			}
		}
		if err := s.write(Signals, rec); err != nil {
			return err
		}
	}
	return nil
}

// NewsEvents writes news events.
func (s *FileSink) NewsEvents(_ context.Context, es []*prospector.NewsEvent) error {
	for _, e := range es {
		if err := s.write(NewsEvents, map[string]any{"id": e.ExternalID, "company_domain": e.CompanyDomain,
			"event_type": e.EventType, "categories": e.Categories, "effective_date": e.EffectiveDate,
			"found_at": e.FoundAt.Format(time.RFC3339Nano), "attributes": e.Attributes}); err != nil {
			return err
		}
	}
	return nil
}

// FinancingEvents writes financing events.
func (s *FileSink) FinancingEvents(_ context.Context, es []*prospector.FinancingEvent) error {
	for _, e := range es {
		if err := s.write(FinancingEvents, map[string]any{"id": e.ExternalID, "company_domain": e.CompanyDomain,
			"event_type": e.EventType, "categories": e.Categories, "financing_type": e.FinancingType,
			"financing_type_normalized": e.FinancingTypeNormalized, "amount": e.Amount,
			"amount_normalized": e.AmountNormalized, "effective_date": e.EffectiveDate,
			"found_at": e.FoundAt.Format(time.RFC3339Nano), "source_urls": e.SourceURLs, "investors": e.Investors}); err != nil {
			return err
		}
	}
	return nil
}

// cutKey splits a person's natural key into "url" or "id" and the value.
func cutKey(key string) (kind, value string, ok bool) { return strings.Cut(key, ":") }
