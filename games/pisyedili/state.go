package pisyedili

import (
	"math/bits"

	"cardroom/game"
)

const (
	maxSeats = 7
	maxCards = 106
	handSize = 7
	jokerIdx = 52
)

// The move verbs (game.Move.Op).
const (
	OpPlay    uint8 = 1 // play Card (A = 1+suit for a jack outside the opening round)
	OpDraw    uint8 = 2 // draw one card (or until playable, with draw_until_playable)
	OpPenalty uint8 = 3 // take the pending chain's cards
	OpPass    uint8 = 4 // end the turn after a draw, or when nothing is possible
	OpEnd     uint8 = 5 // end the turn after an ace
)

// Phase is the stage of play (View.Stage; its name is the view's phase).
type Phase uint8

// The phases.
const (
	PhaseDeal        Phase = iota // before a deal (dealer or deal chance pending)
	PhaseOpening                  // the opening clubs round
	PhaseNormal                   // a normal turn (maybe with a chain pending)
	PhaseAfterDraw                // the player drew voluntarily this turn
	PhaseAceContinue              // the player just played an ace
	PhaseHandOver                 // end-of-hand draws in progress
	PhaseOver                     // the game has ended
)

var phaseNames = [...]string{"deal", "opening", "normal", "after_draw", "ace_continue", "hand_over", game.PhaseOver}

func (p Phase) String() string { return enumName(phaseNames[:], int(p)) }

// ChanceKind is the kind of a pending chance outcome (View.Chance).
type ChanceKind uint8

// The chance kinds: none pending, the first dealer, a deal, a reshuffle.
const (
	ChanceNone ChanceKind = iota
	ChanceDealer
	ChanceDeal
	ChanceShuffle
)

var chanceNames = [...]string{"", "dealer", "deal", "shuffle"}

func (c ChanceKind) String() string { return enumName(chanceNames[:], int(c)) }

// ChainKind is the kind of a pending penalty chain (Chain.Kind).
type ChainKind uint8

// The chain kinds.
const (
	ChainNone  ChainKind = 0
	ChainSeven ChainKind = 1
	ChainJoker ChainKind = 2
)

var chainNames = [...]string{"", "seven", "joker"}

func (c ChainKind) String() string { return enumName(chainNames[:], int(c)) }

// DrawKind is the kind of a multi-card draw, which may have to wait for a
// reshuffle (Drawing.Kind).
type DrawKind uint8

// The draw kinds.
const (
	DrawNone        DrawKind = iota
	DrawOpening              // one card in the opening round
	DrawVoluntary            // a voluntary draw
	DrawPenalty              // a chain's penalty
	DrawAce                  // every other player draws one for an ace
	DrawFinishChain          // finishing_card_effects: the next player draws the chain
	DrawFinishAce            // finishing_card_effects: every other player draws one
	DrawEndOfHand            // the recursive end-of-hand draws (§9.1)
)

var jobNames = [...]string{"", "opening", "voluntary", "penalty", "ace", "finish_chain", "finish_ace", "end_of_hand"}

func (k DrawKind) String() string { return enumName(jobNames[:], int(k)) }

// Reason is why the player to move has the turn (View.TurnReason).
type Reason uint8

// The turn reasons.
const (
	ReasonNone        Reason = iota
	ReasonFirst              // first player of the hand: next(dealer)
	ReasonNext               // the next seat in the direction of play
	ReasonSkip               // an 8 skipped a seat
	ReasonBounce             // a 10 bounced the turn back
	ReasonReverse            // a 10 reversed the direction (ten_mode=reverse)
	ReasonAce                // the ace's player plays on
	ReasonPenalty            // penalty_ends_turn=false: the penalised player plays on
	ReasonOpeningDraw        // drew in the opening round and acts again
)

var reasonNames = [...]string{"", "first", "next", "skip", "bounce", "reverse", "ace", "penalty", "opening_draw"}

func (r Reason) String() string { return enumName(reasonNames[:], int(r)) }

// enumName is names[i], or a placeholder for a value out of range.
func enumName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "?" + itoa(i)
}

type void struct {
	f game.Mask
	k int
}

// softVoid is one slot of State.soft: a soft void of kind why.
type softVoid struct {
	f   game.Mask
	k   int32
	why VoidKind
}

// softSlots is how many soft voids a seat keeps: a new one replaces one it
// implies (a mask inside the new one), else a free slot, else the weakest
// (the most cards received since).
const softSlots = 4

// VoidKind is what a shown void comes from (Void.Why).
type VoidKind uint8

// The void kinds. The first two are hard: the rules made them true, and
// Engine.Sample deals only hands that keep them (they are also the index
// in State.voids). The others are soft: a voluntary choice that the rules
// allow with the cards in hand, so they hold for a player who plays as the
// rule-based bots do (who never draws, takes a penalty or ends a turn
// while it can play), not for every player. Engine.Sample ignores them;
// a bot's sampler may take them as evidence (Sampler.UseEvidence).
const (
	VoidOpeningDraw VoidKind = 0 // it drew in the opening round: it held no plain club (§6)
	VoidForcedPass  VoidKind = 1 // a forced pass: it held no playable card (§7)
	VoidDrew        VoidKind = 2 // soft: it drew voluntarily while Lacks were playable (§6 special clubs, §7 the cards that match); a pass or the drawn card's play after the draw renews it
	VoidTookPenalty VoidKind = 3 // soft: it took a chain's penalty while Lacks could have stacked (§8: the 7s or the jokers)
	VoidEnded       VoidKind = 4 // soft: it ended its turn after an ace while Lacks were playable (§8)
)

var voidNames = [...]string{"opening_draw", "forced_pass", "drew", "took_penalty", "ended"}

func (k VoidKind) String() string { return enumName(voidNames[:], int(k)) }

// Soft reports whether k is a soft void kind (a choice, not a rule, made
// it: see the kinds).
func (k VoidKind) Soft() bool { return k >= VoidDrew && int(k) < len(voidNames) }

// PlayKind is the situation a card of the pile was played in (Play.Kind).
type PlayKind uint8

// The play kinds: the opening round (§6), a normal turn (§7), the defence
// of a pending chain (§8), the card drawn just before (§7, after_draw) and
// a card played onto the player's own ace (§8, ace_continue).
const (
	PlayUnknown     PlayKind = iota // a pile card whose play was not recorded (positions built by hand)
	PlayOpening                     // in the opening round
	PlayNormal                      // a normal turn, no chain pending
	PlayChain                       // on a pending chain (a 7 on a seven chain, a joker on a joker chain)
	PlayAfterDraw                   // the card just drawn (after_draw)
	PlayAceContinue                 // onto the player's own ace (ace_continue)
)

var playKindNames = [...]string{"", "opening", "normal", "chain", "after_draw", "ace_continue"}

func (k PlayKind) String() string { return enumName(playKindNames[:], int(k)) }

// playRec is the public record of one card of the pile (State.plays, by
// pile index): who played it, in which situation, the suit a jack named,
// how many cards the player had received before it (State.recv then), and
// every hand size just before it.
type playRec struct {
	by    int8 // seat + 1; 0: not recorded
	kind  PlayKind
	suit  uint8 // 1 + the suit a jack named; 0: none
	at    int32 // recv[seat] at the play
	sizes [maxSeats]uint8
}

// result is one finished hand (fixed size, so ending a hand allocates nothing).
type result struct {
	finisher int8 // -1: blocked hand
	card     game.Card
	mult     int
	final1   [maxSeats]game.Mask // the hands after the end-of-hand draws
	final2   [maxSeats]game.Mask
	drawn1   [maxSeats]game.Mask // the end-of-hand draws
	drawn2   [maxSeats]game.Mask
	points   [maxSeats]int
}

// State is one game of Pis Yedili. It holds no pointers except the options
// map (never modified) and the history of earlier hands (copied by Clone).
type State struct {
	cfg          config
	opts         game.Options
	optsJSON     []byte // the options' JSON, written once for the views (AppendViewJSON)
	n            int
	full1, full2 game.Mask // the whole deck as a multiset
	total        int       // 104 or 106

	h1, h2 [maxSeats]game.Mask // faces held at least once / twice
	hn     [maxSeats]int       // hand sizes

	stock  [maxCards]game.Card // stock[stockN-1] is the top
	stockN int
	pile   [maxCards]game.Card // pile[pileN-1] is the top
	pileN  int
	pool1  game.Mask // the multiset the stock was last formed from
	pool2  game.Mask
	plays  [maxCards]playRec // plays[i]: who played pile[i], and what every seat saw then
	recv   [maxSeats]int32   // cards each seat has received (only differences count: Play.Since)

	suit       game.Suit // active suit
	rank       int       // active rank
	anyFollows bool      // joker_follow=any and a joker is on top
	chain      ChainKind
	chainK     int

	ph       Phase
	chance   ChanceKind
	turn     int
	why      Reason
	dir      int // +1 clockwise, -1 counter-clockwise (ten_mode=reverse)
	dead     int // consecutive forced passes
	openLeft int // opening turns left
	drawn    game.Card

	job       DrawKind
	jobSeat   int // who draws now
	jobLeft   int // cards left for jobSeat
	jobOwner  int // the player who caused the job (ace, finisher)
	seatsLeft int // seats still to draw (ace, end of hand), including jobSeat
	lapse     bool

	// shown voids (public inferences, §6 and §7): seat p held no card of
	// voids[p][w].f at some moment and has received voids[p][w].k cards
	// since, so it holds at most k cards of f. w = VoidOpeningDraw (it drew in
	// the opening round, so it held no plain club) or VoidForcedPass (a forced
	// pass: it held no playable card). f == 0: none.
	voids [maxSeats][2]void
	// soft voids (public, but inferences about a policy, not the rules):
	// seat p chose to draw, take a penalty or end its turn while holding none
	// of soft[p][i].f, if it plays as the rule-based bots do, and has
	// received soft[p][i].k cards since. f == 0: a free slot.
	soft [maxSeats][softSlots]softVoid

	hand   int // current hand number (1-based), 0 before the first deal
	dealer int
	totals [maxSeats]int
	cur    result // the hand being ended or the last finished hand
	hasCur bool   // cur is a finished hand
	hist   []result
}

// Tables over the standard deck indices.
var (
	suitMask   [4]game.Mask
	rankMask   [14]game.Mask
	clubsMask  game.Mask
	plainClubs game.Mask
	jackMask   game.Mask
	jokerBit   = game.Bit(jokerIdx)
	faceCard   [53]game.Card
	faceValue  [53]int
	cardIdx    [256]int8
)

func init() {
	for i := range cardIdx {
		cardIdx[i] = -1
	}
	for i := 0; i < 53; i++ {
		c := game.Standard.Card(i)
		faceCard[i] = c
		cardIdx[c] = int8(i)
		switch {
		case c == game.Joker:
			faceValue[i] = 100
		case c.Rank() == game.Jack:
			faceValue[i] = 25
		case c.Rank() == game.Ace:
			faceValue[i] = 11
		case c.Rank() >= 10:
			faceValue[i] = 10
		default:
			faceValue[i] = c.Rank()
		}
		if c != game.Joker {
			suitMask[c.Suit()] |= game.Bit(i)
			rankMask[c.Rank()] |= game.Bit(i)
		}
	}
	clubsMask = suitMask[game.Clubs]
	jackMask = rankMask[game.Jack]
	plainClubs = clubsMask &^ (rankMask[game.Ace] | rankMask[7] | rankMask[8] | rankMask[10] | rankMask[game.Jack])
}

func idx(c game.Card) int { return int(cardIdx[c]) }

// CardValue is the penalty value of a card left in hand (§11).
func CardValue(c game.Card) int {
	if i := idx(c); i >= 0 {
		return faceValue[i]
	}
	return 0
}

// Multiplier is the finishing card's multiplier (§11): joker ×10, 7 ×3, J ×2.
func Multiplier(c game.Card) int {
	switch {
	case c == game.Joker:
		return 10
	case c.Rank() == 7:
		return 3
	case c.Rank() == game.Jack:
		return 2
	}
	return 1
}

// multiset helpers over a pair of masks
func msAdd(m1, m2 *game.Mask, i int) {
	b := game.Bit(i)
	if *m1&b != 0 {
		*m2 |= b
	} else {
		*m1 |= b
	}
}

func msValue(m1, m2 game.Mask) int {
	v := 0
	for m := m1; m != 0; m &= m - 1 {
		v += faceValue[bits.TrailingZeros64(uint64(m))]
	}
	for m := m2; m != 0; m &= m - 1 {
		v += faceValue[bits.TrailingZeros64(uint64(m))]
	}
	return v
}

func msCount(m1, m2, of game.Mask) int { return (m1 & of).Count() + (m2 & of).Count() }

func (s *State) add(p int, c game.Card) {
	msAdd(&s.h1[p], &s.h2[p], idx(c))
	s.hn[p]++
	s.recv[p]++
	s.voids[p][0].k++
	s.voids[p][1].k++
	for i := range s.soft[p] {
		s.soft[p][i].k++
	}
}

// note records a soft void of seat p: by its choice (why) it shows, if it
// plays as the rule-based bots do, that it holds none of f now. Only
// public facts may go into f (the top card, the active suit and rank, the
// chain): the soft voids are in every seat's view.
func (s *State) note(p int, why VoidKind, f game.Mask) {
	sl := &s.soft[p]
	j := -1
	for i := range sl {
		if sl[i].f != 0 && sl[i].f&^f == 0 { // implied by the new one
			sl[i] = softVoid{}
			if j < 0 {
				j = i
			}
		}
	}
	for i := 0; j < 0 && i < softSlots; i++ {
		if sl[i].f == 0 {
			j = i
		}
	}
	if j < 0 {
		j = 0
		for i := 1; i < softSlots; i++ {
			if sl[i].k > sl[j].k {
				j = i
			}
		}
	}
	sl[j] = softVoid{f: f, why: why}
}

// belied drops the soft voids of seat p that its play of face i belies
// (it held a card of f and has received none since: it does not play as
// the rule-based bots do, or not in that case).
func (s *State) belied(p, i int) {
	for j := range s.soft[p] {
		if v := &s.soft[p][j]; v.k == 0 && v.f.Has(i) {
			*v = softVoid{}
		}
	}
}

func (s *State) remove(p int, c game.Card) {
	b := game.Bit(idx(c))
	if s.h2[p]&b != 0 {
		s.h2[p] &^= b
	} else {
		s.h1[p] &^= b
	}
	s.hn[p]--
}

// seat arithmetic
func (s *State) step(p, k int) int {
	q := p + k*s.dir
	for q >= s.n {
		q -= s.n
	}
	for q < 0 {
		q += s.n
	}
	return q
}

func (s *State) cw(p int) int {
	if p+1 == s.n {
		return 0
	}
	return p + 1
}

func (s *State) drawable() bool { return s.stockN > 0 || s.pileN > 1 }

// matchMask is the set of faces playable on the top card by §5.
func (s *State) matchMask() game.Mask {
	var m game.Mask
	if s.pileN == 0 || s.anyFollows {
		m = s.full1
	} else {
		m = suitMask[s.suit] | rankMask[s.rank] | jokerBit
		if s.cfg.jackWild {
			m |= jackMask
		}
	}
	if !s.cfg.jackOnJack && s.rank == game.Jack && !s.anyFollows && s.pileN > 0 {
		m &^= jackMask
	}
	return m
}

// playMask is the set of faces seat p may play now (p must be to move).
func (s *State) playMask(p int) game.Mask {
	h := s.h1[p]
	switch s.ph {
	case PhaseOpening:
		return h & clubsMask
	case PhaseNormal:
		switch s.chain {
		case ChainSeven:
			return h & rankMask[7]
		case ChainJoker:
			return h & jokerBit
		}
		return h & s.matchMask()
	case PhaseAfterDraw:
		m := h & s.matchMask()
		if !s.cfg.playAnyAfterDraw {
			m &= game.Bit(idx(s.drawn))
		}
		return m
	case PhaseAceContinue:
		return h & s.matchMask()
	}
	return 0
}

func (s *State) canDraw(p int) bool {
	switch s.ph {
	case PhaseOpening:
		return s.h1[p]&plainClubs == 0 && s.drawable()
	case PhaseNormal:
		return s.chain == ChainNone && s.drawable()
	}
	return false
}

func (s *State) canPass(p int) bool {
	switch s.ph {
	case PhaseAfterDraw:
		return true
	case PhaseOpening:
		return !s.drawable() && s.h1[p]&clubsMask == 0
	case PhaseNormal:
		return s.chain == ChainNone && !s.drawable() && s.playMask(p) == 0
	}
	return false
}

func (s *State) chainCards() int {
	switch s.chain {
	case ChainSeven:
		if s.cfg.doubling {
			if s.chainK > 30 {
				return 1 << 30
			}
			return 3 << (s.chainK - 1)
		}
		return 3 * s.chainK
	case ChainJoker:
		return 10 * s.chainK
	}
	return 0
}

func (s *State) acting() bool {
	return s.chance == ChanceNone && s.ph != PhaseOver && s.ph != PhaseHandOver && s.ph != PhaseDeal
}

// Engine implements game.State.
func (s *State) Engine() game.Engine { return Engine{} }

// Options implements game.State.
func (s *State) Options() game.Options { return s.opts.Clone() }

// Seats implements game.State.
func (s *State) Seats() int { return s.n }

// ToAct implements game.State.
func (s *State) ToAct(buf []game.Seat) []game.Seat {
	if s.acting() {
		buf = append(buf, game.Seat(s.turn))
	}
	return buf
}

// Over implements game.State.
func (s *State) Over() bool { return s.ph == PhaseOver }

// Legal implements game.State.
func (s *State) Legal(seat game.Seat, buf []game.Move) []game.Move {
	p := int(seat)
	if !s.acting() || p != s.turn {
		return buf
	}
	plays := s.playMask(p)
	jacks := plays & jackMask
	if s.ph == PhaseOpening {
		jacks = 0
	}
	for m := plays &^ jacks; m != 0; m &= m - 1 {
		buf = append(buf, game.Move{Op: OpPlay, Card: faceCard[bits.TrailingZeros64(uint64(m))]})
	}
	for m := jacks; m != 0; m &= m - 1 {
		c := faceCard[bits.TrailingZeros64(uint64(m))]
		buf = append(buf, game.Move{Op: OpPlay, Card: c, A: 1}, game.Move{Op: OpPlay, Card: c, A: 2},
			game.Move{Op: OpPlay, Card: c, A: 3}, game.Move{Op: OpPlay, Card: c, A: 4})
	}
	if s.canDraw(p) {
		buf = append(buf, game.Move{Op: OpDraw})
	}
	if s.ph == PhaseNormal && s.chain != ChainNone {
		buf = append(buf, game.Move{Op: OpPenalty})
	}
	if s.canPass(p) {
		buf = append(buf, game.Move{Op: OpPass})
	}
	if s.ph == PhaseAceContinue {
		buf = append(buf, game.Move{Op: OpEnd})
	}
	return buf
}

// Apply implements game.State.
func (s *State) Apply(seat game.Seat, m game.Move) error {
	if err := s.check(seat, m); err != nil {
		return err
	}
	s.apply(int(seat), m)
	return nil
}

func (s *State) check(seat game.Seat, m game.Move) error {
	p := int(seat)
	if p < 0 || p >= s.n {
		return game.Errorf(game.ErrBadSeat, seat, s.FormatMove(m), "the game has %d seats", s.n)
	}
	if s.ph == PhaseOver {
		return game.Errorf(game.ErrGameOver, seat, s.FormatMove(m), "the game is over")
	}
	if s.chance != ChanceNone {
		return game.Errorf(game.ErrNoChance, seat, s.FormatMove(m), "a chance outcome (%s) is pending", chanceNames[s.chance])
	}
	if !s.acting() || p != s.turn {
		return game.Errorf(game.ErrNotYourTurn, seat, s.FormatMove(m), "seat %d is to move", s.turn)
	}
	if m.B != 0 || m.Set != 0 || m.Set2 != 0 {
		return game.Errorf(game.ErrMalformed, seat, s.FormatMove(m), "unused move fields are set")
	}
	txt := func() string { return s.FormatMove(m) }
	if m.Op != OpPlay && (m.Card != 0 || m.A != 0) {
		return game.Errorf(game.ErrMalformed, seat, txt(), "this move takes no card")
	}
	switch m.Op {
	case OpPlay:
		i := idx(m.Card)
		if i < 0 || (m.Card == game.Joker && !s.cfg.jokers) {
			return game.Errorf(game.ErrMalformed, seat, txt(), "not a card of this game")
		}
		isJack := m.Card.Rank() == game.Jack && m.Card != game.Joker
		if !isJack && m.A != 0 {
			return game.Errorf(game.ErrMalformed, seat, txt(), "only a jack names a suit")
		}
		if m.A > 4 {
			return game.Errorf(game.ErrMalformed, seat, txt(), "bad suit")
		}
		if !s.h1[p].Has(i) {
			return game.Errorf(game.ErrIllegal, seat, txt(), "seat %d holds no %s", p, game.Standard.Format(m.Card))
		}
		if !s.playMask(p).Has(i) {
			return game.Errorf(game.ErrIllegal, seat, txt(), "%s", s.whyNot(p, m.Card))
		}
		if isJack {
			if s.ph == PhaseOpening && m.A != 0 {
				return game.Errorf(game.ErrIllegal, seat, txt(), "a jack names no suit in the opening round")
			}
			if s.ph != PhaseOpening && m.A == 0 {
				return game.Errorf(game.ErrIllegal, seat, txt(), "a jack must name a suit, e.g. \"play %s H\"", game.Standard.Format(m.Card))
			}
		}
	case OpDraw:
		if !s.canDraw(p) {
			return game.Errorf(game.ErrIllegal, seat, txt(), "%s", s.whyNoDraw(p))
		}
	case OpPenalty:
		if s.ph != PhaseNormal || s.chain == ChainNone {
			return game.Errorf(game.ErrIllegal, seat, txt(), "no chain is pending")
		}
	case OpPass:
		if !s.canPass(p) {
			return game.Errorf(game.ErrIllegal, seat, txt(), "%s", s.whyNoPass(p))
		}
	case OpEnd:
		if s.ph != PhaseAceContinue {
			return game.Errorf(game.ErrIllegal, seat, txt(), "end is only legal right after playing an ace")
		}
	default:
		return game.Errorf(game.ErrMalformed, seat, txt(), "unknown move")
	}
	return nil
}

func (s *State) whyNot(p int, c game.Card) string {
	f := game.Standard.Format(c)
	switch s.ph {
	case PhaseOpening:
		return "only clubs may be played in the opening round"
	case PhaseAfterDraw:
		if !s.cfg.playAnyAfterDraw && c != s.drawn {
			return "after a draw only the drawn card may be played"
		}
	case PhaseNormal:
		switch s.chain {
		case ChainSeven:
			return "a seven chain is pending: play a 7 or take the penalty"
		case ChainJoker:
			return "a joker chain is pending: play a joker or take the penalty"
		}
	}
	if c.Rank() == game.Jack && !s.cfg.jackOnJack && s.rank == game.Jack {
		return "no jack on a jack (jack_on_jack=false)"
	}
	return f + " matches neither the active suit " + s.suit.String() + " nor the active rank " + rankName(s.rank)
}

func (s *State) whyNoDraw(p int) string {
	switch s.ph {
	case PhaseOpening:
		if !s.drawable() {
			return "no card can be drawn"
		}
		return "a player holding a plain club must play a club"
	case PhaseNormal:
		if s.chain != ChainNone {
			return "a chain is pending: play the same kind or take the penalty"
		}
		return "no card can be drawn"
	case PhaseAfterDraw:
		return "only one draw per turn"
	case PhaseAceContinue:
		return "no draw after an ace: play on or end"
	}
	return "no draw now"
}

func (s *State) whyNoPass(p int) string {
	switch s.ph {
	case PhaseOpening:
		if s.drawable() {
			return "no passing in the opening round: play a club or draw"
		}
		return "a club must be played"
	case PhaseNormal:
		if s.chain != ChainNone {
			return "a chain is pending: play the same kind or take the penalty"
		}
		if s.drawable() {
			return "draw before passing"
		}
		return "a playable card must be played"
	case PhaseAceContinue:
		return "use end to stop after an ace"
	}
	return "no pass now"
}

func rankName(r int) string {
	switch r {
	case game.Ace:
		return "A"
	case game.Jack:
		return "J"
	case game.Queen:
		return "Q"
	case game.King:
		return "K"
	case 0:
		return ""
	}
	return itoa(r)
}

func (s *State) apply(p int, m game.Move) {
	switch m.Op {
	case OpPlay:
		s.play(p, m.Card, m.A)
	case OpDraw:
		s.dead = 0
		if s.ph == PhaseOpening {
			s.voids[p][VoidOpeningDraw] = void{f: plainClubs}
			s.note(p, VoidDrew, clubsMask&^plainClubs)
			s.startJob(DrawOpening, p, 1)
		} else {
			s.note(p, VoidDrew, s.matchMask())
			s.startJob(DrawVoluntary, p, 1)
		}
		s.run()
	case OpPenalty:
		if s.chain == ChainJoker {
			s.note(p, VoidTookPenalty, jokerBit)
		} else {
			s.note(p, VoidTookPenalty, rankMask[7])
		}
		n := s.chainCards()
		s.chain, s.chainK = ChainNone, 0
		s.dead = 0
		s.startJob(DrawPenalty, p, n)
		s.run()
	case OpPass:
		if s.ph == PhaseAfterDraw {
			if !s.cfg.drawUntilPlayable {
				// The drawn card did not suit either (draw_until_playable:
				// it did, and was kept).
				s.note(p, VoidDrew, s.matchMask())
			}
			s.dead = 0
			s.drawn = game.NoCard
			s.ph = PhaseNormal
			s.turn, s.why = s.step(p, 1), ReasonNext
			return
		}
		// A forced pass: nothing can be drawn and nothing played.
		s.dead++
		if s.ph == PhaseOpening {
			s.voids[p][VoidForcedPass] = void{f: clubsMask}
		} else {
			s.voids[p][VoidForcedPass] = void{f: s.matchMask()}
		}
		if s.ph == PhaseOpening {
			s.openLeft--
			if s.openLeft == 0 {
				s.ph = PhaseNormal
			}
		}
		if s.dead >= s.n {
			s.cur = result{finisher: -1, mult: 1}
			s.startEndOfHand(-1, s.cw(p))
			s.run()
			return
		}
		s.turn, s.why = s.step(p, 1), ReasonNext
	case OpEnd:
		s.note(p, VoidEnded, s.matchMask())
		s.dead = 0
		s.ph = PhaseNormal
		s.turn, s.why = s.step(p, 1), ReasonNext
	}
}

func (s *State) play(p int, c game.Card, a uint8) {
	s.belied(p, idx(c))
	if s.ph == PhaseAfterDraw && !s.cfg.playAnyAfterDraw {
		// It played the card it drew (the only one it may play, so every
		// seat knows which), and holds what it held before the draw.
		s.note(p, VoidDrew, s.matchMask())
	}
	rec := &s.plays[s.pileN]
	*rec = playRec{by: int8(p + 1), kind: PlayNormal, at: s.recv[p]}
	switch {
	case s.ph == PhaseOpening:
		rec.kind = PlayOpening
	case s.ph == PhaseAfterDraw:
		rec.kind = PlayAfterDraw
	case s.ph == PhaseAceContinue:
		rec.kind = PlayAceContinue
	case s.chain != ChainNone:
		rec.kind = PlayChain
	}
	if s.ph != PhaseOpening && c != game.Joker && c.Rank() == game.Jack {
		rec.suit = a
	}
	for q := 0; q < s.n; q++ {
		rec.sizes[q] = uint8(s.hn[q])
	}
	s.remove(p, c)
	s.pile[s.pileN] = c
	s.pileN++
	s.dead = 0
	s.drawn = game.NoCard
	if s.ph == PhaseOpening {
		// Special clubs have no effect in the opening round (§6).
		s.suit, s.rank, s.anyFollows = game.Clubs, c.Rank(), false
		s.openLeft--
		if s.hn[p] == 0 {
			s.finish(p, c)
			return
		}
		if s.openLeft == 0 {
			s.ph = PhaseNormal
		}
		s.turn, s.why = s.step(p, 1), ReasonNext
		return
	}
	s.ph = PhaseNormal
	if s.hn[p] == 0 {
		s.finish(p, c)
		return
	}
	if c == game.Joker {
		if s.chain == ChainJoker {
			s.chainK++
		} else {
			s.chain, s.chainK = ChainJoker, 1
		}
		s.anyFollows = s.cfg.jokerAny
		s.turn, s.why = s.step(p, 1), ReasonNext
		return
	}
	s.anyFollows = false
	s.suit, s.rank = c.Suit(), c.Rank()
	switch c.Rank() {
	case 7:
		if s.chain == ChainSeven {
			s.chainK++
		} else {
			s.chain, s.chainK = ChainSeven, 1
		}
		s.turn, s.why = s.step(p, 1), ReasonNext
	case game.Ace:
		s.ph = PhaseAceContinue
		s.startJob(DrawAce, s.cw(p), 1)
		s.jobOwner = p
		s.seatsLeft = s.n - 1
		s.run()
	case game.Jack:
		s.suit = game.Suit(a - 1)
		s.turn, s.why = s.step(p, 1), ReasonNext
	case 10:
		if s.cfg.tenReverse {
			s.dir = -s.dir
			s.turn, s.why = s.step(p, 1), ReasonReverse
		} else {
			s.turn, s.why = (p+s.n-1)%s.n, ReasonBounce
		}
	case 8:
		s.turn, s.why = s.step(p, 2), ReasonSkip
	default:
		s.turn, s.why = s.step(p, 1), ReasonNext
	}
}

// finish ends the hand: p played its last card c (§9 item 1).
func (s *State) finish(p int, c game.Card) {
	s.cur = result{finisher: int8(p), card: c, mult: Multiplier(c)}
	if s.cfg.finishingEffects && s.ph != PhaseOpening {
		switch {
		case c == game.Joker || c.Rank() == 7:
			kind := ChainSeven
			if c == game.Joker {
				kind = ChainJoker
			}
			if s.chain == kind {
				s.chainK++
			} else {
				s.chain, s.chainK = kind, 1
			}
			n := s.chainCards()
			s.chain, s.chainK = ChainNone, 0
			s.ph = PhaseHandOver
			s.startJob(DrawFinishChain, s.step(p, 1), n)
			s.jobOwner = p
			s.run()
			return
		case c.Rank() == game.Ace:
			s.ph = PhaseHandOver
			s.startJob(DrawFinishAce, s.cw(p), 1)
			s.jobOwner = p
			s.seatsLeft = s.n - 1
			s.run()
			return
		}
	}
	s.startEndOfHand(p, s.cw(p))
	s.run()
}

func (s *State) startJob(k DrawKind, seat, n int) {
	s.job, s.jobSeat, s.jobLeft, s.lapse = k, seat, n, false
	s.jobOwner, s.seatsLeft = seat, 1
}

// triggers is the number of end-of-hand draws seat p owes for its hand (§9.1).
func (s *State) triggers(p int) int {
	return 3*msCount(s.h1[p], s.h2[p], rankMask[7]) + msCount(s.h1[p], s.h2[p], rankMask[game.Ace])
}

// startEndOfHand sets up the end-of-hand draws; finisher is -1 for a blocked
// hand, start the first seat to draw.
func (s *State) startEndOfHand(finisher, start int) {
	s.ph = PhaseHandOver
	s.chain, s.chainK = ChainNone, 0
	if start == finisher {
		start = s.cw(start)
	}
	s.job, s.jobSeat, s.jobOwner, s.lapse = DrawEndOfHand, start, finisher, false
	s.seatsLeft = s.n
	if finisher >= 0 {
		s.seatsLeft = s.n - 1
	}
	s.jobLeft = s.triggers(start)
}

// run carries out the pending draw job until it is done or a reshuffle is
// needed (then chance `shuffle` is pending).
func (s *State) run() {
	for s.job != DrawNone {
		if s.jobLeft > 0 && !s.lapse {
			if s.stockN == 0 {
				if s.pileN > 1 {
					s.chance = ChanceShuffle
					return
				}
				// Nothing left to draw: the remaining draws are cancelled (§10).
				s.lapse = true
				continue
			}
			s.stockN--
			c := s.stock[s.stockN]
			s.add(s.jobSeat, c)
			s.jobLeft--
			switch s.job {
			case DrawVoluntary:
				s.drawn = c
				if s.cfg.drawUntilPlayable && !s.matchMask().Has(idx(c)) {
					s.jobLeft = 1
				}
			case DrawEndOfHand:
				i := idx(c)
				msAdd(&s.cur.drawn1[s.jobSeat], &s.cur.drawn2[s.jobSeat], i)
				if c != game.Joker {
					switch c.Rank() {
					case 7:
						s.jobLeft += 3
					case game.Ace:
						s.jobLeft++
					}
				}
			}
			continue
		}
		s.jobDone()
	}
}

// jobDone moves the job on to its next seat or completes it.
func (s *State) jobDone() {
	switch s.job {
	case DrawOpening:
		s.job = DrawNone
		s.why = ReasonOpeningDraw
	case DrawVoluntary:
		s.job = DrawNone
		s.ph = PhaseAfterDraw
	case DrawPenalty:
		s.job = DrawNone
		s.ph = PhaseNormal
		if s.cfg.penaltyEndsTurn {
			s.turn, s.why = s.step(s.jobSeat, 1), ReasonNext
		} else {
			s.why = ReasonPenalty
		}
	case DrawAce, DrawFinishAce:
		s.seatsLeft--
		nx := s.cw(s.jobSeat)
		if s.lapse || s.seatsLeft == 0 {
			owner := s.jobOwner
			if s.job == DrawAce {
				s.job = DrawNone
				s.ph = PhaseAceContinue
				s.turn, s.why = owner, ReasonAce
			} else {
				s.startEndOfHand(owner, s.cw(owner))
			}
			return
		}
		s.jobSeat, s.jobLeft = nx, 1
	case DrawFinishChain:
		s.startEndOfHand(s.jobOwner, s.cw(s.jobOwner))
	case DrawEndOfHand:
		s.seatsLeft--
		if s.lapse || s.seatsLeft == 0 {
			s.job = DrawNone
			s.score()
			return
		}
		nx := s.cw(s.jobSeat)
		if nx == s.jobOwner {
			nx = s.cw(nx)
		}
		s.jobSeat, s.jobLeft = nx, s.triggers(nx)
	}
}

// score ends the hand (§11) and sets up the next one or the end of the game.
func (s *State) score() {
	r := &s.cur
	for p := 0; p < s.n; p++ {
		r.final1[p], r.final2[p] = s.h1[p], s.h2[p]
		if int(r.finisher) == p {
			continue
		}
		r.points[p] = r.mult * msValue(s.h1[p], s.h2[p])
		s.totals[p] += r.points[p]
	}
	s.hasCur = true
	s.voids = [maxSeats][2]void{}
	s.soft = [maxSeats][softSlots]softVoid{}
	s.h1, s.h2, s.hn = [maxSeats]game.Mask{}, [maxSeats]game.Mask{}, [maxSeats]int{}
	s.stockN, s.pileN = 0, 0
	s.pool1, s.pool2 = 0, 0
	s.suit, s.rank, s.anyFollows, s.chain, s.chainK = 0, 0, false, ChainNone, 0
	s.drawn, s.dead, s.openLeft, s.dir = game.NoCard, 0, 0, 1
	s.turn, s.why = -1, ReasonNone
	s.job, s.jobSeat, s.jobLeft, s.jobOwner, s.seatsLeft, s.lapse = DrawNone, 0, 0, 0, 0, false
	if s.hand >= s.cfg.hands {
		s.ph = PhaseOver
		s.chance = ChanceNone
		return
	}
	s.ph = PhaseDeal
	s.dealer = s.cw(s.dealer)
	s.chance = ChanceDeal
}

// Result implements game.State.
func (s *State) Result() game.Result {
	res := game.Result{Totals: make([]int, s.n), Rounds: [][]int{}}
	copy(res.Totals, s.totals[:s.n])
	add := func(r *result) {
		pts := make([]int, s.n)
		copy(pts, r.points[:s.n])
		res.Rounds = append(res.Rounds, pts)
	}
	for i := range s.hist {
		add(&s.hist[i])
	}
	if s.hasCur {
		add(&s.cur)
	}
	if s.ph == PhaseOver {
		best := res.Totals[0]
		for _, t := range res.Totals {
			best = min(best, t)
		}
		for p, t := range res.Totals {
			if t == best {
				res.Winners = append(res.Winners, game.Seat(p))
			}
		}
	}
	return res
}

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	if s.hist != nil {
		c.hist = make([]result, len(s.hist))
		copy(c.hist, s.hist)
	}
	return &c
}

// CopyInto implements game.Copier: Clone into dst's memory.
func (s *State) CopyInto(dst game.State) game.State {
	d, ok := dst.(*State)
	if !ok || d == nil || d == s {
		return s.Clone()
	}
	hist := d.hist[:0]
	*d = *s
	if s.hist != nil {
		if hist == nil {
			hist = make([]result, 0, len(s.hist))
		}
		d.hist = append(hist, s.hist...)
	}
	return d
}
