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

// UsageCell is the totals of one session's calls, of one owner, to one
// model: the finest grain the gateway meters at, and what it persists.
// SessionID "" holds the spend of the owner's sessions since forgotten;
// Model "" the calls refused before a model was named.
type UsageCell struct {
	SessionID string `json:"session_id"`
	Owner     string `json:"owner"`
	Model     string `json:"model"`
	Totals
}

type cellKey struct{ session, owner, model string }

func (t *Totals) addTotals(o Totals) {
	t.Requests += o.Requests
	t.Usage.add(o.Usage)
	t.CostUSD += o.CostUSD
	t.Unmetered += o.Unmetered
	t.Rejected += o.Rejected
}

// meter keeps the running totals.
type meter struct {
	mu       sync.Mutex
	sessions map[string]*Totals
	owners   map[string]*Totals
	models   map[string]*Totals
	cells    map[cellKey]*Totals
	// pending is what was metered since the last write to the ledger.
	pending  map[cellKey]*Totals
	unpriced map[string]bool
}

func newMeter() *meter {
	return &meter{sessions: map[string]*Totals{}, owners: map[string]*Totals{}, models: map[string]*Totals{},
		cells: map[cellKey]*Totals{}, pending: map[cellKey]*Totals{}, unpriced: map[string]bool{}}
}

// restore counts cells metered before (by an earlier run of the daemon)
// as spent; they are not pending, the ledger holds them already.
func (m *meter) restore(cells []UsageCell) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range cells {
		bucketCell(m.cells, cellKey{c.SessionID, c.Owner, c.Model}).addTotals(c.Totals)
		if c.SessionID != "" {
			bucket(m.sessions, c.SessionID).addTotals(c.Totals)
		}
		bucket(m.owners, c.Owner).addTotals(c.Totals)
		if c.Model != "" {
			bucket(m.models, c.Model).addTotals(c.Totals)
		}
	}
}

// forget drops a session's own totals, keeping its owner's and model's:
// its cells, written or pending, become the owner's.
func (m *meter) forget(sessionID string) {
	if sessionID == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, sessionID)
	for _, cells := range []map[cellKey]*Totals{m.cells, m.pending} {
		for k, t := range cells {
			if k.session == sessionID {
				delete(cells, k)
				bucketCell(cells, cellKey{"", k.owner, k.model}).addTotals(*t)
			}
		}
	}
}

// takePending returns what the ledger lacks and forgets it.
func (m *meter) takePending() []UsageCell {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.pending) == 0 {
		return nil
	}
	out := make([]UsageCell, 0, len(m.pending))
	for k, t := range m.pending {
		out = append(out, UsageCell{SessionID: k.session, Owner: k.owner, Model: k.model, Totals: *t})
	}
	clear(m.pending)
	return out
}

// putBack returns cells the ledger failed to take to the pending ones.
func (m *meter) putBack(cells []UsageCell) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range cells {
		bucketCell(m.pending, cellKey{c.SessionID, c.Owner, c.Model}).addTotals(c.Totals)
	}
}

func bucketCell(m map[cellKey]*Totals, k cellKey) *Totals {
	t := m[k]
	if t == nil {
		t = &Totals{}
		m[k] = t
	}
	return t
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
	k := cellKey{c.sessionID, c.owner, c.model}
	targets := []*Totals{bucket(m.sessions, c.sessionID), bucket(m.owners, c.owner), bucketCell(m.cells, k), bucketCell(m.pending, k)}
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

func (m *meter) snapshot() []UsageCell {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]UsageCell, 0, len(m.cells))
	for k, t := range m.cells {
		out = append(out, UsageCell{SessionID: k.session, Owner: k.owner, Model: k.model, Totals: *t})
	}
	return out
}

func copyTotals(m map[string]*Totals) map[string]Totals {
	out := make(map[string]Totals, len(m))
	for k, v := range m {
		out[k] = *v
	}
	return out
}
