package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hotplex/hotplex/server"
)

func get(t *testing.T, h http.Handler, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	resp := rec.Result()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// The UI is served without a key, from the file system it was given.
func TestWebUIServedWithoutKey(t *testing.T) {
	ui := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><title>HotPlex</title>")},
		"assets/index-1.js":  {Data: []byte("console.log(1)")},
		"assets/index-1.css": {Data: []byte("body{}")},
	}
	h := server.New(server.Options{Web: ui}).Handler()
	cases := []struct {
		path, wantType, wantBody string
		status                   int
	}{
		{"/", "text/html", "<title>HotPlex</title>", http.StatusOK},
		{"/assets/index-1.js", "javascript", "console.log(1)", http.StatusOK},
		{"/assets/index-1.css", "text/css", "body{}", http.StatusOK},
		{"/assets/missing.js", "application/json", "not_found", http.StatusNotFound},
		{"/assets/", "application/json", "not_found", http.StatusNotFound},
		{"/elsewhere", "application/json", "no such endpoint", http.StatusNotFound},
	}
	for _, c := range cases {
		resp, body := get(t, h, c.path)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.path, resp.StatusCode, c.status)
			continue
		}
		if !strings.Contains(resp.Header.Get("Content-Type"), c.wantType) || !strings.Contains(body, c.wantBody) {
			t.Errorf("%s: %q %q", c.path, resp.Header.Get("Content-Type"), body)
		}
		if c.status == http.StatusOK && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: no content security policy", c.path)
		}
	}
}

// A binary built without the UI says how to build it.
func TestWebUINotBuilt(t *testing.T) {
	h := server.New(server.Options{Web: fstest.MapFS{".keep": {}}}).Handler()
	resp, body := get(t, h, "/")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "make web") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	// Without a UI at all, "/" is just an unknown endpoint.
	resp, _ = get(t, server.New(server.Options{}).Handler(), "/")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("no UI: %d", resp.StatusCode)
	}
}
