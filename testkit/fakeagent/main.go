// Command fakeagent impersonates the Claude Code CLI ("claude") speaking its
// stream-json protocol on stdin/stdout, so engine unit tests and load tests
// can drive a realistic agent process without a model, a network or an API
// key. Frame shapes mirror recordings of the real CLI (2.1.332, see
// provider/claude/testdata); long lists (commands, tools, slash commands)
// are trimmed.
//
// Invocation, as for the real CLI:
//
//	fakeagent -p --output-format=stream-json --input-format=stream-json --verbose \
//	    [--session-id=UUID | --resume=UUID [--fork-session]] [--permission-prompt-tool=stdio] \
//	    [--model=M] [--permission-mode=M] [--dangerously-skip-permissions] \
//	    [--append-system-prompt=S] [--allowedTools=...] [--disallowedTools=...] \
//	    [--include-partial-messages] [unknown flags are ignored]
//
// Both --flag=value and --flag value are accepted.
//
// Behaviour is scripted through the prompt text: whitespace-separated tokens
// anywhere in a user prompt act as directives, and several may combine.
// Within a turn they run in this order:
//
//	exitnow      exit(2) as soon as the prompt arrives (message on stderr)
//	garbage      write the non-JSON line "this is not json {" and the unknown
//	             frame {"type":"mystery_frame","x":1}
//	huge:N       one assistant text message whose text is N 'x's
//	think[:T]    a thinking block (text T, default "thinking about: <prompt>")
//	sleep:MS     sleep MS milliseconds (interruptible)
//	crash        "fakeagent: crashing on purpose" on stderr, exit(3)
//	blocks:N     N text messages "part 1" .. "part N"
//	bash:B64     run the shell command base64url-decoded from B64 as a Bash
//	             tool use: PreToolUse hook_callback (if a registered matcher
//	             matches), can_use_tool (with --permission-prompt-tool=stdio
//	             unless bypassPermissions or a hook allowed it), /bin/sh -c in
//	             the cwd, tool_result, then the text "ran: <first line>"
//	history      the text lists the conversation's earlier prompts joined by " | "
//	sysprompt    the text is "system prompt: <--system-prompt>|<--append-system-prompt>"
//	stale:MS     after the result, wait MS milliseconds and write one more
//	             assistant text ("stale output from the previous turn"),
//	             then open ./stale-written for writing if it exists (a FIFO
//	             a test reads to know the line was written)
//
// With no text-producing directive the answer is "echo: <prompt>". The
// result frame carries the last text message.
//
// A control_request "interrupt" stops the running turn (sleep, tool run or a
// pending permission/hook request): the CLI answers the interrupt at once,
// then emits "[Request interrupted by user]" (or "... for tool use") and an
// error_during_execution result.
//
// Sessions live where the real CLI keeps transcripts,
// $HOME/.claude/projects/<cwd, non-alphanumerics as '-'>/<session-id>.jsonl
// (one prompt a line):
// --session-id of an existing session and --resume of a missing one fail as
// the real CLI does.
//
// --await-claim parks the process as a spare: after initialize it waits for
// a control_request claim_session {cwd, append_system_prompt} that binds it
// to a conversation in cwd (its ID from --session-id, or a new one) and
// answers {status: "ok", cwd, session_id, parked_ms}.
//
// Environment: FAKEAGENT_START_DELAY_MS delays the initialize response;
// FAKEAGENT_FAIL_START=1 makes the process fail at once with exit code 1.
//
// stdin EOF lets running and queued turns finish, then exits 0. SIGTERM
// kills a running tool and exits 143 (SIGINT 130, SIGHUP 129).
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
)

const (
	cliVersion   = "2.1.332"
	defaultModel = "claude-opus-5-5"
)

// options are the parsed command-line flags.
type options struct {
	print, verbose, partial, forkSession bool
	awaitClaim                           bool
	skipPermissions                      bool
	outputFormat, inputFormat            string
	sessionID, resume                    string
	permissionPromptTool                 string
	model, permissionMode                string
	systemPrompt, appendSystemPrompt     string
	allowedTools, disallowedTools        []string
	addDirs                              []string
}

// parseArgs reads the claude-style flags. Unknown flags are skipped together
// with a following value-looking argument.
func parseArgs(args []string) options {
	var o options
	bools := map[string]*bool{
		"p": &o.print, "print": &o.print, "verbose": &o.verbose,
		"include-partial-messages": &o.partial, "fork-session": &o.forkSession,
		"dangerously-skip-permissions": &o.skipPermissions,
		"await-claim":                  &o.awaitClaim,
	}
	values := map[string]*string{
		"output-format": &o.outputFormat, "input-format": &o.inputFormat,
		"session-id": &o.sessionID, "resume": &o.resume, "r": &o.resume,
		"permission-prompt-tool": &o.permissionPromptTool,
		"model":                  &o.model, "permission-mode": &o.permissionMode,
		"system-prompt": &o.systemPrompt, "append-system-prompt": &o.appendSystemPrompt,
	}
	lists := map[string]*[]string{
		"allowedTools": &o.allowedTools, "allowed-tools": &o.allowedTools,
		"disallowedTools": &o.disallowedTools, "disallowed-tools": &o.disallowedTools,
		"add-dir": &o.addDirs,
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		next := func() bool { return i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") }
		switch {
		case bools[name] != nil:
			*bools[name] = !hasVal || (val != "false" && val != "0")
		case values[name] != nil:
			if !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			*values[name] = val
		case lists[name] != nil:
			var items []string
			if hasVal {
				items = append(items, val)
			}
			for !hasVal && next() { // variadic, like the real CLI
				i++
				items = append(items, args[i])
			}
			for _, it := range items {
				*lists[name] = append(*lists[name], strings.FieldsFunc(it, func(r rune) bool { return r == ',' || r == ' ' })...)
			}
		default:
			if !hasVal && next() {
				i++
			}
		}
	}
	if o.skipPermissions {
		o.permissionMode = "bypassPermissions"
	}
	if o.permissionMode == "" {
		o.permissionMode = "default"
	}
	if o.model == "" {
		o.model = defaultModel
	}
	return o
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(code)
}

func main() {
	if os.Getenv("FAKEAGENT_FAIL_START") == "1" {
		fail(1, "fakeagent: failing at start on purpose (FAKEAGENT_FAIL_START=1)")
	}
	o := parseArgs(os.Args[1:])
	if o.inputFormat == "stream-json" && o.outputFormat != "stream-json" {
		fail(1, "Error: --input-format=stream-json requires output-format=stream-json.")
	}
	if o.print && o.outputFormat == "stream-json" && !o.verbose {
		fail(1, "Error: When using --print, --output-format=stream-json requires --verbose")
	}
	for _, id := range []string{o.sessionID, o.resume} {
		if id != "" && !uuidRE.MatchString(id) {
			fail(1, "Error: Invalid session ID. Must be a valid UUID.")
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		fail(1, "fakeagent: %v", err)
	}
	out := &output{w: os.Stdout}
	// Conversations live where the real CLI keeps its transcripts, so that
	// HotPlex's resume checks behave the same against both.
	dir := filepath.Join(os.Getenv("HOME"), ".claude", "projects", projectDirName(cwd))
	sessionPath := func(id string) string { return filepath.Join(dir, id+".jsonl") }

	sessionID := o.sessionID
	var history []string
	switch {
	case o.awaitClaim:
		// A parked spare: the conversation is bound by claim_session.
		if sessionID == "" {
			sessionID = newUUID()
		}
	case o.resume != "":
		history, err = loadHistory(sessionPath(o.resume))
		if err != nil {
			msg := "No conversation found with session ID: " + o.resume
			fmt.Fprintln(os.Stderr, msg)
			out.frame(startupErrorResult(o.resume, msg))
			os.Exit(1)
		}
		if !o.forkSession {
			sessionID = o.resume
		} else if sessionID == "" {
			sessionID = newUUID()
		}
	case sessionID != "":
		if _, err := os.Stat(sessionPath(sessionID)); err == nil {
			fail(1, "Error: Session ID %s is already in use.", sessionID)
		}
	default:
		sessionID = newUUID()
	}
	if o.forkSession && o.resume != "" {
		for _, p := range history { // the fork starts with the parent's history
			if err := appendPrompt(sessionPath(sessionID), p); err != nil {
				fmt.Fprintf(os.Stderr, "fakeagent: %v\n", err)
			}
		}
	}

	a := newAgent(o, out, sessionID, cwd, sessionPath(sessionID), history)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		s := <-sigs
		a.killTool()
		os.Exit(128 + int(s.(syscall.Signal)))
	}()

	done := make(chan struct{})
	go func() {
		a.runTurns()
		close(done)
	}()
	a.readLoop(os.Stdin)
	close(a.eof)
	close(a.prompts)
	<-done
	os.Exit(0)
}

// projectDirName encodes a working directory as the real CLI does: every
// character other than an ASCII letter or digit becomes '-'.
func projectDirName(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}
