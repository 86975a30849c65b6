package bench

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/mcp"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

type bearerRT struct {
	key  string
	next http.RoundTripper
}

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// BenchmarkMCPWarmTurn: a warm turn of the fake agent through the MCP
// server's send_prompt, on stdio (the API called in process) and over
// /mcp, against the same turn through POST /v1/sessions/{id}/messages,
// each on a session of its own of one daemon, alternating so that all
// three see the same machine noise.
func BenchmarkMCPWarmTurn(b *testing.B) {
	const turns = 400
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	d := testkit.StartDaemon(b, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: agent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+b.TempDir()), Root: b.TempDir(), DBPath: filepath.Join(b.TempDir(), "hotplex.db"),
	})
	ctx := context.Background()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: bearerRT{d.Alice, tr}}

	// MCP on a pipe, as `hotplex mcp` serves stdio.
	srvEnd, cliEnd := net.Pipe()
	srv := mcp.NewServer(client.InProcess(d.Handler()), mcp.Options{Key: d.Alice, Logger: quiet()})
	sctx, stop := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = srv.Run(sctx, &sdk.IOTransport{Reader: srvEnd, Writer: srvEnd})
	}()
	defer func() { stop(); <-ran }()
	cl := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	stdio, err := cl.Connect(ctx, &sdk.IOTransport{Reader: cliEnd, Writer: cliEnd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer stdio.Close()
	overHTTP, err := cl.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: d.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer overHTTP.Close()

	mcpTurn := func(cs *sdk.ClientSession, id, prompt string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "send_prompt", Arguments: map[string]any{"session_id": id, "prompt": prompt}})
		if err != nil || res.IsError {
			b.Fatalf("send_prompt: %v %+v", err, res)
		}
		return time.Since(start)
	}
	apiTurn := func(id, prompt string) time.Duration {
		start := time.Now()
		resp, err := hc.Post(d.URL+"/v1/sessions/"+id+"/messages", "application/json", bytes.NewReader([]byte(`{"prompt":"`+prompt+`"}`)))
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("turn: %v", err)
		}
		testkit.ReadSSE(resp.Body, func(e testkit.SSEEvent) bool { return e.Type == "result" })
		resp.Body.Close()
		return time.Since(start)
	}
	for _, id := range []string{"api", "stdio", "http"} {
		resp, err := hc.Post(d.URL+"/v1/sessions", "application/json", bytes.NewReader([]byte(`{"id":"`+id+`"}`)))
		if err != nil || resp.StatusCode != http.StatusCreated {
			b.Fatalf("create %s: %v", id, err)
		}
		resp.Body.Close()
	}
	// Warm: each session's process started.
	apiTurn("api", "warm")
	mcpTurn(stdio, "stdio", "warm")
	mcpTurn(overHTTP, "http", "warm")

	var api, viaStdio, viaHTTP []time.Duration
	b.ResetTimer()
	for i := range turns {
		p := "ping " + strconv.Itoa(i)
		api = append(api, apiTurn("api", p))
		viaStdio = append(viaStdio, mcpTurn(stdio, "stdio", p))
		viaHTTP = append(viaHTTP, mcpTurn(overHTTP, "http", p))
	}
	b.StopTimer()
	report(b, "MCP stdio send_prompt vs /v1", viaStdio, api)
	fmt.Printf("%-34s %s per turn, median of %d paired differences\n", "  stdio MCP added", pairedOverhead(viaStdio, api), turns)
	p50, _ := report(b, "MCP /mcp send_prompt vs /v1", viaHTTP, api)
	fmt.Printf("%-34s %s per turn, median of %d paired differences\n", "  /mcp added", pairedOverhead(viaHTTP, api), turns)
	b.ReportMetric(float64(p50.Microseconds()), "mcp-http-p50-µs")
}
