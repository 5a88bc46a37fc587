package protocol

import (
	"os"
	"strings"
	"testing"
)

// TestProfileDocExample: the example of docs/protocol.md's "Profiles"
// section decodes into Profile with no unknown field, and has every part
// a client draws.
func TestProfileDocExample(t *testing.T) {
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## Profiles\n")
	if start < 0 {
		t.Fatal(`docs/protocol.md has no "## Profiles" section`)
	}
	sec := doc[start+1:]
	if end := strings.Index(sec, "\n## "); end >= 0 {
		sec = sec[:end]
	}
	i := strings.Index(sec, "```json\n")
	if i < 0 {
		t.Fatal("the Profiles section has no json example")
	}
	sec = sec[i+len("```json\n"):]
	j := strings.Index(sec, "```")
	if j < 0 {
		t.Fatal("an unclosed json block")
	}
	var p Profile
	if err := strictDecode([]byte(sec[:j]), &p); err != nil {
		t.Fatalf("profile example: %v", err)
	}
	if p.Player == "" || p.MemberSince == nil || len(p.Played) == 0 || len(p.Ratings) == 0 || len(p.History) == 0 ||
		len(p.History[0].Points) == 0 || len(p.Recent) == 0 || p.Recent[0].ID == "" {
		t.Errorf("profile example lacks a part: %+v", p)
	}
}
