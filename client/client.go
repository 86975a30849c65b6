// Package client calls HotPlex's own /v1 API with a caller's key, over
// HTTP to a running daemon (Connect) or through a daemon's handler in this
// process (InProcess). The protocol servers that speak outward (mcp, acp)
// are clients of the API rather than of the engine, so that what a key may
// see and do is decided in one place, the API server, and a conversation
// they start is the daemon's like any other: listed, followed in the web
// UI, persisted, counted.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hotplex/hotplex/event"
)

// API is the HotPlex /v1 API, called with the caller's key on each call:
// the daemon decides what each key may see and do, so its callers hold no
// rule of tenancy of their own.
type API struct {
	base string
	http *http.Client
}

// Connect is the API of the daemon at baseURL ("http://127.0.0.1:8080").
func Connect(baseURL string) *API {
	return &API{base: strings.TrimRight(baseURL, "/"), http: &http.Client{}}
}

// InProcess is the API that h serves (a daemon's handler), called in
// this process without a socket.
func InProcess(h http.Handler) *API {
	return &API{base: "http://hotplex.in-process", http: &http.Client{Transport: handlerTransport{h}}}
}

// APIError is an answer of the API other than success.
type APIError struct {
	Status  int
	Code    string
	Message string
	// RetryAfter is the answer's Retry-After header, if any.
	RetryAfter string
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HotPlex API: %d %s", e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("%s (%s)", e.Message, e.Code)
}

// ErrNotFound matches an APIError of status 404: the session is not the
// caller's, or there is none of that ID.
var ErrNotFound = errors.New("not found")

func (e *APIError) Is(target error) bool {
	return target == ErrNotFound && e.Status == http.StatusNotFound
}

// Session is a session as GET /v1/sessions/{id} shows it; only the fields
// the API's clients use.
type Session struct {
	ID               string                  `json:"id"`
	Provider         string                  `json:"provider"`
	WorkDir          string                  `json:"work_dir"`
	Status           string                  `json:"status"`
	Title            string                  `json:"title,omitempty"`
	TaskInstructions string                  `json:"task_instructions,omitempty"`
	LastEventID      uint64                  `json:"last_event_id"`
	CreatedAt        time.Time               `json:"created_at"`
	UpdatedAt        time.Time               `json:"updated_at"`
	Stats            *event.SessionStatsData `json:"stats,omitempty"`
}

// Request sends one call with key and returns the response of a success;
// any other answer becomes an *APIError. The caller closes the body.
func (a *API) Request(ctx context.Context, key, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("HotPlex API: %w", err)
	}
	if resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	ae := &APIError{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil {
		ae.Code, ae.Message = e.Error.Code, e.Error.Message
	}
	return nil, ae
}

// Call sends one call and decodes its JSON answer into out (nil: none).
func (a *API) Call(ctx context.Context, key, method, path string, body, out any) error {
	resp, err := a.Request(ctx, key, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("HotPlex API: %s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// SessionPath is the path of session id's resource, followed by rest.
func SessionPath(id string, rest ...string) string {
	return "/v1/sessions/" + url.PathEscape(id) + strings.Join(rest, "")
}

// Check verifies key: it is valid when the API accepts it.
func (a *API) Check(ctx context.Context, key string) error {
	return a.Call(ctx, key, http.MethodGet, "/v1/providers", nil, nil)
}

// Events reads the events of session id after after, up to limit of them
// and no further than the newest event the session had when called, so
// the read ends without waiting for the live ones.
func (a *API) Events(ctx context.Context, key, id string, after uint64, limit int) ([]*event.EventWithMeta, Session, error) {
	var s Session
	if err := a.Call(ctx, key, http.MethodGet, SessionPath(id), nil, &s); err != nil {
		return nil, s, err
	}
	if after >= s.LastEventID {
		return nil, s, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := a.Request(ctx, key, http.MethodGet, SessionPath(id, fmt.Sprintf("/events?after=%d", after)), nil)
	if err != nil {
		return nil, s, err
	}
	defer resp.Body.Close()
	var out []*event.EventWithMeta
	var bad error
	err = ReadSSE(resp.Body, func(e Event) bool {
		if e.ID == 0 {
			// A notice (resync, session_closed, disconnect): the stream
			// has nothing more of what was asked for.
			return false
		}
		ev := new(event.EventWithMeta)
		if err := json.Unmarshal(e.Data, ev); err != nil {
			bad = fmt.Errorf("event %d: %w", e.ID, err)
			return false
		}
		out = append(out, ev)
		return len(out) < limit && e.ID < s.LastEventID
	})
	if bad != nil {
		return out, s, bad
	}
	if err != nil && len(out) == 0 {
		return nil, s, err
	}
	return out, s, nil
}
