package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/mcpserver"
	"github.com/spf13/cobra"
)

// defaultServerURL is where `prospector mcp` finds serve by default: its
// default --addr.
const defaultServerURL = "http://127.0.0.1:8080"

type mcpOptions struct {
	url, key string
	timeout  time.Duration
}

func newMCPCommand(e *env) *cobra.Command {
	var o mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio, for desktop AI agents",
		Long: `Serve Prospector's MCP tools over stdio (JSON-RPC on stdin and stdout), for
AI agents that start a local command, forwarding every call to a running
Prospector server's /mcp endpoint (serve) with the API key.

The server applies the key as on the REST API: its workspace, rate limit
and credits. Nothing here opens the store: the agent needs only the
server's URL and a key. See docs/mcp.md for an agent's configuration.

The key is --key or $PROSPECTOR_API_KEY; the server --url or
$PROSPECTOR_URL (default ` + defaultServerURL + `). Logs go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.key == "" {
				o.key = e.getenv("PROSPECTOR_API_KEY")
			}
			if !cmd.Flags().Changed("url") {
				if v := e.getenv("PROSPECTOR_URL"); v != "" {
					o.url = v
				}
			}
			return serveMCPStdio(cmd.Context(), e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.url, "url", defaultServerURL, "URL of the running Prospector server (or $PROSPECTOR_URL)")
	f.StringVar(&o.key, "key", "", "API key (default $PROSPECTOR_API_KEY)")
	f.DurationVar(&o.timeout, "timeout", 2*time.Minute, "how long one call may take at the server")
	return cmd
}

// keyTransport sends the API key with every request.
type keyTransport struct {
	key  string
	next http.RoundTripper
}

func (t keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(prospector.KeyHeader, t.key)
	return t.next.RoundTrip(r)
}

// serveMCPStdio connects to the server's /mcp with the key, then serves
// its tools on e's stdin and stdout until stdin ends or ctx does.
func serveMCPStdio(ctx context.Context, e *env, o mcpOptions) error {
	// JSON like every other command's stderr, so one log pipeline reads both.
	logger := slog.New(slog.NewJSONHandler(e.stderr, nil))
	if o.key == "" {
		return fmt.Errorf("no API key: give --key or set PROSPECTOR_API_KEY (prospector keys create --workspace NAME makes one)")
	}
	base, err := url.Parse(strings.TrimSuffix(o.url, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fmt.Errorf("--url: %q is not an http(s) URL of a Prospector server", o.url)
	}
	endpoint := base.String() + "/mcp"
	client := mcp.NewClient(&mcp.Implementation{Name: "prospector-mcp", Version: version}, nil)
	remote, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1,
		HTTPClient: &http.Client{Timeout: o.timeout, Transport: keyTransport{key: o.key, next: http.DefaultTransport}}}, nil)
	if err != nil {
		return fmt.Errorf("connect to %s: %w (is serve running there, and is the key valid?)", endpoint, err)
	}
	defer remote.Close()
	local, err := mcpserver.Bridge(ctx, remote, version, logger)
	if err != nil {
		return err
	}
	logger.Info("serving MCP on stdio", "server", endpoint)
	return local.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
