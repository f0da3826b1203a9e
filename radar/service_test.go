package radar

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// The radar workflows answer without HTTP, with the API's messages.
func TestServiceWithoutHTTP(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	ws := prospector.NewWorkspace("svc", prospector.PlanDefault) // 1 radar
	if err := w.st.CreateWorkspace(ctx, ws); err != nil {
		t.Fatal(err)
	}
	s := &Service{Store: w.st, Now: func() time.Time { return time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) }}
	if _, err := s.Create(ctx, ws, &CreateRequest{}); prospector.ErrorMessage(err) != "Provide at least one radar filter" {
		t.Fatalf("no filter: %v", err)
	}
	if _, err := s.Create(ctx, ws, &CreateRequest{Geos: []string{"ZZ"}}); prospector.ErrorMessage(err) !=
		`geos[0]: unknown country code "ZZ": use an ISO 3166-1 alpha-2 code, a country or place name, or WORLD` {
		t.Fatalf("bad geo: %v", err)
	}
	r, err := s.Create(ctx, ws, &CreateRequest{Titles: []string{"VP Sales"}, Geos: []string{"de"}})
	if err != nil || r.Name != "VP Sales · DE (2026-11-24)" || r.WorkspaceID != ws.ID {
		t.Fatalf("create: %+v, %v", r, err)
	}
	if n, err := w.st.CountJobs(ctx, prospector.JobRadarBackfill, prospector.JobQueued); err != nil || n != 1 {
		t.Fatalf("backfill jobs: %d, %v", n, err)
	}
	_, err = s.Create(ctx, ws, &CreateRequest{Titles: []string{"CTO"}})
	if prospector.ErrorCode(err) != prospector.ERATELIMIT {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := s.Leads(ctx, ws, r.ID, LeadsRequest{MinScore: "101"}); prospector.ErrorMessage(err) != "min_score: must be a number from 0 to 100" {
		t.Fatalf("min_score: %v", err)
	}
	other := prospector.NewWorkspace("other", prospector.PlanDefault)
	if err := w.st.CreateWorkspace(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Signals(ctx, other, r.ID, SignalsRequest{}); prospector.ErrorCode(err) != prospector.ENOTFOUND {
		t.Fatalf("another workspace's radar: %v", err)
	}
	if got, err := s.Leads(ctx, ws, r.ID, LeadsRequest{DateRange: "last_7_days"}); err != nil || len(got) != 0 {
		t.Fatalf("leads of a radar not yet backfilled: %v, %v", got, err)
	}
}

// Every rule field of radar/create makes a PATCH a change of rules; name
// alone does not.
func TestHasRules(t *testing.T) {
	if (&CreateRequest{Name: new(string)}).hasRules() {
		t.Fatal("a name alone counts as rules")
	}
	typ := reflect.TypeOf(CreateRequest{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Name == "Name" {
			continue
		}
		var req CreateRequest
		v := reflect.ValueOf(&req).Elem().Field(i)
		switch v.Kind() {
		case reflect.Slice:
			v.Set(reflect.MakeSlice(f.Type, 0, 0))
		case reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		default:
			t.Fatalf("field %s is neither a list nor optional", f.Name)
		}
		if !req.hasRules() {
			t.Errorf("%s given does not count as rules", f.Name)
		}
	}
}

// The management workflows answer without HTTP too.
func TestManageWithoutHTTP(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	ws := prospector.NewWorkspace("manage", prospector.PlanStarter)
	if err := w.st.CreateWorkspace(ctx, ws); err != nil {
		t.Fatal(err)
	}
	s := &Service{Store: w.st}
	r, err := s.Create(ctx, ws, &CreateRequest{Titles: []string{"VP Sales"}})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.List(ctx, ws, ListRequest{Limit: "0"}); prospector.ErrorMessage(err) != "limit: must be between 1 and 100" {
		t.Fatalf("limit 0: %v, %v", p, err)
	}
	p, err := s.List(ctx, ws, ListRequest{})
	if err != nil || len(p.Items) != 1 || p.Items[0].ID != r.ID || p.Pagination.Total != 1 {
		t.Fatalf("list: %+v, %v", p, err)
	}
	yes := true
	if _, err := s.Update(ctx, ws, r.ID, &UpdateRequest{Paused: &yes}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, ws, r.ID)
	if err != nil || got.Status != prospector.RadarPaused {
		t.Fatalf("paused: %+v, %v", got, err)
	}
	if _, err := s.Update(ctx, ws, r.ID, &UpdateRequest{}); prospector.ErrorCode(err) != prospector.EINVALID {
		t.Fatalf("nothing to change: %v", err)
	}
	d, err := s.Delete(ctx, ws, r.ID)
	if err != nil || !d.Deleted || d.ID != r.ID {
		t.Fatalf("delete: %+v, %v", d, err)
	}
	if _, err := s.Get(ctx, ws, r.ID); prospector.ErrorCode(err) != prospector.ENOTFOUND {
		t.Fatalf("after the delete: %v", err)
	}
}
