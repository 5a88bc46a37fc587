package gametest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"cardroom/game"
)

// CheckHeader checks the shared header of every observer's view of st
// against the state, through the contract alone: the observer, the number
// of players, the seats to act, one hand size and one total per seat, the
// totals and finished rounds' scores of Result, a phase ("over" exactly when
// the game is over), a round counter consistent with the finished rounds,
// and the same values under the same JSON names at the top of the view's
// JSON. It returns the first problem found, or "".
func CheckHeader(st game.State) string {
	res := st.Result()
	toAct := st.ToAct(nil)
	for o := game.Spectator; int(o) < st.Seats(); o++ {
		v := st.View(o)
		h := v.Head()
		switch {
		case h.Seat != o || v.Observer() != o:
			return fmt.Sprintf("view of %d: observer %d", o, h.Seat)
		case h.Players != st.Seats():
			return fmt.Sprintf("view of %d: players %d, state has %d seats", o, h.Players, st.Seats())
		case !slices.Equal(h.ToAct, toAct) && !(len(h.ToAct) == 0 && len(toAct) == 0):
			return fmt.Sprintf("view of %d: to_act %v, state %v", o, h.ToAct, toAct)
		case len(h.HandSizes) != st.Seats():
			return fmt.Sprintf("view of %d: %d hand sizes for %d seats", o, len(h.HandSizes), st.Seats())
		case !sameInts(h.Totals, res.Totals):
			return fmt.Sprintf("view of %d: totals %v, result %v", o, h.Totals, res.Totals)
		case !sameRounds(h.RoundScores, res.Rounds):
			return fmt.Sprintf("view of %d: round_scores %v, result rounds %v", o, h.RoundScores, res.Rounds)
		case h.Phase == "":
			return fmt.Sprintf("view of %d: no phase", o)
		case st.Over() != (h.Phase == game.PhaseOver):
			return fmt.Sprintf("view of %d: phase %q while over=%v", o, h.Phase, st.Over())
		case h.Round < 0 || h.RoundCount < 0 || h.RoundCount > 0 && h.Round > h.RoundCount:
			return fmt.Sprintf("view of %d: round %d of %d", o, h.Round, h.RoundCount)
		case len(h.RoundScores) != h.Round && len(h.RoundScores) != h.Round-1 && !(h.Round == 0 && len(h.RoundScores) == 0):
			return fmt.Sprintf("view of %d: round %d with %d finished rounds", o, h.Round, len(h.RoundScores))
		}
		for _, n := range h.HandSizes {
			if n < 0 {
				return fmt.Sprintf("view of %d: hand sizes %v", o, h.HandSizes)
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Sprintf("view of %d does not marshal: %v", o, err)
		}
		var j game.Header
		if err := json.Unmarshal(b, &j); err != nil {
			return fmt.Sprintf("view of %d: the header does not decode from its JSON: %v", o, err)
		}
		if !reflect.DeepEqual(norm(j), norm(*h)) {
			return fmt.Sprintf("view of %d: JSON header %+v differs from the view's %+v", o, j, *h)
		}
	}
	return ""
}

func sameInts(a, b []int) bool { return len(a) == len(b) && (len(a) == 0 || slices.Equal(a, b)) }

func sameRounds(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameInts(a[i], b[i]) {
			return false
		}
	}
	return true
}

// norm treats nil and empty lists alike.
func norm(h game.Header) game.Header {
	if len(h.ToAct) == 0 {
		h.ToAct = nil
	}
	if len(h.HandSizes) == 0 {
		h.HandSizes = nil
	}
	if len(h.Totals) == 0 {
		h.Totals = nil
	}
	if len(h.RoundScores) == 0 {
		h.RoundScores = nil
	}
	for i, r := range h.RoundScores {
		if len(r) == 0 {
			h.RoundScores[i] = nil
		}
	}
	return h
}
