package gateway

import (
	"slices"
	"sync"
)

// Usage is the tokens of one or more model calls, the same way for every
// API: InputTokens are the prompt tokens not read from a cache (OpenAI and
// Gemini report cached tokens inside their prompt count; they are moved to
// CacheReadTokens here), OutputTokens include reasoning.
type Usage struct {
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	CacheReadTokens  int64 `json:"cache_read_tokens"`
	CacheWriteTokens int64 `json:"cache_write_tokens"`
}

func (u *Usage) add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
}

// Totals add up the model calls of a session, an API key or a model.
type Totals struct {
	// Requests counts forwarded model calls (metered or not).
	Requests int64 `json:"requests"`
	Usage
	CostUSD float64 `json:"cost_usd"`
	// Unmetered counts successful calls whose response carried no usage
	// (a stream cut short, say): their tokens are missing from Usage.
	Unmetered int64 `json:"unmetered,omitempty"`
	// Rejected counts calls refused for being over budget.
	Rejected int64 `json:"rejected,omitempty"`
}

// Report is a snapshot of everything metered.
type Report struct {
	Sessions map[string]Totals `json:"sessions"`
	Owners   map[string]Totals `json:"owners"`
	Models   map[string]Totals `json:"models"`
	// Unpriced lists the models used that the price table does not know;
	// they are counted at no cost.
	Unpriced []string `json:"unpriced,omitempty"`
}

// meter keeps the running totals.
type meter struct {
	mu       sync.Mutex
	sessions map[string]*Totals
	owners   map[string]*Totals
	models   map[string]*Totals
	unpriced map[string]bool
}

func newMeter() *meter {
	return &meter{sessions: map[string]*Totals{}, owners: map[string]*Totals{}, models: map[string]*Totals{}, unpriced: map[string]bool{}}
}

func bucket(m map[string]*Totals, k string) *Totals {
	t := m[k]
	if t == nil {
		t = &Totals{}
		m[k] = t
	}
	return t
}

// spent returns what the session and the owner have cost so far.
func (m *meter) spent(sessionID, owner string) (session, ownerUSD float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.sessions[sessionID]; t != nil {
		session = t.CostUSD
	}
	if t := m.owners[owner]; t != nil {
		ownerUSD = t.CostUSD
	}
	return session, ownerUSD
}

// call is what one finished model call adds.
type call struct {
	sessionID, owner, model string
	usage                   Usage
	metered                 bool
	cost                    float64
	priced                  bool
	rejected                bool
}

// record adds c and returns the session's and owner's new costs.
func (m *meter) record(c call) (sessionUSD, ownerUSD float64, newlyUnpriced bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	targets := []*Totals{bucket(m.sessions, c.sessionID), bucket(m.owners, c.owner)}
	if c.model != "" {
		targets = append(targets, bucket(m.models, c.model))
	}
	for _, t := range targets {
		if c.rejected {
			t.Rejected++
			continue
		}
		t.Requests++
		t.Usage.add(c.usage)
		t.CostUSD += c.cost
		if !c.metered {
			t.Unmetered++
		}
	}
	if c.metered && !c.priced && c.model != "" && !m.unpriced[c.model] {
		m.unpriced[c.model] = true
		newlyUnpriced = true
	}
	return m.sessions[c.sessionID].CostUSD, m.owners[c.owner].CostUSD, newlyUnpriced
}

func (m *meter) report() Report {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := Report{Sessions: copyTotals(m.sessions), Owners: copyTotals(m.owners), Models: copyTotals(m.models)}
	for k := range m.unpriced {
		r.Unpriced = append(r.Unpriced, k)
	}
	slices.Sort(r.Unpriced)
	return r
}

func copyTotals(m map[string]*Totals) map[string]Totals {
	out := make(map[string]Totals, len(m))
	for k, v := range m {
		out[k] = *v
	}
	return out
}
