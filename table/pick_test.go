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

// TestPickLegalReused: while a seat's Pick is the same, its state messages
// list the moves and count a fresh enumeration gives (the table reuses them
// without enumerating the 3003 passes again), and once its Pick changes
// (a new round's hand) they are those of the new hand.
func TestPickLegalReused(t *testing.T) {
	if _, err := gamesLookup("papayoo"); err != nil {
		t.Skip(err)
	}
	seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
	meta := store.Table{ID: "t_pickr", Game: "papayoo", Options: "players=4 rounds=2", Seed: 12, Owner: "a", Seats: seats}
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, meta)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	tb.do(context.Background(), func() {
		// fresh is the legal list and count of seat s, enumerated anew.
		fresh := func(s game.Seat) (string, int) {
			saved := tb.legal[s]
			tb.legal[s] = legalCache{}
			b, n := tb.legalJSON(s)
			out := string(b)
			tb.legal[s] = saved
			return out, n
		}
		passes := 0
		var lastHand string
		for round := 0; round < 2 && !tb.st.Over(); {
			if tb.st.ChancePending() {
				tb.advance()
				continue
			}
			to := tb.st.ToAct(nil)
			for _, s := range to {
				got, n := tb.legalJSON(s)
				want, wn := fresh(s)
				if string(got) != want || n != wn {
					t.Fatalf("seat %d: legal %s (%d), a fresh enumeration gives %s (%d)", s, got, n, want, wn)
				}
			}
			pk, picked := tb.pickOf(to[0])
			if picked {
				passes++
				if h := pk.From.Format(tb.st.Engine().Deck()); passes > 4 && h == lastHand {
					t.Fatalf("the second round's pass offers the first round's hand %s", h)
				}
				lastHand = pk.From.Format(tb.st.Engine().Deck())
			}
			b, _ := tb.legalJSON(to[0])
			var legal []string
			json.Unmarshal(b, &legal)
			if err := tb.apply(to[0], legal[0], false); err != nil {
				t.Fatal(err)
			}
			if tb.st.View(0).Head().Round > round+1 || tb.st.Over() {
				round++
			}
		}
		if passes < 8 {
			t.Fatalf("%d passes checked, want the 8 of two rounds", passes)
		}
	})
}
