package pisyedili_test

import (
	"fmt"

	"cardroom/game"
	"cardroom/games/pisyedili"
)

// A two-player game driven through the generic contract: chance steps are
// applied from their record text, moves are parsed from notation.
func Example() {
	st, _ := pisyedili.Engine{}.New(game.Options{"players": "2", "jokers": "false", "hands": "1"})
	_ = st.ApplyChance("dealer 1")
	var stock []string
	for _, s := range []string{"S", "H", "D", "C"} {
		for _, r := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"} {
			stock = append(stock, r+s, r+s)
		}
	}
	// Seat 0 gets 4C 5C 7H 8H JS 9D 9D, seat 1 the first spades; the rest is the stock.
	deal := "deal\n0: 4C 5C 7H 8H JS 9D 9D\n1: AS AS 2S 2S 3S 3S 6C\nstock"
	used := map[string]int{"4C": 1, "5C": 1, "7H": 1, "8H": 1, "JS": 1, "9D": 2, "AS": 2, "2S": 2, "3S": 2, "6C": 1}
	for _, c := range stock {
		if used[c] > 0 {
			used[c]--
			continue
		}
		deal += " " + c
	}
	fmt.Println(st.ApplyChance(deal))
	play := func(seat game.Seat, text string) {
		m, err := st.ParseMove(text)
		if err == nil {
			err = st.Apply(seat, m)
		}
		fmt.Printf("%d %s: %v\n", seat, text, err)
	}
	play(0, "play 4C") // the opening clubs round: seat 0 opens (left of the dealer)
	play(1, "play 6C")
	play(0, "play 9D") // normal play now: 9D matches neither clubs nor 6
	play(0, "play JS")
	play(0, "play JS D")
	play(1, "draw")
	fmt.Println(game.Standard.Format(st.View(1).(*pisyedili.View).Drawn))
	play(1, "pass")
	play(0, "play 9D")
	// Output:
	// <nil>
	// 0 play 4C: <nil>
	// 1 play 6C: <nil>
	// 0 play 9D: illegal: seat 0 "play 9D": 9D matches neither the active suit C nor the active rank 6
	// 0 play JS: illegal: seat 0 "play JS": a jack must name a suit, e.g. "play JS H"
	// 0 play JS D: <nil>
	// 1 draw: <nil>
	// 4S
	// 1 pass: <nil>
	// 0 play 9D: <nil>
}
