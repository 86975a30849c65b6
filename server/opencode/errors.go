package opencode

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// OpenCode's programs read an error as {"name", "data": {"message"}} and
// show its message; an error of another shape makes them fail. Every
// error of these routes has that shape, with HotPlex's own error object
// beside it for clients of both APIs.

// WriteError answers with an error in OpenCode's shape and HotPlex's.
func WriteError(w http.ResponseWriter, status int, code, msg string) {
	body := map[string]any{"name": "UnknownError", "data": map[string]string{"message": msg},
		"error": map[string]string{"code": code, "message": msg}}
	switch status {
	case http.StatusNotFound:
		body["name"] = "NotFoundError"
	case http.StatusBadRequest:
		body["name"], body["success"], body["errors"] = "BadRequestError", false, []any{}
	}
	writeJSON(w, status, body)
}

// NotFound answers a request for a route neither HotPlex nor this API
// serves.
func NotFound(w http.ResponseWriter, r *http.Request) {
	WriteError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path)
}

// writeError answers with err as the host words it (status, code,
// message, headers such as Retry-After), in OpenCode's shape.
func (a *API) writeError(w http.ResponseWriter, err error) {
	rec := &errorRecorder{header: http.Header{}, status: http.StatusOK}
	a.host.WriteError(rec, err)
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(rec.body.Bytes(), &body) != nil || body.Error.Message == "" {
		body.Error.Code, body.Error.Message = "internal", err.Error()
	}
	for k, v := range rec.header {
		if k != "Content-Type" && k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	WriteError(w, rec.status, body.Error.Code, body.Error.Message)
}

// errorRecorder keeps what the host writes of an error.
type errorRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (e *errorRecorder) Header() http.Header         { return e.header }
func (e *errorRecorder) Write(b []byte) (int, error) { return e.body.Write(b) }
func (e *errorRecorder) WriteHeader(status int)      { e.status = status }
