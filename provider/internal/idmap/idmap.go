// Package idmap remembers, for each HotPlex conversation, the session or
// thread ID an agent chose for it, so that a new agent process can reopen
// the conversation.
package idmap

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Store maps HotPlex's provider session IDs to the agent's own IDs.
type Store interface {
	Get(providerSessionID string) (agentSessionID string, ok bool)
	Put(providerSessionID, agentSessionID string)
}

// Memory is a Store in memory.
type Memory struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{m: map[string]string{}} }

// Get returns the agent session ID saved for providerSessionID.
func (s *Memory) Get(providerSessionID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[providerSessionID]
	return v, ok
}

// Put saves the agent session ID for providerSessionID.
func (s *Memory) Put(providerSessionID, agentSessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[providerSessionID] = agentSessionID
}

// File is a Store kept in one JSON file, so that a restarted
// daemon still finds its conversations.
type File struct {
	path string
	mu   sync.Mutex
}

// NewFile returns a File at path; the file is created on the
// first Put.
func NewFile(path string) *File { return &File{path: path} }

func (s *File) load() map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile(s.path)
	if err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// Get returns the agent session ID saved for providerSessionID.
func (s *File) Get(providerSessionID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.load()[providerSessionID]
	return v, ok
}

// Put saves the agent session ID for providerSessionID. A failed write is
// not fatal: the conversation then starts afresh after a restart.
func (s *File) Put(providerSessionID, agentSessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.load()
	if m[providerSessionID] == agentSessionID {
		return
	}
	m[providerSessionID] = agentSessionID
	_ = s.write(m)
}

func (s *File) write(m map[string]string) error {
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
