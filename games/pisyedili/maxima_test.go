package pisyedili

import (
	"strconv"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// A game at the largest options (7 players, maxHands hands) ends after
// exactly that many hands, the totals are the sums of the hands, and its record replays
// to the same result.
func TestMaximumHands(t *testing.T) {
	o := game.Options{"players": "7", "hands": strconv.Itoa(maxHands)}
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(100)
	rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
	if err := record.Play(st, &rng, boundedPolicy(&rng), rc, 0); err != nil {
		t.Fatal(err)
	}
	res := st.Result()
	if !st.Over() || len(res.Rounds) != maxHands {
		t.Fatalf("over %v after %d hands, want %d", st.Over(), len(res.Rounds), maxHands)
	}
	sums := make([]int, st.Seats())
	for _, r := range res.Rounds {
		for s, v := range r {
			if v < 0 {
				t.Fatalf("seat %d: a negative hand penalty %d", s, v)
			}
			sums[s] += v
		}
	}
	for s := range sums {
		if sums[s] != res.Totals[s] {
			t.Fatalf("seat %d: total %d, hands sum to %d", s, res.Totals[s], sums[s])
		}
	}
	replayed, err := record.Replay(Engine{}, rc.Rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if record.ResultText(replayed) != record.ResultText(st) {
		t.Fatal("the replayed longest game has another result")
	}
}
