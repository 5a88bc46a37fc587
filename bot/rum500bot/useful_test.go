package rum500bot

import (
	"testing"

	"cardroom/game"
	"cardroom/games/rum500"
)

// TestUsefulIn: the masks' count is useful's on the hand's cards, for
// random hands of one and two decks.
func TestUsefulIn(t *testing.T) {
	r := game.NewRand(5)
	for k := 0; k < 2000; k++ {
		var h rum500.Hand
		for j := 0; j < 1+r.IntN(20); j++ {
			c := r.IntN(52)
			if h.One.Has(c) {
				if k%2 == 0 {
					h.Two |= game.Bit(c)
				}
			} else {
				h.One |= game.Bit(c)
			}
		}
		cards := h.Indices(nil)
		for i := 0; i < 52; i++ {
			if got, want := usefulIn(i, h), useful(i, cards); got != want {
				t.Fatalf("usefulIn(%d, %v) = %d, useful gives %d", i, cards, got, want)
			}
		}
	}
}
