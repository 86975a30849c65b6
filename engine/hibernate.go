package engine

import "context"

// Hibernate ends a session's process and keeps its conversation, as the
// idle reaper does: an idle session becomes hibernated and its next turn
// (or GetOrCreateSession) resumes the conversation in a new process. A
// running turn is waited for, within ctx. A session without a live
// process (new, hibernated, error) is left as it is.
func (e *Engine) Hibernate(ctx context.Context, id string) error {
	sp := e.pool
	s, err := sp.acquire(ctx, id, SessionConfig{}, true)
	if err != nil {
		return err
	}
	defer sp.release(s)
	s.mu.Lock()
	idle := s.proc != nil && s.status == StatusIdle
	s.mu.Unlock()
	if !idle {
		return nil
	}
	return sp.stopProcess(s, StatusHibernated)
}
