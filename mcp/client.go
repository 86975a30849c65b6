package mcp

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

// API is the HotPlex /v1 API the tools call, with the caller's key on
// each call: the daemon decides what each key may see and do, so the MCP
// server holds no rule of tenancy of its own.
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

// session is a session as GET /v1/sessions/{id} shows it; only the fields
// the tools use.
type session struct {
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

// request sends one call with key and returns the response of a success;
// any other answer becomes an *APIError. The caller closes the body.
func (a *API) request(ctx context.Context, key, method, path string, body any) (*http.Response, error) {
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

// call sends one call and decodes its JSON answer into out (nil: none).
func (a *API) call(ctx context.Context, key, method, path string, body, out any) error {
	resp, err := a.request(ctx, key, method, path, body)
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

func sessionPath(id string, rest ...string) string {
	return "/v1/sessions/" + url.PathEscape(id) + strings.Join(rest, "")
}

// check verifies key: it is valid when the API accepts it.
func (a *API) check(ctx context.Context, key string) error {
	return a.call(ctx, key, http.MethodGet, "/v1/providers", nil, nil)
}

// events reads the events of session id after after, up to limit of them
// and no further than the newest event the session had when called, so
// the read ends without waiting for the live ones.
func (a *API) events(ctx context.Context, key, id string, after uint64, limit int) ([]*event.EventWithMeta, session, error) {
	var s session
	if err := a.call(ctx, key, http.MethodGet, sessionPath(id), nil, &s); err != nil {
		return nil, s, err
	}
	if after >= s.LastEventID {
		return nil, s, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := a.request(ctx, key, http.MethodGet, sessionPath(id, fmt.Sprintf("/events?after=%d", after)), nil)
	if err != nil {
		return nil, s, err
	}
	defer resp.Body.Close()
	var out []*event.EventWithMeta
	var bad error
	err = readSSE(resp.Body, func(e sseEvent) bool {
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
