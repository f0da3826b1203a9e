// Package mcpserver is Prospector's Model Context Protocol server: every
// workflow of the API as a tool an AI agent can call, over Streamable
// HTTP at /mcp on serve (Handler) and, through `prospector mcp`, over
// stdio (Bridge). Tools call the same workflow methods as the API's
// handlers, decode their arguments with the API's decoder and take their
// input schemas from the workflows' request types, completed with the
// descriptions and bounds of the API's OpenAPI document (schema.go), so
// an agent gets the API's answers and the API's messages (docs/mcp.md).
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/workflows"
)

// Config is what the server needs; main builds it.
type Config struct {
	// Workflows are the services the tools call (required): the same set
	// the API server calls.
	Workflows *workflows.Services
	// Document is the API's OpenAPI document (api.OpenAPIDocument): the
	// tools' descriptions and the bounds of their arguments come from it.
	Document []byte
	Version  string
	// Logger receives internal errors of tool calls; nil discards them.
	Logger *slog.Logger
}

// Name is the server's name in the MCP handshake.
const Name = "prospector"

// New returns the MCP server with every tool. It fails when a tool's
// arguments and the API operation it mirrors disagree (a member without
// documentation), which the tests catch before a release does.
func New(cfg Config) (*mcp.Server, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	doc, err := parseDocument(cfg.Document)
	if err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Prospector", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: logger})
	for _, t := range tools(cfg.Workflows) {
		tool, err := t.describe(doc)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: tool %s: %w", t.name, err)
		}
		srv.AddTool(tool, t.handler(logger))
	}
	return srv, nil
}

// instructions tell an agent what the server is for.
const instructions = `Prospector is a prospecting intelligence service: discover and search companies and people, find contacts and work emails, read buying signals, run radars that collect leads, export and push leads, and record outreach outcomes. Every tool acts in the workspace of the API key the connection authenticated with. Search tools page with a cursor: pass pagination.next_cursor back as cursor. meta_field_values lists the values filters take. find_email spends one credit when it finds an address; account_credit_usage shows what is left.`

type principalKey struct{}

// WithPrincipal returns ctx carrying the caller whose workspace tool
// calls act in: the HTTP handler sets it from the API's authentication,
// and a server connected another way (tests) sets it on the session's
// context.
func WithPrincipal(ctx context.Context, p *prospector.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

func principalOf(ctx context.Context) *prospector.Principal {
	p, _ := ctx.Value(principalKey{}).(*prospector.Principal)
	return p
}

var errNoPrincipal = prospector.Errorf(prospector.EUNAUTHORIZED, "Missing API key: the MCP session is not authenticated.")

// Handler serves MCP's Streamable HTTP transport for callers the API has
// authenticated. It is stateless and answers in JSON: every POST stands
// alone, so each is authenticated, rate limited and bound to its key's
// workspace by the API like any request, and any node of a deployment
// can answer it.
type Handler struct{ h http.Handler }

// MaxBodyBytes bounds a message, as the API bounds a body.
const MaxBodyBytes = 1 << 20

// NewHandler returns the HTTP transport of srv.
func NewHandler(srv *mcp.Server, logger *slog.Logger) *Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Handler{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: logger, MaxRequestBodyBytes: MaxBodyBytes,
			PropagateRequestCancellation: true})}
}

// ServeMCP serves one MCP message of the caller p, whom the API
// authenticated.
func (h *Handler) ServeMCP(w http.ResponseWriter, r *http.Request, p *prospector.Principal) {
	h.h.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
}

// result renders a workflow's answer as structured content: an object,
// lists wrapped as {"items": [...]}, with the same JSON as text for
// clients that read only text.
func result(out any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: encode: %w", err)
	}
	if len(b) > 0 && b[0] != '{' {
		b = append(append([]byte(`{"items":`), b...), '}')
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

// toolError is a failed call as the agent sees it: a tool error whose
// text is the API's message, with the API's error object as structured
// content. Internal failures are logged and answered with the API's
// generic message, as the API answers them.
func toolError(ctx context.Context, logger *slog.Logger, name string, err error) *mcp.CallToolResult {
	if prospector.Internal(err) && !errors.Is(err, context.Canceled) {
		logger.LogAttrs(ctx, slog.LevelError, "mcp tool", slog.String("tool", name), slog.String("err", err.Error()))
	}
	code := prospector.ErrorCode(err)
	msg := prospector.ErrorMessage(err)
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code.String(), "message": msg}})
	return &mcp.CallToolResult{IsError: true, StructuredContent: json.RawMessage(body),
		Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
