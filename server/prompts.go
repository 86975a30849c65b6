package server

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/hotplex/hotplex/store"
)

// The engine's events tell what the agent did, not what it was asked: a
// turn's prompt is known only to whoever started it. The server notes each
// prompt with the number of its turn's first event, and the recorder keeps
// them with the session record (in its options, as "prompts"), so that a
// transcript read back after a restart still shows what the user said.

// maxSavedPrompts bounds the prompts a session record keeps; the oldest
// go first.
const maxSavedPrompts = 500

// promptBook holds the prompts not yet saved, and each session's newest
// one for the clients that follow the turn live.
type promptBook struct {
	mu      sync.Mutex
	pending map[string]map[uint64]string // session -> first event seq -> prompt
	recent  map[string]notedPrompt
}

type notedPrompt struct {
	seq  uint64
	text string
}

func newPromptBook() promptBook {
	return promptBook{pending: map[string]map[uint64]string{}, recent: map[string]notedPrompt{}}
}

// NotePrompt records the prompt of the turn whose first event is seq.
func (r *Recorder) NotePrompt(session string, seq uint64, prompt string) {
	b := &r.prompts
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending[session] == nil {
		b.pending[session] = map[uint64]string{}
	}
	b.pending[session][seq] = prompt
	b.recent[session] = notedPrompt{seq: seq, text: prompt}
}

// Prompt returns the prompt of the turn whose first event is seq, if it
// is known.
func (r *Recorder) Prompt(ctx context.Context, session string, seq uint64) (string, bool) {
	b := &r.prompts
	b.mu.Lock()
	if p, ok := b.recent[session]; ok && p.seq == seq {
		b.mu.Unlock()
		return p.text, true
	}
	b.mu.Unlock()
	st, err := r.store.GetSession(ctx, session)
	if err != nil {
		return "", false
	}
	p, ok := savedPrompts(st)[seq]
	return p, ok
}

// forget drops what the book holds of a deleted session.
func (b *promptBook) forget(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, session)
	delete(b.recent, session)
}

// saveInto moves the session's pending prompts into its record's options.
func (b *promptBook) saveInto(s *store.Session) {
	b.mu.Lock()
	pending := b.pending[s.ID]
	delete(b.pending, s.ID)
	b.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	opts := map[string]json.RawMessage{}
	if len(s.Options) > 0 {
		_ = json.Unmarshal(s.Options, &opts)
	}
	saved := map[string]string{}
	if raw, ok := opts["prompts"]; ok {
		_ = json.Unmarshal(raw, &saved)
	}
	for seq, p := range pending {
		saved[strconv.FormatUint(seq, 10)] = p
	}
	if len(saved) > maxSavedPrompts {
		seqs := slices.SortedFunc(maps.Keys(saved), func(a, b string) int {
			x, _ := strconv.ParseUint(a, 10, 64)
			y, _ := strconv.ParseUint(b, 10, 64)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
		for _, k := range seqs[:len(saved)-maxSavedPrompts] {
			delete(saved, k)
		}
	}
	opts["prompts"], _ = json.Marshal(saved)
	s.Options, _ = json.Marshal(opts)
}

// savedPrompts reads the prompts kept in a session record.
func savedPrompts(s store.Session) map[uint64]string {
	var o struct {
		Prompts map[string]string `json:"prompts"`
	}
	if len(s.Options) == 0 || json.Unmarshal(s.Options, &o) != nil {
		return nil
	}
	out := make(map[uint64]string, len(o.Prompts))
	for k, p := range o.Prompts {
		if seq, err := strconv.ParseUint(k, 10, 64); err == nil {
			out[seq] = p
		}
	}
	return out
}
