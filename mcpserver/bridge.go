package mcpserver

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bridge returns a server offering the tools of remote, a session with a
// running Prospector's /mcp, each call forwarded to it: what `prospector
// mcp` serves over stdio to a desktop agent. The tools, their schemas and
// their answers are the remote server's; so are authentication, rate
// limits, credits and the workspace, which the remote applies to the key
// remote connected with. A call the remote cannot answer (it is down, or
// refuses the key's rate) is a tool error saying why.
func Bridge(ctx context.Context, remote *mcp.ClientSession, version string, logger *slog.Logger) (*mcp.Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts := &mcp.ServerOptions{Logger: logger}
	if init := remote.InitializeResult(); init != nil {
		opts.Instructions = init.Instructions
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Prospector", Version: version}, opts)
	n := 0
	for tool, err := range remote.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcpserver: list the server's tools: %w", err)
		}
		srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := remote.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
			if err == nil {
				return res, nil
			}
			// The server answers a tool's failure as a tool error: an error
			// here is the way to it (down, a refused rate, a timeout), which
			// the agent should read, and may retry.
			logger.Warn("mcp bridge: call failed", "tool", req.Params.Name, "err", err)
			return &mcp.CallToolResult{IsError: true,
				Content: []mcp.Content{&mcp.TextContent{Text: "The Prospector server did not answer: " + err.Error()}}}, nil
		})
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("mcpserver: the server offers no tools")
	}
	return srv, nil
}
