package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// gitTimeout bounds one git command HotPlex runs itself (not the agent's).
const gitTimeout = 30 * time.Second

// HotPlex runs git itself, as the daemon, in repositories an owner
// controls: it adds and removes worktrees, diffs, reads status, commits
// and fast-forwards. The owner's agent can write the repository's
// configuration (.git/config, config.worktree, the files they include)
// and its .gitattributes, and git runs the programs configuration names:
// hooks, the file-system monitor, filter drivers (on checkout, and on
// reading the work tree in status, diff and add), diff drivers, pagers,
// editors, signing programs, credential helpers, transports and their
// ssh and proxy commands. Any of them would run as the daemon, outside
// the session's process isolation and firewall. So every git command
// HotPlex runs is made by gitCommand, which
//   - sets what switches such programs off whatever the repository says
//     (gitFixed), and overrides each key naming a program that the
//     repository's configuration holds (programKeys) with a value that
//     runs nothing;
//   - keeps diff-family commands from diff drivers (--no-ext-diff,
//     --no-textconv) and every command from a pager;
//   - gives git an environment of its own (gitEnv): no system or global
//     configuration, no transport, a HOME nothing can be put in, and none
//     of the daemon's variables, its secrets among them.
//
// The configuration is listed just before each command and read again by
// the command itself, so a key added in between by an agent running at
// that moment is not overridden. Of the programs the commands HotPlex
// runs could start, only filters depend on the listing alone: the rest
// are kept off by gitFixed, the flags or the environment, whatever the
// repository says when the command reads it.

// configPair is one configuration setting git is given.
type configPair struct{ key, value string }

// gitFixed is given to every git command, before the repository's
// program keys are overridden.
var gitFixed = []configPair{
	// Hooks: worktree add runs post-checkout, merge post-merge, commit
	// its own (HotPlex commits with --no-verify too).
	{"core.hooksPath", "/dev/null"},
	{"core.fsmonitor", "false"},
	{"core.quotePath", "off"},
	// ":" and "cat" are the editor and pager git itself treats as none.
	{"core.editor", ":"},
	{"sequence.editor", ":"},
	{"core.pager", "cat"},
	// An empty helper list, and no asking.
	{"credential.helper", ""},
	{"core.askPass", ""},
	// No command HotPlex runs needs a remote; a submodule or a lazily
	// fetched object would reach one through a transport the repository
	// names (ext:: runs a program).
	{"protocol.allow", "never"},
	{"submodule.recurse", "false"},
	// Signing and verifying run gpg.program.
	{"commit.gpgSign", "false"},
	{"tag.gpgSign", "false"},
	{"merge.verifySignatures", "false"},
	{"log.showSignature", "false"},
	// Automatic maintenance would go on in the background after the
	// command, in the owner's repository.
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
}

// programKeys are the configuration keys that name a program git may
// run, as section.key or section.subsection.key ("*" for any name), and
// the value that keeps it from running one: an empty filter command is
// no filter, an empty helper list none, a false pager none; an empty
// command elsewhere runs nothing but fails. uploadpack.packObjectsHook is
// not among them: git reads it only from system, global and command-line
// configuration, the first two of which HotPlex's git does not read, and
// overriding it on the command line would make it count.
var programKeys = []configPair{
	{"filter.*.smudge", ""},
	{"filter.*.clean", ""},
	{"filter.*.process", ""},
	{"filter.*.required", "false"},
	{"diff.*.textconv", ""},
	{"diff.*.command", ""},
	{"diff.external", ""},
	{"merge.*.driver", ""},
	{"pager.*", "false"},
	{"core.sshCommand", ""},
	{"core.gitProxy", ""},
	{"core.alternateRefsCommand", ""},
	{"gpg.program", ""},
	{"gpg.*.program", ""},
	{"gpg.ssh.defaultKeyCommand", ""},
	{"credential.*.helper", ""},
	{"protocol.*.allow", "never"},
	{"remote.*.uploadpack", ""},
	{"remote.*.receivepack", ""},
	{"remote.*.vcs", ""},
	{"interactive.diffFilter", ""},
	{"trailer.*.command", ""},
	{"trailer.*.cmd", ""},
	{"difftool.*.cmd", ""},
	{"mergetool.*.cmd", ""},
}

// splitKey splits a configuration key into its section, subsection ("" and
// false without one) and name; section and name are case-insensitive.
func splitKey(key string) (section, sub, name string, hasSub bool) {
	section, rest, _ := strings.Cut(key, ".")
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return strings.ToLower(section), "", strings.ToLower(rest), false
	}
	return strings.ToLower(section), rest[:i], strings.ToLower(rest[i+1:]), true
}

// neutralised returns the overrides for the program keys among keys.
func neutralised(keys []string) []configPair {
	var out []configPair
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		sec, sub, name, hasSub := splitKey(k)
		for _, p := range programKeys {
			psec, psub, pname, phasSub := splitKey(p.key)
			// Subsections are case-sensitive, and git matches them so.
			if psec == sec && phasSub == hasSub && (pname == "*" || pname == name) && (psub == "*" || psub == sub) {
				out = append(out, configPair{k, p.value})
				break
			}
		}
	}
	return out
}

// gitEnv is the whole environment of a git command HotPlex runs, with
// cfg as its command-line configuration. Nothing of the daemon's own
// environment but PATH and TZ: whatever git starts inherits it, and the
// daemon's holds model keys and tokens.
func gitEnv(write bool, cfg []configPair) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{
		"PATH=" + path,
		// Not the operator's: git would read ~/.gitconfig (and
		// ~/.config/git) there. /dev/null is no directory, so nothing
		// can be put in it; git takes what it finds missing there as
		// absent.
		"HOME=/dev/null",
		"LANG=C",
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		// An allow list of no transport, over any protocol.*.allow.
		"GIT_ALLOW_PROTOCOL=",
		"GIT_PROTOCOL_FROM_USER=0",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_PAGER=cat",
	}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	if !write {
		// Reading must not take the index lock an agent's git may want.
		env = append(env, "GIT_OPTIONAL_LOCKS=0")
	}
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(cfg)))
	for i, c := range cfg {
		env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(i)+"="+c.key, "GIT_CONFIG_VALUE_"+strconv.Itoa(i)+"="+c.value)
	}
	return env
}

// configKeys lists the keys of dir's effective configuration, included
// files followed. Listing runs nothing: git config starts no program.
func configKeys(ctx context.Context, dir string) ([]string, error) {
	args := []string{"config", "--list", "--name-only", "--includes", "-z"}
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-pager"}, args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(false, gitFixed)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return splitNul(stdout.Bytes()), nil
}

// diffFamily are the commands that read contents through diff drivers
// (external diff programs, textconv) unless told not to.
var diffFamily = []string{"diff", "diff-files", "diff-index", "diff-tree", "log", "show"}

// withoutDiffDrivers tells a diff-family command in args to use no diff
// driver.
func withoutDiffDrivers(args []string) []string {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-c" || args[i] == "-C":
			i++
		case strings.HasPrefix(args[i], "-"):
		case slices.Contains(diffFamily, args[i]):
			return slices.Concat(args[:i+1], []string{"--no-ext-diff", "--no-textconv"}, args[i+1:])
		default:
			return args
		}
	}
	return args
}

// gitCommand is the one way HotPlex makes a git command: args run in dir
// with the repository's programs neutralised (see above). Commands that
// change the repository pass write, which lets git take its optional
// locks.
func gitCommand(ctx context.Context, dir string, write bool, args ...string) (*exec.Cmd, error) {
	keys, err := configKeys(ctx, dir)
	if err != nil {
		return nil, err
	}
	cfg := append(slices.Clone(gitFixed), neutralised(keys)...)
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-pager"}, withoutDiffDrivers(args)...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(write, cfg)
	return cmd, nil
}

// gitError is a git command that failed, with what it said.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

func (e *gitError) Unwrap() error { return e.err }

// git runs git in dir and returns its standard output. Commands that
// change the repository pass write, which lets git take its optional locks.
func git(ctx context.Context, dir string, write bool, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := gitTo(ctx, dir, write, &out, args...)
	return out.Bytes(), err
}

// gitTo runs git in dir writing its standard output to w.
func gitTo(ctx context.Context, dir string, write bool, w io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd, err := gitCommand(ctx, dir, write, args...)
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		return &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return nil
}

// gitLine runs git and returns the first line of its output.
func gitLine(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := git(ctx, dir, false, args...)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line), nil
}

// splitNul splits git's -z output into its records.
func splitNul(out []byte) []string {
	var recs []string
	for _, r := range bytes.Split(out, []byte{0}) {
		if len(r) > 0 {
			recs = append(recs, string(r))
		}
	}
	return recs
}

// capped keeps the first max bytes written to it and notes the rest.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}
