package protocol

import (
	"os"
	"strings"
	"testing"
)

// TestOnlineDocExample: the answer shown for GET /api/online in
// docs/protocol.md decodes into Online with no unknown field.
func TestOnlineDocExample(t *testing.T) {
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "| `GET /api/online` |") {
			row = l
		}
	}
	i := strings.Index(row, "`{")
	if i < 0 {
		t.Fatal("docs/protocol.md has no GET /api/online row with an example answer")
	}
	ex := row[i+1:]
	ex = ex[:strings.Index(ex, "`")]
	var o Online
	if err := strictDecode([]byte(ex), &o); err != nil {
		t.Fatalf("GET /api/online example %s: %v", ex, err)
	}
	if o.Count != len(o.Players) || o.Count == 0 || o.Players[0].Player == "" || o.Players[0].Name == "" {
		t.Errorf("example %+v: want every player named with an id", o)
	}
}
