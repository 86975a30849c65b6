package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// message is one entry of a conversation, in a form both APIs are
// rendered from.
type message struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text,omitempty"`
	// Calls are the assistant's tool calls.
	Calls []toolCall `json:"calls,omitempty"`
	// Results answer the previous assistant message's calls (role "user").
	Results []toolResult `json:"results,omitempty"`
}

type toolCall struct {
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

type toolResult struct {
	ID      string `json:"id"`
	Output  string `json:"output"`
	IsError bool   `json:"is_error,omitempty"`
}

// conversation is what is saved between processes.
type conversation struct {
	Version  int       `json:"version"`
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
}

func loadConversation(path string) (conversation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return conversation{}, err
	}
	var c conversation
	if err := json.Unmarshal(b, &c); err != nil {
		return conversation{}, fmt.Errorf("%s: %w", path, err)
	}
	if c.Version != 1 {
		return conversation{}, fmt.Errorf("%s: unknown version %d", path, c.Version)
	}
	return c, nil
}

// saveConversation writes c atomically: a crash leaves the old file or the new.
func saveConversation(path string, c conversation) error {
	c.Version = 1
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".conversation-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
