// Package game is the contract shared by every Cardroom engine, and the
// pieces all of them use: cards and their notation, card masks, the seeded
// generator, options and typed move errors.
//
// The server, the bots and the tools hold a game only through State and
// Engine, so they treat Papayoo, 500 Rum and Pis Yedili alike. The contract is
// shaped by the hard cases of the three games:
//
//   - several seats may have to act at once (Papayoo's blind pass), so ToAct
//     returns a set of seats, and a seat that has acted has no legal moves;
//   - a move may be compound (500 Rum's "take 8H meld 8S 8H 8D") and a turn
//     may have several steps (draw, melds, discard; Pis Yedili's ace), so a
//     Move is one atomic step and the same seat may act again after it;
//   - chance happens in the middle of a game (the Papayoo die after the pass,
//     a reshuffled stock), so chance is an explicit step: ChancePending says
//     the next step belongs to chance, and its outcome is either drawn from a
//     Rand or applied from its text (a record), so records replay without a
//     generator;
//   - hidden information never leaves an engine except through View, and a
//     bot builds full states from a View alone (Engine.Sample), so a bot cannot
//     see the true hidden state by construction.
package game

import (
	"errors"
	"fmt"
)

// Seat is a player's place at the table, 0..Seats()-1, in clockwise order.
type Seat int

// Spectator is the observer of a spectator view: it sees public information only.
const Spectator Seat = -1

// Move is one atomic step of one seat, in a compact comparable encoding whose
// meaning belongs to the engine that produced it (each engine documents its
// use of the fields). Moves are small values: legal-move lists reuse buffers
// and playouts never allocate. The canonical text of a move comes from
// State.FormatMove and is read back by State.ParseMove.
type Move struct {
	Op   uint8 // the verb, engine-specific
	Card Card  // the main card, if any
	A, B uint8 // small arguments: a suit, a meld number, an end of a run…
	Set  Mask  // a set of cards, in the engine's deck layout
	Set2 Mask  // a second set (jokers' stand-ins, second copies…)
}

// Engine is one game's rules as a factory of states.
type Engine interface {
	// Name is the game's identifier in records, options and the protocol.
	Name() string
	// Deck is the card notation the game uses.
	Deck() Deck
	// OptionSpecs documents every option with its default and allowed values.
	OptionSpecs() []OptionSpec
	// New validates the options and returns a game before its first chance
	// event (the first dealer or the deal). Unknown or invalid options give an
	// *OptionError and no state.
	New(o Options) (State, error)
	// Sample deals a full state consistent with everything the view's
	// observer knows (determinization): uniformly, as far as the engine can,
	// among the hidden card layouts that fit the view's own hand, public
	// cards, hand sizes, shown voids and known cards. The result's View for
	// the same observer equals v. Spectator views are accepted too.
	Sample(v View, r *Rand) (State, error)
}

// State is one game in progress. Methods that change it (Apply,
// ApplyChance, RollChance) either succeed or leave it exactly as it was.
type State interface {
	Engine() Engine
	// Options are the game's options with every default filled in.
	Options() Options
	// Seats is the number of players.
	Seats() int
	// ToAct appends to buf the seats that must act now, in seat order:
	// usually one seat, several during a simultaneous decision, none while a
	// chance event is pending or when the game is over.
	ToAct(buf []Seat) []Seat
	// ChancePending reports whether the next step belongs to chance.
	ChancePending() bool
	// RollChance draws the pending chance outcome from r and applies it:
	// the fast path for playouts. It does nothing if no chance is pending.
	RollChance(r *Rand)
	// SampleChance draws the pending chance outcome from r and returns its
	// text in record notation without applying it; "" if none is pending.
	SampleChance(r *Rand) string
	// ApplyChance applies a chance outcome written in record notation
	// (for example "die H"); a malformed or impossible outcome is an error
	// and changes nothing.
	ApplyChance(text string) error
	// Legal appends to buf every legal move of seat s (none if s need not act).
	Legal(s Seat, buf []Move) []Move
	// Apply plays m for seat s. An out-of-turn, illegal or malformed move
	// returns a *MoveError and changes nothing.
	Apply(s Seat, m Move) error
	// ParseMove reads a move in canonical notation (or an accepted alias).
	ParseMove(text string) (Move, error)
	// FormatMove prints a move in canonical notation.
	FormatMove(m Move) string
	// View is what seat s may know now; Spectator gives the public view.
	View(s Seat) View
	// Over reports whether the whole game has ended.
	Over() bool
	// Result gives the totals, each finished round's points and, once the
	// game is over, the winners.
	Result() Result
	// Clone returns an independent deep copy.
	Clone() State
}

// A Copier is a State that can copy itself into memory it copied into
// before: CopyInto makes dst, a State of the same engine, an independent
// copy of the receiver equal to its Clone (deeply) and returns it, reusing
// dst's memory; for a dst it cannot use (nil, another engine's, the
// receiver itself) it returns a Clone. A table snapshots its state before
// every step for the history's describer: without this, one Clone a move.
type Copier interface {
	CopyInto(dst State) State
}

// View is the information one observer may have: a plain data value that
// marshals to JSON for the protocol, prints as text for people, and carries
// the public history a strong player remembers.
type View interface {
	// Observer is the seat the view belongs to, or Spectator.
	Observer() Seat
	// Head is the part of the view every game shares (embed a Header).
	Head() *Header
	// String renders the view for people (the CLI's text output).
	String() string
}

// JSONAppender is implemented by views that write their JSON by hand, faster
// than encoding/json can (which re-validates what a MarshalJSON returns):
// AppendJSON appends exactly the bytes MarshalJSON would return.
type JSONAppender interface {
	AppendJSON(b []byte) []byte
}

// ViewJSONAppender is implemented by states that write a view's JSON
// without the caller holding the view: AppendViewJSON(b, seat) appends
// exactly the JSON of View(seat) (its MarshalJSON bytes), building it in
// memory the state reuses. The server writes every seat's view on every
// move; building each in fresh memory was half of what a move allocated.
type ViewJSONAppender interface {
	AppendViewJSON(b []byte, seat Seat) []byte
}

// Result summarizes the scores of a game.
type Result struct {
	// Totals are the cumulative scores per seat.
	Totals []int `json:"totals"`
	// Rounds holds each finished round's (or hand's) points per seat.
	Rounds [][]int `json:"rounds"`
	// Winners are set once the game is over; several on a shared win.
	Winners []Seat `json:"winners,omitempty"`
	// HigherWins is true when the highest total wins (500 Rum), false when
	// the lowest does (Papayoo, Pis Yedili).
	HigherWins bool `json:"higher_wins"`
}

// ErrorCode classifies why a move or chance outcome was refused.
type ErrorCode string

// The error codes. They are stable: the protocol sends them to clients.
const (
	ErrMalformed   ErrorCode = "malformed"     // the text is not a move of this game
	ErrNotYourTurn ErrorCode = "not_your_turn" // the seat has nothing to do now
	ErrIllegal     ErrorCode = "illegal"       // a move of this game, but not legal now
	ErrGameOver    ErrorCode = "game_over"     // the game has ended
	ErrBadSeat     ErrorCode = "bad_seat"      // no such seat
	ErrNoChance    ErrorCode = "no_chance"     // a chance outcome when none is pending, or a move while one is
	ErrBadChance   ErrorCode = "bad_chance"    // a chance outcome that is malformed or impossible
)

// MoveError is the typed error of every refused move or chance outcome.
type MoveError struct {
	Code   ErrorCode
	Seat   Seat   // the seat that tried, or Spectator for chance
	Move   string // the move's text, if known
	Reason string // why, for people
}

func (e *MoveError) Error() string {
	if e.Move != "" {
		return fmt.Sprintf("%s: seat %d %q: %s", e.Code, e.Seat, e.Move, e.Reason)
	}
	return fmt.Sprintf("%s: seat %d: %s", e.Code, e.Seat, e.Reason)
}

// Is makes errors.Is(err, game.ErrIllegal) work on a *MoveError.
func (e *MoveError) Is(target error) bool {
	c, ok := target.(ErrorCode)
	return ok && c == e.Code
}

// Error lets an ErrorCode be the target of errors.Is.
func (c ErrorCode) Error() string { return string(c) }

// Code extracts the code of a *MoveError, or "" for any other error.
func Code(err error) ErrorCode {
	var me *MoveError
	if errors.As(err, &me) {
		return me.Code
	}
	return ""
}

// Errorf builds a *MoveError.
func Errorf(code ErrorCode, s Seat, move string, format string, args ...any) *MoveError {
	return &MoveError{Code: code, Seat: s, Move: move, Reason: fmt.Sprintf(format, args...)}
}

// Next is the seat clockwise after s at a table of n seats.
func Next(s Seat, n int) Seat { return Seat((int(s) + 1) % n) }

// Prev is the seat counter-clockwise before s.
func Prev(s Seat, n int) Seat { return Seat((int(s) + n - 1) % n) }
