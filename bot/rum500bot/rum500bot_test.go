package rum500bot_test

import (
	"context"
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
