package main

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/prospectorhq/prospector"
)

// printKeyHint tells the operator of serve how to get an API key when
// serve will not print one: a key is shown only once, when it is
// created, so after a restart on an existing store the only way to a key
// is to create another. On an empty store with --no-demo it says how to
// create a workspace first. The command carries the store options the
// operator used, so it opens the same store; a password in a
// --database-url is elided.
func printKeyHint(ctx context.Context, e *env, so *storeOptions, st prospector.Store, noDemo bool) error {
	ws, err := st.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	flags, note := so.commandFlags(e)
	switch {
	case len(ws) == 0 && !noDemo:
		return nil // serve creates the demo workspace and prints its key
	case len(ws) == 0:
		fmt.Fprintf(e.stdout, "No workspace yet. Create one and a key for it with:\n"+
			"  prospector workspace create NAME%s\n  prospector keys create --workspace NAME%s\n", flags, flags)
	default:
		name := ws[0].Name
		for _, w := range ws {
			if w.Name == "demo" {
				name = w.Name
			}
		}
		fmt.Fprintf(e.stdout, "This store has %d workspace(s); API keys are shown only when created. Get a new key with:\n"+
			"  prospector keys create --workspace %s%s\n", len(ws), name, flags)
		if len(ws) > 1 {
			fmt.Fprintf(e.stdout, "  (prospector workspace list%s names them all)\n", flags)
		}
	}
	if note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	return nil
}

// commandFlags are the store flags that make another command open the
// store these options open, and a note for what they cannot carry.
func (o storeOptions) commandFlags(e *env) (flags, note string) {
	switch {
	case o.databaseURL != "":
		u, err := url.Parse(o.databaseURL)
		if err != nil {
			return " --database-url URL", "(URL: the --database-url this server was given)"
		}
		if _, hasPassword := u.User.Password(); hasPassword {
			note = "(the password of --database-url is elided: put yours in its place)"
		}
		return " --database-url " + shellQuote(u.Redacted()), note
	case e.getenv("PROSPECTOR_DATABASE_URL") != "":
		return "", "(with the same PROSPECTOR_DATABASE_URL in the environment)"
	case o.dataDir != "" || e.getenv("PROSPECTOR_DATA") != "":
		return " --data " + shellQuote(o.dir(e)), ""
	}
	return "", ""
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
