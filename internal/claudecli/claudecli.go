// Package claudecli is what HotPlex's two front ends of Claude Code's CLI
// share: the headless stream-json one (provider/claude) and the terminal
// UI (provider/pty's ClaudeTUI) start the same program, tie it to a
// conversation the same way and find that conversation in the same files.
// Flag values are always passed as --flag=value: a value starting with
// "-" (a system prompt, say) would otherwise be read as a flag of its own.
package claudecli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hotplex/hotplex/provider"
)

// ConversationArgs ties the CLI to conversation psid: --resume=psid for
// one that exists, --session-id=psid for a new one. An empty psid gives
// none (the CLI picks its own ID).
func ConversationArgs(psid string, resume bool) []string {
	switch {
	case psid == "":
		return nil
	case resume:
		return []string{"--resume=" + psid}
	}
	return []string{"--session-id=" + psid}
}

// OptionArgs are the flags for o's model, appended system prompt and
// allowed and disallowed tools.
func OptionArgs(o provider.StartOptions) []string {
	var a []string
	if o.Model != "" {
		a = append(a, "--model="+o.Model)
	}
	if o.SystemPrompt != "" {
		a = append(a, "--append-system-prompt="+o.SystemPrompt)
	}
	if len(o.AllowedTools) > 0 {
		a = append(a, "--allowedTools="+strings.Join(o.AllowedTools, ","))
	}
	if len(o.DisallowedTools) > 0 {
		a = append(a, "--disallowedTools="+strings.Join(o.DisallowedTools, ","))
	}
	return a
}

// PermissionMode returns the CLI's name for a permission mode: its own
// names and the dashed or underscored spellings people write in
// configuration files ("accept-edits"), "strict" for default and "bypass"
// for bypassPermissions. A name it does not know is passed on for the CLI
// to judge.
func PermissionMode(m string) string {
	switch strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(m, "-", ""), "_", "")) {
	case "":
		return ""
	case "default", "strict":
		return "default"
	case "acceptedits":
		return "acceptEdits"
	case "bypasspermissions", "bypass":
		return "bypassPermissions"
	case "plan":
		return "plan"
	case "dontask":
		return "dontAsk"
	}
	return m
}

// Bypass reports whether o skips the CLI's permission checks, by flag or
// by mode.
func Bypass(o provider.StartOptions) bool {
	return o.DangerouslySkipPermissions || PermissionMode(o.PermissionMode) == "bypassPermissions"
}

// NestingMarkers are the variables that make the CLI believe it runs
// inside another Claude Code, which changes its behaviour; a child must
// not inherit them.
var NestingMarkers = []string{"CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=", "CLAUDE_CODE_SSE_PORT="}

// IsNestingMarker reports whether kv ("NAME=value") is one of the
// NestingMarkers.
func IsNestingMarker(kv string) bool {
	for _, m := range NestingMarkers {
		if strings.HasPrefix(kv, m) {
			return true
		}
	}
	return false
}

// TranscriptPath is where the CLI run with env (nil: this process's) in
// workDir keeps conversation psid: $CLAUDE_CONFIG_DIR (default
// $HOME/.claude)/projects/<workDir with every character but ASCII letters
// and digits replaced by '-'>/<psid>.jsonl. Resuming is tied to the work
// directory because of this layout. It is "" without a config directory.
func TranscriptPath(env []string, workDir, psid string) string {
	if env == nil {
		env = os.Environ()
	}
	dir := provider.EnvValue(env, "CLAUDE_CONFIG_DIR")
	if dir == "" {
		home := provider.EnvValue(env, "HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".claude")
	}
	enc := []byte(workDir)
	for i, c := range enc {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			enc[i] = '-'
		}
	}
	return filepath.Join(dir, "projects", string(enc), psid+".jsonl")
}

// HasTranscript reports whether the CLI keeps conversation psid, so that
// --resume finds it.
func HasTranscript(env []string, workDir, psid string) bool {
	if psid == "" {
		return false
	}
	tp := TranscriptPath(env, workDir, psid)
	if tp == "" {
		return false
	}
	_, err := os.Stat(tp)
	return err == nil
}

// RemoveConversation deletes what the CLI keeps of conversation psid run
// in workDir: its transcript, the folder beside it (sub-agent transcripts,
// large tool results) and the per-conversation folders of its config
// directory (file-history snapshots, session environment, to-dos). An ID
// that could name another path (empty, dots, a separator) removes nothing.
func RemoveConversation(env []string, workDir, psid string) error {
	if strings.ContainsAny(psid, `/\`) || strings.Trim(psid, ".") == "" {
		return nil
	}
	tp := TranscriptPath(env, workDir, psid)
	if tp == "" {
		return nil
	}
	config := filepath.Dir(filepath.Dir(filepath.Dir(tp)))
	paths := []string{tp, strings.TrimSuffix(tp, ".jsonl"),
		filepath.Join(config, "file-history", psid), filepath.Join(config, "session-env", psid)}
	if !strings.ContainsAny(psid, "*?[") {
		todos, _ := filepath.Glob(filepath.Join(config, "todos", psid+"-*.json"))
		paths = append(paths, todos...)
	}
	var errs []error
	for _, p := range paths {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ConversationFiles returns the CLI's config directory for env and the
// paths, relative to it, of the files it keeps of conversation psid run
// in workDir: the transcript, the folder beside it (sub-agent transcripts,
// large tool results), its to-dos and its file-history snapshots. Only
// files that exist are listed.
func ConversationFiles(env []string, workDir, psid string) (string, []string, error) {
	if strings.ContainsAny(psid, `/\*?[`) || strings.Trim(psid, ".") == "" {
		return "", nil, fmt.Errorf("claude: %q is not a conversation ID", psid)
	}
	tp := TranscriptPath(env, workDir, psid)
	if tp == "" {
		return "", nil, errors.New("claude: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	config := filepath.Dir(filepath.Dir(filepath.Dir(tp)))
	var files []string
	add := func(p string) {
		if rel, err := filepath.Rel(config, p); err == nil {
			files = append(files, rel)
		}
	}
	if fi, err := os.Stat(tp); err == nil && fi.Mode().IsRegular() {
		add(tp)
	}
	for _, dir := range []string{strings.TrimSuffix(tp, ".jsonl"), filepath.Join(config, "file-history", psid)} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				add(p)
			}
			return nil
		})
	}
	todos, _ := filepath.Glob(filepath.Join(config, "todos", psid+"-*.json"))
	for _, p := range todos {
		add(p)
	}
	return config, files, nil
}
