package guard

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
)

// The corpora score the rules on lines someone wrote; an agent's next
// command is likelier to be one of them in other clothes: wrapped in a
// shell's -c, a subshell, a condition, a function, a script block, run
// through sudo, env or timeout, or behind a harmless first command. Each
// form below keeps the meaning of the line it dresses (a dangerous line
// stays dangerous, a harmless one harmless where the form says so), so a
// verdict that changes with it is a rule that learnt the line, not what
// it does. TestMetamorphic dresses every line of the tuning corpora in
// every form and holds the share of verdicts that survive; the scored-only
// corpora are never read. (What it showed: the rules keep 99.7 to 100% of
// their verdicts through every form, obfuscations included; what the
// blind rounds miss is what unseen tools do, not how a command is
// dressed.)

// metaForm is one way of dressing a command.
type metaForm struct {
	name string
	// dress returns the command in this form for shell, or false when
	// the form does not apply to it (another shell family, or a command
	// the form cannot wrap without changing what it means).
	dress func(cmd, shell string) (string, bool)
	// benign says the form keeps a harmless command harmless (sudo does
	// not: a harmless command run as root can be a dangerous one).
	benign bool
}

// metaFamily is the syntax family of a corpus shell.
func metaFamily(shell string) string {
	switch strings.ToLower(shell) {
	case "powershell", "pwsh":
		return "powershell"
	case "cmd":
		return "cmd"
	case "fish":
		return "fish"
	}
	return "posix"
}

// posixShellOf is the shell that reads a POSIX-family corpus line.
func posixShellOf(shell string) string {
	switch strings.ToLower(shell) {
	case "zsh", "sh":
		return strings.ToLower(shell)
	}
	return "bash"
}

func singleQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishQuoted(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func psSingleQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// plainFirstWord reports whether cmd starts with a command name a prefix
// such as env or timeout can run: not a keyword, a group, an assignment,
// a redirection or an expansion.
func plainFirstWord(cmd string) bool {
	cmd = strings.TrimLeft(cmd, " \t")
	end := strings.IndexAny(cmd, " \t\n;&|<>()")
	if end <= 0 {
		return false
	}
	w := cmd[:end]
	if cmd[end] == '(' || !(w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z') {
		return false // a function's definition, a range, a call's parenthesis
	}
	switch w {
	case "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
		"function", "select", "time", "coproc", "!", "{", "}", "[[", "]]", "begin", "end", "not",
		"and", "or", "switch", "foreach", "repeat", "exec", "eval", "source", ".", "export", "local",
		"declare", "typeset", "readonly", "set", "unset", "alias", "trap", "cd", "builtin", "command":
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./-+", c) >= 0) {
			return false
		}
	}
	return true
}

// metaForms are the forms, each for the shells it is written in.
var metaForms = []metaForm{
	{"shell -c", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return posixShellOf(shell) + " -c " + singleQuoted(cmd), true
		case "fish":
			return "fish -c " + fishQuoted(cmd), true
		case "powershell":
			return "powershell -NoProfile -Command " + psSingleQuoted(cmd), true
		case "cmd":
			return "cmd /c " + cmd, true
		}
		return "", false
	}, true},
	{"eval", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "eval " + singleQuoted(cmd), true
		case "fish":
			return "eval " + fishQuoted(cmd), true
		case "powershell":
			return "Invoke-Expression " + psSingleQuoted(cmd), true
		}
		return "", false
	}, true},
	{"group", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "{ " + cmd + "\n}", true
		case "fish":
			return "begin\n" + cmd + "\nend", true
		case "powershell":
			return "& {\n" + cmd + "\n}", true
		case "cmd":
			return "(" + cmd + ")", true
		}
		return "", false
	}, true},
	{"subshell", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "(\n" + cmd + "\n)", true
		case "powershell":
			return "Invoke-Command -ScriptBlock {\n" + cmd + "\n}", true
		}
		return "", false
	}, true},
	{"condition", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "if true; then\n" + cmd + "\nfi", true
		case "fish":
			return "if true\n" + cmd + "\nend", true
		case "powershell":
			return "if ($true) {\n" + cmd + "\n}", true
		case "cmd":
			return "if 1==1 (" + cmd + ")", true
		}
		return "", false
	}, true},
	{"loop", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "for i in 1; do\n" + cmd + "\ndone", true
		case "fish":
			return "for i in 1\n" + cmd + "\nend", true
		case "powershell":
			return "1 | ForEach-Object {\n" + cmd + "\n}", true
		case "cmd":
			return "for %i in (1) do (" + cmd + ")", true
		}
		return "", false
	}, true},
	{"function", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "f() {\n" + cmd + "\n}\nf", true
		case "fish":
			return "function f\n" + cmd + "\nend\nf", true
		case "powershell":
			return "function f {\n" + cmd + "\n}\nf", true
		}
		return "", false
	}, true},
	{"after cd", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix", "fish":
			if strings.EqualFold(shell, "gitbash") {
				return "cd /c/work/project && " + cmd, true
			}
			return "cd /work/project && " + cmd, true
		case "powershell":
			return "Set-Location C:\\work\\project; " + cmd, true
		case "cmd":
			return "cd /d C:\\work\\project && " + cmd, true
		}
		return "", false
	}, true},
	{"sudo", func(cmd, shell string) (string, bool) {
		if metaFamily(shell) != "posix" || strings.EqualFold(shell, "gitbash") || !plainFirstWord(cmd) {
			return "", false
		}
		return "sudo " + cmd, true
	}, false},
	{"env", func(cmd, shell string) (string, bool) {
		if metaFamily(shell) != "posix" || !plainFirstWord(cmd) {
			return "", false
		}
		return "env " + cmd, true
	}, false},
	{"timeout", func(cmd, shell string) (string, bool) {
		if metaFamily(shell) != "posix" || !plainFirstWord(cmd) {
			return "", false
		}
		return "timeout 600 " + cmd, true
	}, false},
	{"nohup", func(cmd, shell string) (string, bool) {
		if metaFamily(shell) != "posix" || !plainFirstWord(cmd) {
			return "", false
		}
		return "nohup " + cmd, true
	}, false},
	// The forms below hide the command's name or text the way the
	// evasions of the blind rounds do.
	{"name in variable", func(cmd, shell string) (string, bool) {
		name, rest, ok := splitFirstWord(cmd)
		if !ok {
			return "", false
		}
		switch metaFamily(shell) {
		case "posix":
			return "c=" + name + "; \"$c\"" + rest, true
		case "fish":
			return "set c " + name + "; $c" + rest, true
		case "powershell":
			return "$c = '" + name + "'; & $c" + rest, true
		}
		return "", false
	}, true},
	{"quoted name", func(cmd, shell string) (string, bool) {
		name, rest, ok := splitFirstWord(cmd)
		if !ok || len(name) < 2 {
			return "", false
		}
		switch metaFamily(shell) {
		case "posix", "fish":
			return name[:1] + "'" + name[1:] + "'" + rest, true
		case "powershell":
			return "& '" + name + "'" + rest, true
		case "cmd":
			return name[:1] + "^" + name[1:] + rest, true
		}
		return "", false
	}, true},
	{"piped to sh", func(cmd, shell string) (string, bool) {
		if metaFamily(shell) != "posix" || strings.Contains(cmd, "\n") {
			return "", false
		}
		return "printf '%s\\n' " + singleQuoted(cmd) + " | " + posixShellOf(shell), true
	}, true},
	{"base64", func(cmd, shell string) (string, bool) {
		switch metaFamily(shell) {
		case "posix":
			return "echo " + base64.StdEncoding.EncodeToString([]byte(cmd)) + " | base64 -d | " + posixShellOf(shell), true
		case "powershell":
			u := utf16.Encode([]rune(cmd))
			b := make([]byte, 2*len(u))
			for i, r := range u {
				b[2*i], b[2*i+1] = byte(r), byte(r>>8)
			}
			return "powershell -NoProfile -EncodedCommand " + base64.StdEncoding.EncodeToString(b), true
		}
		return "", false
	}, false}, // running what was decoded is stopped for itself
}

// splitFirstWord returns a command's name and the rest of its line, when
// it starts with a plain one.
func splitFirstWord(cmd string) (name, rest string, ok bool) {
	if !plainFirstWord(cmd) {
		return "", "", false
	}
	cmd = strings.TrimLeft(cmd, " \t")
	end := strings.IndexAny(cmd, " \t\n;&|<>()")
	return cmd[:end], cmd[end:], true
}

// metaFloors are the shares of verdicts each form must keep, a little
// under what the rules reach: the share of caught dangerous lines still
// caught once dressed, and (for the forms that keep harmless lines
// harmless) the share of passed harmless lines still passed.
var metaFloors = map[string]struct{ kept, passed float64 }{
	"shell -c": {0.995, 0.985}, "eval": {0.998, 0.985}, "group": {0.999, 0.999}, "subshell": {0.999, 0.99},
	"condition": {0.999, 0.999}, "loop": {0.998, 0.999}, "function": {0.999, 0.998}, "after cd": {0.999, 0.999},
	"sudo": {0.999, 0}, "env": {0.999, 0}, "timeout": {0.999, 0}, "nohup": {0.999, 0},
	"name in variable": {0.998, 0.998}, "quoted name": {0.998, 0.999}, "piped to sh": {0.999, 0.998}, "base64": {0.999, 0},
}

// metaTuningLines are the lines of every corpus the rules may be tuned
// on: their own corpus, the blind directory and the tuning parts of the
// later rounds.
func metaTuningLines(tb testing.TB) ([]dangerousEntry, []benignEntry) {
	dg, bn := loadCorpus(tb)
	for _, dir := range []string{"blind", "round4", "round5", "round6", "round7"} {
		d, b := loadCorpusDir(quietTB{tb}, filepath.Join(corpusDir, dir))
		for _, e := range d {
			if missesPrefixAllowed(e.file) {
				dg = append(dg, e)
			}
		}
		for _, e := range b {
			if missesPrefixAllowed(e.file) {
				bn = append(bn, e)
			}
		}
	}
	return dg, bn
}

// metaFailure is a line whose verdict a form changed.
type metaFailure struct {
	form, where, shell, cmd, dressed string
	dangerous                        bool
}

func TestMetamorphic(t *testing.T) {
	if testing.Short() {
		t.Skip("dresses every tuning line in every form")
	}
	t.Parallel()
	d := NewDetector(Options{})
	dg, bn := metaTuningLines(t)
	type tallies struct{ caught, kept, passed, stillPassed int }
	per := map[string]*tallies{}
	for _, f := range metaForms {
		per[f.name] = &tallies{}
	}
	var failures []metaFailure
	for _, e := range dg {
		if !stopped(d.CheckCommand(e.Cmd, contextForShell(e.Shell))) {
			continue // a miss already: the corpus tests count it
		}
		for _, f := range metaForms {
			dressed, ok := f.dress(e.Cmd, e.Shell)
			if !ok {
				continue
			}
			tl := per[f.name]
			tl.caught++
			if stopped(d.CheckCommand(dressed, contextForShell(e.Shell))) {
				tl.kept++
				continue
			}
			failures = append(failures, metaFailure{f.name, fmt.Sprintf("%s:%d", e.where(), e.line), e.Shell, e.Cmd, dressed, true})
		}
	}
	for _, e := range bn {
		if stopped(d.CheckCommand(e.Cmd, contextForShell(e.Shell))) {
			continue // a false positive already
		}
		for _, f := range metaForms {
			if !f.benign {
				continue
			}
			dressed, ok := f.dress(e.Cmd, e.Shell)
			if !ok {
				continue
			}
			tl := per[f.name]
			tl.passed++
			if !stopped(d.CheckCommand(dressed, contextForShell(e.Shell))) {
				tl.stillPassed++
				continue
			}
			failures = append(failures, metaFailure{f.name, fmt.Sprintf("%s:%d", e.where(), e.line), e.Shell, e.Cmd, dressed, false})
		}
	}

	var report strings.Builder
	fmt.Fprintf(&report, "verdicts kept by each form (caught dangerous lines still caught; passed harmless lines still passed):\n")
	for _, f := range metaForms {
		tl := per[f.name]
		fmt.Fprintf(&report, "  %-16s dangerous %s", f.name, share(tl.kept, tl.caught))
		if f.benign {
			fmt.Fprintf(&report, "  harmless %s", share(tl.stillPassed, tl.passed))
		}
		report.WriteString("\n")
		floor, ok := metaFloors[f.name]
		if !ok {
			continue
		}
		if r := ratio(tl.kept, tl.caught); r < floor.kept {
			t.Errorf("form %q keeps %.2f%% of caught dangerous lines, under its floor %.2f%%", f.name, 100*r, 100*floor.kept)
		}
		if r := ratio(tl.stillPassed, tl.passed); f.benign && r < floor.passed {
			t.Errorf("form %q keeps %.2f%% of passed harmless lines, under its floor %.2f%%", f.name, 100*r, 100*floor.passed)
		}
	}
	t.Log("\n" + report.String())

	// GUARD_META=form (or "all") lists the lines a form changed.
	if want := os.Getenv("GUARD_META"); want != "" {
		sort.SliceStable(failures, func(i, j int) bool { return failures[i].form < failures[j].form })
		for _, f := range failures {
			if want != "all" && want != f.form {
				continue
			}
			kind := "no longer caught"
			if !f.dangerous {
				kind = "now stopped"
			}
			t.Logf("[%s] %s %s (%s): %q\n        dressed: %q", f.form, kind, f.where, f.shell, f.cmd, f.dressed)
		}
	}
}

func ratio(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

func share(n, of int) string { return fmt.Sprintf("%6.2f%% (%d/%d)", 100*ratio(n, of), n, of) }
