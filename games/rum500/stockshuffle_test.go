package rum500

import (
	"reflect"
	"slices"
	"testing"

	"cardroom/game"
)

// TestShuffleStock: ShuffleStock reorders a dealt stock and nothing else
// (no seat's view can tell, rum500.md §11: the stock's order is private),
// but keeps the order of a stock turned over from the discard pile
// (§8, stock_exhausted=turn_over_discards: "turned over, not shuffled"),
// which every player saw.
func TestShuffleStock(t *testing.T) {
	for _, turned := range []bool{false, true} {
		st, err := Engine{}.New(game.Options{"players": "3"})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := game.NewRand(1)
		for s.ChancePending() {
			s.RollChance(&r)
		}
		s.turned = turned
		before := s.Clone().(*State)
		cards := slices.Sorted(slices.Values(before.stock[:before.stockN]))
		reordered := 0
		for range 10 {
			s.ShuffleStock(&r)
			if !slices.Equal(slices.Sorted(slices.Values(s.stock[:s.stockN])), cards) {
				t.Fatalf("turned=%v: ShuffleStock changed the stock's cards", turned)
			}
			if !slices.Equal(s.stock[:s.stockN], before.stock[:before.stockN]) {
				reordered++
			}
			rest := s.Clone().(*State)
			rest.stock = before.stock
			if !reflect.DeepEqual(rest, before) {
				t.Fatalf("turned=%v: ShuffleStock changed more than the stock's order", turned)
			}
			for seat := game.Spectator; int(seat) < s.Seats(); seat++ {
				if !reflect.DeepEqual(s.View(seat), before.View(seat)) {
					t.Fatalf("turned=%v: seat %d's view changed with the stock's order", turned, seat)
				}
			}
		}
		switch {
		case turned && reordered > 0:
			t.Errorf("a turned-over stock was reordered %d times in 10", reordered)
		case !turned && reordered == 0:
			t.Errorf("ten shuffles of a stock of %d cards never changed its order", s.stockN)
		}
	}
}
