package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/hotplex/hotplex/gateway"
)

// UsageSource is what the model gateway metered: a *gateway.Gateway.
type UsageSource interface {
	Usage() []gateway.UsageCell
}

// usageView is GET /v1/usage: the model spend of one API key (the
// caller's) or, for an admin with ?all=true, of every key.
type usageView struct {
	// Gateway is false when the daemon runs without its model gateway:
	// nothing is metered then.
	Gateway bool         `json:"gateway"`
	Owners  []ownerUsage `json:"owners"`
}

type ownerUsage struct {
	// Owner is the API key's ID ("" for the admin token and the SDK).
	Owner string `json:"owner"`
	Name  string `json:"name,omitempty"`
	// Total counts every call of the key's sessions, deleted ones included.
	Total  gateway.Totals            `json:"total"`
	Models map[string]gateway.Totals `json:"models"`
	// Sessions are the key's sessions that called a model; a deleted
	// session's spend stays in Total and Models only.
	Sessions []sessionUsage `json:"sessions"`
}

type sessionUsage struct {
	// ID is the session's ID as its owner named it; Key its daemon-wide key.
	ID     string                    `json:"id"`
	Key    string                    `json:"key"`
	Total  gateway.Totals            `json:"total"`
	Models map[string]gateway.Totals `json:"models"`
}

func (s *Server) usage(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	all := r.URL.Query().Get("all") == "true"
	if all && !c.Admin {
		writeError(w, errorf(http.StatusForbidden, "forbidden", "?all=true shows every key's spend: it needs an admin key"))
		return
	}
	out := usageView{Gateway: s.opts.Usage != nil, Owners: []ownerUsage{}}
	if s.opts.Usage == nil {
		if !all {
			out.Owners = append(out.Owners, ownerUsage{Owner: c.ID, Models: map[string]gateway.Totals{}, Sessions: []sessionUsage{}})
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	owner := c.ID
	if all {
		owner = ""
	}
	// Public IDs of the sessions: the caller's, or everyone's.
	stored, err := s.opts.Store.ListSessions(r.Context(), owner)
	if err != nil {
		writeError(w, err)
		return
	}
	public := make(map[string]string, len(stored))
	for _, st := range stored {
		public[st.ID] = publicID(st)
	}
	owners := map[string]*ownerUsage{}
	sessions := map[string]*sessionUsage{}
	get := func(id string) *ownerUsage {
		o := owners[id]
		if o == nil {
			o = &ownerUsage{Owner: id, Models: map[string]gateway.Totals{}, Sessions: []sessionUsage{}}
			owners[id] = o
		}
		return o
	}
	if !all {
		get(c.ID)
	}
	for _, cell := range s.opts.Usage.Usage() {
		if !all && cell.Owner != c.ID {
			continue
		}
		o := get(cell.Owner)
		addTotals(&o.Total, cell.Totals)
		if cell.Model != "" {
			t := o.Models[cell.Model]
			addTotals(&t, cell.Totals)
			o.Models[cell.Model] = t
		}
		if cell.SessionID == "" {
			continue
		}
		su := sessions[cell.SessionID]
		if su == nil {
			id := public[cell.SessionID]
			if id == "" {
				id = cell.SessionID
			}
			su = &sessionUsage{ID: id, Key: cell.SessionID, Models: map[string]gateway.Totals{}}
			sessions[cell.SessionID] = su
		}
		addTotals(&su.Total, cell.Totals)
		if cell.Model != "" {
			t := su.Models[cell.Model]
			addTotals(&t, cell.Totals)
			su.Models[cell.Model] = t
		}
		// Sessions are keyed daemon-wide; each has one owner.
		if !slices.ContainsFunc(o.Sessions, func(x sessionUsage) bool { return x.Key == cell.SessionID }) {
			o.Sessions = append(o.Sessions, sessionUsage{Key: cell.SessionID})
		}
	}
	if all {
		if keys, err := s.opts.Store.ListAPIKeys(r.Context()); err == nil {
			for _, k := range keys {
				if o := owners[k.ID]; o != nil {
					o.Name = k.Name
				}
			}
		}
	}
	for _, o := range owners {
		for i := range o.Sessions {
			o.Sessions[i] = *sessions[o.Sessions[i].Key]
		}
		slices.SortFunc(o.Sessions, func(a, b sessionUsage) int { return strings.Compare(a.ID, b.ID) })
		out.Owners = append(out.Owners, *o)
	}
	slices.SortFunc(out.Owners, func(a, b ownerUsage) int { return strings.Compare(a.Owner, b.Owner) })
	writeJSON(w, http.StatusOK, out)
}

func addTotals(t *gateway.Totals, o gateway.Totals) {
	t.Requests += o.Requests
	t.InputTokens += o.InputTokens
	t.OutputTokens += o.OutputTokens
	t.CacheReadTokens += o.CacheReadTokens
	t.CacheWriteTokens += o.CacheWriteTokens
	t.CostUSD += o.CostUSD
	t.Unmetered += o.Unmetered
	t.Rejected += o.Rejected
}
