// Package web is the browser client, embedded in the binary with go:embed
// and served by the server at "/".
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Assets returns the client's files (index.html at the root).
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}
