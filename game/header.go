package game

// Header is the part of every game's view that means the same thing, under
// the same JSON names, in every game: who observes, how many play, the
// phase, who must act, how many cards each seat holds, the scores, and
// where the game stands in its rounds. Engines embed it in their View, so
// the server, the bots, the client and the tools can read it without
// knowing the game; everything game-specific stays beside it.
//
// A round is a game's scoring unit: a Papayoo round, a 500 Rum hand, a Pis
// Yedili hand.
type Header struct {
	// Seat is the observer, or Spectator ("observer" in JSON).
	Seat Seat `json:"observer"`
	// Players is the number of seats.
	Players int `json:"players"`
	// Phase names the stage of play in the game's own words (pass, play,
	// draw, over…); "over" once the game has ended, in every game.
	Phase string `json:"phase"`
	// ToAct are the seats that must act now, in seat order: empty while a
	// chance outcome is pending and once the game is over; several during a
	// simultaneous decision (Papayoo's pass).
	ToAct []Seat `json:"to_act"`
	// HandSizes is the number of cards in each seat's hand.
	HandSizes []int `json:"hand_sizes"`
	// Totals are the cumulative scores per seat.
	Totals []int `json:"totals"`
	// Round is the current (or, between rounds, the last) round, 1-based;
	// 0 before the first deal.
	Round int `json:"round"`
	// RoundCount is the number of rounds the game lasts, or 0 when it is
	// not fixed (500 Rum plays to a target).
	RoundCount int `json:"round_count"`
	// RoundScores holds each finished round's points per seat, in order.
	RoundScores [][]int `json:"round_scores"`
}

// PhaseOver is the phase of every game once it has ended.
const PhaseOver = "over"

// Observer implements View.Observer for the views that embed a Header.
func (h *Header) Observer() Seat { return h.Seat }

// Head returns the header itself (View.Head).
func (h *Header) Head() *Header { return h }
