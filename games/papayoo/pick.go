package papayoo

import "cardroom/game"

var _ game.Picker = (*State)(nil)

// Pick implements game.Picker: during the pass, a seat that has not passed
// may pass any K cards of its hand (rules §4.3), which Legal lists as C(H, K)
// moves (3003 for four players) and the server describes in one line.
func (s *State) Pick(seat game.Seat) (game.Pick, bool) {
	if s.phase != phPass || seat < 0 || int(seat) >= int(s.n) || s.passed&(1<<uint(seat)) != 0 {
		return game.Pick{}, false
	}
	h := s.hands[seat]
	if int(s.ks) > h.Count() {
		return game.Pick{}, false
	}
	return game.Pick{Verb: "pass", N: int(s.ks), From: h}, true
}
