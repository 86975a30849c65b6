package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// apiError is the body of every error response:
// {"error":{"code":"not_found","message":"..."}}.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Answered is set on already_answered: the answer that came first.
	Answered *permissionAnswered `json:"answered,omitempty"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errorf(status int, code, msg string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg}
}

// storeRetryAfter is when a client refused for an unreachable store is
// told to try again.
const storeRetryAfter = 5 * time.Second

var (
	errUnauthorized = errorf(http.StatusUnauthorized, "unauthorized", "a valid API key is required (Authorization: Bearer <key>)")
	errForbidden    = errorf(http.StatusForbidden, "forbidden", "this needs an admin key")
	errNotFound     = errorf(http.StatusNotFound, "not_found", "no such session")
)

// writeError sends err as JSON with its status (500 for unknown errors).
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, engine.ErrOverloaded):
		// Too many CLI starts at once: the client should come back later.
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(engine.RetryAfter(err).Round(time.Second)/time.Second))))
		ae = errorf(http.StatusTooManyRequests, "overloaded", err.Error())
	case errors.Is(err, store.ErrUnavailable):
		// The database is down or restarting: nothing was done, and the
		// same request may succeed once it is back.
		w.Header().Set("Retry-After", strconv.Itoa(int(storeRetryAfter/time.Second)))
		ae = errorf(http.StatusServiceUnavailable, "store_unavailable", err.Error())
	default:
		ae = errorf(http.StatusInternalServerError, "internal", err.Error())
	}
	writeJSON(w, ae.Status, map[string]any{"error": ae})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// maxBody bounds request bodies.
const maxBody = 1 << 20

// readJSON decodes a request body of at most maxBody bytes into v,
// refusing unknown fields.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	var raw json.RawMessage
	err := dec.Decode(&raw)
	if err == nil && string(raw) == "null" {
		// Decoding null into a value leaves it as it was: a request
		// that says nothing would pass for one that asks for defaults.
		return errorf(http.StatusBadRequest, "bad_request", "the request body is null; send a JSON object")
	}
	if err == nil {
		inner := json.NewDecoder(bytes.NewReader(raw))
		inner.DisallowUnknownFields()
		err = inner.Decode(v)
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return errorf(http.StatusRequestEntityTooLarge, "too_large", "the request body is over 1 MiB")
		case errors.Is(err, io.EOF):
			return errorf(http.StatusBadRequest, "bad_request", "the request body is empty")
		}
		return errorf(http.StatusBadRequest, "bad_request", "malformed JSON: "+err.Error())
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, "bad_request", "the request body holds more than one JSON value")
	}
	return nil
}
