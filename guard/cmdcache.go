package guard

import "strings"

// argCase keeps a command's arguments in lower case for the rules that
// compare them case-insensitively. Dozens of rules run on every command
// and each lowered the same words again, which was a large share of a
// decision; computing them once per command removes that. The words can
// still change after a rule has asked (routing rewrites Windows paths in
// place, unwrapping drops words), so the cache remembers the text it was
// made from and is rebuilt when that differs: a comparison of string
// headers, far cheaper than lowering.
type argCase struct {
	from  []string // each argument's text when the cache was built
	low   []string // strings.ToLower of each
	win   []string // low with Git Bash's //x written /x (see wargs)
	ok    bool
	winOK bool
	// gen counts rebuilds, so that what is derived from the arguments
	// (regKey) can tell that they changed
	gen uint32
	// joined is the arguments joined by spaces, made at rebuild joinedGen
	joined    string
	joinedOK  bool
	joinedGen uint32
	// ops is positional(args), made at rebuild opsGen
	ops    []word
	opsOK  bool
	opsGen uint32
	// small holds from and low of a short command, which most are, so
	// that the cache costs no allocation
	small [12]string
}

// lowerArgs returns the command's arguments in lower case. The slice is
// shared: callers must not change it (its capacity ends at its length, so
// an append copies).
func (c *cmd) lowerArgs() []string {
	args := c.args()
	k := &c.argCase
	if k.ok && k.own() && k.same(args) {
		return k.low
	}
	n := len(args)
	buf := k.small[:]
	if 2*n > len(buf) {
		buf = make([]string, 2*n)
	}
	k.from, k.low, k.win, k.ok, k.winOK = buf[:n:n], buf[n:2*n:2*n], nil, true, false
	k.gen++
	for i, w := range args {
		k.from[i] = w.s
		k.low[i] = strings.ToLower(w.s)
	}
	return k.low
}

// argsText returns the arguments joined by spaces (joinWords(c.args())),
// kept with the lowered arguments: dozens of rules join them on every
// command, and each join was an allocation.
func (c *cmd) argsText() string {
	c.lowerArgs() // brings argCase.gen up to date
	k := &c.argCase
	if !k.joinedOK || k.joinedGen != k.gen {
		k.joined, k.joinedOK, k.joinedGen = joinWords(c.args()), true, k.gen
	}
	return k.joined
}

// operands returns positional(c.args()), kept with the lowered
// arguments: a hundred rules ask for the operands, and a command whose
// options stand among its operands cost each of them an allocation. The
// slice is shared: callers must not change its words (its capacity ends
// at its length, so an append copies).
func (c *cmd) operands() []word {
	c.lowerArgs() // brings argCase.gen up to date
	k := &c.argCase
	if !k.opsOK || k.opsGen != k.gen {
		ops := positional(c.args())
		k.ops, k.opsOK, k.opsGen = ops[:len(ops):len(ops)], true, k.gen
	}
	return k.ops
}

// winArgs returns lowerArgs with Git Bash's //x switches written /x,
// shared as lowerArgs is.
func (c *cmd) winArgs() []string {
	low := c.lowerArgs()
	k := &c.argCase
	if k.winOK {
		return k.win
	}
	k.win, k.winOK = low, true
	for i, s := range low {
		if !gitBashSwitch(s) {
			continue
		}
		if k.win == nil || &k.win[0] == &low[0] {
			k.win = append([]string(nil), low...)[:len(low):len(low)]
		}
		k.win[i] = s[1:]
	}
	return k.win
}

// gitBashSwitch reports a switch Git Bash needs written //x so that it
// is not taken for a path.
func gitBashSwitch(s string) bool {
	return strings.HasPrefix(s, "//") && len(s) > 2 && s[2] != '/'
}

// own reports that the cache is not one copied with its command (a
// subcommand is a copy of its parent): a copy's slices would point into
// the parent's small array, which the parent may overwrite.
func (k *argCase) own() bool {
	n := len(k.from)
	return n == 0 || 2*n > len(k.small) || &k.from[0] == &k.small[0]
}

// same reports whether args are still the words the cache was built from.
func (k *argCase) same(args []word) bool {
	if len(args) != len(k.from) {
		return false
	}
	for i := range args {
		if args[i].s != k.from[i] {
			return false
		}
	}
	return true
}

// regKey caches regTarget: a dozen registry rules read the key, value and
// verb of every reg and *-ItemProperty command, and parsing its arguments
// again for each was most of their cost. It is kept while the command's
// name and arguments are those it was read from.
type regKey struct {
	done            bool
	name            string
	gen             uint32
	key, data, verb string
	ok              bool
	// the last key classified, and its class
	classed  string
	class    regClass
	classSet bool
}

// regTarget returns readRegTarget(c), read once per command.
func regTarget(c *cmd) (key, data, verb string, ok bool) {
	c.lowerArgs() // brings argCase.gen up to date
	r := &c.regKey
	if !r.done || r.name != c.name || r.gen != c.argCase.gen {
		r.key, r.data, r.verb, r.ok = readRegTarget(c)
		r.done, r.name, r.gen = true, c.name, c.argCase.gen
	}
	return r.key, r.data, r.verb, r.ok
}

// regClass returns classifyRegKey(k), classified once per command: the
// registry rules each classify the same key, a long walk over the
// branches the rules know.
func (c *cmd) regClass(k string) regClass {
	r := &c.regKey
	if !r.classSet || r.classed != k {
		r.classed, r.class, r.classSet = k, classifyRegKey(k), true
	}
	return r.class
}

// dirForms keeps the normal forms of the last sessions' directories. A
// detector judges a session's commands one after another with the same
// work directory and home, and normalising them again for every decision
// (and every Windows line) was a share of its allocations.
type dirForms struct {
	clean formMemo // cleanAbs
	win   formMemo // winFromClean
}

// formMemo remembers the last few results of a pure conversion of paths.
type formMemo [4]struct {
	in, out string
	set     bool
}

// of returns conv(in), from memory when in was converted lately.
func (m *formMemo) of(in string, conv func(string) string) string {
	for i := range m {
		if m[i].set && m[i].in == in {
			return m[i].out
		}
	}
	out := conv(in)
	copy(m[1:], m[:len(m)-1])
	m[0].in, m[0].out, m[0].set = in, out, true
	return out
}
