//go:build race

package guard

// raceEnabled relaxes timing assertions: the race detector slows the
// analysis down several times.
const raceEnabled = true
