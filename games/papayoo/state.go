package papayoo

import (
	"math/bits"

	"cardroom/game"
)

// The verbs of Move.Op.
const (
	OpPass uint8 = 1 // Set = the K passed cards
	OpPlay uint8 = 2 // Card = the card played
)

// Phases of a game.
const (
	phDealer uint8 = iota // chance: the first dealer
	phDeal                // chance: the deal of the next round
	phPass                // the seats pass, simultaneously
	phDie                 // chance: the die
	phPlay                // trick play
	phOver                // the game has ended
)

// histFixed is the number of finished rounds kept inside the State struct;
// later rounds go to a shared append-only slice.
const histFixed = 16

var deck = Deck

// Per player count N: cards per hand, cards passed, packet sequence.
var (
	handSize = [9]int{3: 20, 4: 15, 5: 12, 6: 10, 7: 8, 8: 7}
	passSize = [9]int{3: 5, 4: 5, 5: 4, 6: 3, 7: 3, 8: 3}
	packets  = [9][]int{
		3: {3, 3, 3, 3, 3, 3, 2},
		4: {3, 3, 3, 3, 3},
		5: {3, 3, 3, 3},
		6: {3, 3, 3, 1},
		7: {3, 3, 2},
		8: {3, 3, 1},
	}
)

const (
	fullDeck  game.Mask = 1<<60 - 1
	ordinary1 game.Mask = 1<<0 | 1<<10 | 1<<20 | 1<<30 // 1S 1H 1D 1C
)

var (
	suitMask = [5]game.Mask{0x3FF, 0x3FF << 10, 0x3FF << 20, 0x3FF << 30, 0xFFFFF << 40}
	suitOf   [60]uint8     // suit of a card index (4 = Payoo)
	cardOf   [60]game.Card // card of an index
	payooPts [60]int16     // rank of a Payoo card, 0 otherwise
	dealPos  [9][60]uint8  // per N, the seat (relative to the dealer's left) receiving the p-th card
	deckList [9][60]uint8  // per N, the card indices in play
	cardName [60]string    // canonical text of each card
	idxOfCrd [256]int8     // card → index, -1 outside the deck
	suitName = [5]string{"S", "H", "D", "C", "P"}
)

func init() {
	for i := 0; i < 60; i++ {
		cardOf[i] = deck.Card(i)
		cardName[i] = deck.Format(cardOf[i])
		if i >= 40 {
			suitOf[i] = 4
			payooPts[i] = int16(i - 39)
		} else {
			suitOf[i] = uint8(i / 10)
		}
	}
	for c := 0; c < 256; c++ {
		idxOfCrd[c] = int8(deck.Index(game.Card(c)))
	}
	for n := 3; n <= 8; n++ {
		p := 0
		for _, k := range packets[n] {
			for s := 0; s < n; s++ {
				for j := 0; j < k; j++ {
					dealPos[n][p] = uint8(s)
					p++
				}
			}
		}
		m := deckFor(n)
		i := 0
		for ; m != 0; m &= m - 1 {
			deckList[n][i] = uint8(bits.TrailingZeros64(uint64(m)))
			i++
		}
	}
}

// deckFor is the set of cards in play for n players.
func deckFor(n int) game.Mask {
	if n >= 7 {
		return fullDeck &^ ordinary1
	}
	return fullDeck
}

// HandSize is the number of cards per hand for n players (0 outside 3..8).
func HandSize(n int) int {
	if n < 3 || n > 8 {
		return 0
	}
	return handSize[n]
}

// PassSize is the number of cards each seat passes for n players.
func PassSize(n int) int {
	if n < 3 || n > 8 {
		return 0
	}
	return passSize[n]
}

// DeckFor is the mask of the cards in play for n players.
func DeckFor(n int) game.Mask { return deckFor(n) }

// SuitMask is the mask of a suit's cards (0..3 = S H D C, 4 = Payoo).
func SuitMask(suit int) game.Mask { return suitMask[suit] }

// State is one Papayoo game. The zero value is not usable: get one from New.
type State struct {
	n, hs, ks int8 // players, cards per hand, cards passed
	phase     uint8
	dealer    int8
	leader    int8 // leader of the current trick
	turn      int8 // seat to play (phPlay)
	inTrick   int8 // cards in the current trick
	tricks    int8 // completed tricks this round
	die       int8 // 0..3 (S H D C), -1 before the roll
	passed    uint8
	pap       int8  // index of the Papayoo card, -1 before the roll
	best      int8  // current trick: the best card of the led suit so far
	bestSeat  int8  // current trick: who played it
	trickPts  int16 // current trick: points in it so far
	rounds    int
	round     int // current round, 1-based; 0 before the first deal
	deck      game.Mask
	hands     [8]game.Mask
	pass      [8]game.Mask // each seat's pass (kept for the round, for views)
	played    [8]game.Mask // cards each seat played this round
	voids     [8]uint8     // suits a seat has shown void in this round (bit per suit)
	points    [8]int16     // points taken this round
	totals    [8]int32
	plays     [60]uint8 // card indices in order of play this round, n per trick
	leaders   [20]int8  // leader of each trick this round
	winners   [20]int8  // winner of each completed trick
	hist      [histFixed][8]int16
	histMore  [][8]int16 // rounds after histFixed; append-only, cap-limited on Clone
	opts      game.Options
	optsJSON  []byte // the options' JSON, written once for the views (AppendViewJSON)
}

var _ game.State = (*State)(nil)

// Engine implements game.State.
func (s *State) Engine() game.Engine { return Engine{} }

// Options implements game.State.
func (s *State) Options() game.Options { return s.opts.Clone() }

// Seats implements game.State.
func (s *State) Seats() int { return int(s.n) }

// Round is the current round number (1-based; 0 before the first deal).
func (s *State) Round() int { return int(s.round) }

// Dealer is the current dealer, -1 before the first dealer is drawn.
func (s *State) Dealer() int { return int(s.dealer) }

// Hand is the mask of a seat's current hand.
func (s *State) Hand(seat int) game.Mask { return s.hands[seat] }

// Die is the die's suit (0..3 = S H D C), -1 before the roll.
func (s *State) Die() int { return int(s.die) }

// Turn is the seat to play during trick play, -1 otherwise.
func (s *State) Turn() int {
	if s.phase != phPlay {
		return -1
	}
	return int(s.turn)
}

// InPassPhase reports whether the seats are passing.
func (s *State) InPassPhase() bool { return s.phase == phPass }

// HasPassed reports whether a seat has submitted its pass this round.
func (s *State) HasPassed(seat int) bool { return s.passed&(1<<uint(seat)) != 0 }

// RoundPoints is the points a seat has taken so far this round.
func (s *State) RoundPoints(seat int) int { return int(s.points[seat]) }

// Total is a seat's cumulative score over finished rounds.
func (s *State) Total(seat int) int { return int(s.totals[seat]) }

// Played is the mask of the cards a seat has played this round.
func (s *State) Played(seat int) game.Mask { return s.played[seat] }

// Voids is the set of suits (bit per suit, 4 = Payoo) a seat has shown void
// in this round by not following.
func (s *State) Voids(seat int) uint8 { return s.voids[seat] }

// PassOf is the pass a seat submitted this round (0 before it passes).
func (s *State) PassOf(seat int) game.Mask { return s.pass[seat] }

// TrickCards appends the card indices of the current trick in play order
// (the first is the leader's) and returns the leader.
func (s *State) TrickCards(buf []int) ([]int, int) {
	if s.phase != phPlay {
		return buf, -1
	}
	start := int(s.tricks) * int(s.n)
	for j := 0; j < int(s.inTrick); j++ {
		buf = append(buf, int(s.plays[start+j]))
	}
	return buf, int(s.leader)
}

// Tricks is the number of completed tricks this round.
func (s *State) Tricks() int { return int(s.tricks) }

// PapayooIndex is the index of the Papayoo card, -1 before the die.
func (s *State) PapayooIndex() int { return int(s.pap) }

// CardPoints is what card index i is worth this round.
func (s *State) CardPoints(i int) int {
	p := int(payooPts[i])
	if int8(i) == s.pap {
		p += 40
	}
	return p
}

// CopyFrom makes s an independent copy of t without allocating.
func (s *State) CopyFrom(t *State) {
	*s = *t
	s.histMore = s.histMore[:len(s.histMore):len(s.histMore)]
}

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := new(State)
	c.CopyFrom(s)
	return c
}

// CopyInto implements game.Copier.
func (s *State) CopyInto(dst game.State) game.State {
	d, ok := dst.(*State)
	if !ok || d == nil || d == s {
		return s.Clone()
	}
	d.CopyFrom(s)
	return d
}

// ToAct implements game.State.
func (s *State) ToAct(buf []game.Seat) []game.Seat {
	switch s.phase {
	case phPass:
		for i := 0; i < int(s.n); i++ {
			if s.passed&(1<<uint(i)) == 0 {
				buf = append(buf, game.Seat(i))
			}
		}
	case phPlay:
		buf = append(buf, game.Seat(s.turn))
	}
	return buf
}

// ChancePending implements game.State.
func (s *State) ChancePending() bool {
	return s.phase == phDealer || s.phase == phDeal || s.phase == phDie
}

// Over implements game.State.
func (s *State) Over() bool { return s.phase == phOver }

// LegalPlays is the mask of the cards the seat to play may play (0 outside
// trick play): the cards of the led suit if it holds any, else its whole hand.
func (s *State) LegalPlays() game.Mask {
	if s.phase != phPlay {
		return 0
	}
	h := s.hands[s.turn]
	if s.inTrick == 0 {
		return h
	}
	led := suitOf[s.plays[int(s.tricks)*int(s.n)]]
	if f := h & suitMask[led]; f != 0 {
		return f
	}
	return h
}

// LedSuit is the suit led in the current trick (0..4), -1 if none.
func (s *State) LedSuit() int {
	if s.phase != phPlay || s.inTrick == 0 {
		return -1
	}
	return int(suitOf[s.plays[int(s.tricks)*int(s.n)]])
}

// Play plays card index i for the seat to play, without any check: the fast
// path for playouts. i must be in LegalPlays().
func (s *State) Play(i int) {
	seat := s.turn
	n := int(s.n)
	s.hands[seat] &^= game.Bit(i)
	s.played[seat] |= game.Bit(i)
	pts := payooPts[i]
	if int8(i) == s.pap {
		pts += 40
	}
	start := int(s.tricks) * n
	if s.inTrick == 0 {
		s.best, s.bestSeat, s.trickPts = int8(i), seat, pts
	} else {
		if led := suitOf[s.plays[start]]; suitOf[i] != led {
			s.voids[seat] |= 1 << led
		} else if int8(i) > s.best {
			s.best, s.bestSeat = int8(i), seat
		}
		s.trickPts += pts
	}
	s.plays[start+int(s.inTrick)] = uint8(i)
	s.inTrick++
	if int(s.inTrick) < n {
		s.turn++
		if int(s.turn) == n {
			s.turn = 0
		}
		return
	}
	// The trick is complete: the highest card of the led suit wins it.
	w := s.bestSeat
	s.points[w] += s.trickPts
	s.winners[s.tricks] = w
	s.tricks++
	s.inTrick = 0
	s.leader, s.turn = w, w
	if s.tricks == s.hs {
		s.endRound()
		return
	}
	s.leaders[s.tricks] = w
}

func (s *State) endRound() {
	var row [8]int16
	for i := 0; i < int(s.n); i++ {
		s.totals[i] += int32(s.points[i])
		row[i] = s.points[i]
	}
	if k := int(s.round) - 1; k < histFixed {
		s.hist[k] = row
	} else {
		s.histMore = append(s.histMore, row)
	}
	s.turn, s.leader = -1, -1
	if s.round >= s.rounds {
		s.phase = phOver
		return
	}
	s.dealer++
	if s.dealer == s.n {
		s.dealer = 0
	}
	s.phase = phDeal
}

// SubmitPass records seat's pass without any check (the fast path): m must
// be K cards of its hand and the seat must not have passed yet. When the
// last seat passes, all transfers happen at once.
func (s *State) SubmitPass(seat int, m game.Mask) {
	s.pass[seat] = m
	s.passed |= 1 << uint(seat)
	if int(s.passed) != 1<<uint(s.n)-1 {
		return
	}
	n := int(s.n)
	for i := 0; i < n; i++ {
		s.hands[i] &^= s.pass[i]
	}
	for i := 0; i < n; i++ {
		j := i + 1
		if j == n {
			j = 0
		}
		s.hands[j] |= s.pass[i]
	}
	s.phase = phDie
}

// setDeal installs a deal and starts the pass phase of a new round.
func (s *State) setDeal(h *[8]game.Mask) {
	s.hands = *h
	s.pass = [8]game.Mask{}
	s.played = [8]game.Mask{}
	s.voids = [8]uint8{}
	s.points = [8]int16{}
	s.passed = 0
	s.die, s.pap = -1, -1
	s.tricks, s.inTrick = 0, 0
	s.leader, s.turn = -1, -1
	s.round++
	s.phase = phPass
}

// setDie installs the die's suit and starts trick play, the dealer leading.
func (s *State) setDie(suit int) {
	s.die = int8(suit)
	s.pap = int8(suit*10 + 6)
	s.phase = phPlay
	s.leader, s.turn = s.dealer, s.dealer
	s.leaders[0] = s.dealer
}

// dealRandom draws a uniform deal: the deck in play is shuffled and dealt in
// the packets of the deal table, clockwise from the dealer's left.
func (s *State) dealRandom(r *game.Rand) [8]game.Mask {
	n := int(s.n)
	total := n * int(s.hs)
	cards := deckList[n]
	for i := total - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
	var h [8]game.Mask
	first := int(s.dealer) + 1
	pos := &dealPos[n]
	for p := 0; p < total; p++ {
		seat := first + int(pos[p])
		if seat >= n {
			seat -= n
		}
		h[seat] |= game.Bit(int(cards[p]))
	}
	return h
}

// RollChance implements game.State.
func (s *State) RollChance(r *game.Rand) {
	switch s.phase {
	case phDealer:
		s.dealer = int8(r.IntN(int(s.n)))
		s.phase = phDeal
	case phDeal:
		h := s.dealRandom(r)
		s.setDeal(&h)
	case phDie:
		s.setDie(r.IntN(4))
	}
}

// Legal implements game.State. In the pass phase it lists every K-subset of
// the seat's hand (3003 for 4 players); during play, the legal cards.
func (s *State) Legal(seat game.Seat, buf []game.Move) []game.Move {
	if seat < 0 || int(seat) >= int(s.n) {
		return buf
	}
	switch s.phase {
	case phPlay:
		if int(seat) != int(s.turn) {
			return buf
		}
		for m := s.LegalPlays(); m != 0; m &= m - 1 {
			buf = append(buf, game.Move{Op: OpPlay, Card: cardOf[bits.TrailingZeros64(uint64(m))]})
		}
	case phPass:
		if s.passed&(1<<uint(seat)) != 0 {
			return buf
		}
		var idx [20]uint8
		h := s.hands[seat]
		nh := 0
		for m := h; m != 0; m &= m - 1 {
			idx[nh] = uint8(bits.TrailingZeros64(uint64(m)))
			nh++
		}
		k := int(s.ks)
		if k > nh {
			return buf
		}
		// Gosper's hack over the nh positions.
		for v := uint32(1)<<uint(k) - 1; v < 1<<uint(nh); {
			var set game.Mask
			for w := v; w != 0; w &= w - 1 {
				set |= game.Bit(int(idx[bits.TrailingZeros32(w)]))
			}
			buf = append(buf, game.Move{Op: OpPass, Set: set})
			c := v & -v
			r := v + c
			v = (((r ^ v) >> 2) / c) | r
		}
	}
	return buf
}

// Apply implements game.State.
func (s *State) Apply(seat game.Seat, m game.Move) error {
	if s.phase == phOver {
		return game.Errorf(game.ErrGameOver, seat, s.FormatMove(m), "the game is over")
	}
	if seat < 0 || int(seat) >= int(s.n) {
		return game.Errorf(game.ErrBadSeat, seat, s.FormatMove(m), "no seat %d in a %d-player game", seat, s.n)
	}
	if s.ChancePending() {
		return game.Errorf(game.ErrNoChance, seat, s.FormatMove(m), "a chance step is pending")
	}
	switch m.Op {
	case OpPass:
		if m.Set&^fullDeck != 0 || m.Set == 0 {
			return game.Errorf(game.ErrMalformed, seat, "", "a pass needs a set of cards")
		}
	case OpPlay:
		if idxOfCrd[m.Card] < 0 {
			return game.Errorf(game.ErrMalformed, seat, "", "card %d is not a Papayoo card", m.Card)
		}
	default:
		return game.Errorf(game.ErrMalformed, seat, "", "unknown move op %d", m.Op)
	}
	switch s.phase {
	case phPass:
		if s.passed&(1<<uint(seat)) != 0 {
			return game.Errorf(game.ErrNotYourTurn, seat, s.FormatMove(m), "seat %d has already passed this round", seat)
		}
		if m.Op != OpPass {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "the seats are passing: want \"pass\" with %d cards", s.ks)
		}
		if c := m.Set.Count(); c != int(s.ks) {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "a pass is exactly %d cards, not %d", s.ks, c)
		}
		if x := m.Set &^ s.hands[seat]; x != 0 {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "not in the hand: %s", x.Format(deck))
		}
		s.SubmitPass(int(seat), m.Set)
		return nil
	case phPlay:
		if int(seat) != int(s.turn) {
			return game.Errorf(game.ErrNotYourTurn, seat, s.FormatMove(m), "it is seat %d's turn to play", s.turn)
		}
		if m.Op != OpPlay {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "trick play: want \"play <card>\"")
		}
		i := int(idxOfCrd[m.Card])
		if !s.hands[seat].Has(i) {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "%s is not in the hand", cardName[i])
		}
		if !s.LegalPlays().Has(i) {
			return game.Errorf(game.ErrIllegal, seat, s.FormatMove(m), "must follow suit %s", suitName[s.LedSuit()])
		}
		s.Play(i)
		return nil
	}
	return game.Errorf(game.ErrNotYourTurn, seat, s.FormatMove(m), "nobody may move now")
}

// Result implements game.State.
func (s *State) Result() game.Result {
	n := int(s.n)
	res := game.Result{Totals: make([]int, n), Rounds: [][]int{}}
	for i := 0; i < n; i++ {
		res.Totals[i] = int(s.totals[i])
	}
	for _, row := range s.history() {
		r := make([]int, n)
		for i := range r {
			r[i] = int(row[i])
		}
		res.Rounds = append(res.Rounds, r)
	}
	if s.phase == phOver {
		res.Winners = s.winners_()
	}
	return res
}

// finishedRounds is the number of scored rounds.
func (s *State) finishedRounds() int {
	r := int(s.round)
	if s.phase == phPass || s.phase == phDie || s.phase == phPlay {
		r--
	}
	return r
}

// history lists the finished rounds' points.
func (s *State) history() [][8]int16 {
	k := s.finishedRounds()
	out := make([][8]int16, 0, k)
	for i := 0; i < k; i++ {
		if i < histFixed {
			out = append(out, s.hist[i])
		} else {
			out = append(out, s.histMore[i-histFixed])
		}
	}
	return out
}

// winners_ lists the seats with the lowest total (co-winners on a tie).
func (s *State) winners_() []game.Seat {
	best := int32(1 << 30)
	for i := 0; i < int(s.n); i++ {
		if s.totals[i] < best {
			best = s.totals[i]
		}
	}
	var w []game.Seat
	for i := 0; i < int(s.n); i++ {
		if s.totals[i] == best {
			w = append(w, game.Seat(i))
		}
	}
	return w
}
