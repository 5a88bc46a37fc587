package web

import (
	"io/fs"
	"regexp"
	"strconv"
	"testing"

	"cardroom/protocol"
)

// TestClientProtocolVersion: the client speaks the server's protocol
// version; bumping protocol.Version fails here until the client is updated
// to the new shapes (docs/protocol.md, "Versioning").
func TestClientProtocolVersion(t *testing.T) {
	b, err := fs.ReadFile(Assets(), "js/main.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const PROTOCOL_VERSION = (\d+);`).FindSubmatch(b)
	if m == nil {
		t.Fatal("js/main.js declares no PROTOCOL_VERSION")
	}
	if v, _ := strconv.Atoi(string(m[1])); v != protocol.Version {
		t.Fatalf("the client speaks protocol version %d, the server %d", v, protocol.Version)
	}
}
