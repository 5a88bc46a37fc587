package papayoo

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"cardroom/game"
)

// Phase names in views.
const (
	PhaseDealer    = "dealer"       // waiting for the random first dealer (chance)
	PhaseDeal      = "deal"         // waiting for the first deal (chance)
	PhasePass      = "pass"         // the seats pass, simultaneously
	PhaseDie       = "die"          // waiting for the die (chance)
	PhasePlay      = "play"         // trick play
	PhaseRoundOver = "round_over"   // a round has been scored; waiting for the next deal (chance)
	PhaseOver      = game.PhaseOver // the game has ended
)

// View is what one observer knows: its own hand, its own pass and what it
// received, and the public history of the round (every trick, the voids it
// showed, the points taken), the scores and whose turn it is. A spectator's
// view has the public parts only.
//
// The fields are typed (masks in the Deck layout, cards, seats);
// card texts are produced only by MarshalJSON and String. In the header,
// RoundCount is R (the rounds option), Round the current (or just finished)
// round, and RoundScores the finished rounds' points.
type View struct {
	game.Header
	Options  game.Options
	HandSize int       // H, cards dealt per hand
	PassSize int       // K, cards passed
	Dealer   game.Seat // -1 before the first dealer is drawn
	// Hand is the observer's hand (0 for a spectator, whose JSON hand is null).
	Hand game.Mask
	// Passed tells which seats have submitted their pass this round.
	Passed []bool
	// MyPass is the observer's own pass once submitted, else 0 (JSON null).
	MyPass game.Mask
	// Received is what the observer received once the pass has resolved,
	// else 0 (JSON null).
	Received game.Mask
	// Papayoo is the 40-point seven once the die is rolled (its suit is the
	// die's), game.NoCard before.
	Papayoo game.Card
	Trick   Trick   // the current trick (Leader -1 and no Cards outside trick play)
	Tricks  []Trick // the completed tricks of the round
	Voids   []Suits // per seat, the suits it has shown void in this round
	Points  []int   // points taken so far this round
	Winners []game.Seat
	// optsJSON is the state's options' JSON: set by AppendViewJSON only,
	// whose view nobody keeps (a holder of a View may change its Options).
	optsJSON []byte
}

// Trick is one trick: the cards in play order from the leader (seat
// (Leader+i) mod N played Cards[i]); Winner is -1 while it is open.
type Trick struct {
	Leader game.Seat
	Cards  []game.Card
	Winner game.Seat
	Points int
}

// Suits is a set of suits, one bit per game.Suit (S H D C P).
type Suits uint8

// Has reports whether su is in the set.
func (x Suits) Has(su game.Suit) bool { return su < 8 && x&(1<<su) != 0 }

// Die is the die's suit once it is rolled.
func (v *View) Die() (game.Suit, bool) {
	if v.Papayoo == game.NoCard {
		return 0, false
	}
	return v.Papayoo.Suit(), true
}

func (s *State) phaseName() string {
	switch s.phase {
	case phDealer:
		return PhaseDealer
	case phDeal:
		if s.round > 0 {
			return PhaseRoundOver
		}
		return PhaseDeal
	case phPass:
		return PhasePass
	case phDie:
		return PhaseDie
	case phPlay:
		return PhasePlay
	}
	return PhaseOver
}

// View implements game.State.
func (s *State) View(obs game.Seat) game.View { return s.view(obs) }

// view builds obs's view in memory of its own, for the caller to keep.
func (s *State) view(obs game.Seat) *View {
	v := s.buildView(obs, new(viewMem))
	v.Options = s.opts.Clone()
	return v
}

// viewMem is the memory a view is built in: fresh for View, reused from
// one view to the next for AppendViewJSON (a pool), since the server
// writes every seat's view on every move and building each in fresh
// memory was half of what a move allocated.
type viewMem struct {
	v      View
	ints   []int
	rows   [][]int
	passed []bool
	voids  []Suits
	toAct  []game.Seat
	cards  []game.Card
	tricks []Trick
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
	n := int(s.n)
	if obs < 0 || int(obs) >= n {
		obs = game.Spectator
	}
	fin := s.finishedRounds()
	v := &m.v
	// One backing array for the per-seat counts and the finished rounds.
	ints := game.Scratch(&m.ints, 3*n+fin*n)
	*v = View{
		Header: game.Header{
			Seat:        obs,
			Players:     n,
			Phase:       s.phaseName(),
			HandSizes:   ints[0:n:n],
			Totals:      ints[n : 2*n : 2*n],
			Round:       int(s.round),
			RoundCount:  int(s.rounds),
			RoundScores: game.Scratch(&m.rows, fin),
		},
		Options:  s.opts,
		HandSize: int(s.hs),
		PassSize: int(s.ks),
		Dealer:   game.Seat(s.dealer),
		Passed:   game.Scratch(&m.passed, n),
		Voids:    game.Scratch(&m.voids, n),
		Points:   ints[2*n : 3*n : 3*n],
		Trick:    Trick{Leader: -1, Winner: -1},
	}
	if s.phase == phPass || s.phase == phPlay {
		v.ToAct = s.ToAct(game.Scratch(&m.toAct, n)[:0])
	}
	for i := 0; i < n; i++ {
		v.HandSizes[i] = s.hands[i].Count()
		v.Passed[i] = s.passed&(1<<uint(i)) != 0
		v.Points[i] = int(s.points[i])
		v.Totals[i] = int(s.totals[i])
		v.Voids[i] = Suits(s.voids[i])
	}
	if obs >= 0 {
		v.Hand = s.hands[obs]
		if v.Passed[obs] {
			v.MyPass = s.pass[obs]
			if s.phase != phPass {
				v.Received = s.pass[game.Prev(obs, n)]
			}
		}
	}
	if s.die >= 0 {
		v.Papayoo = cardOf[s.pap]
	}
	nt := int(s.tricks)
	inPlay := 0
	if s.phase == phPlay {
		inPlay = int(s.inTrick)
	}
	cards := game.Scratch(&m.cards, nt*n+inPlay)
	for k := range cards {
		cards[k] = cardOf[s.plays[k]]
	}
	v.Tricks = game.Scratch(&m.tricks, nt)
	for t := 0; t < nt; t++ {
		tr := Trick{Leader: game.Seat(s.leaders[t]), Winner: game.Seat(s.winners[t]), Cards: cards[t*n : (t+1)*n : (t+1)*n]}
		for j := t * n; j < (t+1)*n; j++ {
			c := s.plays[j]
			tr.Points += int(payooPts[c])
			if int8(c) == s.pap {
				tr.Points += 40
			}
		}
		v.Tricks[t] = tr
	}
	if s.phase == phPlay {
		v.Trick = Trick{Leader: game.Seat(s.leader), Winner: -1, Cards: cards[nt*n : nt*n+inPlay : nt*n+inPlay]}
	}
	rows := ints[3*n:]
	for k := 0; k < fin; k++ {
		var row *[8]int16
		if k < histFixed {
			row = &s.hist[k]
		} else {
			row = &s.histMore[k-histFixed]
		}
		r := rows[k*n : (k+1)*n : (k+1)*n]
		for i := range r {
			r[i] = int(row[i])
		}
		v.RoundScores[k] = r
	}
	if s.phase == phOver {
		v.Winners = s.winners_()
	}
	return v
}

// appendCards appends the cards of m, in sort order, as a JSON list.
func appendCards(b []byte, m game.Mask) []byte {
	b = append(b, '[')
	for first := true; m != 0; m &= m - 1 {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, cardName[m.Lowest()]...)
		b = append(b, '"')
	}
	return append(b, ']')
}

// appendCardsOrNull appends a card list, or null for the zero mask.
func appendCardsOrNull(b []byte, m game.Mask) []byte {
	if m == 0 {
		return append(b, "null"...)
	}
	return appendCards(b, m)
}

// cardText is a card's canonical text ("" for a card outside the deck).
func cardText(c game.Card) string {
	if i := idxOfCrd[c]; i >= 0 {
		return cardName[i]
	}
	return ""
}

// appendInts writes a list of integers (seats among them).
func appendInts[T ~int](b []byte, xs []T) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func (t *Trick) appendJSON(b []byte) []byte {
	b = append(b, `{"leader":`...)
	b = strconv.AppendInt(b, int64(t.Leader), 10)
	b = append(b, `,"cards":`...)
	if t.Cards == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for j, c := range t.Cards {
			if j > 0 {
				b = append(b, ',')
			}
			b = game.AppendJSONString(b, cardText(c))
		}
		b = append(b, ']')
	}
	b = append(b, `,"winner":`...)
	b = strconv.AppendInt(b, int64(t.Winner), 10)
	b = append(b, `,"points":`...)
	b = strconv.AppendInt(b, int64(t.Points), 10)
	return append(b, '}')
}

// MarshalJSON writes a trick with its cards in canonical notation.
func (t Trick) MarshalJSON() ([]byte, error) { return t.appendJSON(nil), nil }

// UnmarshalJSON reads a trick written by MarshalJSON.
func (t *Trick) UnmarshalJSON(data []byte) error {
	var j struct {
		Leader game.Seat `json:"leader"`
		Cards  []string  `json:"cards"`
		Winner game.Seat `json:"winner"`
		Points int       `json:"points"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*t = Trick{Leader: j.Leader, Winner: j.Winner, Points: j.Points}
	if j.Cards != nil {
		t.Cards = make([]game.Card, len(j.Cards))
		for k, c := range j.Cards {
			i, err := parseCard(c)
			if err != nil {
				return err
			}
			t.Cards[k] = cardOf[i]
		}
	}
	return nil
}

// MarshalJSON writes the view in the protocol's JSON (snake_case names,
// cards in canonical notation, the header's fields at the top level).
func (v View) MarshalJSON() ([]byte, error) { return v.AppendJSON(make([]byte, 0, 1536)), nil }

// AppendJSON appends the view's JSON (the bytes of MarshalJSON) to b. It is
// the fast path for callers that write views themselves: encoding/json
// re-scans a Marshaler's output, which costs more than writing it.
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, `{"observer":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"options":`...)
	if v.optsJSON != nil {
		b = append(b, v.optsJSON...) // AppendViewJSON's: the state's options, written once
	} else {
		b = v.Options.AppendJSON(b)
	}
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"hand_size":`...)
	b = strconv.AppendInt(b, int64(v.HandSize), 10)
	b = append(b, `,"pass_size":`...)
	b = strconv.AppendInt(b, int64(v.PassSize), 10)
	b = append(b, `,"round_count":`...)
	b = strconv.AppendInt(b, int64(v.RoundCount), 10)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, `,"phase":`...)
	b = game.AppendJSONString(b, v.Phase)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"to_act":`...)
	b = appendInts(b, v.ToAct)
	b = append(b, `,"hand":`...)
	if v.Seat < 0 {
		b = append(b, "null"...)
	} else {
		b = appendCards(b, v.Hand)
	}
	b = append(b, `,"hand_sizes":`...)
	b = appendInts(b, v.HandSizes)
	b = append(b, `,"passed":[`...)
	for i, p := range v.Passed {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendBool(b, p)
	}
	b = append(b, `],"my_pass":`...)
	b = appendCardsOrNull(b, v.MyPass)
	b = append(b, `,"received":`...)
	b = appendCardsOrNull(b, v.Received)
	b = append(b, `,"die":"`...)
	if su, ok := v.Die(); ok {
		b = append(b, suitLetter(su))
	}
	b = append(b, `","papayoo":`...)
	b = game.AppendJSONString(b, cardText(v.Papayoo))
	b = append(b, `,"trick":`...)
	b = v.Trick.appendJSON(b)
	b = append(b, `,"tricks":[`...)
	for i := range v.Tricks {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.Tricks[i].appendJSON(b)
	}
	b = append(b, `],"voids":[`...)
	for i, x := range v.Voids {
		if i > 0 {
			b = append(b, ',')
		}
		b = x.appendJSON(b)
	}
	b = append(b, `],"points":`...)
	b = appendInts(b, v.Points)
	b = append(b, `,"round_scores":[`...)
	for i, r := range v.RoundScores {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInts(b, r)
	}
	b = append(b, `],"totals":`...)
	b = appendInts(b, v.Totals)
	b = append(b, `,"winners":`...)
	if v.Winners == nil {
		b = append(b, "null"...)
	} else {
		b = appendInts(b, v.Winners)
	}
	return append(b, '}')
}

func (x Suits) appendJSON(b []byte) []byte {
	b = append(b, '[')
	first := true
	for su := game.Spades; su <= Payoo; su++ {
		if x.Has(su) {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"', suitLetter(su), '"')
		}
	}
	return append(b, ']')
}

// MarshalJSON writes the suits as a list of letters in S H D C P order.
func (x Suits) MarshalJSON() ([]byte, error) { return x.appendJSON(nil), nil }

// UnmarshalJSON reads a list of suit letters.
func (x *Suits) UnmarshalJSON(data []byte) error {
	var ls []string
	if err := json.Unmarshal(data, &ls); err != nil {
		return err
	}
	*x = 0
	for _, l := range ls {
		su, ok := suitOfLetter(l)
		if !ok {
			return fmt.Errorf("papayoo: bad suit %q", l)
		}
		*x |= 1 << su
	}
	return nil
}

func suitOfLetter(l string) (game.Suit, bool) {
	for i, n := range suitName {
		if n == l {
			return game.Suit(i), true
		}
	}
	return 0, false
}

// UnmarshalJSON reads a view written by MarshalJSON (the tools and the
// fuzz tests decode views; the engine itself never does).
func (v *View) UnmarshalJSON(data []byte) error {
	var j struct {
		game.Header
		Options  game.Options `json:"options"`
		HandSize int          `json:"hand_size"`
		PassSize int          `json:"pass_size"`
		Dealer   game.Seat    `json:"dealer"`
		Hand     []string     `json:"hand"`
		Passed   []bool       `json:"passed"`
		MyPass   []string     `json:"my_pass"`
		Received []string     `json:"received"`
		Die      string       `json:"die"`
		Papayoo  string       `json:"papayoo"`
		Trick    Trick        `json:"trick"`
		Tricks   []Trick      `json:"tricks"`
		Voids    []Suits      `json:"voids"`
		Points   []int        `json:"points"`
		Winners  []game.Seat  `json:"winners"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	w := View{Header: j.Header, Options: j.Options, HandSize: j.HandSize, PassSize: j.PassSize, Dealer: j.Dealer,
		Passed: j.Passed, Trick: j.Trick, Tricks: j.Tricks, Voids: j.Voids, Points: j.Points, Winners: j.Winners, Papayoo: game.NoCard}
	var err error
	if w.Hand, err = parseCardSet(j.Hand); err != nil {
		return err
	}
	if w.MyPass, err = parseCardSet(j.MyPass); err != nil {
		return err
	}
	if w.Received, err = parseCardSet(j.Received); err != nil {
		return err
	}
	if j.Die != "" || j.Papayoo != "" {
		su, ok := suitOfLetter(j.Die)
		i, err := parseCard(j.Papayoo)
		if !ok || su >= Payoo || err != nil || cardOf[i] != game.NewCard(su, 7) {
			return fmt.Errorf("papayoo: die %q and Papayoo %q disagree", j.Die, j.Papayoo)
		}
		w.Papayoo = cardOf[i]
	}
	*v = w
	return nil
}

// writeCards writes the cards of m in sort order, separated by spaces.
func writeCards(b *strings.Builder, m game.Mask) {
	for first := true; m != 0; m &= m - 1 {
		if !first {
			b.WriteByte(' ')
		}
		first = false
		b.WriteString(cardName[m.Lowest()])
	}
}

func writeCardList(b *strings.Builder, cs []game.Card) {
	for j, c := range cs {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(cardText(c))
	}
}

// String implements game.View: a text rendering for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "papayoo, %d players, round %d of %d, phase %s, view of %s\n", v.Players, v.Round, v.RoundCount, v.Phase, who)
	if v.Dealer >= 0 {
		fmt.Fprintf(&b, "dealer: %d\n", v.Dealer)
	}
	if su, ok := v.Die(); ok {
		fmt.Fprintf(&b, "die: %s (Papayoo %s = 40)\n", su, cardText(v.Papayoo))
	}
	if v.Seat >= 0 {
		b.WriteString("hand: ")
		writeCards(&b, v.Hand)
		b.WriteByte('\n')
		if v.MyPass != 0 {
			b.WriteString("my pass: ")
			writeCards(&b, v.MyPass)
			b.WriteByte('\n')
		}
		if v.Received != 0 {
			b.WriteString("received: ")
			writeCards(&b, v.Received)
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "hand sizes: %v\n", v.HandSizes)
	if v.Phase == PhasePass {
		fmt.Fprintf(&b, "seats passed: %v\n", v.Passed)
	}
	for i, t := range v.Tricks {
		fmt.Fprintf(&b, "trick %d: led by %d: ", i+1, t.Leader)
		writeCardList(&b, t.Cards)
		fmt.Fprintf(&b, "; won by %d (%d points)\n", t.Winner, t.Points)
	}
	if v.Trick.Leader >= 0 {
		fmt.Fprintf(&b, "current trick: led by %d: ", v.Trick.Leader)
		writeCardList(&b, v.Trick.Cards)
		b.WriteByte('\n')
	}
	for i, vs := range v.Voids {
		if vs != 0 {
			fmt.Fprintf(&b, "seat %d void in ", i)
			first := true
			for su := game.Spades; su <= Payoo; su++ {
				if vs.Has(su) {
					if !first {
						b.WriteByte(' ')
					}
					first = false
					b.WriteByte(suitLetter(su))
				}
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "round points: %v\n", v.Points)
	for i, r := range v.RoundScores {
		fmt.Fprintf(&b, "round %d: %v\n", i+1, r)
	}
	fmt.Fprintf(&b, "totals: %v\n", v.Totals)
	if len(v.ToAct) > 0 {
		fmt.Fprintf(&b, "to act: %v\n", v.ToAct)
	}
	if v.Winners != nil {
		fmt.Fprintf(&b, "winners: %v\n", v.Winners)
	}
	return b.String()
}
