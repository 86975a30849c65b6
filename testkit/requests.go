package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Do sends a request to the daemon with key as its Bearer token (none when
// empty). body is sent as is when a string, as JSON otherwise; the
// response's body is closed at the end of the test.
func (d *Daemon) Do(t testing.TB, method, path, key string, body any) *http.Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, d.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Create creates a session as key with body (POST /v1/sessions) and
// returns its view; anything but 201 fails the test.
func (d *Daemon) Create(t testing.TB, key string, body map[string]any) map[string]any {
	t.Helper()
	resp := d.Do(t, "POST", "/v1/sessions", key, body)
	if resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("create: %d %s", resp.StatusCode, b)
	}
	return Decode[map[string]any](t, resp)
}

// Decode reads resp's JSON body as a T and closes it.
func Decode[T any](t testing.TB, resp *http.Response) T {
	t.Helper()
	defer resp.Body.Close()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
