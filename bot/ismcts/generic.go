package ismcts

import "cardroom/game"

// Generic is the Domain for a game the bots know nothing special about:
// random playouts through the contract, the horizon at the end of the
// current round, and a reward that maps the round's points linearly onto
// [0, 1] between the worst and the best seat.
type Generic struct {
	rounds int
	buf    []game.Move
}

// NewGeneric returns a Generic domain.
func NewGeneric() Domain { return &Generic{} }

// Policy plays uniformly at random.
func (g *Generic) Policy(st game.State, s game.Seat, legal []game.Move, r *game.Rand) game.Move {
	return legal[r.IntN(len(legal))]
}

// Candidates keeps maxBranch moves drawn at random.
func (g *Generic) Candidates(st game.State, s game.Seat, legal []game.Move, maxBranch int, r *game.Rand) []game.Move {
	return RandomSubset(legal, maxBranch, r)
}

// RandomSubset returns up to k distinct elements of ms, drawn uniformly, in
// their original order.
func RandomSubset(ms []game.Move, k int, r *game.Rand) []game.Move {
	if len(ms) <= k {
		return append([]game.Move(nil), ms...)
	}
	idx := make([]int, len(ms))
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + r.IntN(len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	keep := make([]bool, len(ms))
	for _, i := range idx[:k] {
		keep[i] = true
	}
	out := make([]game.Move, 0, k)
	for i, m := range ms {
		if keep[i] {
			out = append(out, m)
		}
	}
	return out
}

// Observe does nothing.
func (g *Generic) Observe(st game.State, s game.Seat, m game.Move) {}

// Start notes how many rounds were finished.
func (g *Generic) Start(st game.State) { g.rounds = len(st.Result().Rounds) }

// Horizon is the end of the game, or a chance step after a new round was scored.
func (g *Generic) Horizon(st game.State) bool {
	if st.Over() {
		return true
	}
	return st.ChancePending() && len(st.Result().Rounds) > g.rounds
}

// Reward scores the round started at Start; 0.5 for everyone if it did not end.
func (g *Generic) Reward(st game.State, out []float64) {
	res := st.Result()
	if len(res.Rounds) <= g.rounds {
		for i := range out {
			out[i] = 0.5
		}
		return
	}
	RankReward(res.Rounds[g.rounds], res.HigherWins, out)
}

// RankReward maps points linearly onto [0, 1]: 1 for the best seat, 0 for
// the worst, 0.5 for all when every seat scored the same.
func RankReward(pts []int, higherWins bool, out []float64) {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo, hi = min(lo, p), max(hi, p)
	}
	for i := range out {
		if i >= len(pts) || hi == lo {
			out[i] = 0.5
			continue
		}
		if higherWins {
			out[i] = float64(pts[i]-lo) / float64(hi-lo)
		} else {
			out[i] = float64(hi-pts[i]) / float64(hi-lo)
		}
	}
}
