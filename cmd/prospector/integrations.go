package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/webhook"
	"github.com/spf13/cobra"
)

func newIntegrationsCommand(e *env, so *storeOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "integrations",
		Short: "Configure where a workspace's leads go: its webhook and outreach tools",
		Long: `Configure outbound lead deliveries (docs/webhooks.md). Secrets (the auth header
value, the signing secret, API keys) are stored because every delivery needs
them, and are never printed back in full.`,
	}
	cmd.AddCommand(newIntegrationsWebhookCommand(e, so), newIntegrationsOutreachCommand(e, so),
		newIntegrationsPrivateWebhooksCommand(e, so))
	return cmd
}

// allowPrivate reports whether the operator allows private destinations
// for this command alone (the deployment's setting aside).
func allowPrivate(e *env, flag bool) bool {
	return flag || e.getenv("PROSPECTOR_ALLOW_PRIVATE_WEBHOOKS") == "1"
}

// checkDestination refuses a URL the delivery client would refuse by its
// look alone (scheme, user info, a private address or local name), unless
// allow or the deployment's setting in st allows private destinations.
func checkDestination(ctx context.Context, e *env, st prospector.SettingStore, raw string, allow bool, what string) error {
	if err := prospector.ValidateOutboundURL(raw); err != nil {
		return fmt.Errorf("%s: %s", what, err.Message)
	}
	c := webhook.NewClient(webhook.Config{AllowPrivate: allowPrivate(e, allow), Policy: webhook.SettingPolicy(st)})
	if _, err := c.CheckURL(ctx, raw); err != nil {
		return fmt.Errorf("%s: %w (for local testing run 'prospector integrations private-webhooks --allow')", what, err)
	}
	return nil
}

type webhookFlags struct {
	workspace     string
	url           string
	authHeader    string
	authValue     string
	authValueEnv  string
	clearAuth     bool
	disable       []string
	enable        []string
	custom        []string
	customJSON    []string
	removeCustom  []string
	template      string
	clearTemplate bool
	autoSync      bool
	rotate        bool
	show          bool
	allowPrivate  bool
}

func newIntegrationsWebhookCommand(e *env, so *storeOptions) *cobra.Command {
	var f webhookFlags
	cmd := &cobra.Command{
		Use:   "webhook --workspace NAME [flags]",
		Short: "Set a workspace's webhook: URL, auth header, fields, template, auto-sync; --show prints it",
		Long: `Create or change a workspace's webhook settings. The first call creates them
with a Standard Webhooks signing secret, printed once, alone on the last line
(--rotate-secret makes and prints a new one). --show, or no change flags,
prints the settings with secrets masked.

--url is the auto-sync destination (pushes name their own). --auth-header and
--auth-value set the header every delivery carries (--auth-value-env VAR reads
the value from the environment, keeping it out of shell history).
--disable-field and --enable-field toggle fields of the default envelope and
lead entries; --custom-field k=v adds a static string member (lead.k=v: to
each lead entry), --custom-field-json k=JSON any JSON value. --template FILE
replaces the shape with a JSON template (docs/webhooks.md). Private and
loopback URLs are refused unless the deployment allows them ('prospector
integrations private-webhooks --allow').`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIntegrationsWebhook(cmd, e, so, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.workspace, "workspace", "", "workspace name (required)")
	fl.StringVar(&f.url, "url", "", "auto-sync destination URL (http or https); \"\" clears it")
	fl.StringVar(&f.authHeader, "auth-header", "", "name of the auth header deliveries carry, e.g. Authorization")
	fl.StringVar(&f.authValue, "auth-value", "", "value of the auth header (a secret)")
	fl.StringVar(&f.authValueEnv, "auth-value-env", "", "read the auth header value from this environment variable")
	fl.BoolVar(&f.clearAuth, "clear-auth", false, "remove the auth header")
	fl.StringArrayVar(&f.disable, "disable-field", nil, "leave a field out of the default shape (repeatable)")
	fl.StringArrayVar(&f.enable, "enable-field", nil, "put a disabled field back (repeatable)")
	fl.StringArrayVar(&f.custom, "custom-field", nil, "add a static string member k=v, or lead.k=v to each lead (repeatable)")
	fl.StringArrayVar(&f.customJSON, "custom-field-json", nil, "add a static member k=JSON (repeatable)")
	fl.StringArrayVar(&f.removeCustom, "remove-custom-field", nil, "remove a custom member (repeatable)")
	fl.StringVar(&f.template, "template", "", "file holding a JSON template that replaces the default shape")
	fl.BoolVar(&f.clearTemplate, "clear-template", false, "go back to the default shape")
	fl.BoolVar(&f.autoSync, "auto-sync", false, "deliver new radar leads to --url as they surface")
	fl.BoolVar(&f.rotate, "rotate-secret", false, "make a new signing secret and print it once")
	fl.BoolVar(&f.show, "show", false, "print the settings (secrets masked) and change nothing")
	fl.BoolVar(&f.allowPrivate, "allow-private-webhooks", false, "accept private and loopback URLs (local testing)")
	return cmd
}

func runIntegrationsWebhook(cmd *cobra.Command, e *env, so *storeOptions, f *webhookFlags) error {
	if f.workspace == "" {
		return fmt.Errorf("--workspace is required")
	}
	changes := false
	for _, name := range []string{"url", "auth-header", "auth-value", "auth-value-env", "clear-auth", "disable-field",
		"enable-field", "custom-field", "custom-field-json", "remove-custom-field", "template", "clear-template",
		"auto-sync", "rotate-secret"} {
		changes = changes || cmd.Flags().Changed(name)
	}
	if f.show && changes {
		return fmt.Errorf("--show changes nothing: use it alone")
	}
	ctx := cmd.Context()
	st, err := so.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	w, err := st.WorkspaceByName(ctx, f.workspace)
	if err != nil {
		return fmt.Errorf("workspace %q: %w", f.workspace, err)
	}
	s, err := st.WebhookSettings(ctx, w.ID)
	exists := err == nil
	if err != nil && !errors.Is(err, prospector.ErrNotFound) {
		return err
	}
	if !changes {
		if !exists {
			fmt.Fprintf(e.stdout, "workspace %s has no webhook settings; set them with --url, --auth-header, ...\n", w.Name)
			return nil
		}
		printWebhookSettings(e.stdout, w, s)
		return nil
	}
	if !exists {
		s = &prospector.WebhookSettings{WorkspaceID: w.ID, SigningSecret: prospector.NewWebhookSecret()}
	}
	newSecret := !exists
	if err := applyWebhookFlags(cmd, e, st, f, s); err != nil {
		return err
	}
	if f.rotate {
		s.SigningSecret, newSecret = prospector.NewWebhookSecret(), true
	}
	if err := webhook.CheckSettings(s); err != nil {
		return err
	}
	if exists {
		err = st.UpdateWebhookSettings(ctx, s)
	} else {
		err = st.CreateWebhookSettings(ctx, s)
	}
	if err != nil {
		return fmt.Errorf("save webhook settings: %w", err)
	}
	verb := "updated"
	if !exists {
		verb = "created"
	}
	fmt.Fprintf(e.stdout, "%s webhook settings of workspace %s\n", verb, w.Name)
	printWebhookSettings(e.stdout, w, s)
	if newSecret {
		fmt.Fprintln(e.stdout, "signing secret (receivers verify webhook-signature with it; shown only this once):")
		fmt.Fprintln(e.stdout, s.SigningSecret)
	}
	return nil
}

func applyWebhookFlags(cmd *cobra.Command, e *env, st prospector.SettingStore, f *webhookFlags, s *prospector.WebhookSettings) error {
	changed := cmd.Flags().Changed
	if changed("url") {
		if f.url != "" {
			if err := checkDestination(cmd.Context(), e, st, f.url, f.allowPrivate, "--url"); err != nil {
				return err
			}
		}
		if f.url != s.URL {
			s.DisabledReason, s.DisabledAt = "", nil
		}
		s.URL = f.url
	}
	if f.clearAuth {
		if changed("auth-header") || changed("auth-value") || changed("auth-value-env") {
			return fmt.Errorf("--clear-auth excludes the other --auth flags")
		}
		s.AuthHeader, s.AuthValue = "", ""
	}
	if changed("auth-value-env") {
		if changed("auth-value") {
			return fmt.Errorf("--auth-value and --auth-value-env exclude each other")
		}
		f.authValue = e.getenv(f.authValueEnv)
		if f.authValue == "" {
			return fmt.Errorf("--auth-value-env: $%s is empty", f.authValueEnv)
		}
	}
	if changed("auth-header") {
		s.AuthHeader = f.authHeader
	}
	if changed("auth-value") || changed("auth-value-env") {
		s.AuthValue = f.authValue
	}
	if s.AuthHeader != "" || s.AuthValue != "" {
		if err := prospector.ValidateAuthHeader(s.AuthHeader, s.AuthValue); err != nil {
			return err
		}
	}
	for _, field := range f.disable {
		if !slices.Contains(s.DisabledFields, field) {
			s.DisabledFields = append(s.DisabledFields, field)
		}
	}
	for _, field := range f.enable {
		s.DisabledFields = slices.DeleteFunc(s.DisabledFields, func(x string) bool { return x == field })
	}
	sort.Strings(s.DisabledFields)
	if s.CustomFields == nil {
		s.CustomFields = map[string]json.RawMessage{}
	}
	for _, kv := range f.custom {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("--custom-field %q: want NAME=VALUE", kv)
		}
		raw, _ := json.Marshal(v)
		s.CustomFields[k] = raw
	}
	for _, kv := range f.customJSON {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || !json.Valid([]byte(v)) {
			return fmt.Errorf("--custom-field-json %q: want NAME=JSON", kv)
		}
		s.CustomFields[k] = json.RawMessage(v)
	}
	for _, k := range f.removeCustom {
		delete(s.CustomFields, k)
	}
	if changed("template") {
		if f.clearTemplate {
			return fmt.Errorf("--template and --clear-template exclude each other")
		}
		b, err := readTemplate(f.template)
		if err != nil {
			return err
		}
		s.Template = b
	}
	if f.clearTemplate {
		s.Template = ""
	}
	if changed("auto-sync") {
		s.AutoSync = f.autoSync
		if f.autoSync {
			s.DisabledReason, s.DisabledAt = "", nil
		}
	}
	return nil
}

func readTemplate(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--template: %w", err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, webhook.MaxTemplate+1))
	if err != nil {
		return "", fmt.Errorf("--template: %w", err)
	}
	if len(b) > webhook.MaxTemplate {
		return "", fmt.Errorf("--template: larger than %d bytes", webhook.MaxTemplate)
	}
	return string(b), nil
}

func printWebhookSettings(out io.Writer, w *prospector.Workspace, s *prospector.WebhookSettings) {
	orNone := func(v string) string {
		if v == "" {
			return "(none)"
		}
		return v
	}
	fmt.Fprintf(out, "  workspace       %s (%s)\n", w.Name, w.ID)
	fmt.Fprintf(out, "  url             %s\n", orNone(s.URL))
	auto := fmt.Sprint(s.AutoSync)
	if !s.AutoSync && s.DisabledReason != "" {
		auto += " (switched off: " + s.DisabledReason + ")"
	}
	fmt.Fprintf(out, "  auto-sync       %s\n", auto)
	auth := "(none)"
	if s.AuthHeader != "" {
		auth = s.AuthHeader + ": " + prospector.MaskSecret(s.AuthValue)
	}
	fmt.Fprintf(out, "  auth header     %s\n", auth)
	fmt.Fprintf(out, "  signing secret  %s\n", prospector.MaskSecret(s.SigningSecret))
	fmt.Fprintf(out, "  disabled fields %s\n", orNone(strings.Join(s.DisabledFields, ", ")))
	names := make([]string, 0, len(s.CustomFields))
	for k := range s.CustomFields {
		names = append(names, k)
	}
	sort.Strings(names)
	custom := make([]string, len(names))
	for i, k := range names {
		custom[i] = k + "=" + string(s.CustomFields[k])
	}
	fmt.Fprintf(out, "  custom fields   %s\n", orNone(strings.Join(custom, ", ")))
	shape := "default envelope"
	if s.Template != "" {
		shape = fmt.Sprintf("template (%d bytes)", len(s.Template))
	}
	fmt.Fprintf(out, "  shape           %s\n", shape)
}

type outreachFlags struct {
	workspace    string
	tool         string
	baseURL      string
	apiKey       string
	apiKeyEnv    string
	campaign     string
	list         string
	show         bool
	allowPrivate bool
}

func newIntegrationsOutreachCommand(e *env, so *storeOptions) *cobra.Command {
	var f outreachFlags
	cmd := &cobra.Command{
		Use:   "outreach --workspace NAME --tool outreach_tool_a|outreach_tool_b --base-url URL --api-key KEY --campaign ID|--list ID",
		Short: "Connect a workspace to an outreach tool; --show lists its integrations",
		Long: `Connect a workspace to an outreach tool, so that POST /leads/push can send
leads there (docs/webhooks.md). outreach_tool_a adds leads to a campaign
(--campaign), outreach_tool_b adds contacts to a list (--list). Changing an
existing integration needs only the flags that change. --api-key-env VAR
reads the key from the environment. --show prints the workspace's
integrations with keys masked.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIntegrationsOutreach(cmd, e, so, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.workspace, "workspace", "", "workspace name (required)")
	fl.StringVar(&f.tool, "tool", "", "outreach_tool_a or outreach_tool_b")
	fl.StringVar(&f.baseURL, "base-url", "", "the tool's API base URL")
	fl.StringVar(&f.apiKey, "api-key", "", "the tool's API key (a secret)")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "read the API key from this environment variable")
	fl.StringVar(&f.campaign, "campaign", "", "campaign id leads join (outreach_tool_a)")
	fl.StringVar(&f.list, "list", "", "list id contacts join (outreach_tool_b)")
	fl.BoolVar(&f.show, "show", false, "print the workspace's integrations (keys masked)")
	fl.BoolVar(&f.allowPrivate, "allow-private-webhooks", false, "accept a private or loopback base URL (local testing)")
	return cmd
}

func runIntegrationsOutreach(cmd *cobra.Command, e *env, so *storeOptions, f *outreachFlags) error {
	if f.workspace == "" {
		return fmt.Errorf("--workspace is required")
	}
	ctx := cmd.Context()
	st, err := so.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	w, err := st.WorkspaceByName(ctx, f.workspace)
	if err != nil {
		return fmt.Errorf("workspace %q: %w", f.workspace, err)
	}
	if f.show {
		list, err := st.ListOutreachIntegrations(ctx, w.ID)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintf(e.stdout, "workspace %s has no outreach integrations\n", w.Name)
		}
		for _, in := range list {
			if f.tool == "" || f.tool == in.Tool {
				printOutreach(e.stdout, in)
			}
		}
		return nil
	}
	if !prospector.ValidOutreachTool(f.tool) {
		return fmt.Errorf("--tool must be outreach_tool_a or outreach_tool_b")
	}
	in, err := st.OutreachIntegration(ctx, w.ID, f.tool)
	if errors.Is(err, prospector.ErrNotFound) {
		in, err = &prospector.OutreachIntegration{WorkspaceID: w.ID, Tool: f.tool}, nil
	}
	if err != nil {
		return err
	}
	changed := cmd.Flags().Changed
	if changed("base-url") {
		if err := checkDestination(ctx, e, st, f.baseURL, f.allowPrivate, "--base-url"); err != nil {
			return err
		}
		in.BaseURL = f.baseURL
	}
	if changed("api-key-env") {
		if changed("api-key") {
			return fmt.Errorf("--api-key and --api-key-env exclude each other")
		}
		if f.apiKey = e.getenv(f.apiKeyEnv); f.apiKey == "" {
			return fmt.Errorf("--api-key-env: $%s is empty", f.apiKeyEnv)
		}
	}
	if changed("api-key") || changed("api-key-env") {
		in.APIKey = f.apiKey
	}
	if changed("campaign") {
		in.CampaignID = f.campaign
	}
	if changed("list") {
		in.ListID = f.list
	}
	if err := in.Validate(); err != nil {
		return err
	}
	if err := st.PutOutreachIntegration(ctx, in); err != nil {
		return fmt.Errorf("save %s integration: %w", in.Tool, err)
	}
	fmt.Fprintf(e.stdout, "saved %s integration of workspace %s\n", in.Tool, w.Name)
	printOutreach(e.stdout, in)
	return nil
}

func printOutreach(out io.Writer, in *prospector.OutreachIntegration) {
	target := "campaign " + in.CampaignID
	if in.Tool == prospector.DestinationOutreachToolB {
		target = "list " + in.ListID
	}
	fmt.Fprintf(out, "  %s  %s  api key %s  %s\n", in.Tool, in.BaseURL, prospector.MaskSecret(in.APIKey), target)
}
