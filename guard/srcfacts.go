package guard

import "strings"

// srcFacts keeps what the rules ask of the whole text being judged. Some
// rules read the line as a whole (a settings file written by echo, a
// GraphQL mutation sent by any client, a variable set earlier in the
// line), and they run once per command: a chain of ten thousand commands
// had its 100 KiB lowered and searched ten thousand times, seconds for
// one decision. The answers are kept for the text they were found in;
// nesting (a bash -c payload) changes the text, and they are found again.
type srcFacts struct {
	from    string
	low     string
	lowOK   bool
	compact string // low without spaces
	compOK  bool
	// has memoises searches of a long text: (form, needle) → found
	has map[srcQuery]bool
	// hints and hintsKnown hold the line-wide hints of srcHint
	hints, hintsKnown uint8
}

// Line-wide hints that let a generic rule skip every command of a line
// that cannot concern it.
const (
	hintOutsider     uint8 = 1 << iota // an address or an outsider's word
	hintPastedKey                      // an SSH public key's text
	hintSecondFactor                   // a second factor named
)

// srcHint returns the hint h of the current text (as written, not
// lowered: lowering every line is what a hint saves), computing it once.
func (a *analysis) srcHint(h uint8, compute func(text string) bool) bool {
	f := a.facts()
	if f.hintsKnown&h == 0 {
		f.hintsKnown |= h
		if compute(a.src) {
			f.hints |= h
		}
	}
	return f.hints&h != 0
}

// hasAnyFold reports whether s holds any of the lower-case ASCII words,
// in any case, without lowering s. Each word's first letter, in either
// case, is found by strings.IndexByte, which skips the text many bytes
// at a time; only where it occurs is the rest compared.
func hasAnyFold(s string, words ...string) bool {
	for _, w := range words {
		if len(w) == 0 {
			continue
		}
		c0 := w[0]
		if foldAt(s, w, c0) {
			return true
		}
		if c0 >= 'a' && c0 <= 'z' && foldAt(s, w, c0-'a'+'A') {
			return true
		}
	}
	return false
}

// foldAt reports whether s holds the lower-case word w, in any case,
// where its first byte is written c.
func foldAt(s, w string, c byte) bool {
	last := len(s) - len(w) // the last place w can start
	for i := 0; i <= last; i++ {
		j := strings.IndexByte(s[i:last+1], c)
		if j < 0 {
			return false
		}
		i += j
		k := 1
		for ; k < len(w); k++ {
			b := s[i+k]
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			if b != w[k] {
				break
			}
		}
		if k == len(w) {
			return true
		}
	}
	return false
}

type srcQuery struct {
	form uint8 // 0: the text, 1: lowered, 2: lowered without spaces
	s    string
}

// srcMemoMin is the length from which searches of the text are kept: a
// shorter text is searched again faster than a map is read.
const srcMemoMin = 2 << 10

// facts returns the cache for the current text, emptied when the text
// changed (comparing the same string is one pointer comparison).
func (a *analysis) facts() *srcFacts {
	f := &a.srcFacts
	if f.from != a.src {
		has := f.has
		clear(has)
		*f = srcFacts{from: a.src, has: has}
	}
	return f
}

// srcLow returns the text in lower case.
func (a *analysis) srcLow() string {
	f := a.facts()
	if !f.lowOK {
		f.low, f.lowOK = strings.ToLower(a.src), true
	}
	return f.low
}

// srcCompact returns the text in lower case without spaces.
func (a *analysis) srcCompact() string {
	f := a.facts()
	if !f.compOK {
		f.compact, f.compOK = strings.ReplaceAll(a.srcLow(), " ", ""), true
	}
	return f.compact
}

// srcHas reports whether the text holds s.
func (a *analysis) srcHas(s string) bool { return a.srcSearch(0, s) }

// srcLowHas reports whether the lowered text holds s (in lower case).
func (a *analysis) srcLowHas(s string) bool { return a.srcSearch(1, s) }

// srcCompactHas reports whether the lowered text without spaces holds s.
func (a *analysis) srcCompactHas(s string) bool { return a.srcSearch(2, s) }

func (a *analysis) srcSearch(form uint8, s string) bool {
	var text string
	switch form {
	case 0:
		text = a.src
	case 1:
		text = a.srcLow()
	default:
		text = a.srcCompact()
	}
	if len(text) < srcMemoMin {
		return strings.Contains(text, s)
	}
	f := a.facts()
	q := srcQuery{form, s}
	if v, ok := f.has[q]; ok {
		return v
	}
	v := strings.Contains(text, s)
	if f.has == nil {
		f.has = make(map[srcQuery]bool)
	}
	f.has[q] = v
	return v
}
