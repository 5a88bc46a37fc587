package ismcts

import (
	"fmt"

	"cardroom/game"
)

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

// Playout plays uniformly random moves through the contract.
func (g *Generic) Playout(st game.State, r *game.Rand, maxSteps int) error {
	return ContractPlayout(st, r, maxSteps, g.Horizon, func(st game.State, s game.Seat, legal []game.Move, r *game.Rand) game.Move {
		return legal[r.IntN(len(legal))]
	}, &g.buf)
}

// ContractPlayout is a playout through the game.State contract: chance is
// rolled, the first seat to act moves with policy, until horizon says stop.
func ContractPlayout(st game.State, r *game.Rand, maxSteps int, horizon func(game.State) bool,
	policy func(st game.State, s game.Seat, legal []game.Move, r *game.Rand) game.Move, buf *[]game.Move) error {
	var seats [8]game.Seat
	for step := 0; step < maxSteps; step++ {
		if st.Over() || horizon(st) {
			return nil
		}
		if st.ChancePending() {
			st.RollChance(r)
			continue
		}
		ss := st.ToAct(seats[:0])
		if len(ss) == 0 {
			return nil
		}
		s := ss[0]
		*buf = st.Legal(s, (*buf)[:0])
		if len(*buf) == 0 {
			return nil
		}
		m := policy(st, s, *buf, r)
		if err := st.Apply(s, m); err != nil {
			return fmt.Errorf("ismcts: playout move %s refused: %w", st.FormatMove(m), err)
		}
	}
	return nil
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

// Rounds is the number of rounds that were finished at Start.
func (g *Generic) Rounds() int { return g.rounds }
