package papayoo

import (
	"strconv"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// A game at the largest options (8 players, MaxRounds rounds) ends, every round
// scores its 250 points, the totals are the sums of the rounds, and its
// record replays to the same result.
func TestMaximumRounds(t *testing.T) {
	o := game.Options{"players": "8", "rounds": strconv.Itoa(MaxRounds)}
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(100)
	rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
	if err := record.Play(st, &rng, record.RandomPolicy(&rng), rc, 0); err != nil {
		t.Fatal(err)
	}
	res := st.Result()
	if !st.Over() || len(res.Rounds) != MaxRounds {
		t.Fatalf("over %v after %d rounds, want %d", st.Over(), len(res.Rounds), MaxRounds)
	}
	sums := make([]int, 8)
	for i, r := range res.Rounds {
		pts := 0
		for s, v := range r {
			pts += v
			sums[s] += v
		}
		if pts != 250 {
			t.Fatalf("round %d scores %d points, want 250", i+1, pts)
		}
	}
	grand := 0
	for s := range sums {
		if sums[s] != res.Totals[s] {
			t.Fatalf("seat %d: total %d, rounds sum to %d", s, res.Totals[s], sums[s])
		}
		grand += res.Totals[s]
	}
	if grand != 250*MaxRounds {
		t.Fatalf("totals sum to %d, want %d", grand, 250*MaxRounds)
	}
	replayed, err := record.Replay(Engine{}, rc.Rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if record.ResultText(replayed) != record.ResultText(st) {
		t.Fatal("the replayed longest game has another result")
	}
}
