package guard

import (
	"slices"
	"testing"
)

// TestLowerArgsFollowWords: the shared lower-case arguments are rebuilt
// when a command's words change in place, are dropped or are copied with
// the command, so a rule never reads the words of another moment.
func TestLowerArgsFollowWords(t *testing.T) {
	c := &cmd{words: []word{lit("Reg"), lit("ADD"), lit(`HKLM\Run`), lit("//F")}}
	if got := c.lowerArgs(); !slices.Equal(got, []string{"add", `hklm\run`, "//f"}) {
		t.Fatalf("lowerArgs = %q", got)
	}
	if got := c.winArgs(); !slices.Equal(got, []string{"add", `hklm\run`, "/f"}) {
		t.Fatalf("winArgs = %q", got)
	}
	c.words[2] = lit(`C:\Users\DEV`) // routing rewrites a word in place
	if got := c.lowerArgs(); got[1] != `c:\users\dev` {
		t.Fatalf("after an in-place change lowerArgs = %q", got)
	}
	if got := c.winArgs(); got[1] != `c:\users\dev` || got[2] != "/f" {
		t.Fatalf("after an in-place change winArgs = %q", got)
	}
	sub := *c // a subcommand is a copy of its parent without the first word
	sub.words = c.words[1:]
	if got := sub.lowerArgs(); !slices.Equal(got, []string{`c:\users\dev`, "//f"}) {
		t.Fatalf("copy's lowerArgs = %q", got)
	}
	c.words = c.words[:2]
	if got := c.lowerArgs(); !slices.Equal(got, []string{"add"}) {
		t.Fatalf("after dropping words lowerArgs = %q", got)
	}
	if got := sub.lowerArgs(); !slices.Equal(got, []string{`c:\users\dev`, "//f"}) {
		t.Fatalf("copy's lowerArgs changed with its parent: %q", got)
	}
	long := &cmd{words: []word{lit("x")}}
	for range 20 {
		long.words = append(long.words, lit("A"))
	}
	if got := long.lowerArgs(); len(got) != 20 || got[19] != "a" {
		t.Fatalf("long command's lowerArgs = %q", got)
	}
}

// TestWinNormalMatchesNormWinAbs: every string over the characters that
// matter to Windows paths, up to six long, that winNormal accepts is one
// normWinAbs would only prefix with a slash.
func TestWinNormalMatchesNormWinAbs(t *testing.T) {
	const alphabet = `c:/\.aA`
	var walk func(p string)
	accepted := 0
	walk = func(p string) {
		if len(p) >= 3 && p[1] == ':' && winNormal(p) {
			accepted++
			if got := normWinAbs(p); got != "/"+p {
				t.Errorf("winNormal(%q) but normWinAbs gives %q", p, got)
			}
		}
		if len(p) == 6 {
			return
		}
		for i := range len(alphabet) {
			walk(p + alphabet[i:i+1])
		}
	}
	walk("")
	if accepted == 0 {
		t.Fatal("no path was accepted")
	}
}

// TestRegTargetFollowsCommand: the cached registry target is read again
// when the command's name or arguments change.
func TestRegTargetFollowsCommand(t *testing.T) {
	c := &cmd{name: "reg", words: []word{lit("reg"), lit("add"), lit(`HKLM\Software\A`), lit("/v"), lit("X")}}
	want := func(step string) {
		t.Helper()
		k, d, v, ok := regTarget(c)
		wk, wd, wv, wok := readRegTarget(c)
		if k != wk || d != wd || v != wv || ok != wok {
			t.Fatalf("%s: cached %q %q %q %v, read %q %q %q %v", step, k, d, v, ok, wk, wd, wv, wok)
		}
	}
	want("first")
	c.words[2] = lit(`HKCU\Software\B`)
	want("key rewritten in place")
	c.words = c.words[:3]
	want("value dropped")
	c.name = "set-itemproperty"
	want("renamed")
}

// TestFormMemo: remembered forms are those conv gives, and a path
// converted after four others is converted again.
func TestFormMemo(t *testing.T) {
	var m formMemo
	calls := 0
	conv := func(p string) string { calls++; return cleanAbs(p) }
	for _, p := range []string{"a/../b", "/x//y", "a/../b", "c", "d", "e", "a/../b"} {
		if got, want := m.of(p, conv), cleanAbs(p); got != want {
			t.Fatalf("of(%q) = %q, want %q", p, got, want)
		}
	}
	if calls != 6 { // the second "a/../b" from memory, the third pushed out
		t.Fatalf("%d conversions, want 6", calls)
	}
}
