package api

import (
	"net/http"

	"github.com/prospectorhq/prospector"
)

// serveMCP: POST /mcp, the Model Context Protocol's Streamable HTTP
// transport. The route's authentication has resolved the key, spent one
// unit of its budget and checked the public API switch, exactly as for
// any endpoint; the MCP server's tools act in that key's workspace.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) error {
	if s.mcp == nil {
		return prospector.Errorf(prospector.ENOTFOUND, "This server does not serve MCP.")
	}
	s.mcp.ServeMCP(w, r, principal(r.Context()))
	return nil
}
