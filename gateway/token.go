package gateway

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"sync"
)

// tokenPrefix marks HotPlex gateway tokens, so that one found in a log or a
// transcript is recognisable for what it is (and worthless once revoked).
const tokenPrefix = "hpg-"

// grant is what a token stands for: the session (and the API key that owns
// it) whose model calls it may make.
type grant struct {
	hash [sha256.Size]byte

	mu        sync.Mutex
	sessionID string
	owner     string
	revoked   bool
}

func (g *grant) who() (sessionID, owner string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sessionID, g.owner, !g.revoked
}

// tokens is the registry of live tokens. Tokens are kept only as their
// SHA-256: the map lookup is by a hash an attacker cannot steer, and the
// final comparison is constant-time, so response timing tells nothing about
// how much of a guessed token was right.
type tokens struct {
	mu sync.RWMutex
	m  map[[sha256.Size]byte]*grant
}

func newTokens() *tokens { return &tokens{m: map[[sha256.Size]byte]*grant{}} }

// issue makes a new random token for sessionID of owner.
func (t *tokens) issue(sessionID, owner string) (string, *grant) {
	var raw [32]byte
	_, _ = rand.Read(raw[:]) // crypto/rand never fails on supported platforms
	tok := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	g := &grant{hash: sha256.Sum256([]byte(tok)), sessionID: sessionID, owner: owner}
	t.mu.Lock()
	t.m[g.hash] = g
	t.mu.Unlock()
	return tok, g
}

// lookup returns the live grant of tok, or nil.
func (t *tokens) lookup(tok string) *grant {
	if tok == "" {
		return nil
	}
	h := sha256.Sum256([]byte(tok))
	t.mu.RLock()
	g := t.m[h]
	t.mu.RUnlock()
	if g == nil || subtle.ConstantTimeCompare(g.hash[:], h[:]) != 1 {
		return nil
	}
	if _, _, ok := g.who(); !ok {
		return nil
	}
	return g
}

// revoke forgets g: its token answers 401 from now on.
func (t *tokens) revoke(g *grant) {
	g.mu.Lock()
	g.revoked = true
	g.mu.Unlock()
	t.mu.Lock()
	delete(t.m, g.hash)
	t.mu.Unlock()
}

func (t *tokens) live() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.m)
}
