package pisyedili

import (
	"reflect"
	"slices"
	"testing"

	"cardroom/game"
)

// TestShuffleStock: the stock keeps its cards and size and gets a new
// order; nothing else of the state changes.
func TestShuffleStock(t *testing.T) {
	st, err := Engine{}.New(game.Options{"players": "4"})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := game.NewRand(1)
	for s.ChancePending() {
		s.RollChance(&r)
	}
	before := *s
	sorted := func(cs []game.Card) []game.Card {
		c := slices.Clone(cs)
		slices.Sort(c)
		return c
	}
	moved := 0
	for i := 0; i < 10; i++ {
		s.ShuffleStock(&r)
		if s.stockN != before.stockN || !slices.Equal(sorted(s.stock[:s.stockN]), sorted(before.stock[:before.stockN])) {
			t.Fatal("ShuffleStock changed the stock's cards")
		}
		if !slices.Equal(s.stock[:s.stockN], before.stock[:before.stockN]) {
			moved++
		}
		after := *s
		after.stock = before.stock
		if !reflect.DeepEqual(after, before) {
			t.Fatal("ShuffleStock changed more than the stock's order")
		}
	}
	if moved == 0 {
		t.Error("ten shuffles of a stock of", s.stockN, "cards never changed its order")
	}
}
