package pisyedili

import (
	"fmt"
	"strings"

	"cardroom/game"
)

// View is what one observer knows. Card lists are in the notation's sort
// order, except Pile, which is in the order the cards were played (bottom
// first, top last).
type View struct {
	Seat        game.Seat    `json:"observer"`     // the observer, -1 for a spectator
	Options     game.Options `json:"options"`      // the game's options (normalized)
	Players     int          `json:"players"`      //
	HandNo      int          `json:"hand_no"`      // the current (or last) hand, 1-based; 0 before the first deal
	Hands       int          `json:"hands"`        // hands in the game
	Dealer      game.Seat    `json:"dealer"`       // -1 before the first dealer is drawn
	Phase       string       `json:"phase"`        // deal, opening, normal, after_draw, ace_continue, hand_over, game_over
	Chance      string       `json:"chance"`       // the pending chance outcome: dealer, deal, shuffle, or ""
	ToAct       []int        `json:"to_act"`       // the seats that must act now (none while chance is pending)
	Turn        game.Seat    `json:"turn"`         // the player to move (or whose turn is in progress); -1 if none
	TurnReason  string       `json:"turn_reason"`  // why Turn has the turn: first, next, skip, bounce, reverse, ace, penalty, opening_draw
	Direction   string       `json:"direction"`    // clockwise or counterclockwise: where the turn goes after a plain card
	Next        game.Seat    `json:"next"`         // the seat after Turn in the direction of play (after a plain card, a pass, a penalty or end); -1 if none
	OpeningLeft int          `json:"opening_left"` // opening-round turns still to play
	Top         string       `json:"top"`          // the top card of the discard pile
	ActiveSuit  string       `json:"active_suit"`  // the suit to follow (named by a jack, kept under a joker)
	ActiveRank  string       `json:"active_rank"`  // the rank that may be matched
	AnyFollows  bool         `json:"any_follows"`  // joker_follow=any: any card may follow the joker on top
	Chain       *Chain       `json:"chain,omitempty"`
	DeadPasses  int          `json:"dead_passes"` // consecutive forced passes (the hand is blocked at Players)
	Hand        []string     `json:"hand"`        // the observer's hand (nil for a spectator)
	Drawn       string       `json:"drawn"`       // after a voluntary draw: the card drawn (the drawer only)
	HandSizes   []int        `json:"hand_sizes"`
	StockSize   int          `json:"stock_size"`
	Pile        []string     `json:"pile"`            // the discard pile, bottom first (public history since the last reshuffle)
	StockPool   []string     `json:"stock_pool"`      // the cards the stock was formed from at the last reshuffle; nil = the whole deck (since the deal)
	Shown       []Void       `json:"shown,omitempty"` // what passes and opening draws showed about hidden hands
	Drawing     *Drawing     `json:"drawing,omitempty"`
	Revealed    [][]string   `json:"revealed,omitempty"` // every hand, once the hand is over (end-of-hand draws in progress)
	Ending      *HandResult  `json:"ending,omitempty"`   // the hand being ended (phase hand_over)
	Finished    []HandResult `json:"finished"`           // finished hands
	Totals      []int        `json:"totals"`
	Winners     []game.Seat  `json:"winners,omitempty"`
}

// Void is a public inference about a hand: at some moment Seat held none of
// Lacks (a forced pass: no playable card; a draw in the opening round: no
// plain club), and it has received Since cards since then, so it holds at
// most Since of them now. Shown only while Since is below the hand size.
type Void struct {
	Seat  game.Seat `json:"seat"`
	Why   string    `json:"why"`   // forced_pass or opening_draw
	Lacks []string  `json:"lacks"` // faces, sorted, each once
	Since int       `json:"since"`
}

// Chain is a pending penalty chain.
type Chain struct {
	Kind  string `json:"kind"`  // seven or joker
	Count int    `json:"count"` // k, the number of cards in the chain
	Draw  int    `json:"draw"`  // the cards the player to move draws with `penalty`
}

// Drawing is a multi-card draw waiting for a reshuffle.
type Drawing struct {
	Kind      string    `json:"kind"`       // opening, voluntary, penalty, ace, finish_chain, finish_ace, end_of_hand
	Seat      game.Seat `json:"seat"`       // who draws now
	Left      int       `json:"left"`       // cards that seat still draws (end of hand: including triggers so far)
	Owner     game.Seat `json:"owner"`      // the player who caused the draws (ace, finisher; -1 for a blocked hand)
	SeatsLeft int       `json:"seats_left"` // seats still to draw, including Seat
}

// HandResult is a finished (or ending) hand.
type HandResult struct {
	Hand       int        `json:"hand"`
	Finisher   game.Seat  `json:"finisher"`       // -1: blocked hand
	Card       string     `json:"card,omitempty"` // the finishing card
	Multiplier int        `json:"multiplier"`
	EndDraws   [][]string `json:"end_draws"`        // the end-of-hand draws per seat
	Hands      [][]string `json:"hands,omitempty"`  // the hands scored (finished hands only)
	Points     []int      `json:"points,omitempty"` // the penalties (finished hands only)
}

// Observer implements game.View.
func (v *View) Observer() game.Seat { return v.Seat }

func fmtCard(c game.Card) string {
	if c == game.NoCard {
		return ""
	}
	return game.Standard.Format(c)
}

func msList(m1, m2 game.Mask) []string {
	out := []string{}
	for i := 0; i < 53; i++ {
		if m1.Has(i) {
			out = append(out, game.Standard.Format(faceCard[i]))
		}
		if m2.Has(i) {
			out = append(out, game.Standard.Format(faceCard[i]))
		}
	}
	return out
}

// View implements game.State.
func (s *State) View(obs game.Seat) game.View {
	v := &View{
		Seat:        obs,
		Options:     s.opts.Clone(),
		Players:     s.n,
		HandNo:      s.hand,
		Hands:       s.cfg.hands,
		Dealer:      game.Seat(s.dealer),
		Phase:       phaseNames[s.ph],
		Chance:      chanceNames[s.chance],
		ToAct:       []int{},
		Turn:        game.Seat(s.turn),
		TurnReason:  reasonNames[s.why],
		Direction:   "clockwise",
		OpeningLeft: s.openLeft,
		DeadPasses:  s.dead,
		HandSizes:   make([]int, s.n),
		StockSize:   s.stockN,
		Pile:        []string{},
		Finished:    []HandResult{},
		Totals:      make([]int, s.n),
	}
	if s.dir < 0 {
		v.Direction = "counterclockwise"
	}
	if s.acting() {
		v.ToAct = append(v.ToAct, s.turn)
	}
	v.Next = -1
	if s.turn >= 0 {
		v.Next = game.Seat(s.step(s.turn, 1))
	}
	if s.pileN > 0 {
		v.Top = fmtCard(s.pile[s.pileN-1])
		v.ActiveSuit = s.suit.String()
		v.ActiveRank = rankName(s.rank)
		v.AnyFollows = s.anyFollows
	}
	if s.chain != chainNone {
		v.Chain = &Chain{Kind: chainNames[s.chain], Count: s.chainK, Draw: s.chainCards()}
	}
	if obs >= 0 && int(obs) < s.n {
		v.Hand = msList(s.h1[obs], s.h2[obs])
		if s.ph == phAfterDraw && int(obs) == s.turn {
			v.Drawn = fmtCard(s.drawn)
		}
	}
	copy(v.HandSizes, s.hn[:s.n])
	copy(v.Totals, s.totals[:s.n])
	for _, c := range s.pile[:s.pileN] {
		v.Pile = append(v.Pile, fmtCard(c))
	}
	if s.pool1 != s.full1 || s.pool2 != s.full2 {
		v.StockPool = msList(s.pool1, s.pool2)
	}
	if s.ph >= phOpening && s.ph <= phAceContinue {
		for p := 0; p < s.n; p++ {
			for w, vd := range s.voids[p] {
				if vd.f != 0 && vd.k < s.hn[p] {
					v.Shown = append(v.Shown, Void{Seat: game.Seat(p), Why: voidNames[w], Lacks: msList(vd.f, 0), Since: vd.k})
				}
			}
		}
	}
	if s.job != jobNone {
		v.Drawing = &Drawing{Kind: jobNames[s.job], Seat: game.Seat(s.jobSeat), Left: s.jobLeft, Owner: game.Seat(s.jobOwner), SeatsLeft: s.seatsLeft}
	}
	if s.ph == phHandOver {
		v.Revealed = make([][]string, s.n)
		for p := 0; p < s.n; p++ {
			v.Revealed[p] = msList(s.h1[p], s.h2[p])
		}
		e := s.resultView(&s.cur, s.hand, false)
		v.Ending = &e
	}
	for i := range s.hist {
		v.Finished = append(v.Finished, s.resultView(&s.hist[i], i+1, true))
	}
	if s.hasCur {
		v.Finished = append(v.Finished, s.resultView(&s.cur, len(s.hist)+1, true))
	}
	if s.ph == phGameOver {
		v.Winners = s.Result().Winners
	}
	return v
}

func (s *State) resultView(r *result, hand int, done bool) HandResult {
	h := HandResult{Hand: hand, Finisher: game.Seat(r.finisher), Card: fmtCard(r.card), Multiplier: r.mult, EndDraws: make([][]string, s.n)}
	for p := 0; p < s.n; p++ {
		h.EndDraws[p] = msList(r.drawn1[p], r.drawn2[p])
	}
	if done {
		h.Hands = make([][]string, s.n)
		h.Points = make([]int, s.n)
		for p := 0; p < s.n; p++ {
			h.Hands[p] = msList(r.final1[p], r.final2[p])
			h.Points[p] = r.points[p]
		}
	}
	return h
}

// String renders the view for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "Pis Yedili, %d players, hand %d of %d, view of %s\n", v.Players, v.HandNo, v.Hands, who)
	fmt.Fprintf(&b, "phase %s", v.Phase)
	if v.Chance != "" {
		fmt.Fprintf(&b, ", waiting for chance: %s", v.Chance)
	}
	if v.Turn >= 0 {
		fmt.Fprintf(&b, ", seat %d to move (%s), then seat %d (%s)", v.Turn, v.TurnReason, v.Next, v.Direction)
	}
	b.WriteString("\n")
	if v.Phase == "opening" {
		fmt.Fprintf(&b, "opening round: %d club turns left\n", v.OpeningLeft)
	}
	if v.Top != "" {
		fmt.Fprintf(&b, "top %s, active suit %s, rank %s", v.Top, v.ActiveSuit, v.ActiveRank)
		if v.AnyFollows {
			b.WriteString(", any card may follow")
		}
		b.WriteString("\n")
	}
	if v.Chain != nil {
		fmt.Fprintf(&b, "%s chain of %d: %d cards to draw\n", v.Chain.Kind, v.Chain.Count, v.Chain.Draw)
	}
	if v.Hand != nil {
		fmt.Fprintf(&b, "hand: %s\n", strings.Join(v.Hand, " "))
	}
	if v.Drawn != "" {
		fmt.Fprintf(&b, "drawn: %s\n", v.Drawn)
	}
	fmt.Fprintf(&b, "hand sizes %v, stock %d, dead passes %d\n", v.HandSizes, v.StockSize, v.DeadPasses)
	fmt.Fprintf(&b, "pile: %s\n", strings.Join(v.Pile, " "))
	if v.Drawing != nil {
		fmt.Fprintf(&b, "drawing (%s): seat %d draws %d more, %d seats left\n", v.Drawing.Kind, v.Drawing.Seat, v.Drawing.Left, v.Drawing.SeatsLeft)
	}
	for _, vd := range v.Shown {
		fmt.Fprintf(&b, "seat %d showed (%s) it held none of %s, and has received %d cards since\n", vd.Seat, vd.Why, strings.Join(vd.Lacks, " "), vd.Since)
	}
	for p, h := range v.Revealed {
		fmt.Fprintf(&b, "seat %d shows: %s\n", p, strings.Join(h, " "))
	}
	for _, h := range v.Finished {
		fmt.Fprintf(&b, "hand %d: ", h.Hand)
		if h.Finisher < 0 {
			b.WriteString("blocked")
		} else {
			fmt.Fprintf(&b, "seat %d out with %s", h.Finisher, h.Card)
		}
		fmt.Fprintf(&b, " (x%d), penalties %v\n", h.Multiplier, h.Points)
	}
	fmt.Fprintf(&b, "totals %v", v.Totals)
	if len(v.Winners) > 0 {
		fmt.Fprintf(&b, ", winners %v", v.Winners)
	}
	b.WriteString("\n")
	return b.String()
}
