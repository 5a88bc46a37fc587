package pisyedili

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// An independent, deliberately simple model of pisyedili.md written from
// the spec alone (slices of cards, an explicit end-of-hand trigger queue),
// played in lockstep with the engine over random games: after every step
// the legal moves, the hands, the pile, the stock size, the player to move
// and the scores must agree. The only thing the model takes from the engine
// is the chance outcomes (the deal and the reshuffle orders).

type refModel struct {
	n                                                       int
	jokers, doubling, penaltyEnds, jackWild, jackOnJack     bool
	jokerAny, playAny, untilPlayable, finishEffects, revTen bool

	hands      [][]game.Card
	stock      []game.Card // top = last
	pile       []game.Card // top = last
	shuffles   [][]game.Card
	suit       game.Suit
	rank       int
	anyFollows bool
	chain      string // "", "seven", "joker"
	k          int
	phase      string // opening normal after_draw ace_continue over
	turn, dir  int
	dead, open int
	drawn      game.Card
	points     []int // the last hand's points, once over
}

func newRef(o game.Options, n int) *refModel {
	b := func(k, def string) bool {
		if v, ok := o[k]; ok {
			return v == "true"
		}
		return def == "true"
	}
	return &refModel{n: n, jokers: b("jokers", "true"), doubling: o["seven_stack"] == "doubling",
		penaltyEnds: b("penalty_ends_turn", "true"), jackWild: b("jack_wild", "true"), jackOnJack: b("jack_on_jack", "true"),
		jokerAny: o["joker_follow"] == "any", playAny: b("play_any_after_draw", "false"), untilPlayable: b("draw_until_playable", "false"),
		finishEffects: b("finishing_card_effects", "false"), revTen: o["ten_mode"] == "reverse"}
}

func (r *refModel) cw(p int) int      { return (p + 1) % r.n }
func (r *refModel) ccw(p int) int     { return (p + r.n - 1) % r.n }
func (r *refModel) step(p, k int) int { return ((p+k*r.dir)%r.n + r.n) % r.n }

func isJoker(c game.Card) bool { return c == game.Joker }
func isJack(c game.Card) bool  { return !isJoker(c) && c.Rank() == game.Jack }
func isPlainClub(c game.Card) bool {
	if isJoker(c) || c.Suit() != game.Clubs {
		return false
	}
	switch c.Rank() {
	case game.Ace, 7, 8, 10, game.Jack:
		return false
	}
	return true
}

func (r *refModel) drawable() bool { return len(r.stock) > 0 || len(r.pile) > 1 }

// drawOne moves the top of the stock to seat p, reshuffling first if needed
// (§10); false if nothing can be drawn.
func (r *refModel) drawOne(p int) (game.Card, bool) {
	if len(r.stock) == 0 {
		if len(r.pile) <= 1 {
			return game.NoCard, false
		}
		if len(r.shuffles) == 0 {
			panic("model: a reshuffle the engine did not ask for")
		}
		order := r.shuffles[0] // top first
		r.shuffles = r.shuffles[1:]
		under := append([]game.Card(nil), r.pile[:len(r.pile)-1]...)
		if fmt.Sprint(sortCards(under)) != fmt.Sprint(sortCards(append([]game.Card(nil), order...))) {
			panic("model: the reshuffle is not the pile under the top")
		}
		r.stock = r.stock[:0]
		for i := len(order) - 1; i >= 0; i-- {
			r.stock = append(r.stock, order[i])
		}
		r.pile = r.pile[len(r.pile)-1:]
	}
	c := r.stock[len(r.stock)-1]
	r.stock = r.stock[:len(r.stock)-1]
	r.hands[p] = append(r.hands[p], c)
	return c, true
}

func sortCards(cs []game.Card) []game.Card {
	sort.Slice(cs, func(i, j int) bool { return game.Standard.Index(cs[i]) < game.Standard.Index(cs[j]) })
	return cs
}

// matches is §5 (outside the opening round, no chain).
func (r *refModel) matches(c game.Card) bool {
	if r.anyFollows || isJoker(c) {
		return true
	}
	if isJack(c) && !r.jackOnJack && r.rank == game.Jack {
		return false
	}
	if isJack(c) && r.jackWild {
		return true
	}
	return c.Suit() == r.suit || c.Rank() == r.rank
}

func (r *refModel) legal() []string {
	p := r.turn
	set := map[string]bool{}
	playText := func(c game.Card) {
		f := game.Standard.Format(c)
		if isJack(c) && r.phase != "opening" {
			for _, s := range "SHDC" {
				set["play "+f+" "+string(s)] = true
			}
			return
		}
		set["play "+f] = true
	}
	switch r.phase {
	case "opening":
		plain, club := false, false
		for _, c := range r.hands[p] {
			if !isJoker(c) && c.Suit() == game.Clubs {
				club = true
				playText(c)
			}
			plain = plain || isPlainClub(c)
		}
		if !plain && r.drawable() {
			set["draw"] = true
		}
		if !club && !r.drawable() {
			set["pass"] = true
		}
	case "normal":
		if r.chain != "" {
			for _, c := range r.hands[p] {
				if (r.chain == "seven" && !isJoker(c) && c.Rank() == 7) || (r.chain == "joker" && isJoker(c)) {
					playText(c)
				}
			}
			set["penalty"] = true
			break
		}
		any := false
		for _, c := range r.hands[p] {
			if r.matches(c) {
				playText(c)
				any = true
			}
		}
		if r.drawable() {
			set["draw"] = true
		} else if !any {
			set["pass"] = true
		}
	case "after_draw":
		for _, c := range r.hands[p] {
			if (r.playAny || c == r.drawn) && r.matches(c) {
				playText(c)
			}
		}
		set["pass"] = true
	case "ace_continue":
		for _, c := range r.hands[p] {
			if r.matches(c) {
				playText(c)
			}
		}
		set["end"] = true
	}
	out := make([]string, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (r *refModel) chainCards() int {
	if r.chain == "joker" {
		return 10 * r.k
	}
	if r.doubling {
		return 3 << (r.k - 1)
	}
	return 3 * r.k
}

func (r *refModel) apply(text string) {
	p := r.turn
	f := strings.Fields(text)
	switch f[0] {
	case "play":
		c, _ := game.Standard.Parse(f[1])
		h := r.hands[p]
		for i, x := range h {
			if x == c {
				r.hands[p] = append(h[:i:i], h[i+1:]...)
				break
			}
		}
		r.pile = append(r.pile, c)
		r.dead = 0
		if r.phase == "opening" {
			r.suit, r.rank = game.Clubs, c.Rank()
			r.open--
			if r.open == 0 {
				r.phase = "normal"
			}
			r.turn = r.cw(p)
			return
		}
		r.phase = "normal"
		if len(r.hands[p]) == 0 {
			r.finish(p, c)
			return
		}
		if isJoker(c) {
			if r.chain == "joker" {
				r.k++
			} else {
				r.chain, r.k = "joker", 1
			}
			r.anyFollows = r.jokerAny
			r.turn = r.step(p, 1)
			return
		}
		r.anyFollows = false
		r.suit, r.rank = c.Suit(), c.Rank()
		r.turn = r.step(p, 1)
		switch c.Rank() {
		case 7:
			if r.chain == "seven" {
				r.k++
			} else {
				r.chain, r.k = "seven", 1
			}
		case game.Ace:
			for q := r.cw(p); q != p; q = r.cw(q) {
				r.drawOne(q)
			}
			r.phase, r.turn = "ace_continue", p
		case game.Jack:
			s, _ := game.ParseSuit(f[2])
			r.suit = s
		case 10:
			if r.revTen {
				r.dir = -r.dir
				r.turn = r.step(p, 1)
			} else {
				r.turn = r.ccw(p)
			}
		case 8:
			r.turn = r.step(p, 2)
		}
	case "draw":
		r.dead = 0
		if r.phase == "opening" {
			r.drawOne(p)
			return
		}
		for {
			c, ok := r.drawOne(p)
			if !ok {
				break
			}
			r.drawn = c
			if !r.untilPlayable || r.matches(c) {
				break
			}
		}
		r.phase = "after_draw"
	case "penalty":
		k := r.chainCards()
		r.chain, r.k = "", 0
		r.dead = 0
		for i := 0; i < k; i++ {
			if _, ok := r.drawOne(p); !ok {
				break
			}
		}
		if r.penaltyEnds {
			r.turn = r.step(p, 1)
		}
	case "pass":
		if r.phase == "after_draw" {
			r.dead, r.phase, r.turn = 0, "normal", r.step(p, 1)
			return
		}
		r.dead++
		if r.phase == "opening" {
			r.open--
			if r.open == 0 {
				r.phase = "normal"
			}
		}
		if r.dead >= r.n {
			r.endOfHand(-1, r.cw(p), 1)
			return
		}
		r.turn = r.step(p, 1)
	case "end":
		r.dead, r.phase, r.turn = 0, "normal", r.step(p, 1)
	}
}

func (r *refModel) finish(p int, c game.Card) {
	mult := 1
	switch {
	case isJoker(c):
		mult = 10
	case c.Rank() == 7:
		mult = 3
	case c.Rank() == game.Jack:
		mult = 2
	}
	if r.finishEffects {
		switch {
		case isJoker(c) || c.Rank() == 7:
			kind := "seven"
			if isJoker(c) {
				kind = "joker"
			}
			if r.chain == kind {
				r.k++
			} else {
				r.chain, r.k = kind, 1
			}
			q := r.step(p, 1)
			for i, k := 0, r.chainCards(); i < k; i++ {
				if _, ok := r.drawOne(q); !ok {
					break
				}
			}
		case c.Rank() == game.Ace:
			for q := r.cw(p); q != p; q = r.cw(q) {
				r.drawOne(q)
			}
		}
	}
	r.endOfHand(p, r.cw(p), mult)
}

// endOfHand is §9.1 with an explicit queue per player, then §11.
func (r *refModel) endOfHand(finisher, start, mult int) {
	lapsed := false
	for i, q := 0, start; i < r.n; i, q = i+1, r.cw(q) {
		if q == finisher || lapsed {
			continue
		}
		var queue []int
		for _, c := range r.hands[q] {
			if !isJoker(c) && c.Rank() == 7 {
				queue = append(queue, 3)
			}
		}
		for _, c := range r.hands[q] {
			if !isJoker(c) && c.Rank() == game.Ace {
				queue = append(queue, 1)
			}
		}
		for len(queue) > 0 && !lapsed {
			k := queue[0]
			queue = queue[1:]
			for j := 0; j < k; j++ {
				c, ok := r.drawOne(q)
				if !ok {
					lapsed = true
					break
				}
				if !isJoker(c) && c.Rank() == 7 {
					queue = append(queue, 3)
				} else if !isJoker(c) && c.Rank() == game.Ace {
					queue = append(queue, 1)
				}
			}
		}
	}
	r.points = make([]int, r.n)
	for q := 0; q < r.n; q++ {
		if q == finisher {
			continue
		}
		for _, c := range r.hands[q] {
			v := 0
			switch {
			case isJoker(c):
				v = 100
			case c.Rank() == game.Jack:
				v = 25
			case c.Rank() == game.Ace:
				v = 11
			case c.Rank() >= 10:
				v = 10
			default:
				v = c.Rank()
			}
			r.points[q] += mult * v
		}
	}
	r.phase = "over"
}

// deal installs the engine's deal text.
func (r *refModel) deal(t *testing.T, text string, dealer int) {
	t.Helper()
	r.hands = make([][]game.Card, r.n)
	for _, line := range strings.Split(text, "\n")[1:] {
		line = strings.TrimSpace(line)
		if cs, ok := strings.CutPrefix(line, "stock "); ok {
			list := cards(t, cs)
			r.stock = r.stock[:0]
			for i := len(list) - 1; i >= 0; i-- {
				r.stock = append(r.stock, list[i])
			}
			continue
		}
		num, cs, _ := strings.Cut(line, ": ")
		p, _ := strconv.Atoi(num)
		r.hands[p] = cards(t, cs)
	}
	r.pile, r.points = nil, nil
	r.phase, r.chain, r.k, r.anyFollows = "opening", "", 0, false
	r.turn, r.dir, r.dead, r.open = (dealer+1)%r.n, 1, 0, r.n
}

func (r *refModel) compare(s *State) error {
	for p := 0; p < r.n; p++ {
		got := handOf(s, p)
		want := strings.Join(strings.Fields(game.Standard.FormatList(sortCards(append([]game.Card(nil), r.hands[p]...)))), " ")
		if got != want {
			return fmt.Errorf("seat %d holds %q, model %q", p, got, want)
		}
	}
	if s.stockN != len(r.stock) || s.pileN != len(r.pile) {
		return fmt.Errorf("stock %d pile %d, model %d %d", s.stockN, s.pileN, len(r.stock), len(r.pile))
	}
	for i, c := range r.pile {
		if s.pile[i] != c {
			return fmt.Errorf("pile differs at %d", i)
		}
	}
	if s.acting() {
		if s.turn != r.turn || phaseNames[s.ph] != r.phase {
			return fmt.Errorf("seat %d in %s to move, model seat %d in %s", s.turn, phaseNames[s.ph], r.turn, r.phase)
		}
		if got, want := legalTexts(s), r.legal(); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("legal moves of seat %d\n got %v\nmodel %v", s.turn, got, want)
		}
	}
	return nil
}

func TestAuditModel(t *testing.T) {
	optsList := []game.Options{
		{},
		{"players": "2"},
		{"players": "3", "jokers": "false", "seven_stack": "doubling"},
		{"players": "5", "penalty_ends_turn": "false", "jack_wild": "false", "jack_on_jack": "false"},
		{"players": "4", "joker_follow": "any", "play_any_after_draw": "true", "ten_mode": "reverse"},
		{"players": "6", "draw_until_playable": "true", "finishing_card_effects": "true"},
		{"players": "7", "finishing_card_effects": "true", "seven_stack": "doubling", "ten_mode": "reverse", "jack_on_jack": "false"},
		{"players": "2", "ten_mode": "reverse", "jokers": "false", "penalty_ends_turn": "false"},
	}
	hands := 0
	for oi, o := range optsList {
		for seed := uint64(0); seed < 12; seed++ {
			o2 := o.Clone()
			o2["hands"] = "2"
			st, err := Engine{}.New(o2)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			rng := game.NewRand(seed*31 + uint64(oi))
			ref := newRef(o2, s.n)
			moves := 0
			for !s.Over() {
				if s.ChancePending() {
					text := s.SampleChance(&rng)
					if err := s.ApplyChance(text); err != nil {
						t.Fatal(err)
					}
					if strings.HasPrefix(text, "deal") {
						ref.deal(t, text, s.dealer)
						moves = 0
						hands++
					}
					continue
				}
				buf := s.Legal(game.Seat(s.turn), nil)
				var m game.Move
				if moves > 300 {
					m = playFirst(buf, &rng) // bound voluntary draws (§9)
				} else {
					m = buf[rng.IntN(len(buf))]
				}
				moves++
				text := s.FormatMove(m)
				handNo := s.hand
				if err := s.Apply(game.Seat(s.turn), m); err != nil {
					t.Fatal(err)
				}
				if s.chance == ChanceShuffle {
					out := s.SampleChance(&rng)
					ref.shuffles = append(ref.shuffles, cards(t, strings.TrimPrefix(out, "shuffle ")))
					if err := s.ApplyChance(out); err != nil {
						t.Fatal(err)
					}
				}
				ref.apply(text)
				where := fmt.Sprintf("%v seed %d hand %d move %d (%s)", o2, seed, handNo, moves, text)
				if len(ref.shuffles) != 0 {
					t.Fatalf("%s: the engine reshuffled when the model did not", where)
				}
				if ref.phase == "over" {
					got := s.Result().Rounds[handNo-1]
					if !reflect.DeepEqual(got, ref.points) {
						t.Fatalf("%s: hand points %v, model %v", where, got, ref.points)
					}
					if s.hand == handNo && !s.Over() && s.ph != PhaseDeal {
						t.Fatalf("%s: the model ended the hand, the engine did not", where)
					}
					continue
				}
				if s.ph == PhaseDeal || s.Over() {
					t.Fatalf("%s: the engine ended the hand, the model did not", where)
				}
				if err := ref.compare(s); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
		}
	}
	if hands < 150 {
		t.Fatalf("only %d hands", hands)
	}
}
