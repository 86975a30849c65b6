package engine

import "os"

// Credentials give every agent process model credentials of its own in
// place of the operator's (gateway.Gateway is one): with them set, no
// secret of the operator's environment reaches an agent, and each
// process's model calls are known to be its session's. Without them the
// engine passes its environment through, keys included, as an SDK
// embedded in a program that trusts its agents may want.
type Credentials interface {
	// AgentEnv returns the environment of one agent process of sessionID,
	// owned by owner (both empty for a prewarmed spare), made from base:
	// the operator's secrets removed, the process's own credentials in
	// their place. bind gives the credentials to another session (a spare
	// at its claim); revoke ends them, once the process has ended.
	AgentEnv(sessionID, owner string, base []string) (env []string, bind func(sessionID, owner string), revoke func(), err error)
}

// credential is what one process was issued.
type credential struct {
	bind   func(sessionID, owner string)
	revoke func()
}

// issue fills env with a process's own credentials, when the engine has
// Credentials; the returned credential (nil without them) is the caller's
// to revoke.
func (sp *SessionPool) issue(env *[]string, sessionID, owner string) (*credential, error) {
	c := sp.opts.Credentials
	if c == nil {
		return nil, nil
	}
	base := *env
	if base == nil {
		base = os.Environ()
	}
	out, bind, revoke, err := c.AgentEnv(sessionID, owner, base)
	if err != nil {
		return nil, err
	}
	*env = out
	return &credential{bind: bind, revoke: revoke}, nil
}

func (c *credential) end() {
	if c != nil && c.revoke != nil {
		c.revoke()
	}
}

// takeCredential detaches the session's credential, for revoking once its
// process has ended.
func (s *session) takeCredential() *credential {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cred
	s.cred = nil
	return c
}

// EndTurn ends the turn running on a session with cause, as Interrupt does
// with ErrInterrupted: the turn's error event and Execute's error carry
// cause (a spent model budget, say). It reports whether a turn was running.
func (e *Engine) EndTurn(sessionID string, cause error) bool {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[sessionID]
	e.pool.mu.Unlock()
	if !ok {
		return false
	}
	s.mu.Lock()
	interrupt := s.interrupt
	s.mu.Unlock()
	if interrupt == nil {
		return false
	}
	interrupt(cause)
	return true
}
