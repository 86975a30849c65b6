// Command mcpecho is the smallest MCP server over stdio, for the tests of
// the MCP servers a session gives its agent: one tool, echo, that answers
// with its text and the server's name (its first argument).
package main

import (
	"context"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type echoOut struct {
	Echo string `json:"echo"`
}

func main() {
	name := "mcpecho"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
			return nil, echoOut{Echo: name + " echoes " + in.Text}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
