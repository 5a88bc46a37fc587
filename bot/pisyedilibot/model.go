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
