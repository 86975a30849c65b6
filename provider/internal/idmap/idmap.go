package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// SessionStore remembers the agent's own session ID for each HotPlex
// conversation (ACP agents choose their session IDs themselves).
type SessionStore interface {
	Get(providerSessionID string) (agentSessionID string, ok bool)
	Put(providerSessionID, agentSessionID string)
}

// MemoryStore is a SessionStore in memory.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string]string{}} }

// Get returns the agent session ID saved for providerSessionID.
func (s *MemoryStore) Get(providerSessionID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[providerSessionID]
	return v, ok
}

// Put saves the agent session ID for providerSessionID.
func (s *MemoryStore) Put(providerSessionID, agentSessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[providerSessionID] = agentSessionID
}

// FileStore is a SessionStore kept in one JSON file, so that a restarted
// daemon still finds its conversations.
type FileStore struct {
	path string
	mu   sync.Mutex
}

// NewFileStore returns a FileStore at path; the file is created on the
// first Put.
func NewFileStore(path string) *FileStore { return &FileStore{path: path} }

func (s *FileStore) load() map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile(s.path)
	if err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// Get returns the agent session ID saved for providerSessionID.
func (s *FileStore) Get(providerSessionID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.load()[providerSessionID]
	return v, ok
}

// Put saves the agent session ID for providerSessionID. A failed write is
// not fatal: the conversation then starts afresh after a restart.
func (s *FileStore) Put(providerSessionID, agentSessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.load()
	if m[providerSessionID] == agentSessionID {
		return
	}
	m[providerSessionID] = agentSessionID
	_ = s.write(m)
}

func (s *FileStore) write(m map[string]string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode session store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("session store dir: %w", err)
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write session store: %w", err)
	}
	return os.Rename(tmp, s.path)
}

// baseEnv returns a copy of env, or of the process's own environment when
// env is nil.
func baseEnv(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return slices.Clone(env)
}
