package pisyedilibot_test

import (
	"context"
	"testing"

	"cardroom/bot"
	"cardroom/bot/arena"
	"cardroom/bot/pisyedilibot"
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// TestArenaHands plays a few duplicate hands with every level: every move
// the bots choose is accepted by the engine and every hand ends.
func TestArenaHands(t *testing.T) {
	var seats []bot.Spec
	for _, s := range []string{"hard:100", "medium", "easy", "random"} {
		sp, err := bot.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, sp)
	}
	rep, err := arena.Run(context.Background(), arena.Config{Engine: pisyedili.Engine{},
		Options: game.Options{"players": "4", "hands": "1"}, Seats: seats, Deals: 2, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 8 {
		t.Fatalf("%d games, want 8", len(rep.Games))
	}
	for _, g := range rep.Games {
		if len(g.Rounds) != 1 {
			t.Fatalf("deal %d rotation %d: %d hands scored", g.Deal, g.Rotation, len(g.Rounds))
		}
	}
}

// TestChooseDefendsChain: facing a seven chain with a 7 in hand, the
// rule-based player plays the 7 rather than draw 3 (spec §8).
func TestChooseDefendsChain(t *testing.T) {
	seven := game.NewCard(game.Hearts, 7)
	legal := []game.Move{{Op: pisyedili.OpPlay, Card: seven}, {Op: pisyedili.OpPenalty}}
	r := game.NewRand(1)
	info := &pisyedilibot.Info{Hand: []game.Card{seven, game.NewCard(game.Spades, 3)}, NextSize: 5, MinOpp: 5, ChainKind: "seven"}
	if m := pisyedilibot.Choose(legal, info, &r, false); m.Op != pisyedili.OpPlay {
		t.Fatalf("chose %v, want the 7", m)
	}
}

// TestChooseNamesHeldSuit: a jack names the suit the player holds most of (spec §5).
func TestChooseNamesHeldSuit(t *testing.T) {
	jack := game.NewCard(game.Spades, game.Jack)
	var legal []game.Move
	for a := uint8(1); a <= 4; a++ {
		legal = append(legal, game.Move{Op: pisyedili.OpPlay, Card: jack, A: a})
	}
	legal = append(legal, game.Move{Op: pisyedili.OpDraw})
	hand := []game.Card{jack, game.NewCard(game.Diamonds, 3), game.NewCard(game.Diamonds, 9), game.NewCard(game.Clubs, 4)}
	r := game.NewRand(1)
	m := pisyedilibot.Choose(legal, &pisyedilibot.Info{Hand: hand, NextSize: 5, MinOpp: 5}, &r, false)
	if m.Card != jack || m.A != 1+uint8(game.Diamonds) {
		t.Fatalf("chose %s, want play JS D", pisyedili.FormatMove(m))
	}
}
