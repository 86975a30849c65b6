package guard

import (
	"reflect"
	"strings"
	"testing"
)

// positionalSlow is positional as a plain filter, the definition the
// shortcuts in positional must agree with.
func positionalSlow(args []word) []word {
	var out []word
	dash := false
	for _, w := range args {
		if !dash && w.s == "--" {
			dash = true
			continue
		}
		if !dash && optionWord(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// TestPositional: on every arrangement of options, operands, "--" and
// unresolved words up to five long, positional returns the filter's
// operands (an empty result as nil), and an append to its result never
// writes into the arguments.
func TestPositional(t *testing.T) {
	pieces := []word{lit("-rf"), lit("a"), lit("--"), lit("-"), lit("--force"), {s: "-$X", ok: false}, {s: "--to=$X", ok: false}, lit("b"), lit("")}
	eachArrangement(pieces, 5, func(args []word) {
		args0 := append([]word(nil), args...)
		got, want := positional(args), positionalSlow(args)
		if !hasOption(args) {
			want = args[:len(args):len(args)]
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("positional(%v) = %v, want %v", args, got, want)
		}
		_ = append(got, lit("x"))
		if !reflect.DeepEqual(args, args0) {
			t.Fatalf("an append to positional(%v) changed the arguments", args0)
		}
	})
}

// eachArrangement calls f with every sequence of up to n pieces.
func eachArrangement(pieces []word, n int, f func(args []word)) {
	var args []word
	var walk func(depth int)
	walk = func(depth int) {
		f(args)
		if depth == n {
			return
		}
		for _, p := range pieces {
			args = append(args, p)
			walk(depth + 1)
			args = args[:len(args)-1]
		}
	}
	walk(0)
}

// hasOption reports whether args hold an option the shortcuts must
// read: a resolved word of a dash and more.
func hasOption(args []word) bool {
	for _, w := range args {
		if optionWord(w) {
			return true
		}
	}
	return false
}

// posArgsSlow is posArgs without its shortcut.
func posArgsSlow(args []word, spec optSpec) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if len(s) > 1 && s[0] == '-' && args[i].ok {
			if strings.HasPrefix(s, "--") {
				name := s[2:]
				if strings.IndexByte(name, '=') < 0 {
					for _, l := range spec.long {
						if l == name {
							i++
							break
						}
					}
				}
				continue
			}
			for j := 1; j < len(s); j++ {
				if strings.IndexByte(spec.short, s[j]) >= 0 {
					if j == len(s)-1 {
						i++
					}
					break
				}
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// TestPosArgs: posArgs agrees with the plain reading of options, their
// arguments and operands on every arrangement up to five words.
func TestPosArgs(t *testing.T) {
	pieces := []word{lit("-rf"), lit("-o"), lit("a"), lit("--"), lit("-xo"), lit("--size"), lit("--size=1"), lit("--force"), {s: "-$X", ok: false}, lit("")}
	specs := []optSpec{{}, {short: "o", long: []string{"size"}}}
	eachArrangement(pieces, 5, func(args []word) {
		for _, spec := range specs {
			args0 := append([]word(nil), args...)
			got, want := posArgs(args, spec), posArgsSlow(args, spec)
			if !hasOption(args) {
				want = args[:len(args):len(args)]
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("posArgs(%v, %+v) = %v, want %v", args, spec, got, want)
			}
			_ = append(got, lit("x"))
			if !reflect.DeepEqual(args, args0) {
				t.Fatalf("an append to posArgs(%v) changed the arguments", args0)
			}
		}
	})
}
