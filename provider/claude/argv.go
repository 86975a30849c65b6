package claude

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/hotplex/hotplex/provider"
)

// args builds the CLI's argument list. Values are always passed as
// --flag=value: a value starting with "-" (a system prompt, say) would
// otherwise be read as a flag of its own.
func args(o provider.StartOptions, resume, partial bool) []string {
	a := []string{
		"-p",
		"--output-format=stream-json",
		"--input-format=stream-json",
		"--verbose",
		// Ask us (control_request can_use_tool) instead of refusing tools
		// that need approval: without it a headless CLI just denies them.
		"--permission-prompt-tool=stdio",
	}
	switch {
	case o.ProviderSessionID == "":
		// A spare: the CLI picks its conversation ID, learnt at the claim.
	case resume:
		a = append(a, "--resume="+o.ProviderSessionID)
	default:
		a = append(a, "--session-id="+o.ProviderSessionID)
	}
	if partial {
		a = append(a, "--include-partial-messages")
	}
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
	if mode := permissionMode(o.PermissionMode); mode != "" {
		a = append(a, "--permission-mode="+mode)
	}
	if o.DangerouslySkipPermissions {
		a = append(a, "--dangerously-skip-permissions")
	}
	return a
}

// permissionMode accepts the CLI's own names and the dashed spellings
// people write in configuration files.
func permissionMode(m string) string {
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

// nestingMarkers make a CLI believe it runs inside another Claude Code and
// change its behaviour; the child must not inherit them.
var nestingMarkers = []string{"CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=", "CLAUDE_CODE_SSE_PORT="}

// childEnv returns the environment for the CLI: the caller's, less the
// nesting markers, plus IS_SANDBOX=1 when permissions are bypassed as root
// (the CLI refuses bypass as root without exactly that value).
func childEnv(o provider.StartOptions) []string {
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	bypass := o.DangerouslySkipPermissions || permissionMode(o.PermissionMode) == "bypassPermissions"
	forceSandbox := bypass && os.Geteuid() == 0
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		skip := forceSandbox && strings.HasPrefix(kv, "IS_SANDBOX=")
		for _, m := range nestingMarkers {
			if strings.HasPrefix(kv, m) {
				skip = true
			}
		}
		if !skip {
			env = append(env, kv)
		}
	}
	if forceSandbox {
		env = append(env, "IS_SANDBOX=1")
	}
	return env
}

// transcriptPath is where the CLI keeps a conversation:
// $CLAUDE_CONFIG_DIR (default $HOME/.claude)/projects/<cwd with every
// non-alphanumeric character replaced by '-'>/<session>.jsonl. Resume is
// cwd-sensitive because of this layout.
func transcriptPath(env []string, workDir, sessionID string) string {
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
	return filepath.Join(dir, "projects", string(enc), sessionID+".jsonl")
}

// removeConversation deletes what the CLI keeps of conversation psid run
// in workDir: its transcript, the folder beside it (sub-agent transcripts,
// large tool results) and the per-conversation folders of its config
// directory (file-history snapshots, session environment, to-dos).
func removeConversation(env []string, workDir, psid string) error {
	tp := transcriptPath(env, workDir, psid)
	if tp == "" || psid == "" || strings.ContainsAny(psid, `/\`) || psid == "." || psid == ".." {
		return nil
	}
	config := filepath.Dir(filepath.Dir(filepath.Dir(tp)))
	paths := []string{tp, strings.TrimSuffix(tp, ".jsonl"),
		filepath.Join(config, "file-history", psid), filepath.Join(config, "session-env", psid)}
	todos, _ := filepath.Glob(filepath.Join(config, "todos", psid+"-*.json"))
	paths = append(paths, todos...)
	var errs []error
	for _, p := range paths {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
