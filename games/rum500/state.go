package rum500

import (
	"strconv"

	"cardroom/game"
)

// The move verbs (game.Move.Op).
const (
	OpDraw       uint8 = 1 + iota // draw the top card of the stock
	OpTakeMeld                    // take X and the cards above it, meld X at once
	OpTakeLayoff                  // take X and the cards above it, lay X off at once
	OpTake                        // take the top card alone (top_discard_free)
	OpMeld                        // meld cards from hand
	OpLayoff                      // lay one card off on a meld
	OpDiscard                     // discard and end the turn
	OpDecline                     // stock empty: decline to take (ends the hand)
)

// Run ends (game.Move.B).
const (
	EndNone uint8 = iota
	EndLow
	EndHigh
)

const (
	maxSeats = 8
	maxCards = 2*52 + 4 // two decks with their jokers
	maxMelds = maxCards/3 + 1
	jokerIx  = 52
)

type stockRule uint8

const (
	endWhenDeclined stockRule = iota
	endImmediately
	turnOverDiscards
)

var stockRuleNames = []string{"end_when_declined", "end_immediately", "turn_over_discards"}

type phase uint8

const (
	phDealer phase = iota // the first dealer is to be drawn (chance)
	phDeal                // a deal is pending (chance)
	phDraw                // the player to move draws (or takes, or declines)
	phPlay                // the player to move melds, lays off, discards
	phOver                // the game is over
)

var phaseNames = [...]string{"dealer", "deal", "draw", "play", "over"}

type histEntry struct {
	seat int8
	m    game.Move
}

// State is a 500 Rum game in progress. It implements game.State.
type State struct {
	cfg      config
	opts     game.Options
	optsJSON []byte // the options' JSON, written once for the views (AppendViewJSON)

	phase  phase
	dealer int // dealer of the current (or last) hand; -1 before the first
	toMove int
	handNo int // hands dealt so far
	out    int // seat that went out in the current/last hand, or -1

	hands [maxSeats]hand
	known [maxSeats]hand // cards a seat is publicly known to hold
	table [maxSeats]int  // points credited on the table this hand

	pile   [maxCards]uint8 // bottom → top
	pileN  int
	stock  [maxCards]uint8 // top is stock[stockN-1]
	stockN int
	turned bool // the pile was turned over into the stock this hand (its order is public)

	melds  [maxMelds]meld
	meldsN int

	totals [maxSeats]int
	rounds []int // finished hands' scores, n per hand
	hist   []histEntry
}

// Engine implements game.State.
func (s *State) Engine() game.Engine { return Engine{} }

// Options implements game.State.
func (s *State) Options() game.Options { return s.opts.Clone() }

// Seats implements game.State.
func (s *State) Seats() int { return s.cfg.n }

// ToAct implements game.State.
func (s *State) ToAct(buf []game.Seat) []game.Seat {
	if s.phase == phDraw || s.phase == phPlay {
		buf = append(buf, game.Seat(s.toMove))
	}
	return buf
}

// ChancePending implements game.State.
func (s *State) ChancePending() bool { return s.phase == phDealer || s.phase == phDeal }

// Over implements game.State.
func (s *State) Over() bool { return s.phase == phOver }

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	c.rounds = append([]int(nil), s.rounds...)
	c.hist = append([]histEntry(nil), s.hist...)
	return &c
}

// CopyInto implements game.Copier: Clone into dst's memory (an empty
// list stays nil, as Clone leaves it).
func (s *State) CopyInto(dst game.State) game.State {
	d, ok := dst.(*State)
	if !ok || d == nil || d == s {
		return s.Clone()
	}
	rounds, hist := d.rounds[:0], d.hist[:0]
	*d = *s
	d.rounds, d.hist = nil, nil
	if len(s.rounds) > 0 {
		d.rounds = append(rounds, s.rounds...)
	}
	if len(s.hist) > 0 {
		d.hist = append(hist, s.hist...)
	}
	return d
}

// Result implements game.State.
func (s *State) Result() game.Result {
	n := s.cfg.n
	r := game.Result{Totals: make([]int, n), HigherWins: true}
	copy(r.Totals, s.totals[:n])
	for i := 0; i+n <= len(s.rounds); i += n {
		r.Rounds = append(r.Rounds, append([]int(nil), s.rounds[i:i+n]...))
	}
	if s.phase == phOver {
		r.Winners = s.winners()
	}
	return r
}

func (s *State) winners() []game.Seat {
	n := s.cfg.n
	best := s.totals[0]
	for i := 1; i < n; i++ {
		best = max(best, s.totals[i])
	}
	var w []game.Seat
	for i := 0; i < n; i++ {
		if s.totals[i] == best {
			w = append(w, game.Seat(i))
		}
	}
	return w
}

// Payment is one line of the settlement: From pays To Amount points.
type Payment struct {
	From   int `json:"from"`
	To     int `json:"to"`
	Amount int `json:"amount"`
}

// Settlement is what each opponent pays each winner at the end of the game
// (§10): winner's total − own total; co-winners pay each other nothing.
func (s *State) Settlement() []Payment {
	if s.phase != phOver {
		return nil
	}
	w := s.winners()
	isW := [maxSeats]bool{}
	for _, x := range w {
		isW[x] = true
	}
	var p []Payment
	for i := 0; i < s.cfg.n; i++ {
		if isW[i] {
			continue
		}
		for _, x := range w {
			p = append(p, Payment{From: i, To: int(x), Amount: s.totals[x] - s.totals[i]})
		}
	}
	return p
}

func itoa(n int) string { return strconv.Itoa(n) }
