package server

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// webUIPolicy keeps the UI to what the daemon itself serves: no script,
// style or connection reaches anywhere else.
const webUIPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// webUI serves the browser UI from ui: index.html at "/" and the built
// files under "/assets/". The pages need no API key (they hold none); the
// UI logs in with a key the person types and calls the API with it.
func webUI(ui fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := "index.html"
		if r.URL.Path != "/" {
			name = strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		}
		b, err := fs.ReadFile(ui, name)
		switch {
		case errors.Is(err, fs.ErrNotExist) && name == "index.html":
			// A binary built without `make web` has only a placeholder.
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("web UI not built: run make web\n"))
			return
		case err != nil:
			writeError(w, errorf(http.StatusNotFound, "not_found", "no such file: "+r.URL.Path))
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", webUIPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		if name == "index.html" {
			h.Set("Cache-Control", "no-cache")
		} else {
			// Built files carry a content hash in their names.
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}
