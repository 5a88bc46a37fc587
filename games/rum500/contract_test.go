package rum500

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
)

// TestContract runs the shared contract checks (random games end, refused
// moves change nothing, clones, notation round trips, Sample(v).View == v,
// record → replay) over every option.
func TestContract(t *testing.T) {
	opts := []string{
		"players=2",
		"players=3 target=150",
		"players=4",
		"players=5 target=200",
		"players=8 target=150",
		"players=2 two_player_hand=10 decks=2 target=150",
		"players=3 jokers=2 target=150",
		"players=6 jokers=2 target=100",
		"players=4 top_discard_free=true must_discard_to_go_out=true target=150",
		"players=4 stock_exhausted=end_immediately go_out_bonus=25 target=150",
		"players=3 stock_exhausted=turn_over_discards tie_resolution=play_on target=150",
	}
	var os []game.Options
	for _, o := range opts {
		p, err := game.ParseOptions(o)
		if err != nil {
			t.Fatal(err)
		}
		os = append(os, p)
	}
	games := 2
	if testing.Short() {
		games = 1
	}
	gametest.Check(t, Engine{}, gametest.Config{Options: os, Games: games, Seed: 500, SampleEvery: 11})
}
