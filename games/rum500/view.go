package rum500

import (
	"fmt"
	"strings"

	"cardroom/game"
)

// View is what one observer knows (§11): its own hand; the discard pile,
// the melds with the owner of every card, the stock size, the hand sizes,
// the cards each seat is known to hold (taken from the discard pile and not
// played since), this hand's moves and the scores are public. Hands and the
// stock order are private, except that the order of a stock made by turning
// the discard pile over is public.
type View struct {
	Seat    int          `json:"observer"` // game.Spectator (-1) for the public view
	Players int          `json:"players"`
	Options game.Options `json:"options"`
	Phase   string       `json:"phase"`       // dealer, deal, draw, play, over
	HandNo  int          `json:"hand_number"` // hands dealt so far
	Dealer  int          `json:"dealer"`      // -1 before the first dealer is drawn
	ToAct   int          `json:"to_act"`      // -1 when no seat is to act
	Hand    []string     `json:"hand"`        // the observer's hand, sorted (nil for spectators)
	Pile    []string     `json:"pile"`        // the discard pile, bottom → top
	Melds   []MeldView   `json:"melds"`
	Stock   int          `json:"stock"`
	// StockCards is the stock, top first, when its order is public (after
	// the pile was turned over); nil otherwise.
	StockCards []string   `json:"stock_cards"`
	TurnedOver bool       `json:"turned_over"`
	HandSizes  []int      `json:"hand_sizes"`
	Known      [][]string `json:"known"`        // per seat: cards it is known to hold
	Moves      []string   `json:"moves"`        // this hand's moves, "seat move"
	Table      []int      `json:"table_points"` // points credited on the table this hand
	Totals     []int      `json:"totals"`
	Rounds     [][]int    `json:"rounds"` // finished hands' scores
	// When the hand is over (a deal is pending, or the game is over): every
	// hand as it was scored, and who went out (-1: the stock ran out).
	Shown      [][]string `json:"shown_hands"`
	WentOut    int        `json:"went_out"`
	Winners    []int      `json:"winners"`
	Settlement []Payment  `json:"settlement"`
}

// MeldView is one meld on the table.
type MeldView struct {
	Number int      `json:"number"`
	Kind   string   `json:"kind"`   // set or run
	Cards  []string `json:"cards"`  // in order; JK for a joker
	Stands []string `json:"stands"` // the card each one stands for (itself if natural)
	Owners []int    `json:"owners"` // the seat credited for each card
	Text   string   `json:"text"`   // the cards in move notation (JK=… for jokers)
}

// Observer implements game.View.
func (v *View) Observer() game.Seat { return game.Seat(v.Seat) }

// View implements game.State.
func (s *State) View(obs game.Seat) game.View {
	n := s.cfg.n
	v := &View{
		Seat:    int(obs),
		Players: n,
		Options: s.opts.Clone(),
		Phase:   phaseNames[s.phase],
		HandNo:  s.handNo,
		Dealer:  s.dealer,
		ToAct:   -1,
		Pile:    []string{},
		Melds:   []MeldView{},
		Stock:   s.stockN,
		WentOut: -1,
	}
	if s.phase == phDraw || s.phase == phPlay {
		v.ToAct = s.toMove
	}
	if obs < 0 || int(obs) >= n {
		v.Seat = int(game.Spectator)
	}
	if s.handNo == 0 {
		return s.scores(v)
	}
	if v.Seat >= 0 {
		v.Hand = s.hands[v.Seat].strs()
	}
	for i := 0; i < s.pileN; i++ {
		v.Pile = append(v.Pile, cardStr(int(s.pile[i])))
	}
	for k := 0; k < s.meldsN; k++ {
		m := &s.melds[k]
		mv := MeldView{Number: k + 1, Kind: "set", Cards: []string{}, Stands: []string{}, Owners: []int{}}
		if m.run {
			mv.Kind = "run"
		}
		for _, sl := range m.order(nil) {
			f := m.slotFace(sl)
			c := cardStr(f)
			if m.jokers.Has(f) {
				mv.Cards = append(mv.Cards, "JK")
			} else {
				mv.Cards = append(mv.Cards, c)
			}
			mv.Stands = append(mv.Stands, c)
			mv.Owners = append(mv.Owners, int(m.owner[sl]))
		}
		mv.Text = meldList(m.faces, m.jokers, aceEnd(m.faces, m.lo))
		v.Melds = append(v.Melds, mv)
	}
	if s.turned {
		v.TurnedOver = true
		v.StockCards = []string{}
		for j := s.stockN - 1; j >= 0; j-- {
			v.StockCards = append(v.StockCards, cardStr(int(s.stock[j])))
		}
	}
	for i := 0; i < n; i++ {
		v.HandSizes = append(v.HandSizes, s.hands[i].count())
		v.Known = append(v.Known, s.known[i].strs())
		v.Table = append(v.Table, s.table[i])
	}
	v.Moves = []string{}
	for _, e := range s.hist {
		v.Moves = append(v.Moves, fmt.Sprintf("%d %s", e.seat, FormatMove(e.m)))
	}
	if s.phase == phDeal || s.phase == phOver {
		v.WentOut = s.out
		for i := 0; i < n; i++ {
			v.Shown = append(v.Shown, s.hands[i].strs())
		}
	}
	return s.scores(v)
}

func (s *State) scores(v *View) *View {
	n := s.cfg.n
	v.Totals = append([]int{}, s.totals[:n]...)
	v.Rounds = [][]int{}
	for i := 0; i+n <= len(s.rounds); i += n {
		v.Rounds = append(v.Rounds, append([]int{}, s.rounds[i:i+n]...))
	}
	if s.phase == phOver {
		for _, w := range s.winners() {
			v.Winners = append(v.Winners, int(w))
		}
		v.Settlement = s.Settlement()
	}
	return v
}

// String renders the view for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "500 Rum, %d players, view of %s; hand %d, dealer %d, phase %s", v.Players, who, v.HandNo, v.Dealer, v.Phase)
	if v.ToAct >= 0 {
		fmt.Fprintf(&b, ", seat %d to %s", v.ToAct, v.Phase)
	}
	b.WriteByte('\n')
	if v.Hand != nil {
		fmt.Fprintf(&b, "hand: %s\n", strings.Join(v.Hand, " "))
	}
	if v.HandNo > 0 {
		fmt.Fprintf(&b, "pile (bottom→top): %s\n", strings.Join(v.Pile, " "))
		fmt.Fprintf(&b, "stock: %d cards", v.Stock)
		if v.StockCards != nil {
			fmt.Fprintf(&b, " (turned over, top first: %s)", strings.Join(v.StockCards, " "))
		}
		b.WriteByte('\n')
		for _, m := range v.Melds {
			fmt.Fprintf(&b, "meld %d (%s): %s  owners", m.Number, m.Kind, m.Text)
			for _, o := range m.Owners {
				fmt.Fprintf(&b, " %d", o)
			}
			b.WriteByte('\n')
		}
		for i := range v.HandSizes {
			fmt.Fprintf(&b, "seat %d: %d cards, table %d, total %d", i, v.HandSizes[i], v.Table[i], v.Totals[i])
			if len(v.Known[i]) > 0 {
				fmt.Fprintf(&b, ", known %s", strings.Join(v.Known[i], " "))
			}
			if v.Shown != nil {
				fmt.Fprintf(&b, ", hand %s", strings.Join(v.Shown[i], " "))
			}
			b.WriteByte('\n')
		}
		if len(v.Moves) > 0 {
			fmt.Fprintf(&b, "moves: %s\n", strings.Join(v.Moves, ", "))
		}
	}
	if v.Shown != nil {
		if v.WentOut >= 0 {
			fmt.Fprintf(&b, "seat %d went out\n", v.WentOut)
		} else {
			b.WriteString("the stock ran out\n")
		}
	}
	for i, r := range v.Rounds {
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
