package guard

import (
	"regexp"
	"strconv"
	"strings"
)

// PowerShell constant expressions: the text a command line builds from
// literals alone ('Rem'+'ove-Item', -join ('a','b'), reversed letters
// 'metI-evomeR'[-1..-11], templates '{0}{1}' -f 'iw','r', character codes
// -join [char[]](105,101,120), ('xiex' -replace 'x')) is known before it
// runs, and is judged as the text it is. Anything else (a variable, a
// call, an unknown type) makes the expression unknown.

// psConst is a constant value: a string, or an array of strings.
type psConst struct {
	items []string
	list  bool
}

// str is the value as a string: an array's items joined with spaces, as
// PowerShell converts an array in a string context ($OFS).
func (v psConst) str() string {
	if !v.list {
		return v.items[0]
	}
	return strings.Join(v.items, " ")
}

func psScalar(s string) psConst { return psConst{items: []string{s}} }

// psConstEval evaluates a constant expression; ok is false when any part
// of it is not a literal this evaluator knows.
func psConstEval(expr string) (string, bool) {
	p := psConstParser{s: expr}
	v, ok := p.expr()
	p.space()
	if !ok || p.i != len(p.s) {
		return "", false
	}
	return v.str(), true
}

type psConstParser struct {
	s     string
	i     int
	depth int
}

func (p *psConstParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// op consumes an operator word such as -join (case-insensitive, not
// followed by a letter).
func (p *psConstParser) op(name string) bool {
	p.space()
	if len(p.s)-p.i < len(name) || !strings.EqualFold(p.s[p.i:p.i+len(name)], name) {
		return false
	}
	if e := p.i + len(name); e < len(p.s) && isLetters(p.s[e:e+1]) {
		return false
	}
	p.i += len(name)
	return true
}

func (p *psConstParser) char(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// expr is a chain of binary operators, left to right: + (strings joined,
// arrays appended), -join, -replace, -f. The comma binds tighter than all
// of them, as in PowerShell.
func (p *psConstParser) expr() (psConst, bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 20 {
		return psConst{}, false
	}
	left, ok := p.list()
	if !ok {
		return psConst{}, false
	}
	for {
		switch {
		case p.char('+'):
			right, ok := p.list()
			if !ok {
				return psConst{}, false
			}
			if left.list {
				left = psConst{items: append(append([]string(nil), left.items...), right.items...), list: true}
			} else {
				left = psScalar(left.items[0] + right.str())
			}
		case p.op("-join"):
			sep, ok := p.list()
			if !ok {
				return psConst{}, false
			}
			left = psScalar(strings.Join(left.items, sep.str()))
		case p.op("-replace") || p.op("-ireplace"):
			args, ok := p.list()
			if !ok || len(args.items) > 2 {
				return psConst{}, false
			}
			re, err := regexp.Compile("(?i)" + args.items[0])
			if err != nil {
				return psConst{}, false
			}
			with := ""
			if len(args.items) == 2 {
				with = args.items[1]
			}
			out := make([]string, len(left.items))
			for i, s := range left.items {
				out[i] = re.ReplaceAllString(s, with)
			}
			left = psConst{items: out, list: left.list}
		case p.op("-f"):
			args, ok := p.list()
			if !ok {
				return psConst{}, false
			}
			s, ok := psFill(left.str(), args.items)
			if !ok {
				return psConst{}, false
			}
			left = psScalar(s)
		default:
			return left, true
		}
	}
}

// list is one operand or several separated by commas (an array).
func (p *psConstParser) list() (psConst, bool) {
	first, ok := p.unary()
	if !ok {
		return psConst{}, false
	}
	save := p.i
	if !p.char(',') {
		return first, true
	}
	p.i = save
	items := append([]string(nil), first.items...)
	for p.char(',') {
		v, ok := p.unary()
		if !ok {
			return psConst{}, false
		}
		items = append(items, v.items...)
	}
	return psConst{items: items, list: true}, true
}

// unary is -join X (its operand's items joined with nothing), a cast to
// [string], [char] or [char[]], or a primary with its indexes.
func (p *psConstParser) unary() (psConst, bool) {
	if p.op("-join") {
		v, ok := p.unary()
		if !ok {
			return psConst{}, false
		}
		return psScalar(strings.Join(v.items, "")), true
	}
	p.space()
	for _, cast := range [...]string{"[char[]]", "[char]", "[string]"} {
		if len(p.s)-p.i >= len(cast) && strings.EqualFold(p.s[p.i:p.i+len(cast)], cast) && !strings.HasPrefix(p.s[p.i+len(cast):], "::") {
			p.i += len(cast)
			v, ok := p.unary()
			if !ok {
				return psConst{}, false
			}
			switch cast {
			case "[string]":
				return psScalar(v.str()), true
			case "[char]":
				if v.list {
					return psConst{}, false
				}
				r, ok := psCharOf(v.items[0])
				if !ok {
					return psConst{}, false
				}
				return psScalar(r), true
			}
			// [char[]]: numbers become characters, a string its letters
			var out []string
			for _, s := range v.items {
				if r, ok := psCharOf(s); ok && (v.list || psNumber(s)) {
					out = append(out, r)
					continue
				}
				for _, r := range s {
					out = append(out, string(r))
				}
			}
			return psConst{items: out, list: true}, true
		}
	}
	v, ok := p.primary()
	if !ok {
		return psConst{}, false
	}
	for p.i < len(p.s) && p.s[p.i] == '[' {
		if v, ok = p.index(v); !ok {
			return psConst{}, false
		}
	}
	return v, true
}

// primary is a quoted string, a number, or a parenthesised expression
// ((x), $(x), @(x)); [string]::Join(sep, list) and [string]::Concat(...)
// are read as the operators they are.
func (p *psConstParser) primary() (psConst, bool) {
	p.space()
	if p.i >= len(p.s) {
		return psConst{}, false
	}
	switch c := p.s[p.i]; {
	case c == '\'':
		j := psQuoteEnd(p.s, p.i, '\'')
		if j < 0 || j > len(p.s) {
			return psConst{}, false
		}
		v := strings.ReplaceAll(p.s[p.i+1:j-1], "''", "'")
		p.i = j
		return psScalar(v), true
	case c == '"':
		j := psQuoteEnd(p.s, p.i, '"')
		if j < 0 || j > len(p.s) {
			return psConst{}, false
		}
		v, ok := psExpandable(p.s[p.i+1 : j-1])
		if !ok {
			return psConst{}, false
		}
		p.i = j
		return psScalar(v), true
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		v := p.s[p.i:j]
		p.i = j
		return psScalar(v), true
	case c == '(' || c == '$' || c == '@':
		if c != '(' {
			if p.i+1 >= len(p.s) || p.s[p.i+1] != '(' {
				return psConst{}, false // a variable
			}
			p.i++
		}
		p.i++
		v, ok := p.expr()
		if !ok || !p.char(')') {
			return psConst{}, false
		}
		if c == '@' && !v.list {
			v.list = true
		}
		return v, true
	case c == '[':
		for _, call := range [...]string{"[string]::join(", "[string]::concat("} {
			if len(p.s)-p.i < len(call) || !strings.EqualFold(p.s[p.i:p.i+len(call)], call) {
				continue
			}
			p.i += len(call)
			sep := ""
			if call == "[string]::join(" {
				s, ok := p.unary()
				if !ok || s.list || !p.char(',') {
					return psConst{}, false
				}
				sep = s.items[0]
			}
			v, ok := p.expr()
			if !ok || !p.char(')') {
				return psConst{}, false
			}
			return psScalar(strings.Join(v.items, sep)), true
		}
	}
	return psConst{}, false
}

// index applies [N], [N..M] or [a,b,...] to a value: a string's
// characters, an array's items; negative numbers count from the end.
func (p *psConstParser) index(v psConst) (psConst, bool) {
	p.i++ // [
	var idx []int
	for {
		from, ok := p.int()
		if !ok {
			return psConst{}, false
		}
		if p.s[p.i:min(p.i+2, len(p.s))] == ".." {
			p.i += 2
			to, ok := p.int()
			if !ok || abs(to-from) > 4096 {
				return psConst{}, false
			}
			for k := from; ; {
				idx = append(idx, k)
				if k == to {
					break
				}
				if to > from {
					k++
				} else {
					k--
				}
			}
		} else {
			idx = append(idx, from)
		}
		if !p.char(',') {
			break
		}
	}
	if !p.char(']') {
		return psConst{}, false
	}
	var elems []string
	if v.list {
		elems = v.items
	} else {
		for _, r := range v.items[0] {
			elems = append(elems, string(r))
		}
	}
	var out []string
	for _, k := range idx {
		if k < 0 {
			k += len(elems)
		}
		if k >= 0 && k < len(elems) {
			out = append(out, elems[k]) // out of range gives nothing
		}
	}
	if len(idx) == 1 && len(out) == 1 {
		return psScalar(out[0]), true
	}
	return psConst{items: out, list: true}, true
}

func (p *psConstParser) int() (int, bool) {
	p.space()
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	k := j
	for k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
		k++
	}
	if k == j {
		return 0, false
	}
	n, err := strconv.Atoi(p.s[p.i:k])
	if err != nil {
		return 0, false
	}
	p.i = k
	p.space()
	return n, true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func psNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// psCharOf is [char]N: the character with code N.
func psCharOf(s string) (string, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 0xFFFF {
		return "", false
	}
	return string(rune(n)), true
}

// psExpandable is the value of a double-quoted string's text when it
// expands nothing: backtick escapes are read, a $ makes it unknown.
func psExpandable(s string) (string, bool) {
	if strings.IndexByte(s, '$') >= 0 {
		return "", false
	}
	if strings.IndexByte(s, '`') < 0 {
		return strings.ReplaceAll(s, `""`, `"`), true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '`' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(s[i])
		}
	}
	return strings.ReplaceAll(b.String(), `""`, `"`), true
}

// psFill fills a -f template's {N} (and {N,width} or {N:format}, read as
// the plain value) with vals.
func psFill(tmpl string, vals []string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		switch {
		case strings.HasPrefix(tmpl[i:], "{{"), strings.HasPrefix(tmpl[i:], "}}"):
			b.WriteByte(tmpl[i])
			i++
			continue
		case tmpl[i] != '{':
			b.WriteByte(tmpl[i])
			continue
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", false
		}
		spec := tmpl[i+1 : i+j]
		if k := strings.IndexAny(spec, ",:"); k >= 0 {
			spec = spec[:k]
		}
		n, err := strconv.Atoi(strings.TrimSpace(spec))
		if err != nil || n < 0 || n >= len(vals) {
			return "", false
		}
		b.WriteString(vals[n])
		i += j
	}
	return b.String(), true
}
