package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// output serializes frames onto stdout, one JSON object a line.
type output struct {
	mu sync.Mutex
	w  io.Writer
}

// frame writes v as one JSON line. HTML characters are not escaped, like
// JSON.stringify in the real CLI.
func (o *output) frame(v any) {
	b, err := marshal(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: encoding frame: %v\n", err)
		return
	}
	o.write(append(b, '\n'))
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// raw writes one line verbatim.
func (o *output) raw(line string) { o.write([]byte(line + "\n")) }

func (o *output) write(b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.w.Write(b)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newID makes Anthropic-style ids such as msg_01… and toolu_01….
func newID(prefix string) string { return prefix + "01" + randomHex(11) }

func timestamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

type obj = map[string]any

// controlSuccess is the control_response answering request id.
func controlSuccess(id string, body obj) obj {
	return obj{"type": "control_response", "response": obj{"subtype": "success", "request_id": id, "response": body}}
}

func controlError(id, msg string) obj {
	return obj{"type": "control_response", "response": obj{"subtype": "error", "request_id": id, "error": msg}}
}

// Trimmed versions of the real CLI's long lists.
var (
	allTools      = []string{"Task", "AskUserQuestion", "Bash", "Edit", "Read", "Write", "WebFetch", "WebSearch", "TaskStop"}
	slashCommands = []string{"compact", "context", "init", "review", "clear", "model"}
	agentNames    = []string{"claude", "Explore", "general-purpose", "Plan"}
)

// initializeResponse is the body of the initialize control_response.
func initializeResponse(model, mode string) obj {
	cmds := []obj{}
	for _, c := range slashCommands {
		cmds = append(cmds, obj{"name": c, "description": "The " + c + " command (fakeagent)", "argumentHint": "", "builtin": true})
	}
	agents := []obj{}
	for _, n := range agentNames {
		agents = append(agents, obj{"name": n, "description": n + " agent (fakeagent)"})
	}
	return obj{
		"commands":                cmds,
		"agents":                  agents,
		"output_style":            "default",
		"available_output_styles": []string{"default", "Concise", "Explanatory"},
		"models": []obj{{
			"value": "default", "resolvedModel": model, "displayName": "Default (recommended)",
			"description": "Use the default model", "supportsEffort": true,
			"supportedEffortLevels": []string{"low", "medium", "high"},
		}},
		"account":                 obj{"tokenSource": "none", "apiKeySource": "ANTHROPIC_API_KEY", "apiProvider": "firstParty"},
		"pid":                     os.Getpid(),
		"claude_code_version":     cliVersion,
		"current_permission_mode": mode,
		"hooks_applied":           true,
		"analytics_disabled":      true,
		"sandbox_enabled":         false,
		"fast_mode_state":         "off",
		"session_state":           "idle",
		"capabilities":            []string{"ui_surface_v1"},
	}
}

// systemInit is the system/init frame opening every turn.
func systemInit(cwd, sessionID, model, mode string, disallowed []string) obj {
	tools := []string{}
	for _, t := range allTools {
		if !contains(disallowed, t) {
			tools = append(tools, t)
		}
	}
	return obj{
		"type": "system", "subtype": "init",
		"cwd": cwd, "session_id": sessionID, "tools": tools,
		"mcp_servers": []any{}, "model": model, "permissionMode": mode,
		"slash_commands": slashCommands, "apiKeySource": "ANTHROPIC_API_KEY",
		"claude_code_version": cliVersion, "output_style": "default",
		"agents": agentNames, "skills": []string{}, "plugins": []any{},
		"uuid": newUUID(), "fast_mode_state": "off", "original_cwd": cwd,
		"additional_directories": []string{},
	}
}

func usageObj(in, out, cacheCreate, cacheRead int) obj {
	return obj{
		"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": cacheCreate, "cache_read_input_tokens": cacheRead,
		"service_tier": "standard",
	}
}

// startupErrorResult is the result frame of a process that cannot start its
// conversation (--resume of an unknown session).
func startupErrorResult(sessionID, msg string) obj {
	return obj{
		"type": "result", "subtype": "error_during_execution", "is_error": true,
		"duration_ms": 0, "duration_api_ms": 0, "num_turns": 0,
		"stop_reason": nil, "session_id": sessionID, "total_cost_usd": 0,
		"usage": usageObj(0, 0, 0, 0), "modelUsage": obj{}, "permission_denials": []any{},
		"errors": []string{msg}, "uuid": newUUID(),
	}
}

// loadHistory reads the prompts of a stored session.
func loadHistory(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var prompts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var rec struct {
			Prompt string `json:"prompt"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			prompts = append(prompts, rec.Prompt)
		}
	}
	return prompts, sc.Err()
}

// appendPrompt records one prompt of a session.
func appendPrompt(path, prompt string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	b, _ := marshal(obj{"prompt": prompt, "timestamp": timestamp()})
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
