package protocol

import (
	"os"
	"strings"
	"testing"
)

// TestRatingDocExamples: the examples of docs/protocol.md's "Ratings"
// section decode into their types with no unknown field.
func TestRatingDocExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n### Ratings\n")
	if start < 0 {
		t.Fatal(`docs/protocol.md has no "### Ratings" section`)
	}
	sec := doc[start+1:]
	if end := strings.Index(sec, "\n## "); end >= 0 {
		sec = sec[:end]
	}
	var blocks []string
	for rest := sec; ; {
		i := strings.Index(rest, "```json\n")
		if i < 0 {
			break
		}
		rest = rest[i+len("```json\n"):]
		j := strings.Index(rest, "```")
		if j < 0 {
			t.Fatal("an unclosed json block")
		}
		blocks = append(blocks, rest[:j])
		rest = rest[j+3:]
	}
	if len(blocks) != 2 {
		t.Fatalf("%d json blocks in the Ratings section, want the leaderboard and a player's ratings", len(blocks))
	}
	var lb Leaderboard
	if err := strictDecode([]byte(blocks[0]), &lb); err != nil || len(lb.Players) == 0 || lb.Game == "" {
		t.Errorf("leaderboard example: %v (%+v)", err, lb)
	}
	var pr PlayerRatings
	if err := strictDecode([]byte(blocks[1]), &pr); err != nil || len(pr.Ratings) == 0 || len(pr.History) == 0 {
		t.Errorf("player ratings example: %v (%+v)", err, pr)
	}
}
