package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hotplex/hotplex/provider"
)

// ErrNoConversation is Conversations.Load's answer for a session none of
// whose files were saved.
var ErrNoConversation = errors.New("no saved conversation")

// Conversations keep agents' conversations where every engine of a
// cluster reads them. An agent keeps its conversation in files of its
// own outside the work directory (Claude Code's transcript under its
// config directory; see provider.Keeper), on the disk of the node that
// ran it. The engine saves them after every turn, and before it resumes a
// conversation it restores them, so a session moves to another node with
// its context.
type Conversations interface {
	// Save replaces the session's saved files. token is the fencing token
	// of the right to run the session (see Claim); a save with a lower
	// token than one already saved must fail, so that a node that lost
	// the session cannot overwrite what its new node saved.
	Save(ctx context.Context, sessionID string, token uint64, files []provider.ConversationFile) error
	// Load returns the session's saved files, or ErrNoConversation.
	Load(ctx context.Context, sessionID string) ([]provider.ConversationFile, error)
	// Delete removes them, with the session.
	Delete(ctx context.Context, sessionID string) error
}

// Tokened is a Claim with a fencing token (cluster leases have one).
type Tokened interface {
	Token() uint64
}

// maxConversationBytes bounds what one save reads and sends.
const maxConversationBytes = 256 << 20

// keeperOf returns s's provider as a Keeper, when conversations are kept.
func (sp *SessionPool) keeperOf(s *session) (provider.Keeper, bool) {
	if sp.opts.Conversations == nil {
		return nil, false
	}
	k, ok := s.prov.(provider.Keeper)
	return k, ok
}

// conversationOptions is what a provider needs to find s's files.
func (sp *SessionPool) conversationOptions(s *session) provider.StartOptions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return provider.StartOptions{SessionID: s.id, ProviderSessionID: s.providerSessionID, WorkDir: s.cfg.WorkDir, Env: sp.opts.Env}
}

// saveConversation saves s's conversation files, if they are kept. A
// failure is logged: the turn happened, and the files are still here for
// this node's next turn.
func (sp *SessionPool) saveConversation(ctx context.Context, s *session, h *hold) {
	k, ok := sp.keeperOf(s)
	if !ok {
		return
	}
	var token uint64
	if h != nil {
		if tk, ok := h.c.(Tokened); ok {
			token = tk.Token()
		}
	}
	files, err := readConversation(k, sp.conversationOptions(s))
	if err == nil && len(files) > 0 {
		err = sp.opts.Conversations.Save(ctx, s.id, token, files)
	}
	if err != nil {
		sp.log.Warn("saving the conversation for other nodes", "session", s.id, "err", err)
	}
}

// restoreConversation writes s's saved conversation files where its agent
// reads them, before a process resumes it.
func (sp *SessionPool) restoreConversation(ctx context.Context, s *session) error {
	k, ok := sp.keeperOf(s)
	if !ok {
		return nil
	}
	files, err := sp.opts.Conversations.Load(ctx, s.id)
	if errors.Is(err, ErrNoConversation) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: restoring the conversation of %s: %w", ErrStartFailed, s.id, err)
	}
	dir, _, err := k.ConversationFiles(sp.conversationOptions(s))
	if err != nil {
		return fmt.Errorf("%w: restoring the conversation of %s: %w", ErrStartFailed, s.id, err)
	}
	for _, f := range files {
		p, err := inside(dir, f.Path)
		if err != nil {
			return fmt.Errorf("%w: restoring the conversation of %s: %w", ErrStartFailed, s.id, err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return fmt.Errorf("%w: restoring the conversation of %s: %w", ErrStartFailed, s.id, err)
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			return fmt.Errorf("%w: restoring the conversation of %s: %w", ErrStartFailed, s.id, err)
		}
	}
	return nil
}

// currentHold is s's claim now, nil if none.
func (s *session) currentHold() *hold {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hold
}

// readConversation reads the files k names for opts.
func readConversation(k provider.Keeper, opts provider.StartOptions) ([]provider.ConversationFile, error) {
	dir, paths, err := k.ConversationFiles(opts)
	if err != nil {
		return nil, err
	}
	var files []provider.ConversationFile
	total := 0
	for _, rel := range paths {
		p, err := inside(dir, rel)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since it was listed
		}
		if err != nil {
			return nil, err
		}
		if total += len(data); total > maxConversationBytes {
			return nil, fmt.Errorf("conversation files exceed %d MiB", maxConversationBytes>>20)
		}
		files = append(files, provider.ConversationFile{Path: filepath.ToSlash(rel), Data: data})
	}
	return files, nil
}

// inside joins a relative path to dir, refusing one that leaves it.
func inside(dir, rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("conversation file %q is not inside its directory", rel)
	}
	return filepath.Join(dir, clean), nil
}
