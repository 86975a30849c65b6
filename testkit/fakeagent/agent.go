package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// agent is one fake CLI process. The stdin reader (readLoop) and the turn
// worker (runTurns) run concurrently; output is serialized by out.
type agent struct {
	opts      options
	out       *output
	sessionID string
	cwd       string
	histPath  string

	prompts chan string   // user prompts, consumed by the turn worker
	eof     chan struct{} // closed when stdin is exhausted

	mu         sync.Mutex
	hooks      []hookMatcher                // PreToolUse hooks from initialize
	mode       string                       // permission mode
	model      string                       // current model
	pending    map[string]chan controlReply // our control requests awaiting replies
	cancelTurn context.CancelFunc           // non-nil while a turn runs
	toolPID    int                          // running tool's process group

	// Turn worker only.
	history   []string
	totalCost float64

	// A spare (--await-claim) until claimed.
	claimed     bool
	started     time.Time
	modelTotals map[string]*modelTotal
}

type hookMatcher struct {
	Matcher string   `json:"matcher"`
	IDs     []string `json:"hookCallbackIds"`
}

// matches reports whether the hook matcher selects tool, like the real CLI:
// empty or "*" matches all, otherwise an exact name or an anchored regex.
func (h hookMatcher) matches(tool string) bool {
	if h.Matcher == "" || h.Matcher == "*" || h.Matcher == tool {
		return true
	}
	re, err := regexp.Compile("^(?:" + h.Matcher + ")$")
	return err == nil && re.MatchString(tool)
}

// controlReply is the host's answer to one of our control requests.
type controlReply struct {
	ok   bool
	err  string
	body json.RawMessage
}

type modelTotal struct {
	in, out, cacheRead, cacheCreate int
	cost                            float64
}

var errStdinClosed = errors.New("stdin closed")

func newAgent(o options, out *output, sessionID, cwd, histPath string, history []string) *agent {
	return &agent{
		opts: o, out: out, sessionID: sessionID, cwd: cwd, histPath: histPath,
		prompts: make(chan string, 1024), eof: make(chan struct{}),
		mode: o.permissionMode, model: o.model,
		pending: map[string]chan controlReply{}, history: history,
		modelTotals: map[string]*modelTotal{}, started: time.Now(),
	}
}

// readLoop consumes stdin until EOF.
func (a *agent) readLoop(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			a.handleLine(line)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: reading stdin: %v\n", err)
	}
}

func (a *agent) handleLine(line []byte) {
	var in struct {
		Type      string          `json:"type"`
		RequestID string          `json:"request_id"`
		Request   json.RawMessage `json:"request"`
		Response  json.RawMessage `json:"response"`
		Message   json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(line, &in); err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: ignoring invalid input line: %v\n", err)
		return
	}
	switch in.Type {
	case "control_request":
		a.handleControl(in.RequestID, in.Request)
	case "control_response":
		a.routeReply(in.Response)
	case "user":
		text := promptText(in.Message)
		if text == "" {
			return
		}
		if parseDirectives(text).exitNow {
			fail(2, "fakeagent: exiting on purpose (exitnow)")
		}
		a.prompts <- text
	}
}

// promptText extracts the text of a user message whose content is a string
// or an array of blocks.
func promptText(raw json.RawMessage) string {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (a *agent) handleControl(id string, raw json.RawMessage) {
	var req struct {
		Subtype string                   `json:"subtype"`
		Hooks   map[string][]hookMatcher `json:"hooks"`
		Mode    string                   `json:"mode"`
		Model   string                   `json:"model"`
		// claim_session
		Cwd          string `json:"cwd"`
		AppendSystem string `json:"append_system_prompt"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		a.out.frame(controlError(id, "invalid control request: "+err.Error()))
		return
	}
	switch req.Subtype {
	case "initialize":
		if ms, err := strconv.Atoi(os.Getenv("FAKEAGENT_START_DELAY_MS")); err == nil && ms > 0 {
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		a.mu.Lock()
		a.hooks = req.Hooks["PreToolUse"]
		model, mode := a.model, a.mode
		a.mu.Unlock()
		f := controlSuccess(id, initializeResponse(model, mode))
		resp := f["response"].(obj)
		resp["pending_permission_requests"] = []any{}
		resp["pending_user_dialog_requests"] = []any{}
		a.out.frame(f)
	case "interrupt":
		a.out.frame(controlSuccess(id, obj{"still_queued": []any{}}))
		a.mu.Lock()
		cancel := a.cancelTurn
		a.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case "set_permission_mode":
		a.mu.Lock()
		a.mode = req.Mode
		a.mu.Unlock()
		a.out.frame(controlSuccess(id, obj{}))
	case "claim_session":
		a.claim(id, req.Cwd, req.AppendSystem)
	case "set_model":
		a.mu.Lock()
		if req.Model == "" || req.Model == "default" {
			req.Model = defaultModel
		}
		a.model = req.Model
		a.mu.Unlock()
		a.out.frame(controlSuccess(id, obj{}))
	default:
		a.out.frame(controlError(id, "Unsupported control request subtype: "+req.Subtype))
	}
}

// routeReply hands a control_response to the request waiting for it.
func (a *agent) routeReply(raw json.RawMessage) {
	var r struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Error     string          `json:"error"`
		Response  json.RawMessage `json:"response"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	a.mu.Lock()
	ch := a.pending[r.RequestID]
	delete(a.pending, r.RequestID)
	a.mu.Unlock()
	if ch != nil {
		ch <- controlReply{ok: r.Subtype == "success", err: r.Error, body: r.Response}
	}
}

// request sends a control_request to the host and waits for its answer, an
// interrupt (ctx) or stdin EOF. An abandoned request is cancelled with a
// control_cancel_request, as the real CLI does.
func (a *agent) request(ctx context.Context, body obj) (controlReply, error) {
	id := newUUID()
	ch := make(chan controlReply, 1)
	a.mu.Lock()
	a.pending[id] = ch
	a.mu.Unlock()
	a.out.frame(obj{"type": "control_request", "request_id": id, "request": body})
	abandon := func() {
		a.mu.Lock()
		delete(a.pending, id)
		a.mu.Unlock()
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		abandon()
		a.out.frame(obj{"type": "control_cancel_request", "request_id": id})
		return controlReply{}, ctx.Err()
	case <-a.eof:
		abandon()
		return controlReply{}, errStdinClosed
	}
}

func (a *agent) setToolPID(pid int) {
	a.mu.Lock()
	a.toolPID = pid
	a.mu.Unlock()
}

// killTool kills the running tool's process group, if any.
func (a *agent) killTool() {
	a.mu.Lock()
	pid := a.toolPID
	a.mu.Unlock()
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// claim binds a parked spare to its conversation. It runs on the stdin
// reader before any prompt of the conversation, which the turn worker only
// sees after it.
func (a *agent) claim(id, cwd, appendSystem string) {
	switch {
	case !a.opts.awaitClaim:
		a.out.frame(controlError(id, "not_a_spare: this process was not started with --await-claim"))
		return
	case a.claimed:
		a.out.frame(controlError(id, "already_claimed: the spare was claimed before"))
		return
	}
	info, err := os.Stat(cwd)
	switch {
	case err != nil:
		a.out.frame(controlError(id, "cwd_not_found: "+cwd))
		return
	case !info.IsDir():
		a.out.frame(controlError(id, "cwd_not_a_directory: "+cwd))
		return
	}
	if err := os.Chdir(cwd); err != nil {
		a.out.frame(controlError(id, "cwd_not_found: "+err.Error()))
		return
	}
	if real, err := os.Getwd(); err == nil {
		cwd = real
	}
	a.claimed = true
	a.cwd = cwd
	a.histPath = filepath.Join(os.Getenv("HOME"), ".claude", "projects", projectDirName(cwd), a.sessionID+".jsonl")
	if appendSystem != "" {
		a.opts.appendSystemPrompt = appendSystem
	}
	a.out.frame(controlSuccess(id, obj{"status": "ok", "cwd": cwd, "session_id": a.sessionID,
		"parked_ms": time.Since(a.started).Milliseconds(), "sdk_mcp_settled": true}))
}
