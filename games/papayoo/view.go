package papayoo

import (
	"fmt"
	"strings"

	"cardroom/game"
)

// Phase names in views.
const (
	PhaseDealer    = "dealer"     // waiting for the random first dealer (chance)
	PhaseDeal      = "deal"       // waiting for the first deal (chance)
	PhasePass      = "pass"       // the seats pass, simultaneously
	PhaseDie       = "die"        // waiting for the die (chance)
	PhasePlay      = "play"       // trick play
	PhaseRoundOver = "round_over" // a round has been scored; waiting for the next deal (chance)
	PhaseOver      = "over"       // the game has ended
)

// View is what one observer knows: its own hand, its own pass and what it
// received, and the public history of the round (every trick, the voids it
// showed, the points taken), the scores and whose turn it is. A spectator's
// view has the public parts only.
type View struct {
	Seat      game.Seat    `json:"observer"` // the observer, or game.Spectator (-1)
	Options   game.Options `json:"options"`
	Players   int          `json:"players"`
	HandSize  int          `json:"hand_size"` // H, cards dealt per hand
	PassSize  int          `json:"pass_size"` // K, cards passed
	Rounds    int          `json:"rounds"`    // R
	Round     int          `json:"round"`     // current (or just finished) round, 1-based; 0 before the first deal
	Phase     string       `json:"phase"`
	Dealer    int          `json:"dealer"` // -1 before the first dealer is drawn
	ToAct     []int        `json:"to_act"`
	Hand      []string     `json:"hand"`       // the observer's hand; nil for a spectator
	HandSizes []int        `json:"hand_sizes"` // cards in each seat's hand
	Passed    []bool       `json:"passed"`     // seats that have submitted their pass this round
	MyPass    []string     `json:"my_pass"`    // the observer's own pass, once submitted
	Received  []string     `json:"received"`   // the cards the observer received, once the pass resolved
	Die       string       `json:"die"`        // "S", "H", "D" or "C" once rolled
	Papayoo   string       `json:"papayoo"`    // the 40-point seven once the die is rolled
	Trick     Trick        `json:"trick"`      // the current trick (Leader -1 outside trick play)
	Tricks    []Trick      `json:"tricks"`     // the completed tricks of the round
	Voids     [][]string   `json:"voids"`      // per seat, the suits it has shown void in this round
	Points    []int        `json:"points"`     // points taken so far this round
	Scores    [][]int      `json:"round_scores"`
	Totals    []int        `json:"totals"`
	Winners   []int        `json:"winners"` // once the game is over
}

// Trick is one trick: the cards in play order from the leader (seat
// (Leader+i) mod N played Cards[i]); Winner is -1 while it is open.
type Trick struct {
	Leader int      `json:"leader"`
	Cards  []string `json:"cards"`
	Winner int      `json:"winner"`
	Points int      `json:"points"`
}

// Observer implements game.View.
func (v *View) Observer() game.Seat { return v.Seat }

func maskStrings(m game.Mask) []string {
	out := make([]string, 0, m.Count())
	for ; m != 0; m &= m - 1 {
		out = append(out, cardName[m.Lowest()])
	}
	return out
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

func (s *State) view(obs game.Seat) *View {
	n := int(s.n)
	if obs < 0 || int(obs) >= n {
		obs = game.Spectator
	}
	v := &View{
		Seat:      obs,
		Options:   s.opts.Clone(),
		Players:   n,
		HandSize:  int(s.hs),
		PassSize:  int(s.ks),
		Rounds:    int(s.rounds),
		Round:     int(s.round),
		Phase:     s.phaseName(),
		Dealer:    int(s.dealer),
		ToAct:     []int{},
		HandSizes: make([]int, n),
		Passed:    make([]bool, n),
		Trick:     Trick{Leader: -1, Winner: -1},
		Tricks:    []Trick{},
		Voids:     make([][]string, n),
		Points:    make([]int, n),
		Scores:    [][]int{},
		Totals:    make([]int, n),
	}
	for _, a := range s.ToAct(nil) {
		v.ToAct = append(v.ToAct, int(a))
	}
	for i := 0; i < n; i++ {
		v.HandSizes[i] = s.hands[i].Count()
		v.Passed[i] = s.passed&(1<<uint(i)) != 0
		v.Points[i] = int(s.points[i])
		v.Totals[i] = int(s.totals[i])
		v.Voids[i] = []string{}
		for su := 0; su < 5; su++ {
			if s.voids[i]&(1<<uint(su)) != 0 {
				v.Voids[i] = append(v.Voids[i], suitName[su])
			}
		}
	}
	if obs >= 0 {
		v.Hand = maskStrings(s.hands[obs])
		if v.Passed[obs] {
			v.MyPass = maskStrings(s.pass[obs])
			if s.phase != phPass {
				v.Received = maskStrings(s.pass[game.Prev(obs, n)])
			}
		}
	}
	if s.die >= 0 {
		v.Die = suitName[s.die]
		v.Papayoo = cardName[s.pap]
	}
	for t := 0; t < int(s.tricks); t++ {
		v.Tricks = append(v.Tricks, s.trickView(t, n))
	}
	if s.phase == phPlay {
		v.Trick = Trick{Leader: int(s.leader), Winner: -1, Cards: []string{}}
		start := int(s.tricks) * n
		for j := 0; j < int(s.inTrick); j++ {
			v.Trick.Cards = append(v.Trick.Cards, cardName[s.plays[start+j]])
		}
	}
	for _, row := range s.history() {
		r := make([]int, n)
		for i := range r {
			r[i] = int(row[i])
		}
		v.Scores = append(v.Scores, r)
	}
	if s.phase == phOver {
		for _, w := range s.winners_() {
			v.Winners = append(v.Winners, int(w))
		}
	}
	return v
}

func (s *State) trickView(t, n int) Trick {
	tr := Trick{Leader: int(s.leaders[t]), Winner: int(s.winners[t]), Cards: make([]string, n)}
	for j := 0; j < n; j++ {
		c := s.plays[t*n+j]
		tr.Cards[j] = cardName[c]
		tr.Points += int(payooPts[c])
		if int8(c) == s.pap {
			tr.Points += 40
		}
	}
	return tr
}

// String implements game.View: a text rendering for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "papayoo, %d players, round %d of %d, phase %s, view of %s\n", v.Players, v.Round, v.Rounds, v.Phase, who)
	if v.Dealer >= 0 {
		fmt.Fprintf(&b, "dealer: %d\n", v.Dealer)
	}
	if v.Die != "" {
		fmt.Fprintf(&b, "die: %s (Papayoo %s = 40)\n", v.Die, v.Papayoo)
	}
	if v.Seat >= 0 {
		fmt.Fprintf(&b, "hand: %s\n", strings.Join(v.Hand, " "))
		if v.MyPass != nil {
			fmt.Fprintf(&b, "my pass: %s\n", strings.Join(v.MyPass, " "))
		}
		if v.Received != nil {
			fmt.Fprintf(&b, "received: %s\n", strings.Join(v.Received, " "))
		}
	}
	fmt.Fprintf(&b, "hand sizes: %v\n", v.HandSizes)
	if v.Phase == PhasePass {
		fmt.Fprintf(&b, "seats passed: %v\n", v.Passed)
	}
	for i, t := range v.Tricks {
		fmt.Fprintf(&b, "trick %d: led by %d: %s; won by %d (%d points)\n", i+1, t.Leader, strings.Join(t.Cards, " "), t.Winner, t.Points)
	}
	if v.Trick.Leader >= 0 {
		fmt.Fprintf(&b, "current trick: led by %d: %s\n", v.Trick.Leader, strings.Join(v.Trick.Cards, " "))
	}
	for i, vs := range v.Voids {
		if len(vs) > 0 {
			fmt.Fprintf(&b, "seat %d void in %s\n", i, strings.Join(vs, " "))
		}
	}
	fmt.Fprintf(&b, "round points: %v\n", v.Points)
	for i, r := range v.Scores {
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
