// Package web holds the browser UI that `hotplex serve` serves at "/".
// The Makefile builds it (TypeScript, bundled by Vite) into dist; only a
// placeholder is committed there, so a build without it still compiles
// and the daemon then says how to build the UI.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Assets returns the built UI: index.html and assets/.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid path; fs.Sub cannot fail on it
	}
	return sub
}
