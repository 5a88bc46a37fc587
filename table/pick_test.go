package table

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
)

// TestPassIsPicked: during a Papayoo pass a seat's state message describes
// its 3003 legal passes as a pick of 5 of its 15 cards and lists only
// protocol.PickListed of them, so the message stays a few KB (it was 80 KB);
// once the seat has passed it gets neither; in trick play the plays are
// listed in full, without a pick. Spectators never get a pick.
func TestPassIsPicked(t *testing.T) {
	if _, err := gamesLookup("papayoo"); err != nil {
		t.Skip(err)
	}
	seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
	meta := store.Table{ID: "t_pick", Game: "papayoo", Options: "players=4 rounds=1", Seed: 11, Owner: "a", Seats: seats}
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, meta)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	decode := func(s game.Seat) (protocol.StateMsg, int) {
		b := tb.stateMsg(s)
		var m protocol.StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("seat %d: %v: %s", s, err, b)
		}
		return m, len(b)
	}
	tb.do(context.Background(), func() {
		for tb.st.ChancePending() {
			tb.advance()
		}
		m, size := decode(1)
		if m.Pick == nil || m.Pick.Verb != "pass" || m.Pick.N != 5 || len(m.Pick.From) != 15 {
			t.Fatalf("pass: pick = %+v", m.Pick)
		}
		if m.LegalCount != 3003 || len(m.Legal) != protocol.PickListed || size > 4000 {
			t.Errorf("pass: legal_count %d, %d listed, %d bytes; want 3003, %d, a few KB", m.LegalCount, len(m.Legal), size, protocol.PickListed)
		}
		view := string(m.View)
		for _, c := range m.Pick.From {
			if !strings.Contains(view, `"`+c+`"`) {
				t.Errorf("pick card %s is not in the seat's own view", c)
			}
		}
		if sp, _ := decode(game.Spectator); sp.Pick != nil || len(sp.Legal) != 0 {
			t.Errorf("spectator: pick %+v, legal %v", sp.Pick, sp.Legal)
		}
		if err := tb.apply(1, m.Legal[3], false); err != nil {
			t.Fatal(err)
		}
		if m, _ := decode(1); m.Pick != nil || len(m.Legal) != 0 {
			t.Errorf("after the pass: pick %+v, legal %v", m.Pick, m.Legal)
		}
		for s := game.Seat(0); s < 4; s++ {
			if s != 1 {
				m, _ := decode(s)
				if err := tb.apply(s, m.Legal[0], false); err != nil {
					t.Fatal(err)
				}
			}
		}
		for tb.st.ChancePending() {
			tb.advance()
		}
		to := tb.st.ToAct(nil)
		m, _ = decode(to[0])
		if m.Pick != nil || len(m.Legal) == 0 || len(m.Legal) != m.LegalCount || !strings.HasPrefix(m.Legal[0], "play ") {
			t.Errorf("trick play: pick %+v, legal %v (count %d)", m.Pick, m.Legal, m.LegalCount)
		}
	})
}
