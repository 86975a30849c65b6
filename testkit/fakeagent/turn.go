package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// directives is what a prompt asks the fake to do (see the package doc).
type directives struct {
	think     bool
	thinkText string
	blocks    int
	bash      []string
	sleep     time.Duration
	huge      int
	crash     bool
	exitNow   bool
	garbage   bool
	history   bool
	sysprompt bool
	stale     time.Duration
}

func parseDirectives(prompt string) directives {
	var d directives
	for _, tok := range strings.Fields(prompt) {
		key, val, _ := strings.Cut(tok, ":")
		n, nerr := strconv.Atoi(val)
		switch key {
		case "think":
			d.think, d.thinkText = true, val
		case "blocks":
			if nerr == nil {
				d.blocks = n
			}
		case "sleep":
			if nerr == nil {
				d.sleep = time.Duration(n) * time.Millisecond
			}
		case "huge":
			if nerr == nil {
				d.huge = n
			}
		case "bash":
			if cmd, err := decodeB64(val); err == nil && cmd != "" {
				d.bash = append(d.bash, cmd)
			} else {
				fmt.Fprintf(os.Stderr, "fakeagent: ignoring undecodable bash directive %q\n", val)
			}
		case "crash":
			d.crash = true
		case "exitnow":
			d.exitNow = true
		case "garbage":
			d.garbage = true
		case "history":
			d.history = true
		case "sysprompt":
			d.sysprompt = true
		case "stale":
			if nerr == nil && n > 0 {
				d.stale = time.Duration(n) * time.Millisecond
			}
		}
	}
	return d
}

// decodeB64 accepts base64url (preferred) or standard base64, padded or not.
func decodeB64(s string) (string, error) {
	s = strings.TrimRight(s, "=")
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return string(b), err
}

// turn is one prompt being answered.
type turn struct {
	a          *agent
	ctx        context.Context
	prompt     string
	model      string
	mode       string
	start      time.Time
	apiCalls   int
	in, out    int
	cacheRead  int
	cacheWrite int
	lastText   string
	toolUseID  string // tool_use emitted but not yet answered
	denials    []any
}

// runTurns answers prompts one at a time until the prompt channel closes.
func (a *agent) runTurns() {
	for p := range a.prompts {
		a.runTurn(p)
	}
}

func (a *agent) runTurn(prompt string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.mu.Lock()
	a.cancelTurn = cancel
	t := &turn{a: a, ctx: ctx, prompt: prompt, model: a.model, mode: a.mode, start: time.Now()}
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.cancelTurn = nil
		a.mu.Unlock()
	}()

	earlier := append([]string(nil), a.history...)
	a.history = append(a.history, prompt)
	if err := appendPrompt(a.histPath, prompt); err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: saving session: %v\n", err)
	}

	a.out.frame(systemInit(a.cwd, a.sessionID, t.model, t.mode, a.opts.disallowedTools))
	d := parseDirectives(prompt)
	if err := t.play(d, earlier); err != nil {
		t.interrupted()
		return
	}
	t.result("success", false, "end_turn", "completed", nil)
	if d.stale > 0 {
		// Output after the turn's end, as a background task's notice
		// would be: it must not show up in the next turn.
		time.Sleep(d.stale)
		t.text("stale output from the previous turn")
		// A test that must know the line is in the pipe makes a FIFO
		// named stale-written in the work directory and reads it.
		if f, err := os.OpenFile(filepath.Join(a.cwd, "stale-written"), os.O_WRONLY, 0); err == nil {
			_ = f.Close()
		}
	}
}

// play acts out the directives. A non-nil error means the turn was interrupted.
func (t *turn) play(d directives, earlier []string) error {
	a := t.a
	t.apiCall()
	if d.garbage {
		a.out.raw("this is not json {")
		a.out.frame(obj{"type": "mystery_frame", "x": 1})
	}
	if d.huge > 0 {
		t.assistant(obj{"type": "text", "text": strings.Repeat("x", d.huge)}, "end_turn", nil)
	}
	if d.think {
		text := d.thinkText
		if text == "" {
			text = "thinking about: " + t.prompt
		}
		est := len(text)/4 + 1
		a.out.frame(obj{"type": "system", "subtype": "thinking_tokens", "estimated_tokens": est,
			"estimated_tokens_delta": est, "session_id": a.sessionID, "uuid": newUUID()})
		t.assistant(obj{"type": "thinking", "thinking": text, "signature": "fakesig"}, "end_turn",
			obj{"thinking_duration_ms": 1, "thinking_display": "updates"})
	}
	if d.sleep > 0 {
		timer := time.NewTimer(d.sleep)
		select {
		case <-timer.C:
		case <-t.ctx.Done():
			timer.Stop()
			return t.ctx.Err()
		}
	}
	if d.crash {
		fail(3, "fakeagent: crashing on purpose")
	}
	for i := 1; i <= d.blocks; i++ {
		t.text(fmt.Sprintf("part %d", i))
	}
	for _, cmd := range d.bash {
		if err := t.bash(cmd); err != nil {
			return err
		}
	}
	if d.sysprompt {
		t.text("system prompt: " + a.opts.systemPrompt + "|" + a.opts.appendSystemPrompt)
	}
	if d.history {
		if len(earlier) == 0 {
			t.text("(no history)")
		} else {
			t.text(strings.Join(earlier, " | "))
		}
	}
	if t.lastText == "" {
		t.text("echo: " + t.prompt)
	}
	return nil
}

// apiCall accounts for one (pretend) model request.
func (t *turn) apiCall() {
	t.apiCalls++
	t.in += 1200 + len(t.prompt)/4
	if len(t.a.history) > 1 || t.apiCalls > 1 {
		t.cacheRead += 1000
	} else {
		t.cacheWrite += 1000
	}
}

func (t *turn) text(s string) {
	t.assistant(obj{"type": "text", "text": s}, "end_turn", nil)
	t.lastText = s
}

// assistant emits one assistant message holding block, preceded and
// followed by stream_event frames with --include-partial-messages.
func (t *turn) assistant(block obj, stopReason string, extra obj) {
	a := t.a
	msgID := newID("msg_")
	outTokens := 1 + len(fmt.Sprint(block))/4
	t.out += outTokens
	usage := obj{"input_tokens": t.in, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	event := func(e obj) {
		a.out.frame(obj{"type": "stream_event", "event": e, "session_id": a.sessionID, "parent_tool_use_id": nil, "uuid": newUUID()})
	}
	if a.opts.partial {
		event(obj{"type": "message_start", "message": obj{"id": msgID, "type": "message", "role": "assistant",
			"model": t.model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
		var start obj
		var deltas []obj
		switch block["type"] {
		case "text":
			start = obj{"type": "text", "text": ""}
			for _, c := range chunks(block["text"].(string)) {
				deltas = append(deltas, obj{"type": "text_delta", "text": c})
			}
		case "thinking":
			start = obj{"type": "thinking", "thinking": "", "signature": ""}
			for _, c := range chunks(block["thinking"].(string)) {
				deltas = append(deltas, obj{"type": "thinking_delta", "thinking": c})
			}
			deltas = append(deltas, obj{"type": "signature_delta", "signature": block["signature"]})
		case "tool_use":
			start = obj{"type": "tool_use", "id": block["id"], "name": block["name"], "input": obj{}}
			js, _ := marshal(block["input"])
			deltas = append(deltas, obj{"type": "input_json_delta", "partial_json": string(js)})
		}
		event(obj{"type": "content_block_start", "index": 0, "content_block": start})
		for _, d := range deltas {
			event(obj{"type": "content_block_delta", "index": 0, "delta": d})
		}
		event(obj{"type": "content_block_stop", "index": 0})
	}
	f := obj{
		"type": "assistant",
		"message": obj{"id": msgID, "type": "message", "role": "assistant", "model": t.model,
			"content": []any{block}, "stop_reason": "", "stop_sequence": nil, "usage": usage,
			"context_management": nil},
		"parent_tool_use_id": nil, "session_id": a.sessionID, "uuid": newUUID(), "timestamp": timestamp(),
	}
	for k, v := range extra {
		f[k] = v
	}
	a.out.frame(f)
	if a.opts.partial {
		event(obj{"type": "message_delta", "delta": obj{"stop_reason": stopReason, "stop_sequence": nil},
			"usage": obj{"output_tokens": outTokens}})
		event(obj{"type": "message_stop"})
	}
}

// chunks splits s into at most three pieces on rune boundaries.
func chunks(s string) []string {
	size := len(s)/3 + 1
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// toolResult emits the user message answering the pending tool use.
func (t *turn) toolResult(content any, isError bool, useResult any, meta obj) {
	a := t.a
	f := obj{
		"type": "user",
		"message": obj{"role": "user", "content": []any{obj{"tool_use_id": t.toolUseID, "type": "tool_result",
			"content": content, "is_error": isError}}},
		"parent_tool_use_id": nil, "session_id": a.sessionID, "uuid": newUUID(), "timestamp": timestamp(),
		"tool_use_result": useResult,
	}
	if meta != nil {
		f["tool_result_meta"] = []any{obj{"id": t.toolUseID, "permission_decision": meta}}
	}
	a.out.frame(f)
	t.toolUseID = ""
}

// deny answers the pending tool use with a refusal, then lets the model
// comment on it.
func (t *turn) deny(input obj, reason string) {
	t.denials = append(t.denials, obj{"tool_name": "Bash", "tool_use_id": t.toolUseID, "tool_input": input})
	t.toolResult(reason, true, "Error: "+reason, nil)
	t.apiCall()
	t.text("denied: " + reason)
}

// bash plays one Bash tool use: hooks, permission prompt, run, result.
func (t *turn) bash(command string) error {
	a := t.a
	t.apiCall()
	t.toolUseID = newID("toolu_")
	input := obj{"command": command, "description": "run " + strings.Fields(command + " x")[0]}
	t.assistant(obj{"id": t.toolUseID, "input": input, "name": "Bash", "type": "tool_use"}, "tool_use", nil)

	// PreToolUse hooks registered at initialize.
	a.mu.Lock()
	hooks := append([]hookMatcher(nil), a.hooks...)
	a.mu.Unlock()
	hookAllowed := false
	for _, h := range hooks {
		if !h.matches("Bash") {
			continue
		}
		for _, cb := range h.IDs {
			r, err := a.request(t.ctx, obj{"subtype": "hook_callback", "callback_id": cb, "tool_use_id": t.toolUseID,
				"input": obj{
					"session_id": a.sessionID, "transcript_path": a.histPath, "cwd": a.cwd,
					"prompt_id": newUUID(), "permission_mode": t.mode, "effort": obj{"level": "medium"},
					"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": input, "tool_use_id": t.toolUseID,
				}})
			if errors.Is(err, context.Canceled) {
				return err
			}
			var out struct {
				Decision string `json:"decision"` // legacy: "approve" | "block"
				Reason   string `json:"reason"`
				Specific struct {
					Decision     string `json:"permissionDecision"`
					Reason       string `json:"permissionDecisionReason"`
					UpdatedInput obj    `json:"updatedInput"`
				} `json:"hookSpecificOutput"`
			}
			if err != nil || !r.ok || json.Unmarshal(r.body, &out) != nil {
				continue // a failed hook does not decide
			}
			switch {
			case out.Specific.Decision == "deny" || out.Decision == "block":
				reason := out.Specific.Reason + out.Reason
				if reason == "" {
					reason = "Blocked by PreToolUse hook"
				}
				t.deny(input, reason)
				return nil
			case out.Specific.Decision == "allow" || out.Decision == "approve":
				hookAllowed = true // like the real CLI: skips the permission prompt
			}
			if out.Specific.UpdatedInput != nil {
				input = out.Specific.UpdatedInput
			}
		}
	}

	// Permission prompt through the host.
	source := "config"
	if hookAllowed {
		source = "hook"
	} else if a.opts.permissionPromptTool == "stdio" && t.mode != "bypassPermissions" {
		r, err := a.request(t.ctx, obj{"subtype": "can_use_tool", "tool_name": "Bash", "display_name": "Bash",
			"input": input, "description": input["description"], "permission_suggestions": []any{},
			"tool_use_id": t.toolUseID})
		if errors.Is(err, context.Canceled) {
			return err
		}
		var out struct {
			Behavior     string `json:"behavior"`
			UpdatedInput obj    `json:"updatedInput"`
			Message      string `json:"message"`
			Interrupt    bool   `json:"interrupt"`
		}
		switch {
		case err != nil:
			out.Behavior, out.Message = "deny", err.Error()
		case !r.ok:
			out.Behavior, out.Message = "deny", "Permission request failed: "+r.err
		case json.Unmarshal(r.body, &out) != nil:
			out.Behavior, out.Message = "deny", "Permission request failed: invalid response"
		}
		if out.Behavior != "allow" {
			if out.Message == "" {
				out.Message = "Permission to use Bash has been denied."
			}
			if out.Interrupt {
				t.denials = append(t.denials, obj{"tool_name": "Bash", "tool_use_id": t.toolUseID, "tool_input": input})
				t.toolResult(out.Message, true, "Error: "+out.Message, nil)
				return context.Canceled
			}
			t.deny(input, out.Message)
			return nil
		}
		if out.UpdatedInput != nil {
			input = out.UpdatedInput
		}
		source = "user_temporary"
	}

	if c, ok := input["command"].(string); ok {
		command = c
	}
	output, code, err := a.runShell(t.ctx, command)
	if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	text := output
	switch {
	case err != nil && code < 0:
		text = "Error: " + err.Error()
	case code != 0:
		text = fmt.Sprintf("Exit code %d\n%s", code, output)
	case text == "":
		text = "(Bash completed with no output)"
	}
	t.toolResult([]any{obj{"type": "text", "text": text}}, code != 0,
		obj{"stdout": output, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false},
		obj{"decision": "accept", "source": source})
	t.apiCall()
	first, _, _ := strings.Cut(strings.TrimLeft(text, "\n"), "\n")
	t.text("ran: " + first)
	return nil
}

// runShell runs command with /bin/sh -c in the agent's cwd in its own
// process group, capturing stdout and stderr together. Cancelling ctx kills
// the whole group.
func (a *agent) runShell(ctx context.Context, command string) (string, int, error) {
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = a.cwd
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return "", -1, err
	}
	a.setToolPID(cmd.Process.Pid)
	err := cmd.Wait()
	a.setToolPID(0)
	return buf.String(), cmd.ProcessState.ExitCode(), err
}

// interrupted ends an interrupted turn as the real CLI does.
func (t *turn) interrupted() {
	a := t.a
	note, stop, terminal := "[Request interrupted by user]", any(nil), "aborted_streaming"
	if t.toolUseID != "" {
		t.toolResult("The user doesn't want to proceed with this tool use. The tool use was rejected. "+
			"STOP what you are doing and wait for the user to tell you how to proceed.",
			true, "User rejected tool use", nil)
		note, stop, terminal = "[Request interrupted by user for tool use]", "tool_use", "aborted_tools"
	}
	a.out.frame(obj{
		"type":               "user",
		"message":            obj{"role": "user", "content": []any{obj{"type": "text", "text": note}}},
		"parent_tool_use_id": nil, "session_id": a.sessionID, "uuid": newUUID(), "timestamp": timestamp(),
	})
	t.result("error_during_execution", true, stop, terminal,
		[]string{fmt.Sprintf("[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=%v", stop)})
}

// result emits the turn's result frame. total_cost_usd and modelUsage are
// cumulative over the process, usage is this turn's, like the real CLI.
func (t *turn) result(subtype string, isError bool, stopReason any, terminal string, errs []string) {
	a := t.a
	cost := float64(t.in+t.cacheWrite)*4e-6 + float64(t.cacheRead)*0.4e-6 + float64(t.out)*20e-6
	a.totalCost += cost
	mt := a.modelTotals[t.model]
	if mt == nil {
		mt = &modelTotal{}
		a.modelTotals[t.model] = mt
	}
	mt.in, mt.out, mt.cacheRead, mt.cacheCreate = mt.in+t.in, mt.out+t.out, mt.cacheRead+t.cacheRead, mt.cacheCreate+t.cacheWrite
	mt.cost += cost
	modelUsage := obj{}
	for m, v := range a.modelTotals {
		modelUsage[m] = obj{"inputTokens": v.in, "outputTokens": v.out, "cacheReadInputTokens": v.cacheRead,
			"cacheCreationInputTokens": v.cacheCreate, "webSearchRequests": 0, "costUSD": v.cost,
			"contextWindow": 1000000, "maxOutputTokens": 128000}
	}
	dur := time.Since(t.start).Milliseconds()
	f := obj{
		"type": "result", "subtype": subtype, "is_error": isError,
		"duration_ms": dur, "duration_api_ms": dur/2 + 1, "num_turns": t.apiCalls,
		"stop_reason": stopReason, "session_id": a.sessionID, "total_cost_usd": a.totalCost,
		"usage":      usageObj(t.in, t.out, t.cacheWrite, t.cacheRead),
		"modelUsage": modelUsage, "permission_denials": append([]any{}, t.denials...),
		"terminal_reason": terminal, "uuid": newUUID(),
	}
	if errs != nil {
		f["errors"] = errs
	} else {
		f["result"] = t.lastText
	}
	a.out.frame(f)
}
