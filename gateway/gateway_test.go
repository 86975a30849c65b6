package gateway_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// secret is a key no one else uses, so a test can look for it anywhere.
func secret(t testing.TB, label string) string {
	t.Helper()
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "sk-" + label + "-" + hex.EncodeToString(b)
}

// rig is a gateway in front of a fake model, with one agent's token.
type rig struct {
	fm      *scriptedmodel.Server
	gw      *gateway.Gateway
	key     string // the operator's upstream key
	env     []string
	token   string
	revoke  func()
	budgets []*gateway.BudgetError
	mu      sync.Mutex
}

func newRig(t testing.TB, script scriptedmodel.Script, opts gateway.Options) *rig {
	t.Helper()
	fm, err := scriptedmodel.Start("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fm.Close() })
	r := &rig{fm: fm, key: secret(t, "operator")}
	opts.Upstreams = map[gateway.API]gateway.Upstream{
		gateway.Anthropic: {BaseURL: fm.URL(), APIKey: r.key},
		gateway.OpenAI:    {BaseURL: fm.URL() + "/v1", APIKey: r.key},
		gateway.Gemini:    {BaseURL: fm.URL(), APIKey: r.key},
	}
	opts.OnBudgetExceeded = func(e *gateway.BudgetError) {
		r.mu.Lock()
		r.budgets = append(r.budgets, e)
		r.mu.Unlock()
	}
	r.gw = gateway.New(opts)
	if err := r.gw.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = r.gw.Close(ctx)
	})
	env, _, revoke, err := r.gw.AgentEnv("s1", "alice", []string{"PATH=/bin"})
	if err != nil {
		t.Fatal(err)
	}
	r.env, r.token, r.revoke = env, testkit.EnvValue(env, "ANTHROPIC_API_KEY"), revoke
	return r
}

func (r *rig) exceeded() []*gateway.BudgetError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*gateway.BudgetError(nil), r.budgets...)
}

// call is one model call in an API's own shape, made the way that API's
// SDKs make it.
type call struct {
	name   string
	api    gateway.API
	path   string // after the base URL
	body   string
	header string // where the SDK puts the key
	// want converts what the scripted model reported into the gateway's terms.
	want func(scriptedmodel.Usage) gateway.Usage
}

func anthropicUsage(u scriptedmodel.Usage) gateway.Usage {
	return gateway.Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens), CacheReadTokens: int64(u.CacheReadTokens), CacheWriteTokens: int64(u.CacheWriteTokens)}
}

// cachedInside: OpenAI and Gemini count cached tokens inside the prompt.
func cachedInside(u scriptedmodel.Usage) gateway.Usage {
	return gateway.Usage{InputTokens: int64(u.InputTokens - u.CacheReadTokens), OutputTokens: int64(u.OutputTokens), CacheReadTokens: int64(u.CacheReadTokens)}
}

const tools = `"tools":[{"name":"Bash","type":"function","function":{"name":"Bash"}}]`

var calls = []call{
	{"messages stream", gateway.Anthropic, "/v1/messages", `{"model":"claude-sonnet-4-5","stream":true,"max_tokens":100,` + tools + `,"messages":[{"role":"user","content":"hello"}]}`, "x-api-key", anthropicUsage},
	{"messages", gateway.Anthropic, "/v1/messages", `{"model":"claude-sonnet-4-5","max_tokens":100,` + tools + `,"messages":[{"role":"user","content":"hello"}]}`, "x-api-key", anthropicUsage},
	{"chat stream", gateway.OpenAI, "/chat/completions", `{"model":"gpt-5","stream":true,` + tools + `,"messages":[{"role":"user","content":"hello"}]}`, "bearer", cachedInside},
	{"chat stream with usage", gateway.OpenAI, "/chat/completions", `{"model":"gpt-5","stream":true,"stream_options":{"include_usage":true},` + tools + `,"messages":[{"role":"user","content":"hello"}]}`, "bearer", cachedInside},
	{"chat", gateway.OpenAI, "/chat/completions", `{"model":"gpt-5",` + tools + `,"messages":[{"role":"user","content":"hello"}]}`, "bearer", cachedInside},
	{"responses stream", gateway.OpenAI, "/responses", `{"model":"gpt-5","stream":true,"tools":[{"type":"function","name":"shell"}],"input":"hello"}`, "bearer", cachedInside},
	{"responses", gateway.OpenAI, "/responses", `{"model":"gpt-5","tools":[{"type":"function","name":"shell"}],"input":"hello"}`, "bearer", cachedInside},
	{"gemini stream", gateway.Gemini, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hello"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`, "x-goog-api-key", cachedInside},
	{"gemini", gateway.Gemini, "/v1beta/models/gemini-2.5-pro:generateContent", `{"contents":[{"role":"user","parts":[{"text":"hello"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`, "query", cachedInside},
}

// baseURL is the gateway URL an agent finds in its environment for api.
func baseURL(env []string, api gateway.API) string {
	switch api {
	case gateway.OpenAI:
		return testkit.EnvValue(env, "OPENAI_BASE_URL")
	case gateway.Gemini:
		return testkit.EnvValue(env, "GOOGLE_GEMINI_BASE_URL")
	}
	return testkit.EnvValue(env, "ANTHROPIC_BASE_URL")
}

func (r *rig) do(t testing.TB, c call, token string) *http.Response {
	t.Helper()
	url := baseURL(r.env, c.api) + c.path
	if c.header == "query" {
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		url += sep + "key=" + token
	}
	req, err := http.NewRequest("POST", url, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	switch c.header {
	case "x-api-key":
		req.Header.Set("X-Api-Key", token)
		req.Header.Set("Anthropic-Version", "2023-06-01")
	case "bearer":
		req.Header.Set("Authorization", "Bearer "+token)
	case "x-goog-api-key":
		req.Header.Set("X-Goog-Api-Key", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func readAll(t testing.TB, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestForwardsAndMetersEachAPI: every API's calls, streamed and not, reach
// the model with the operator's key (never the agent's token), come back
// whole, and are metered exactly as the model reported them.
func TestForwardsAndMetersEachAPI(t *testing.T) {
	reply := scriptedmodel.Reply{Text: []string{"The answer is forty-two, said slowly over several chunks."},
		InputTokens: 1234, OutputTokens: 56, CacheReadTokens: 78, CacheWriteTokens: 9}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, scriptedmodel.Script{Default: &reply}, gateway.Options{})
			resp := r.do(t, c, r.token)
			body := readAll(t, resp)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if !strings.Contains(body, "forty-two") && !strings.Contains(body, "forty") {
				t.Errorf("answer missing from the response:\n%s", body)
			}
			reqs := r.fm.Requests()
			if len(reqs) != 1 {
				t.Fatalf("model saw %d calls, want 1", len(reqs))
			}
			if reqs[0].Auth != r.key {
				t.Errorf("upstream got credential %q, want the operator's key", reqs[0].Auth)
			}
			if strings.Contains(body, r.key) {
				t.Error("the operator's key came back in the response")
			}
			got := r.gw.SessionTotals("s1")
			want := c.want(reqs[0].Usage)
			if got.Usage != want || got.Requests != 1 || got.Unmetered != 0 {
				t.Errorf("metered %+v, want %+v from the model's %+v", got, want, reqs[0].Usage)
			}
			if got.CostUSD <= 0 {
				t.Errorf("cost %v, want > 0 for a priced model", got.CostUSD)
			}
			rep := r.gw.Report()
			if rep.Owners["alice"] != got {
				t.Errorf("owner totals %+v, want the session's %+v", rep.Owners["alice"], got)
			}
			var models int64
			for _, m := range rep.Models {
				models += m.Requests
			}
			if models != 1 || len(rep.Unpriced) != 0 {
				t.Errorf("model totals %+v, unpriced %v", rep.Models, rep.Unpriced)
			}
			if c.name == "chat stream" && strings.Contains(body, `"choices":[]`) {
				t.Errorf("the usage chunk the agent did not ask for was forwarded:\n%s", body)
			}
			if c.name == "chat stream with usage" && !strings.Contains(body, `"choices":[]`) {
				t.Errorf("the usage chunk the agent asked for was dropped:\n%s", body)
			}
		})
	}
}

// gatewayBefore starts a gateway whose Anthropic upstream is url and
// returns it with session s1's agent environment; both end with the test.
func gatewayBefore(t *testing.T, url string) (*gateway.Gateway, []string) {
	t.Helper()
	gw := gateway.New(gateway.Options{Upstreams: map[gateway.API]gateway.Upstream{gateway.Anthropic: {BaseURL: url, APIKey: "k"}}})
	if err := gw.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gw.Close(context.Background()) })
	env, _, revoke, err := gw.AgentEnv("s1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(revoke)
	return gw, env
}

// TestStreamsChunkByChunk: the first event reaches the agent while the
// model is still holding the rest back, so nothing waits for the end.
func TestStreamsChunkByChunk(t *testing.T) {
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":7}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer up.Close()
	gw, env := gatewayBefore(t, up.URL)
	req, _ := http.NewRequest("POST", testkit.EnvValue(env, "ANTHROPIC_BASE_URL")+"/v1/messages", strings.NewReader(`{"stream":true}`))
	req.Header.Set("X-Api-Key", testkit.EnvValue(env, "ANTHROPIC_API_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		close(release)
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	first, err := br.ReadString('\n')
	if err != nil || first != "event: message_start\n" {
		close(release)
		t.Fatalf("first line %q, %v", first, err)
	}
	// Only now may the model finish: the first event came through alone.
	if n := gw.SessionTotals("s1").Requests; n != 0 {
		t.Errorf("the call was recorded as finished (%d) while its stream was open", n)
	}
	close(release)
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), "message_stop") {
		t.Errorf("rest of the stream: %q", rest)
	}
	got := gw.SessionTotals("s1")
	if got.InputTokens != 10 || got.OutputTokens != 7 {
		t.Errorf("metered %+v, want 10 in, 7 out (message_delta's count replaces message_start's)", got.Usage)
	}
}

// TestStreamsWhileTheBodyArrives: the model may answer before it has read
// the whole request, and the gateway keeps forwarding the request while it
// streams the answer back (full duplex). Without that, the server drains
// and closes the agent's body at the answer's first write, under the
// transport still sending it: under load that cut streams short and
// metered them short.
func TestStreamsWhileTheBodyArrives(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n")
		w.(http.Flusher).Flush()
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		io.WriteString(w, "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":7}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer up.Close()
	gw, env := gatewayBefore(t, up.URL)

	// The body's last part is sent only once the answer's first event is in.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	first := make(chan struct{})
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"stream":true,"messages":[`))
		select {
		case <-first:
		case <-ctx.Done():
		}
		pw.Write([]byte(`]}`))
		pw.Close()
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", testkit.EnvValue(env, "ANTHROPIC_BASE_URL")+"/v1/messages", pr)
	req.ContentLength = int64(len(`{"stream":true,"messages":[]}`))
	req.Header.Set("X-Api-Key", testkit.EnvValue(env, "ANTHROPIC_API_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		close(first)
		t.Fatalf("no answer while the body was still arriving: %v", err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	close(first)
	if err != nil || line != "event: message_start\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	rest, err := io.ReadAll(br)
	if err != nil || !strings.Contains(string(rest), "message_stop") {
		t.Fatalf("the stream was cut: %q, %v", rest, err)
	}
	if got := gw.SessionTotals("s1"); got.InputTokens != 10 || got.OutputTokens != 7 {
		t.Errorf("metered %+v, want 10 in, 7 out", got.Usage)
	}
}

// TestRefusesUnknownAndRevokedTokens: a made-up token, the operator's own
// key and a revoked token all get 401 in the API's error shape, and nothing
// reaches the model.
func TestRefusesUnknownAndRevokedTokens(t *testing.T) {
	r := newRig(t, scriptedmodel.Script{}, gateway.Options{})
	for _, c := range calls {
		for _, tok := range []string{"", "hpg-made-up", r.key} {
			resp := r.do(t, c, tok)
			body := readAll(t, resp)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "gateway token") {
				t.Errorf("%s with %q: %d %s", c.name, tok, resp.StatusCode, body)
			}
		}
	}
	if resp := r.do(t, calls[0], r.token); resp.StatusCode != http.StatusOK {
		t.Fatalf("live token: %d %s", resp.StatusCode, readAll(t, resp))
	} else {
		readAll(t, resp)
	}
	r.revoke()
	if n := r.gw.LiveTokens(); n != 0 {
		t.Errorf("%d tokens live after revoke", n)
	}
	for _, c := range calls {
		resp := r.do(t, c, r.token)
		body := readAll(t, resp)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s after revoke: %d %s", c.name, resp.StatusCode, body)
		}
		var shape map[string]any
		if err := json.Unmarshal([]byte(body), &shape); err != nil || shape["error"] == nil {
			t.Errorf("%s: error body %q is not in the API's shape", c.name, body)
		}
	}
	if n := len(r.fm.Requests()); n != 1 {
		t.Errorf("model saw %d calls, want only the one with a live token", n)
	}
}

// TestSessionBudget: the call that takes the session over its budget goes
// through and fires the hook once; the next is refused with 402 in the
// API's shape, fires it again, and never reaches the model.
func TestSessionBudget(t *testing.T) {
	// 1,000,000 input tokens of claude-sonnet-4-5 at $3/M: $3 a call.
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 1_000_000, OutputTokens: 1}
	r := newRig(t, scriptedmodel.Script{Default: &reply}, gateway.Options{SessionBudgetUSD: 5})
	for i, wantStatus := range []int{200, 200, 402, 402} {
		resp := r.do(t, calls[0], r.token)
		body := readAll(t, resp)
		if resp.StatusCode != wantStatus {
			t.Fatalf("call %d: %d %s, want %d", i, resp.StatusCode, body, wantStatus)
		}
		if wantStatus == 402 && (!strings.Contains(body, `"type":"budget_exceeded"`) || !strings.Contains(body, "session s1")) {
			t.Errorf("refusal body %s", body)
		}
	}
	if n := len(r.fm.Requests()); n != 2 {
		t.Errorf("model saw %d calls, want 2", n)
	}
	ex := r.exceeded()
	if len(ex) != 3 { // the crossing, then each refusal
		t.Fatalf("hook called %d times, want 3: %v", len(ex), ex)
	}
	for _, e := range ex {
		if !errors.Is(e, gateway.ErrBudgetExceeded) || e.SessionID != "s1" || e.Scope != "session" || e.SpentUSD < 5 {
			t.Errorf("budget error %+v", e)
		}
	}
	tot := r.gw.SessionTotals("s1")
	if tot.Requests != 2 || tot.Rejected != 2 {
		t.Errorf("totals %+v", tot)
	}
}

// TestOwnerBudgetSpansSessions: an API key's budget counts all its
// sessions; another key is unaffected. Errors keep each API's own shape.
func TestOwnerBudgetSpansSessions(t *testing.T) {
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 1_000_000, OutputTokens: 1}
	r := newRig(t, scriptedmodel.Script{Default: &reply}, gateway.Options{OwnerBudgets: map[string]float64{"alice": 1}})
	if resp := r.do(t, calls[2], r.token); resp.StatusCode != 200 { // gpt-5: $1.25
		t.Fatalf("first call: %d %s", resp.StatusCode, readAll(t, resp))
	} else {
		readAll(t, resp)
	}
	env2, _, revoke2, _ := r.gw.AgentEnv("s2", "alice", nil)
	defer revoke2()
	resp := r.do(t, calls[7], testkit.EnvValue(env2, "GEMINI_API_KEY"))
	body := readAll(t, resp)
	var g struct {
		Error struct {
			Code   int    `json:"code"`
			Status string `json:"status"`
		} `json:"error"`
	}
	if resp.StatusCode != 402 || json.Unmarshal([]byte(body), &g) != nil || g.Error.Code != 402 || g.Error.Status != "RESOURCE_EXHAUSTED" {
		t.Errorf("alice's second session: %d %s", resp.StatusCode, body)
	}
	env3, _, revoke3, _ := r.gw.AgentEnv("s3", "bob", nil)
	defer revoke3()
	if resp := r.do(t, calls[0], testkit.EnvValue(env3, "ANTHROPIC_API_KEY")); resp.StatusCode != 200 {
		t.Errorf("bob: %d %s", resp.StatusCode, readAll(t, resp))
	} else {
		readAll(t, resp)
	}
	ex := r.exceeded()
	if len(ex) == 0 || ex[len(ex)-1].Scope != "key" || ex[len(ex)-1].Owner != "alice" || ex[len(ex)-1].SessionID != "s2" {
		t.Errorf("hook calls %+v", ex)
	}
}

// TestOwnerUpstreamKey: a tenant that brings its own key has its sessions'
// calls made with it; everyone else's go with the operator's.
func TestOwnerUpstreamKey(t *testing.T) {
	tenant := secret(t, "tenant")
	r := newRig(t, scriptedmodel.Script{}, gateway.Options{OwnerUpstreams: map[string]map[gateway.API]gateway.Upstream{
		"alice": {gateway.Anthropic: {APIKey: tenant}},
	}})
	readAll(t, r.do(t, calls[0], r.token)) // alice's session
	env2, _, revoke2, _ := r.gw.AgentEnv("s2", "bob", nil)
	defer revoke2()
	readAll(t, r.do(t, calls[0], testkit.EnvValue(env2, "ANTHROPIC_API_KEY")))
	readAll(t, r.do(t, calls[2], r.token)) // alice, but an API she brought no key for
	reqs := r.fm.Requests()
	if len(reqs) != 3 || reqs[0].Auth != tenant || reqs[1].Auth != r.key || reqs[2].Auth != r.key {
		var got []string
		for _, q := range reqs {
			got = append(got, q.Auth)
		}
		t.Errorf("upstream credentials %q; want tenant, operator, operator", got)
	}
}

// TestAgentEnvHoldsNoSecret: the operator's keys and HotPlex's own
// secrets are gone from an agent's environment, every agent's variables
// point at the gateway, and a spare's token follows it to its session.
func TestAgentEnvHoldsNoSecret(t *testing.T) {
	r := newRig(t, scriptedmodel.Script{}, gateway.Options{})
	base := []string{"PATH=/usr/bin", "HOME=/home/op", "ANTHROPIC_API_KEY=" + r.key, "ANTHROPIC_AUTH_TOKEN=" + r.key,
		"OPENAI_API_KEY=" + r.key, "GEMINI_API_KEY=" + r.key, "GOOGLE_API_KEY=" + r.key, "CLAUDE_CODE_OAUTH_TOKEN=" + r.key,
		"HOTPLEX_ADMIN_TOKEN=" + r.key, "AWS_SECRET_ACCESS_KEY=" + r.key, "EDITOR=vi",
		"ANTHROPIC_BASE_URL=https://api.anthropic.com", "CLAUDE_CODE_USE_BEDROCK=1"}
	env, bind, revoke, err := r.gw.AgentEnv("", "", base)
	if err != nil {
		t.Fatal(err)
	}
	defer revoke()
	joined := strings.Join(env, "\n")
	if strings.Contains(joined, r.key) || strings.Contains(joined, "BEDROCK") {
		t.Errorf("secret left in the agent's environment:\n%s", joined)
	}
	for _, k := range []string{"PATH", "HOME", "EDITOR"} {
		if testkit.EnvValue(env, k) == "" {
			t.Errorf("%s was removed", k)
		}
	}
	tok := testkit.EnvValue(env, "ANTHROPIC_API_KEY")
	for _, k := range []string{"OPENAI_API_KEY", "GEMINI_API_KEY"} {
		if v := testkit.EnvValue(env, k); v != tok || !strings.HasPrefix(v, "hpg-") {
			t.Errorf("%s = %q", k, v)
		}
	}
	for _, k := range []string{"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "GOOGLE_GEMINI_BASE_URL"} {
		if v := testkit.EnvValue(env, k); !strings.HasPrefix(v, r.gw.URL()) {
			t.Errorf("%s = %q, not the gateway", k, v)
		}
		if n := strings.Count(joined, k+"="); n != 1 {
			t.Errorf("%s set %d times", k, n)
		}
	}
	bind("s9", "carol")
	readAll(t, r.do(t, calls[0], tok))
	if got := r.gw.Report(); got.Sessions["s9"].Requests != 1 || got.Owners["carol"].Requests != 1 {
		t.Errorf("the bound token's call went to %+v", got.Sessions)
	}
}

// TestUnknownModelIsFlagged: a model the price table does not know is
// metered at no cost and listed.
func TestUnknownModelIsFlagged(t *testing.T) {
	r := newRig(t, scriptedmodel.Script{}, gateway.Options{})
	c := calls[0]
	c.body = strings.Replace(c.body, "claude-sonnet-4-5", "mystery-model-1", 1)
	readAll(t, r.do(t, c, r.token))
	rep := r.gw.Report()
	if len(rep.Unpriced) != 1 || rep.Unpriced[0] != "mystery-model-1" || rep.Sessions["s1"].CostUSD != 0 || rep.Sessions["s1"].InputTokens == 0 {
		t.Errorf("report %+v", rep)
	}
}
