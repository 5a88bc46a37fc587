package rum500

import (
	"strconv"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// A game at the largest target (with the largest bonus and none) ends under
// both tie rules; the totals are the sums of
// the hands and a winner reached the target; its record replays to the same
// result.
func TestMaximumTarget(t *testing.T) {
	for _, bonus := range []string{strconv.Itoa(maxBonus), "0"} {
		for _, tie := range []string{"shared", "play_on"} {
			o := game.Options{"players": "2", "target": strconv.Itoa(maxTarget), "go_out_bonus": bonus, "tie_resolution": tie}
			st, err := Engine{}.New(o)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRand(10000)
			rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
			if err := record.Play(st, &rng, record.RandomPolicy(&rng), rc, 2_000_000); err != nil {
				t.Fatal(err)
			}
			res := st.Result()
			if !st.Over() {
				t.Fatalf("%s: not over after %d hands, totals %v", tie, len(res.Rounds), res.Totals)
			}
			t.Logf("bonus %s, %s: %d hands, totals %v", bonus, tie, len(res.Rounds), res.Totals)
			sums := make([]int, st.Seats())
			for _, r := range res.Rounds {
				for s, v := range r {
					sums[s] += v
				}
			}
			for s := range sums {
				if sums[s] != res.Totals[s] {
					t.Fatalf("%s: seat %d: total %d, hands sum to %d", tie, s, res.Totals[s], sums[s])
				}
			}
			if w := res.Winners[0]; res.Totals[w] < maxTarget {
				t.Fatalf("%s: winner %d has %d, below the target", tie, w, res.Totals[w])
			}
			replayed, err := record.Replay(Engine{}, rc.Rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if record.ResultText(replayed) != record.ResultText(st) {
				t.Fatalf("%s: the replayed game has another result", tie)
			}
		}
	}
}
