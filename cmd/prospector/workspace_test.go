package main

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prospectorhq/prospector"
)

// openStore opens the store the command-line vars name.
func openStore(t *testing.T, vars map[string]string) prospector.Store {
	t.Helper()
	st, err := (storeOptions{}).open(context.Background(), &env{getenv: func(k string) string { return vars[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// seedRadar gives workspace name a radar with three leads and four
// attached signals over a small demo dataset, and charges it 3 credits.
func seedRadar(t *testing.T, vars map[string]string, name string) *prospector.Radar {
	t.Helper()
	if out, _, err := cli(t, vars, "demo", "seed", "--companies", "3", "--people", "30"); err != nil {
		t.Fatalf("demo seed: %q %v", out, err)
	}
	ctx := context.Background()
	st := openStore(t, vars)
	w, err := st.WorkspaceByName(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AcquireQuota(ctx, w.ID, prospector.QuotaRadars); err != nil {
		t.Fatal(err)
	}
	r := &prospector.Radar{ID: prospector.NewRadarID(), WorkspaceID: w.ID, Name: "VP Sales · US",
		Config: prospector.RadarConfig{Titles: []string{"VP Sales"}}}
	if err := st.CreateRadar(ctx, r); err != nil {
		t.Fatal(err)
	}
	people, err := st.ListPeople(ctx, 0, 3)
	if err != nil || len(people) != 3 {
		t.Fatalf("people: %d %v", len(people), err)
	}
	signals, err := st.ListSignals(ctx, 0, 2)
	if err != nil || len(signals) != 2 {
		t.Fatalf("signals: %d %v", len(signals), err)
	}
	b := &prospector.LeadBatch{Now: time.Now(), Backfilled: []string{r.ID}}
	for i, p := range people {
		m := prospector.LeadMatch{RadarID: r.ID, WorkspaceID: w.ID, Lead: prospector.Lead{PersonID: p.ID, FullName: p.FullName}}
		for _, sg := range signals[:1+i%2] {
			m.Signals = append(m.Signals, prospector.SignalMatch{SignalID: sg.ID, DetectedAt: sg.DetectedAt,
				Score: prospector.ScoreBreakdown{Total: 50, SignalID: sg.ID, Type: sg.Type}})
		}
		b.Matches = append(b.Matches, m)
	}
	if _, err := st.ApplyLeadBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ChargeCredits(ctx, &prospector.Charge{WorkspaceID: w.ID, Amount: 3, Reason: "test"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWorkspaceAdminCommands(t *testing.T) {
	testWorkspaceAdmin(t, map[string]string{"PROSPECTOR_DATA": t.TempDir()})
}

func TestWorkspaceAdminCommandsOnPostgres(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL not set: skipping PostgreSQL tests")
	}
	testWorkspaceAdmin(t, map[string]string{"PROSPECTOR_DATABASE_URL": freshSchema(t, url)})
}

func mustCLI(t *testing.T, vars map[string]string, args ...string) string {
	t.Helper()
	out, errOut, err := cli(t, vars, args...)
	if err != nil {
		t.Fatalf("prospector %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

func testWorkspaceAdmin(t *testing.T, vars map[string]string) {
	mustCLI(t, vars, "workspace", "create", "acme", "--plan", "starter", "--credits", "5000", "--email", "ops@acme.example")
	mustCLI(t, vars, "workspace", "create", "zeta")
	secret := lastLine(mustCLI(t, vars, "keys", "create", "--workspace", "acme"))
	mustCLI(t, vars, "keys", "create", "--workspace", "acme", "--tier", "default")
	revoked := lastLine(mustCLI(t, vars, "keys", "create", "--workspace", "acme"))
	st := openStore(t, vars)
	p, err := st.PrincipalByKeyHash(context.Background(), prospector.HashKey(revoked))
	if err != nil {
		t.Fatal(err)
	}
	mustCLI(t, vars, "keys", "revoke", p.Key.ID)
	r := seedRadar(t, vars, "acme")

	// list: a table, and JSON.
	out := squash(mustCLI(t, vars, "workspace", "list"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "NAME") || !strings.HasPrefix(lines[1], "acme") ||
		!strings.Contains(lines[1], "3 of 5000") || !strings.Contains(lines[1], "1 of 5") || !strings.HasPrefix(lines[2], "zeta") {
		t.Fatalf("workspace list:\n%s", out)
	}
	var rows []workspaceRowJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "workspace", "list", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Name != "acme" || rows[0].Plan != "starter" || rows[0].Credits.Used != 3 ||
		*rows[0].Credits.Limit != 5000 || *rows[0].Credits.Remaining != 4997 || rows[0].ActiveKeys != 2 ||
		rows[0].Radars.Used != 1 || *rows[0].Radars.Limit != 5 || rows[1].Name != "zeta" || *rows[1].Credits.Limit != 100 {
		t.Fatalf("workspace list --json: %+v", rows)
	}

	// show: plan, credits, quotas, keys (never the key), radars.
	out = squash(mustCLI(t, vars, "workspace", "show", "acme"))
	for _, want := range []string{"acme (ws_", "plan starter", "3 of 5000 used, 4997 remaining",
		"radars 1 of 5", "network accounts 0 of 3", "radar signals 4 of 10000 this period",
		"keys (3)", secret[:12], "revoked", "radars (1)", r.ID, "VP Sales · US", "active"} {
		if !strings.Contains(out, want) {
			t.Errorf("workspace show lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, secret) || strings.Contains(out, revoked) {
		t.Fatalf("workspace show printed a key:\n%s", out)
	}
	var ws workspaceJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "workspace", "show", "acme", "--json")), &ws); err != nil {
		t.Fatal(err)
	}
	statuses := map[string]int{}
	for _, k := range ws.Keys {
		statuses[k.Status+" "+k.Tier]++
	}
	if ws.Name != "acme" || ws.Email != "ops@acme.example" || ws.Credits.Used != 3 || *ws.Credits.Remaining != 4997 ||
		ws.Quotas.RadarSignals.Used != 4 || *ws.Quotas.Radars.Limit != 5 || len(ws.Radars) != 1 || ws.Radars[0].ID != r.ID ||
		ws.Radars[0].Status != "active" || statuses["active starter"] != 1 || statuses["active default"] != 1 ||
		statuses["revoked starter"] != 1 {
		t.Fatalf("workspace show --json: %+v", ws)
	}

	// radar list: id, name, status, leads, signals, last scan.
	out = squash(mustCLI(t, vars, "radar", "list", "--workspace", "acme"))
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "LAST SCAN") || !strings.HasPrefix(lines[1], r.ID) ||
		!strings.Contains(lines[1], "VP Sales · US active 3 4") {
		t.Fatalf("radar list:\n%s", out)
	}
	var radars []radarJSON
	if err := json.Unmarshal([]byte(mustCLI(t, vars, "radar", "list", "--workspace", "acme", "--json")), &radars); err != nil {
		t.Fatal(err)
	}
	if len(radars) != 1 || radars[0].Leads != 3 || radars[0].Signals != 4 || radars[0].LastScanAt == nil || radars[0].Status != "active" {
		t.Fatalf("radar list --json: %+v", radars)
	}
	if out := mustCLI(t, vars, "radar", "list", "--workspace", "zeta", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("no radars: %q", out)
	}

	// update: a plan change keeps the explicit credits and moves the keys
	// that followed the plan.
	out = squash(mustCLI(t, vars, "workspace", "update", "acme", "--plan", "growth"))
	for _, want := range []string{"plan starter -> growth", "radars 5 -> 25",
		"network accounts 3 -> 10", "keys 1 of tier starter now growth",
		"kept credits 5000: it was set explicitly (the growth plan gives 10000); --credits 10000 takes the plan's"} {
		if !strings.Contains(out, want) {
			t.Errorf("update --plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "credits per month") {
		t.Errorf("explicit credits changed:\n%s", out)
	}
	list := mustCLI(t, vars, "keys", "list", "--workspace", "acme")
	if strings.Count(list, " growth ") != 1 || strings.Count(list, " default ") != 1 || strings.Count(list, " starter ") != 1 {
		t.Fatalf("key tiers after the plan change:\n%s", list)
	}
	out = squash(mustCLI(t, vars, "workspace", "update", "acme", "--unlimited", "--public-api=false", "--radars", "40"))
	if !strings.Contains(out, "credits per month 5000 -> unlimited") || !strings.Contains(out, "public API true -> false") ||
		!strings.Contains(out, "radars 25 -> 40") {
		t.Fatalf("update --unlimited --public-api=false --radars 40:\n%s", out)
	}
	if out := mustCLI(t, vars, "workspace", "update", "acme", "--plan", "growth"); !strings.Contains(out, "nothing changed") {
		t.Fatalf("same plan again:\n%s", out)
	}
	w, err := st.WorkspaceByName(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	if w.Plan != "growth" || w.Credits.Limit != nil || w.PublicAPI || *w.Radars.Limit != 40 || *w.RadarSignals.Limit != 100000 {
		t.Fatalf("stored after updates: %+v", w)
	}
	for _, bad := range [][]string{
		{"workspace", "update", "acme"},
		{"workspace", "update", "acme", "--credits", "5", "--unlimited"},
		{"workspace", "update", "acme", "--plan", "platinum"},
		{"workspace", "update", "acme", "--radars", "-1"},
		{"workspace", "update", "nope", "--plan", "growth"},
		{"workspace", "show", "nope"},
		{"workspace", "show"},
		{"radar", "list"},
		{"radar", "list", "--workspace", "nope"},
		{"workspace", "delete", "nope", "--yes"},
	} {
		if _, _, err := cli(t, vars, bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}

	// delete: refused without --yes when stdin is no terminal; on a
	// terminal, only the workspace's name confirms.
	if _, _, err := cli(t, vars, "workspace", "delete", "acme"); err == nil || !strings.Contains(err.Error(), "without --yes") {
		t.Fatalf("delete without --yes off a terminal: %v", err)
	}
	if _, _, err := prompt(t, vars, "yes\n", "workspace", "delete", "acme"); err == nil || !strings.Contains(err.Error(), "not deleted") {
		t.Fatalf("delete answered yes instead of the name: %v", err)
	}
	if _, err := st.WorkspaceByName(context.Background(), "acme"); err != nil {
		t.Fatalf("acme gone without confirmation: %v", err)
	}
	out, asked, err := prompt(t, vars, "acme\n", "workspace", "delete", "acme")
	if err != nil || !strings.Contains(asked, "with 3 keys, 1 radars and 3 leads") ||
		!strings.Contains(out, "deleted workspace acme (ws_") || !strings.Contains(out, "3 keys, 1 radars, 3 leads with 4 attached signals") ||
		!strings.Contains(out, "1 charges") {
		t.Fatalf("confirmed delete: %v\nasked %q\n%s", err, asked, out)
	}
	if _, _, err := cli(t, vars, "workspace", "show", "acme"); err == nil {
		t.Fatal("acme still shown after delete")
	}
	if n, err := st.CountPeople(context.Background()); err != nil {
		t.Fatal(err)
	} else if n != 30 {
		t.Fatalf("delete removed shared people: %d left", n)
	}
	out = mustCLI(t, vars, "workspace", "delete", "zeta", "--yes")
	if !strings.Contains(out, "deleted workspace zeta") {
		t.Fatalf("delete --yes: %s", out)
	}
	if out := mustCLI(t, vars, "workspace", "list", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("workspaces left: %s", out)
	}
}

// squash collapses runs of spaces, so table output compares without
// depending on column widths.
func squash(s string) string { return regexp.MustCompile(` {2,}`).ReplaceAllString(s, " ") }

// prompt runs a command as on a terminal that types input; it returns
// stdout, stderr (where questions go) and the error.
func prompt(t *testing.T, vars map[string]string, input string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut syncBuffer
	e := &env{getenv: func(k string) string { return vars[k] }, stdout: &out, stderr: &errOut,
		stdin: strings.NewReader(input), terminal: true}
	err := runEnv(context.Background(), args, e)
	return out.String(), errOut.String(), err
}
