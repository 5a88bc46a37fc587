package rum500bot_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"cardroom/bot"
	"cardroom/bot/arena"
	"cardroom/bot/rum500bot"
	"cardroom/game"
	"cardroom/games/rum500"
)

// TestArenaGames plays a few short duplicate games with every level: every
// move the bots choose is accepted and every game ends.
func TestArenaGames(t *testing.T) {
	var seats []bot.Spec
	for _, s := range []string{"hard:60", "medium"} {
		sp, err := bot.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, sp)
	}
	for _, other := range []string{"easy", "random"} {
		sp, _ := bot.ParseSpec(other)
		seats[1] = sp
		rep, err := arena.Run(context.Background(), arena.Config{Engine: rum500.Engine{},
			Options: game.Options{"players": "2", "target": "100"}, Seats: seats, Deals: 2, Seed: 3, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rep.Games {
			if len(g.Winners) == 0 {
				t.Fatalf("deal %d rotation %d: no winner", g.Deal, g.Rotation)
			}
		}
	}
}

func card(t *testing.T, s string) game.Card {
	c, err := game.Standard.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestChooseMeldsAndDiscards: after drawing, the rule-based player melds
// before discarding (spec §6.2), and discards a high card that fits nothing.
func TestChooseMeldsAndDiscards(t *testing.T) {
	r := game.NewRand(1)
	meld := game.Move{Op: rum500.OpMeld, Set: game.MaskOf(game.Standard, card(t, "8S"), card(t, "8H"), card(t, "8D"))}
	disc := func(c string) game.Move { return game.Move{Op: rum500.OpDiscard, Card: card(t, c)} }
	legal := []game.Move{meld, disc("8S"), disc("8H"), disc("8D"), disc("KC"), disc("2D")}
	in := &rum500bot.Info{Known: true, OppMin: 7}
	for _, c := range []string{"8S", "8H", "8D", "KC", "2D"} {
		in.Hand = append(in.Hand, game.Standard.Index(card(t, c)))
	}
	if m := rum500bot.Choose(legal, in, &r, false); m.Op != rum500.OpMeld {
		t.Fatalf("chose %s, want the meld", rum500.FormatMove(m))
	}
	if m := rum500bot.Choose(legal[1:], in, &r, false); m != disc("KC") {
		t.Fatalf("chose %s, want discard KC", rum500.FormatMove(m))
	}
}

// TestInfoFromView reads a view's typed fields: the observer's hand, the
// pile, what the next seat is known to hold, the smallest opponent hand and
// the faces the melds on the table accept.
func TestInfoFromView(t *testing.T) {
	st, err := rum500.Engine{}.New(game.Options{"players": "3", "top_discard_free": "true"})
	if err != nil {
		t.Fatal(err)
	}
	hands := []string{"9S KH 2D 3D 5C 6C 7C", "AS 2S 3S 4H 5H 6H 8D", "10S JS QS 9H 10H JH QD"}
	used := map[game.Card]bool{card(t, "4D"): true}
	deal := "deal"
	for i, h := range hands {
		deal += "\n" + string(rune('0'+i)) + ": " + h
		cs, err := game.Standard.ParseList(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			used[c] = true
		}
	}
	deal += "\nup 4D\nstock"
	for i := 0; i < 52; i++ {
		if c := game.Standard.Card(i); !used[c] {
			deal += " " + game.Standard.Format(c)
		}
	}
	for _, ch := range []string{"dealer 2", deal} {
		if err := st.ApplyChance(ch); err != nil {
			t.Fatalf("%q: %v", ch, err)
		}
	}
	for _, mv := range []struct {
		seat game.Seat
		text string
	}{{0, "take 4D meld 2D 3D 4D"}, {0, "meld 5C 6C 7C"}, {0, "discard KH"}, {1, "take KH"}, {1, "discard 8D"}} {
		m, err := st.ParseMove(mv.text)
		if err == nil {
			err = st.Apply(mv.seat, m)
		}
		if err != nil {
			t.Fatalf("%d %s: %v", mv.seat, mv.text, err)
		}
	}
	idx := func(list string) []int {
		var out []int
		for _, f := range strings.Fields(list) {
			out = append(out, game.Standard.Index(card(t, f)))
		}
		return out
	}
	in := rum500bot.InfoFromView(st.View(0).(*rum500.View))
	if !reflect.DeepEqual(in.Hand, idx("9S")) || !reflect.DeepEqual(in.Pile, idx("8D")) || !reflect.DeepEqual(in.NextKnow, idx("KH")) || in.OppMin != 7 || !in.Known {
		t.Errorf("info %+v", in)
	}
	var accept game.Mask
	for _, i := range idx("AD 5D 4C 8C") {
		accept |= game.Bit(i)
	}
	if in.Accept != accept {
		t.Errorf("accepted faces %s, want %s", in.Accept.Format(game.Standard), accept.Format(game.Standard))
	}
	// A spectator has no hand and no neighbour.
	if sp := rum500bot.InfoFromView(st.View(game.Spectator).(*rum500.View)); sp.Hand != nil || sp.NextKnow != nil || sp.OppMin != 99 || sp.Accept != accept {
		t.Errorf("spectator info %+v", sp)
	}
}
