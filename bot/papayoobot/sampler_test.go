package papayoobot_test

import (
	"context"
	"reflect"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/papayoobot"
	"cardroom/game"
	"cardroom/games/papayoo"
)

// plainDomain hides the Domain's Sample: the search draws with
// Engine.Sample, as it did before the Domain had a Sampler.
type plainDomain struct{ ismcts.Domain }

// The search with the Domain's papayoo.Sampler visits every root move as
// often, with the same values, as the search with Engine.Sample: the
// Sampler changes what a search costs, not what it finds.
func TestSearchSameWithSampler(t *testing.T) {
	e := papayoo.Engine{}
	checked := 0
	randomGames(t, []int{3, 4, 6}, nil, false, func(n, step int, st game.State, s game.Seat, _ []game.Move) {
		if step%7 != 0 {
			return
		}
		v := st.View(s)
		cfg := ismcts.Config{Iterations: 200, Workers: 1, Seed: uint64(step)}
		papayoobot.Configure(&cfg)
		with, err := ismcts.Search(context.Background(), e, v, func() ismcts.Domain { return papayoobot.NewDomain(v) }, cfg)
		if err != nil {
			t.Fatal(err)
		}
		without, err := ismcts.Search(context.Background(), e, v, func() ismcts.Domain { return plainDomain{papayoobot.NewDomain(v)} }, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(with.Moves, without.Moves) {
			t.Fatalf("%d players, step %d: with the Sampler %v, without %v", n, step, with.Moves, without.Moves)
		}
		checked++
	})
	if checked < 10 {
		t.Errorf("only %d searches compared", checked)
	}
}
