package pisyedili

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/record"
)

// boundedPolicy plays uniformly at random, but after many moves in a hand it
// stops drawing voluntarily whenever a card can be played (the spec, §9, asks
// tests to bound their own policy rather than the rules).
func boundedPolicy(rng *game.Rand) record.Policy {
	var buf []game.Move
	hand, moves := -1, 0
	return func(st game.State, s game.Seat) game.Move {
		buf = st.Legal(s, buf[:0])
		if h := st.(*State).hand; h != hand {
			hand, moves = h, 0
		}
		moves++
		if moves > 400 {
			var plays []game.Move
			for _, m := range buf {
				if m.Op != OpDraw {
					plays = append(plays, m)
				}
			}
			if len(plays) > 0 {
				return plays[rng.IntN(len(plays))]
			}
		}
		return buf[rng.IntN(len(buf))]
	}
}

func TestContract(t *testing.T) {
	opts := []game.Options{
		{},
		{"players": "2", "hands": "2"},
		{"players": "7", "jokers": "false", "hands": "2"},
		{"players": "3", "seven_stack": "doubling", "penalty_ends_turn": "false", "jack_wild": "false", "jack_on_jack": "false", "hands": "2"},
		{"players": "5", "joker_follow": "any", "play_any_after_draw": "true", "draw_until_playable": "true", "finishing_card_effects": "true", "ten_mode": "reverse", "hands": "2"},
	}
	gametest.Check(t, Engine{}, gametest.Config{Options: opts, Games: 2, Seed: 7, Policy: boundedPolicy})
}
