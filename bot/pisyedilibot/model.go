package pisyedilibot

import (
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// fieldState is a determinization in which the other seats are not
// searched but played by the model of the field: every time the searching
// seat has moved (or a chance step has been rolled), the opponents' turns
// are played at once by the playout policy (the medium rules on their
// determinized hands, Noise random moves) until it is the searching seat's
// turn again, the hand ends or the horizon is reached. So the tree holds
// only the searching seat's own decisions, several of them deep, and the
// opponents in it answer as rule-based players would, instead of as the
// UCB statistics of a few visits would (which, early in a search, is
// almost at random).
//
// It embeds the engine's State: the tree walk reads it through the
// game.State contract, and the domain's playout, horizon and reward unwrap
// it (stateOf).
type fieldState struct {
	*pisyedili.State
	obs game.Seat
	d   *Domain
	rng game.Rand
	err error
}

// stateOf is the engine's State under a determinization, wrapped or not.
func stateOf(gst game.State) (*pisyedili.State, bool) {
	switch st := gst.(type) {
	case *pisyedili.State:
		return st, true
	case *fieldState:
		return st.State, true
	}
	return nil, false
}

// Apply implements game.State: the seat's move, then the field's.
func (f *fieldState) Apply(s game.Seat, m game.Move) error {
	if err := f.State.Apply(s, m); err != nil {
		return err
	}
	return f.advance()
}

// RollChance implements game.State: the chance step, then the field's
// moves (a reshuffle may hand the turn to an opponent).
func (f *fieldState) RollChance(r *game.Rand) {
	f.State.RollChance(r)
	if err := f.advance(); err != nil && f.err == nil {
		f.err = err
	}
}

// Clone implements game.State.
func (f *fieldState) Clone() game.State {
	c := *f
	c.State = f.State.Clone().(*pisyedili.State)
	return &c
}

// maxAdvance bounds the opponents' moves advance plays in one go: with no
// horizon (Depth 0) rule-based players may draw for ever (docs/bots.md).
const maxAdvance = 1500

// advance plays the opponents' turns by the policy.
func (f *fieldState) advance() error {
	st, d := f.State, f.d
	for n := 0; n < maxAdvance && !d.Horizon(st); n++ {
		if st.ChancePending() {
			st.RollChance(&f.rng)
			continue
		}
		s := st.Turn()
		if s == f.obs || s < 0 {
			return nil
		}
		d.buf = st.Legal(s, d.buf[:0])
		if len(d.buf) == 0 {
			return nil
		}
		m := d.policy(st, s, d.buf, &f.rng)
		d.Observe(st, s, m)
		if err := st.Apply(s, m); err != nil {
			return err
		}
	}
	return nil
}

// ClosedLoop makes the hard bot's tree branch, below each of the seat's
// own moves, on what the seat sees before its next decision (ObsKey,
// ismcts.Observer): the card to follow and any chain the opponents leave
// it. Without it (open loop) the seat's next move in the tree is one
// choice for every way the opponents answered in the determinizations, so
// the search rates a first move as if the seat could not adapt to the
// answers; with the opponents' hands known (the ceilings), the medium
// rules answer the same way in every iteration and the two are one. Off:
// at 1,113 positions of medium games, against the same search given the
// true hands as an oracle (BenchmarkOracleRegret), it cut the bot's mean
// regret from 0.0182 to 0.0171 (±0.0023; keys that also hold the seat's
// hand, the opponents' exact moves or every hand size: 0.0175, 0.0177,
// 0.0188), and it won more hands on tuning seeds 21, 22 and 23 (+5.3
// points on average against three medium players), but not on the fresh
// seeds (301, 501, 701, 901, 1101: see docs/bots.md, "The ceiling"),
// and it costs about 7% more time a move.
var ClosedLoop = false

// ObsKey implements ismcts.Observer: after a move of the seat (and the
// opponents' answers, played by the model of the field), the active suit
// and rank, the pending chain, and whether it is the seat's turn and the
// hand is still being played. Only the hard bot's own determinizations
// (fieldState) branch: a plain State (the ceilings, which hide this
// method anyway) does not.
func (d *Domain) ObsKey(gst game.State, obs game.Seat) (uint64, bool) {
	f, ok := gst.(*fieldState)
	if !ok || !ClosedLoop {
		return 0, false
	}
	st := f.State
	su, rk := st.Top()
	kind, k := st.Chain()
	h := uint64(su)<<16 | uint64(rk)<<8 | uint64(k)
	if kind == "joker" {
		h |= 1 << 24
	}
	if st.Turn() == obs {
		h |= 1 << 25
	}
	if st.Playing() {
		h |= 1 << 26
	}
	return h, true
}
