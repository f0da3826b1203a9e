package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// groupRunE makes a command group refuse an unknown or missing
// subcommand with an error naming it and the valid ones, so the process
// exits non-zero. Without it cobra prints the group's help and exits 0,
// which a script cannot tell from success.
func groupRunE(cmd *cobra.Command, args []string) error {
	var valid []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			valid = append(valid, c.Name())
		}
	}
	list := strings.Join(valid, ", ")
	if len(args) == 0 {
		return fmt.Errorf("missing command for %q; use one of: %s (see %s --help)", cmd.CommandPath(), list, cmd.CommandPath())
	}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's default, which it sets on the root only
	}
	hint := ""
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		hint = fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
	}
	return fmt.Errorf("unknown command %q for %q%s; use one of: %s (see %s --help)",
		args[0], cmd.CommandPath(), hint, list, cmd.CommandPath())
}

// asGroups gives every command with subcommands under (and including)
// cmd the groupRunE behaviour.
func asGroups(cmd *cobra.Command) {
	if cmd.HasSubCommands() && cmd.RunE == nil && cmd.Run == nil {
		cmd.Args = cobra.ArbitraryArgs
		cmd.RunE = groupRunE
	}
	for _, c := range cmd.Commands() {
		asGroups(c)
	}
}
