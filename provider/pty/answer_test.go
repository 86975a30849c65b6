package pty

import (
	"regexp"
	"strings"
	"testing"
)

func TestExtractAnswer(t *testing.T) {
	plain := &Preset{Ready: regexp.MustCompile(`faketui>\z`), Busy: regexp.MustCompile(`esc to interrupt`)}
	claude := ClaudeTUI("claude")
	rule := strings.Repeat("─", 40)
	cases := []struct {
		name          string
		preset        *Preset
		before, after []string
		prompt, want  string
	}{{
		name:   "answer quotes the prompt",
		preset: plain,
		before: []string{"banner", "", "faketui>"},
		after:  []string{"banner", "", "faketui> remember x", "OK, I will remember x", "", "faketui>"},
		prompt: "remember x", want: "OK, I will remember x",
	}, {
		name:   "the same prompt in an earlier turn",
		preset: plain,
		before: []string{"faketui> hi", "echo: hi", "", "faketui>"},
		after:  []string{"faketui> hi", "echo: hi", "", "faketui> hi", "echo: hi again", "", "faketui>"},
		prompt: "hi", want: "echo: hi again",
	}, {
		name:   "multi-line prompt echo is skipped",
		preset: plain,
		before: []string{"faketui>"},
		after:  []string{"faketui> first", "second", "echo: first", "second", "", "faketui>"},
		prompt: "first\nsecond", want: "echo: first\nsecond",
	}, {
		name:   "redrawn from the top: the last echo",
		preset: plain,
		before: []string{"old", "faketui>"},
		after:  []string{"faketui> q", "answer", "faketui>"},
		prompt: "q", want: "answer",
	}, {
		name:   "no echo: nothing",
		preset: plain,
		before: []string{"faketui>"},
		after:  []string{"something else", "faketui>"},
		prompt: "q", want: "",
	}, {
		name:   "claude blocks without tool calls and chrome",
		preset: &claude,
		before: []string{" ▐▛███▛█   Claude Code", "", rule, "❯", rule},
		after: []string{
			" ▐▛███▛█   Claude Code", "", "❯ list files", "", "  Thought for 1s",
			"● Let me look.", "  Ran 1 shell command", "", "● Bash(ls -la)", "  ⎿  a.txt", "     b.txt", "",
			"● There are two files:", "  - a.txt", "  - b.txt", "", "✻ Cogitated for 0s",
			rule, "❯", rule, "  ⏵⏵ auto mode on",
		},
		prompt: "list files", want: "Let me look.\n\nThere are two files:\n- a.txt\n- b.txt",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := extractAnswer(c.before, c.after, c.prompt, c.preset); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestBracketTracker(t *testing.T) {
	var b bracketTracker
	for _, step := range []struct {
		out  string
		want bool
	}{
		{"hello \x1b[?20", false},
		{"04h prompt", true}, // split across two reads
		{"\x1b[?2004l", false},
		{"x\x1b[?2004h\x1b[?2004l", false}, // the last one wins
		{"\x1b[?2004h", true},
		{"plain output", true},
	} {
		b.feed([]byte(step.out))
		if b.on != step.want {
			t.Fatalf("after %q: on = %v", step.out, b.on)
		}
	}
}

func TestPermissionMatchesClaudeQuestion(t *testing.T) {
	p := ClaudeTUI("claude")
	dash := strings.Repeat("╌", 30)
	screen := strings.Join([]string{
		"❯ make it", "", "  Running touch", rule(), " Bash command",
		" Tip: auto mode handles these prompts for you", " run touch", dash,
		" touch proof.txt &&", "   echo made", dash, " Do you want to proceed?", " ❯ 1. Yes", "   4. No",
	}, "\n")
	pp := p.Permissions[0]
	m := pp.Match.FindStringSubmatch(screen)
	if m == nil {
		t.Fatal("no match")
	}
	got := unwrap(m[pp.Match.SubexpIndex("command")])
	if got != "touch proof.txt &&\necho made" {
		t.Fatalf("command %q", got)
	}
	if p.idleScreen(screen) {
		t.Fatal("a permission question counts as idle")
	}
}

func rule() string { return strings.Repeat("─", 40) }

// Any screen and any prompt: extraction never panics and returns no more
// than the transcript holds.
func FuzzExtractAnswer(f *testing.F) {
	f.Add("banner\nfaketui>", "banner\nfaketui> hi\necho: hi\nfaketui>", "hi")
	f.Add("❯", "❯ x\n● a\n  b\n● Bash(ls)\n  ⎿ out\n"+rule()+"\n❯", "x")
	f.Add("", "\n\n", "\n")
	claude := ClaudeTUI("claude")
	plain := &Preset{Ready: regexp.MustCompile(`faketui>\z`)}
	f.Fuzz(func(t *testing.T, before, after, prompt string) {
		b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
		for _, p := range []*Preset{plain, &claude} {
			got := extractAnswer(b, a, prompt, p)
			if len(got) > len(after) {
				t.Fatalf("answer %q longer than the transcript %q", got, after)
			}
		}
	})
}
