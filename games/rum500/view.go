package rum500

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"cardroom/game"
)

// View is what one observer knows (§11): its own hand; the discard pile,
// the melds with the owner of every card, the stock size, the hand sizes,
// the cards each seat is known to hold (taken from the discard pile and not
// played since), this hand's moves and the scores are public. Hands and the
// stock order are private, except that the order of a stock made by turning
// the discard pile over is public.
//
// The header's Round is the number of hands dealt so far (the current or
// last hand), RoundCount is 0 (the game plays to a target) and RoundScores
// are the finished hands' scores. Fields hold typed values; MarshalJSON
// writes the protocol's JSON (cards in canonical notation, snake_case names;
// docs/games/rum500.md). The slices of a view share backing arrays: treat a
// view as read-only.
type View struct {
	game.Header
	Options game.Options // every option, defaults filled in
	Dealer  game.Seat    // -1 before the first dealer is drawn
	// Hand is the observer's hand; empty for spectators and before the
	// first deal (HasHand).
	Hand  Hand
	Pile  []game.Card // the discard pile, bottom → top
	Melds []Meld
	Stock int // the number of cards in the stock
	// StockCards is the stock, top first, when its order is public (after
	// the pile was turned over); nil otherwise.
	StockCards []game.Card
	TurnedOver bool
	Known      []Hand   // per seat: cards it is known to hold (nil before the first deal)
	Moves      []Played // this hand's moves (nil before the first deal)
	Table      []int    // points credited on the table this hand, per seat (nil before the first deal)
	// When the hand is over (a deal is pending, or the game is over): every
	// hand as it was scored (nil otherwise), and who went out (-1: the stock
	// ran out, or the hand is not over).
	Shown      []Hand
	WentOut    game.Seat
	Winners    []game.Seat // once the game is over
	Settlement []Payment   // once the game is over
	// optsJSON is the state's options' JSON: set by AppendViewJSON only,
	// whose view nobody keeps (a holder of a View may change its Options).
	optsJSON []byte
}

// Played is one move of the current hand.
type Played struct {
	Seat game.Seat
	Move game.Move
}

// Meld is one meld on the table.
type Meld struct {
	Number int  // as moves name it: 1 for the first meld of the hand
	Run    bool // a run (same suit, consecutive ranks); otherwise a set
	// Stands is the card each slot stands for (the card itself if natural)
	// in order: a run ascending with its ace first when low and last when
	// high, a set by suit (S H D C).
	Stands []game.Card
	Jokers game.Mask   // the faces (game.Standard indices) jokers stand for
	Owners []game.Seat // the seat credited for each card, in the order of Stands
}

// Kind is "run" or "set".
func (m *Meld) Kind() string {
	if m.Run {
		return "run"
	}
	return "set"
}

// Faces is the set of faces on the meld (those jokers stand for included).
func (m *Meld) Faces() game.Mask {
	var f game.Mask
	for _, c := range m.Stands {
		if i := ix(c); i >= 0 {
			f |= game.Bit(i)
		}
	}
	return f
}

// Joker reports whether slot j holds a joker.
func (m *Meld) Joker(j int) bool {
	i := ix(m.Stands[j])
	return i >= 0 && m.Jokers.Has(i)
}

// Cards appends the cards on the meld in order, game.Joker for a joker.
func (m *Meld) Cards(buf []game.Card) []game.Card {
	for j, c := range m.Stands {
		if m.Joker(j) {
			c = game.Joker
		}
		buf = append(buf, c)
	}
	return buf
}

// end is where the ace of a 13-card run is (a meld move's B).
func (m *Meld) end() uint8 {
	if !m.Run || len(m.Stands) != 13 {
		return EndNone
	}
	if m.Stands[0].Rank() == 1 {
		return EndLow
	}
	return EndHigh
}

// Text is the meld's cards in move notation (JK=… for jokers).
func (m *Meld) Text() string { return meldList(m.Faces(), m.Jokers, m.end()) }

// HasHand reports whether the view shows the observer's hand: a seat's view
// once the first hand is dealt.
func (v *View) HasHand() bool { return v.Seat >= 0 && v.Round > 0 }

// View implements game.State.
func (s *State) View(obs game.Seat) game.View {
	v := s.buildView(obs, new(viewMem))
	v.Options = s.opts.Clone()
	return v
}

// viewMem is the memory a view is built in: fresh for View, reused from
// one view to the next for AppendViewJSON (a pool), since the server
// writes every seat's view on every move.
type viewMem struct {
	v     View
	ints  []int
	rows  [][]int
	seats []game.Seat
	cards []game.Card
	melds []Meld
	hands []Hand
	moves []Played
}

var viewMems = sync.Pool{New: func() any { return new(viewMem) }}

// AppendViewJSON implements game.ViewJSONAppender: the JSON of View(obs)
// (its AppendJSON bytes), built in reused memory.
func (s *State) AppendViewJSON(b []byte, obs game.Seat) []byte {
	m := viewMems.Get().(*viewMem)
	v := s.buildView(obs, m)
	v.optsJSON = s.optsJSON
	b = v.AppendJSON(b)
	m.v = View{} // keep nothing of this state
	viewMems.Put(m)
	return b
}

// buildView builds obs's view in m's memory (m.v), sharing the state's
// options: the caller clones them if it keeps the view.
func (s *State) buildView(obs game.Seat, m *viewMem) *View {
	n := s.cfg.n
	if obs < 0 || int(obs) >= n {
		obs = game.Spectator
	}
	v := &m.v
	*v = View{
		Header: game.Header{
			Seat:    obs,
			Players: n,
			Phase:   phaseNames[s.phase],
			Round:   s.handNo,
		},
		Options: s.opts,
		Dealer:  game.Seat(s.dealer),
		Stock:   s.stockN,
		WentOut: -1,
	}
	dealt := s.handNo > 0
	over := s.phase == phOver
	shown := dealt && (s.phase == phDeal || over)

	// One backing array per element type.
	nr := len(s.rounds) / n
	ni := 2*n + nr*n
	if dealt {
		ni += n
	}
	ints := game.Scratch(&m.ints, ni)
	v.HandSizes, v.Totals = ints[:n:n], ints[n:2*n:2*n]
	copy(v.Totals, s.totals[:n])
	v.RoundScores = game.Scratch(&m.rows, nr)
	for r := range v.RoundScores {
		row := ints[2*n+r*n : 2*n+r*n+n : 2*n+r*n+n]
		copy(row, s.rounds[r*n:])
		v.RoundScores[r] = row
	}
	for i := 0; i < n; i++ {
		v.HandSizes[i] = s.hands[i].Count()
	}

	nc, ns := s.pileN, 0
	if s.turned {
		nc += s.stockN
	}
	for k := 0; k < s.meldsN; k++ {
		ns += s.melds[k].faces.Count()
	}
	nc += ns
	var winners []game.Seat
	if over {
		winners = s.winners()
	}
	seats := game.Scratch(&m.seats, 1+ns+len(winners))
	v.ToAct = seats[:0:0]
	if s.phase == phDraw || s.phase == phPlay {
		seats[0] = game.Seat(s.toMove)
		v.ToAct = seats[:1:1]
	}
	seats = seats[1:]
	if over {
		v.Winners = seats[ns : ns+len(winners) : ns+len(winners)]
		copy(v.Winners, winners)
		v.Settlement = s.Settlement()
	}
	cards := game.Scratch(&m.cards, nc)
	v.Pile = cards[:s.pileN:s.pileN]
	for i := range v.Pile {
		v.Pile[i] = ixCard[s.pile[i]]
	}
	cards = cards[s.pileN:]
	v.Melds = game.Scratch(&m.melds, s.meldsN)
	if !dealt {
		return v
	}
	if obs >= 0 {
		v.Hand = s.hands[obs]
	}
	var slots [14]int
	for k := range v.Melds {
		m := &s.melds[k]
		order := m.order(slots[:0])
		l := len(order)
		mv := Meld{Number: k + 1, Run: m.run, Jokers: m.jokers, Stands: cards[:l:l], Owners: seats[:l:l]}
		cards, seats = cards[l:], seats[l:]
		for j, sl := range order {
			mv.Stands[j] = ixCard[m.slotFace(sl)]
			mv.Owners[j] = game.Seat(m.owner[sl])
		}
		v.Melds[k] = mv
	}
	if s.turned {
		v.TurnedOver = true
		v.StockCards = cards[:s.stockN:s.stockN]
		for j := range v.StockCards {
			v.StockCards[j] = ixCard[s.stock[s.stockN-1-j]]
		}
	}
	nh := n
	if shown {
		nh += n
	}
	hands := game.Scratch(&m.hands, nh)
	v.Known = hands[:n:n]
	copy(v.Known, s.known[:n])
	if shown {
		v.WentOut = game.Seat(s.out)
		v.Shown = hands[n:]
		copy(v.Shown, s.hands[:n])
	}
	v.Table = ints[ni-n:]
	copy(v.Table, s.table[:n])
	v.Moves = game.Scratch(&m.moves, len(s.hist))
	for i, e := range s.hist {
		v.Moves[i] = Played{Seat: game.Seat(e.seat), Move: e.m}
	}
	return v
}

// MarshalJSON writes the view in the protocol's JSON: the header's fields,
// then observer-specific fields with cards in canonical notation, hands
// sorted, moves as "seat move" and null for what the view does not show.
func (v *View) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(make([]byte, 0, 1024+32*len(v.Moves))), nil
}

// AppendJSON appends the view's JSON (MarshalJSON's bytes, already compact
// and valid) to b.
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, `{"observer":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"phase":`...)
	b = game.AppendJSONString(b, v.Phase)
	b = append(b, `,"to_act":[`...) // never null: [] when nobody acts
	for i, s := range v.ToAct {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	b = append(b, `],"hand_sizes":`...)
	b = appendInts(b, v.HandSizes)
	b = append(b, `,"totals":`...)
	b = appendInts(b, v.Totals)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, `,"round_count":`...)
	b = strconv.AppendInt(b, int64(v.RoundCount), 10)
	b = append(b, `,"round_scores":`...)
	if v.RoundScores == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, r := range v.RoundScores {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, r)
		}
		b = append(b, ']')
	}
	b = append(b, `,"options":`...)
	if v.optsJSON != nil {
		b = append(b, v.optsJSON...) // AppendViewJSON's: the state's options, written once
	} else {
		b = v.Options.AppendJSON(b)
	}
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"hand":`...)
	if v.HasHand() {
		b = appendHand(b, v.Hand)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"pile":`...)
	b = appendCards(b, v.Pile)
	b = append(b, `,"melds":`...)
	if v.Melds == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for k := range v.Melds {
			m := &v.Melds[k]
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"number":`...)
			b = strconv.AppendInt(b, int64(m.Number), 10)
			b = append(b, `,"kind":"`...)
			b = append(b, m.Kind()...)
			b = append(b, `","cards":[`...)
			for j, c := range m.Stands {
				if j > 0 {
					b = append(b, ',')
				}
				if m.Joker(j) {
					c = game.Joker
				}
				b = appendCardString(b, c)
			}
			b = append(b, `],"stands":`...)
			b = appendCards(b, m.Stands)
			b = append(b, `,"owners":`...)
			b = appendInts(b, m.Owners)
			b = append(b, `,"text":"`...)
			b = appendMeldList(b, m.Faces(), m.Jokers, m.end())
			b = append(b, `"}`...)
		}
		b = append(b, ']')
	}
	b = append(b, `,"stock":`...)
	b = strconv.AppendInt(b, int64(v.Stock), 10)
	b = append(b, `,"stock_cards":`...)
	b = appendCards(b, v.StockCards)
	b = append(b, `,"turned_over":`...)
	b = strconv.AppendBool(b, v.TurnedOver)
	b = append(b, `,"known":`...)
	b = appendHands(b, v.Known)
	b = append(b, `,"moves":`...)
	if v.Moves == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range v.Moves {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = strconv.AppendInt(b, int64(p.Seat), 10)
			b = append(b, ' ')
			b = appendMove(b, p.Move)
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	b = append(b, `,"table_points":`...)
	b = appendInts(b, v.Table)
	b = append(b, `,"shown_hands":`...)
	b = appendHands(b, v.Shown)
	b = append(b, `,"went_out":`...)
	b = strconv.AppendInt(b, int64(v.WentOut), 10)
	b = append(b, `,"winners":`...)
	b = appendInts(b, v.Winners)
	b = append(b, `,"settlement":`...)
	if v.Settlement == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range v.Settlement {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"from":`...)
			b = strconv.AppendInt(b, int64(p.From), 10)
			b = append(b, `,"to":`...)
			b = strconv.AppendInt(b, int64(p.To), 10)
			b = append(b, `,"amount":`...)
			b = strconv.AppendInt(b, int64(p.Amount), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendInts writes a list of integers (seats among them).
func appendInts[T ~int](b []byte, xs []T) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func appendCardString(b []byte, c game.Card) []byte {
	return append(appendCard(append(b, '"'), c), '"')
}

func appendCards(b []byte, cs []game.Card) []byte {
	if cs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCardString(b, c)
	}
	return append(b, ']')
}

// appendHand writes a hand as its cards, sorted.
func appendHand(b []byte, h Hand) []byte {
	var buf [maxCards]game.Card
	cs := h.Cards(buf[:0])
	if len(cs) == 0 {
		return append(b, "[]"...)
	}
	return appendCards(b, cs)
}

func appendHands(b []byte, hs []Hand) []byte {
	if hs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, h := range hs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendHand(b, h)
	}
	return append(b, ']')
}

// String renders the view for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "500 Rum, %d players, view of %s; hand %d, dealer %d, phase %s", v.Players, who, v.Round, v.Dealer, v.Phase)
	if len(v.ToAct) > 0 {
		fmt.Fprintf(&b, ", seat %d to %s", v.ToAct[0], v.Phase)
	}
	b.WriteByte('\n')
	list := func(cs []game.Card) string { return string(appendCardList(nil, cs)) }
	hand := func(h Hand) string {
		var buf [maxCards]game.Card
		return list(h.Cards(buf[:0]))
	}
	if v.HasHand() {
		fmt.Fprintf(&b, "hand: %s\n", hand(v.Hand))
	}
	if v.Round > 0 {
		fmt.Fprintf(&b, "pile (bottom→top): %s\n", list(v.Pile))
		fmt.Fprintf(&b, "stock: %d cards", v.Stock)
		if v.StockCards != nil {
			fmt.Fprintf(&b, " (turned over, top first: %s)", list(v.StockCards))
		}
		b.WriteByte('\n')
		for k := range v.Melds {
			m := &v.Melds[k]
			fmt.Fprintf(&b, "meld %d (%s): %s  owners", m.Number, m.Kind(), m.Text())
			for _, o := range m.Owners {
				fmt.Fprintf(&b, " %d", o)
			}
			b.WriteByte('\n')
		}
		for i := range v.HandSizes {
			fmt.Fprintf(&b, "seat %d: %d cards, table %d, total %d", i, v.HandSizes[i], v.Table[i], v.Totals[i])
			if v.Known[i].Count() > 0 {
				fmt.Fprintf(&b, ", known %s", hand(v.Known[i]))
			}
			if v.Shown != nil {
				fmt.Fprintf(&b, ", hand %s", hand(v.Shown[i]))
			}
			b.WriteByte('\n')
		}
		if len(v.Moves) > 0 {
			b.WriteString("moves: ")
			for i, p := range v.Moves {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%d %s", p.Seat, FormatMove(p.Move))
			}
			b.WriteByte('\n')
		}
	}
	if v.Shown != nil {
		if v.WentOut >= 0 {
			fmt.Fprintf(&b, "seat %d went out\n", v.WentOut)
		} else {
			b.WriteString("the stock ran out\n")
		}
	}
	for i, r := range v.RoundScores {
		fmt.Fprintf(&b, "hand %d: %v\n", i+1, r)
	}
	fmt.Fprintf(&b, "totals: %v\n", v.Totals)
	if v.Winners != nil {
		fmt.Fprintf(&b, "winners: %v\n", v.Winners)
		for _, p := range v.Settlement {
			fmt.Fprintf(&b, "seat %d pays seat %d %d\n", p.From, p.To, p.Amount)
		}
	}
	return b.String()
}

// appendCardList writes cards separated by spaces.
func appendCardList(b []byte, cs []game.Card) []byte {
	for i, c := range cs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendCard(b, c)
	}
	return b
}
