package pisyedilibot

import (
	"testing"

	"cardroom/game"
	"cardroom/games/pisyedili"
)

// TestObsKeyWhatTheSeatSees: at positions of medium games, after a move
// of the seat in one of the hard bot's determinizations (the opponents
// answered by the model of the field), ObsKey says what the seat sees:
// two determinizations get the same key exactly when they leave it the
// same card to follow, chain, turn and stage. The tree does not branch
// on a plain State (the ceilings' copies of the true state) nor with
// ClosedLoop off (the default); and keys differ at many positions (the
// answers vary with the hidden hands).
func TestObsKeyWhatTheSeatSees(t *testing.T) {
	type seen struct {
		suit       game.Suit
		rank, k    int
		kind       string
		mine, live bool
	}
	defer func(old bool) { ClosedLoop = old }(ClosedLoop)
	ClosedLoop = true
	differ, positions := 0, 0
	var buf []game.Move
	mediumPositions(t, 20, 7, func(s *pisyedili.State, v *pisyedili.View) {
		if _, ok := NewDomain(v).(*Domain).ObsKey(s, v.Seat); ok {
			t.Fatal("a plain State has an observation key")
		}
		positions++
		keys := map[uint64]seen{}
		for k := 0; k < 8; k++ {
			d := NewDomain(v).(*Domain)
			r := game.NewRand(uint64(100*positions + k))
			gst, err := d.Sample(&r)
			if err != nil {
				t.Fatal(err)
			}
			d.Start(gst)
			buf = gst.Legal(v.Seat, buf[:0])
			if err := gst.Apply(v.Seat, buf[0]); err != nil {
				t.Fatal(err)
			}
			key, ok := d.ObsKey(gst, v.Seat)
			if !ok {
				t.Fatal("no observation key after the seat's move")
			}
			st, _ := stateOf(gst)
			var w seen
			w.suit, w.rank = st.Top()
			w.kind, w.k = st.Chain()
			w.mine, w.live = st.Turn() == v.Seat, st.Playing()
			if old, had := keys[key]; had && old != w {
				t.Fatalf("one key for %+v and %+v", old, w)
			}
			for other, o := range keys {
				if o == w && other != key {
					t.Fatalf("two keys for %+v", w)
				}
			}
			keys[key] = w
			ClosedLoop = false
			_, ok = d.ObsKey(gst, v.Seat)
			ClosedLoop = true
			if ok {
				t.Fatal("an observation key with ClosedLoop off")
			}
		}
		if len(keys) > 1 {
			differ++
		}
	})
	t.Logf("the opponents' answers differ at %d of %d positions", differ, positions)
	if differ*5 < positions {
		t.Fatalf("the opponents' answers differ at %d of %d positions only", differ, positions)
	}
}
