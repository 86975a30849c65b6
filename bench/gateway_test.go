package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// BenchmarkGatewayOverhead: one streamed model call through the gateway
// (token check, budget check, key swap, chunk-by-chunk pass-through with
// usage metering) against the same call made directly to the same model
// server, alternating in one run. The target is ≤ 1 ms p50 overhead.
func BenchmarkGatewayOverhead(b *testing.B) {
	const calls = 1000
	// A streamed answer of ~40 SSE events, and a request carrying a
	// conversation of some 30 KB, as an agent's calls do.
	answer := strings.Repeat("HotPlex forwards this chunk by chunk. ", 20)
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Default: &scriptedmodel.Reply{Text: []string{answer}}})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	gw := gateway.New(gateway.Options{Logger: quiet(), Upstreams: map[gateway.API]gateway.Upstream{
		gateway.Anthropic: {BaseURL: m.URL(), APIKey: "sk-operator"},
		gateway.OpenAI:    {BaseURL: m.URL() + "/v1", APIKey: "sk-operator"},
	}})
	if err := gw.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	defer gw.Close(context.Background())
	env, _, revoke, _ := gw.AgentEnv("bench", "owner", nil)
	defer revoke()
	token := testkit.EnvValue(env, "ANTHROPIC_API_KEY")
	history := strings.Repeat(`{"role":"user","content":"an earlier message of the conversation, repeated to make weight"},{"role":"assistant","content":"and its answer"},`, 250)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}

	for _, c := range []struct {
		name, direct, via, path, auth, body string
	}{
		{"anthropic messages", m.URL(), testkit.EnvValue(env, "ANTHROPIC_BASE_URL"), "/v1/messages", "X-Api-Key",
			`{"model":"claude-sonnet-4-5","stream":true,"max_tokens":1024,"tools":[{"name":"Bash"}],"messages":[` + history + `{"role":"user","content":"go"}]}`},
		// Chat Completions bodies are read and rewritten to ask for usage.
		{"openai chat", m.URL() + "/v1", testkit.EnvValue(env, "OPENAI_BASE_URL"), "/chat/completions", "Authorization",
			`{"model":"gpt-5","stream":true,"tools":[{"type":"function","function":{"name":"Bash"}}],"messages":[` + history + `{"role":"user","content":"go"}]}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			call := func(base, key string) time.Duration {
				req, _ := http.NewRequest("POST", base+c.path, bytes.NewReader([]byte(c.body)))
				if c.auth == "Authorization" {
					key = "Bearer " + key
				}
				req.Header.Set(c.auth, key)
				req.Header.Set("Content-Type", "application/json")
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				took := time.Since(start)
				if resp.StatusCode != 200 || n < int64(len(answer)) {
					b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
				}
				return took
			}
			for range 50 { // warm both paths' connections
				call(c.direct, "sk-operator")
				call(c.via, token)
			}
			via, direct := make([]time.Duration, 0, calls), make([]time.Duration, 0, calls)
			b.ResetTimer()
			for range b.N {
				for range calls {
					via = append(via, call(c.via, token))
					direct = append(direct, call(c.direct, "sk-operator"))
				}
			}
			b.StopTimer()
			report(b, "gateway "+c.name, via, direct)
			over := pairedOverhead(via, direct)
			fmt.Printf("%-34s %s per streamed call, median of %d paired differences (target ≤ 1ms)\n", "  gateway overhead", over, len(via))
			b.ReportMetric(float64(over.Microseconds()), "overhead-p50-µs")
			b.ReportMetric(float64(pct(via, 0.5))/float64(pct(direct, 0.5)), "ratio-p50")
		})
	}
	if tot := gw.SessionTotals("bench"); tot.Unmetered != 0 || tot.OutputTokens == 0 {
		b.Errorf("the benchmark's calls were not all metered: %+v", tot)
	}
}
