package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestUnknownSubcommand: every command group, the root included, refuses
// an unknown or missing subcommand with an error naming it and the valid
// ones (so the process exits non-zero), instead of printing its help and
// succeeding.
func TestUnknownSubcommand(t *testing.T) {
	var groups []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasAvailableSubCommands() {
			groups = append(groups, c)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCommand(&env{getenv: func(string) string { return "" }}))
	seen := map[string]bool{}
	for _, g := range groups {
		path := strings.Fields(g.CommandPath())[1:] // without "prospector"
		seen[strings.Join(path, " ")] = true
		var valid []string
		for _, s := range g.Commands() {
			if s.IsAvailableCommand() {
				valid = append(valid, s.Name())
			}
		}
		for _, args := range [][]string{append(path, "frobnicate"), path} {
			out, errOut, err := cli(t, nil, args...)
			if err == nil {
				t.Errorf("prospector %s: no error; stdout %q", strings.Join(args, " "), out)
				continue
			}
			msg := err.Error()
			if len(args) > len(path) && !strings.Contains(msg, `unknown command "frobnicate" for "`+g.CommandPath()+`"`) {
				t.Errorf("prospector %s: %q does not name the unknown command", strings.Join(args, " "), msg)
			}
			if len(args) == len(path) && !strings.Contains(msg, `missing command for "`+g.CommandPath()+`"`) {
				t.Errorf("prospector %s: %q does not say a command is missing", strings.Join(args, " "), msg)
			}
			if !strings.Contains(msg, "use one of: "+strings.Join(valid, ", ")) {
				t.Errorf("prospector %s: %q does not list %v", strings.Join(args, " "), msg, valid)
			}
			if strings.Contains(out+errOut, "Usage:") {
				t.Errorf("prospector %s printed the help instead", strings.Join(args, " "))
			}
		}
	}
	for _, want := range []string{"", "workspace", "keys", "radar", "demo", "integrations", "deliveries", "bench", "completion"} {
		if !seen[want] {
			t.Errorf("group %q not checked; checked %v", want, seen)
		}
	}
	// A near miss gets a suggestion.
	if _, _, err := cli(t, nil, "workspace", "lst"); err == nil || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("workspace lst: %v", err)
	}
	// Help and version still work and succeed.
	for _, args := range [][]string{{"--help"}, {"workspace", "--help"}, {"--version"}} {
		if out, _, err := cli(t, nil, args...); err != nil || out == "" {
			t.Errorf("prospector %s: %q %v", strings.Join(args, " "), out, err)
		}
	}
}
