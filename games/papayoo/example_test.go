package papayoo_test

import (
	"fmt"

	"cardroom/game"
	"cardroom/games/papayoo"
)

// A game is driven through the generic contract: chance steps are applied
// from their record text, moves are parsed from notation.
func Example() {
	st, _ := papayoo.Engine{}.New(game.Options{"players": "3", "first_dealer": "0"})
	fmt.Println(st.Options())
	_ = st.ApplyChance("deal\n" +
		"0: 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H\n" +
		"1: 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C\n" +
		"2: 1P 2P 3P 4P 5P 6P 7P 8P 9P 10P 11P 12P 13P 14P 15P 16P 17P 18P 19P 20P")
	fmt.Println(st.ToAct(nil))
	m, _ := st.ParseMove("pass 3h 7h 10S 1h 2h")
	fmt.Println(st.FormatMove(m), st.Apply(0, m))
	bad, _ := st.ParseMove("pass 1D 2D 3D")
	fmt.Println(st.Apply(1, bad))
	fmt.Println(st.ToAct(nil))
	// Output:
	// first_dealer=0 players=3 rounds=3 tie_break=shared
	// [0 1 2]
	// pass 10S 1H 2H 3H 7H <nil>
	// illegal: seat 1 "pass 1D 2D 3D": a pass is exactly 5 cards, not 3
	// [1 2]
}
