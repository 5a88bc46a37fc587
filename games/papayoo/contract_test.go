package papayoo

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
)

// TestContract runs the shared contract harness (random games, refused
// moves, clones, notation round trips, Sample(v).View(obs) == v for every
// observer, record → replay) on every player count and the options.
func TestContract(t *testing.T) {
	cfg := gametest.Config{
		Options: []game.Options{
			{"players": "3", "rounds": "1"},
			{"players": "4"},
			{"players": "5", "rounds": "2", "first_dealer": "4"},
			{"players": "6", "rounds": "1"},
			{"players": "7", "rounds": "1", "first_dealer": "0"},
			{"players": "8", "rounds": "2"},
		},
		Games: 2,
		Seed:  42,
	}
	if testing.Short() {
		cfg.Games = 1
	}
	gametest.Check(t, Engine{}, cfg)
}
