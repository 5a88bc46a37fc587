package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/server"
)

// TestInviteLinkUsesPublicURL: with -public-url the invite link a host
// copies names the public address, not the address of the host's own page
// (here 127.0.0.1, which a friend could not open). The create form's "end
// the game if every player leaves" box sets when_empty "end".
func TestInviteLinkUsesPublicURL(t *testing.T) {
	const public = "https://cards.example.com"
	e := newEnv(t, func(c *server.Config) { c.PublicURL = public })
	alice := e.tab("alice")
	alice.login("alice")
	alice.must(5*time.Second, "private", clickOn(tid("create-private")))
	alice.must(5*time.Second, "end when empty", clickOn(tid("create-end-when-empty")))
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	link, err := eval[string](alice, `document.querySelector('[data-testid=invite-link]').value`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, public+"/?table="+id+"&invite=") {
		t.Errorf("invite link %q, want it on %s", link, public)
	}
	invite := link[strings.LastIndex(link, "=")+1:]
	resp, err := http.Get(e.base + "/api/tables/" + id + "?invite=" + invite)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sum protocol.Summary
	if err := json.NewDecoder(resp.Body).Decode(&sum); err != nil || sum.WhenEmpty != protocol.WhenEmptyEnd {
		t.Errorf("the table's when_empty %q (%v), want end", sum.WhenEmpty, err)
	}
	e.checkJS()
}
