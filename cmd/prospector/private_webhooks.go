package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/spf13/cobra"
)

// Whether deliveries may reach private addresses is one setting of the
// deployment (prospector.SettingAllowPrivateWebhooks), not of a node:
// nodes share the job queue, and a delivery's fate must not depend on
// which node claims it (docs/decisions.md, "Webhooks and outreach").

// setPrivateWebhooks records allow as the deployment's setting.
func setPrivateWebhooks(ctx context.Context, st prospector.SettingStore, allow bool) error {
	if err := st.SetSetting(ctx, prospector.SettingAllowPrivateWebhooks, strconv.FormatBool(allow)); err != nil {
		return fmt.Errorf("private webhooks setting: %w", err)
	}
	return nil
}

// servePrivateWebhooks applies serve's --allow-private-webhooks (when
// given; set says so) or $PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS (when set) to
// the deployment's setting, then logs the setting in force. A node
// started with neither follows the setting as it is.
func servePrivateWebhooks(ctx context.Context, e *env, st prospector.SettingStore, flag, set bool, logger *slog.Logger) error {
	if !set {
		switch v := e.getenv("PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS"); v {
		case "":
		case "1", "true":
			flag, set = true, true
		case "0", "false":
			flag, set = false, true
		default:
			return fmt.Errorf("PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS=%q: want 1 or 0", v)
		}
	}
	if set {
		if err := setPrivateWebhooks(ctx, st, flag); err != nil {
			return err
		}
	}
	allow, err := webhook.SettingPolicy(st)(ctx)
	if err != nil {
		return fmt.Errorf("private webhooks setting: %w", err)
	}
	if allow {
		logger.Warn("webhook and outreach deliveries may reach private and loopback addresses: a setting of the whole deployment (prospector integrations private-webhooks --deny turns it off)")
	}
	return nil
}

func newIntegrationsPrivateWebhooksCommand(e *env, so *storeOptions) *cobra.Command {
	var allow, deny bool
	cmd := &cobra.Command{
		Use:   "private-webhooks [--allow | --deny]",
		Short: "Show or change whether deliveries may reach private and loopback addresses (the whole deployment)",
		Long: `Show, or change with --allow or --deny, whether webhook and outreach deliveries
may reach loopback, private, link-local and other internal addresses. It is
one setting of the deployment, kept in the store: every node reads it before
each request, so a change applies to all of them at once, without a restart,
and a delivery's fate never depends on the node that sends it. Denied is the
default, and what a public deployment wants; allow it for local development
or for receivers on your own network. serve --allow-private-webhooks[=false]
sets it too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if allow && deny {
				return fmt.Errorf("--allow and --deny exclude each other")
			}
			ctx := cmd.Context()
			st, err := so.open(ctx, e)
			if err != nil {
				return err
			}
			defer st.Close()
			if allow || deny {
				if err := setPrivateWebhooks(ctx, st, allow); err != nil {
					return err
				}
			}
			on, err := webhook.SettingPolicy(st)(ctx)
			if err != nil {
				return err
			}
			if on {
				fmt.Fprintln(e.stdout, "private webhooks: allowed (deliveries may reach loopback, private and link-local addresses)")
			} else {
				fmt.Fprintln(e.stdout, "private webhooks: denied (deliveries to internal addresses are refused)")
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&allow, "allow", false, "let every node deliver to private and loopback addresses")
	cmd.Flags().BoolVar(&deny, "deny", false, "refuse private and loopback addresses on every node (the default)")
	return cmd
}
