package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/hotplex/hotplex/engine"
)

type bypassRequest struct {
	// AdminToken must equal the engine's AdminToken.
	AdminToken string `json:"admin_token"`
	// TTLSeconds is how long the bypass lasts (at most an hour; 0 ends it).
	TTLSeconds int `json:"ttl_seconds"`
}

type bypassResponse struct {
	Until *time.Time `json:"until,omitempty"`
	Ended bool       `json:"ended,omitempty"`
}

// bypass lifts (or restores) the firewall of one session. It needs an
// admin API key and the engine's admin token; every decision it lets
// through is reported as a danger_bypass event and logged.
func (s *Server) bypass(w http.ResponseWriter, r *http.Request) {
	if !callerOf(r).Admin {
		writeError(w, errForbidden)
		return
	}
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req bypassRequest
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.TTLSeconds <= 0 {
		s.opts.Engine.EndBypass(st.ID)
		writeJSON(w, http.StatusOK, bypassResponse{Ended: true})
		return
	}
	ttl := min(time.Duration(req.TTLSeconds)*time.Second, engine.MaxBypass)
	if err := s.opts.Engine.Bypass(st.ID, req.AdminToken, ttl); err != nil {
		if errors.Is(err, engine.ErrBypassDenied) {
			writeError(w, errorf(http.StatusForbidden, "bypass_denied", "the admin token is wrong, or the daemon has none"))
			return
		}
		writeError(w, err)
		return
	}
	s.log.Warn("firewall bypass granted", "session", st.ID, "key", callerOf(r).ID, "ttl", ttl)
	until := time.Now().Add(ttl)
	writeJSON(w, http.StatusOK, bypassResponse{Until: &until})
}
