package pisyedili

import (
	"strconv"
	"strings"

	"cardroom/game"
)

// ChancePending implements game.State.
func (s *State) ChancePending() bool { return s.chance != ChanceNone }

// deckCards fills buf with every physical card of the game, in index order,
// and returns the count.
func (s *State) deckCards(buf *[maxCards]game.Card) int {
	n := 0
	for m := s.full1; m != 0; m &= m - 1 {
		buf[n] = faceCard[m.Lowest()]
		n++
	}
	for m := s.full2; m != 0; m &= m - 1 {
		buf[n] = faceCard[m.Lowest()]
		n++
	}
	return n
}

// RollChance implements game.State: it draws and applies the pending
// outcome without text and without allocating.
func (s *State) RollChance(r *game.Rand) {
	switch s.chance {
	case ChanceDealer:
		s.applyDealer(r.IntN(s.n))
	case ChanceDeal:
		var d [maxCards]game.Card
		n := s.deckCards(&d)
		r.ShuffleCards(d[:n])
		s.dealFrom(&d, n)
	case ChanceShuffle:
		var d [maxCards]game.Card
		n := s.pileN - 1
		copy(d[:n], s.pile[:n])
		r.ShuffleCards(d[:n])
		s.applyShuffle(d[:n])
	}
}

// dealFrom deals a shuffled deck d[:n]: cards go one at a time clockwise from
// next(dealer); the rest is the stock with d[7N] on top.
func (s *State) dealFrom(d *[maxCards]game.Card, n int) {
	var hands [maxSeats][handSize]game.Card
	k := 0
	for i := 0; i < handSize; i++ {
		for j := 1; j <= s.n; j++ {
			p := (s.dealer + j) % s.n
			hands[p][i] = d[k]
			k++
		}
	}
	var stock [maxCards]game.Card
	ns := 0
	for i := n - 1; i >= k; i-- { // stock[ns-1] is the top = d[k]
		stock[ns] = d[i]
		ns++
	}
	s.applyDeal(&hands, &stock, ns)
}

// SampleChance implements game.State.
func (s *State) SampleChance(r *game.Rand) string {
	switch s.chance {
	case ChanceDealer:
		return "dealer " + strconv.Itoa(r.IntN(s.n))
	case ChanceDeal:
		var d [maxCards]game.Card
		n := s.deckCards(&d)
		r.ShuffleCards(d[:n])
		var b strings.Builder
		b.WriteString("deal")
		k := 0
		var hands [maxSeats][]game.Card
		for i := 0; i < handSize; i++ {
			for j := 1; j <= s.n; j++ {
				p := (s.dealer + j) % s.n
				hands[p] = append(hands[p], d[k])
				k++
			}
		}
		for p := 0; p < s.n; p++ {
			b.WriteString("\n" + strconv.Itoa(p) + ": " + game.Standard.FormatSorted(hands[p]))
		}
		b.WriteString("\nstock " + game.Standard.FormatList(d[k:n]))
		return b.String()
	case ChanceShuffle:
		n := s.pileN - 1
		d := make([]game.Card, n)
		copy(d, s.pile[:n])
		r.ShuffleCards(d)
		return "shuffle " + game.Standard.FormatList(d)
	}
	return ""
}

func badChance(format string, args ...any) error {
	return game.Errorf(game.ErrBadChance, game.Spectator, "", format, args...)
}

// ApplyChance implements game.State. Outcomes:
//
//	dealer N
//	deal
//	  0: <7 cards>
//	  …
//	  stock <cards, top first>
//	shuffle <cards, top first>
func (s *State) ApplyChance(text string) error {
	if s.chance == ChanceNone {
		return game.Errorf(game.ErrNoChance, game.Spectator, "", "no chance outcome is pending")
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head := strings.Fields(lines[0])
	if len(head) == 0 {
		return badChance("empty chance outcome")
	}
	if head[0] != chanceNames[s.chance] {
		return badChance("want a %q outcome, got %q", chanceNames[s.chance], head[0])
	}
	switch s.chance {
	case ChanceDealer:
		if len(lines) != 1 || len(head) != 2 {
			return badChance("want \"dealer N\"")
		}
		d, err := strconv.Atoi(head[1])
		if err != nil || d < 0 || d >= s.n || head[1] != strconv.Itoa(d) {
			return badChance("dealer %q: want a seat 0 to %d", head[1], s.n-1)
		}
		s.applyDealer(d)
	case ChanceDeal:
		return s.parseDeal(head, lines[1:])
	case ChanceShuffle:
		if len(lines) != 1 {
			return badChance("shuffle is one line")
		}
		cs, err := game.Standard.ParseList(strings.Join(head[1:], " "))
		if err != nil {
			return badChance("shuffle: %v", err)
		}
		n := s.pileN - 1
		if len(cs) != n {
			return badChance("shuffle: want the %d cards under the top of the discard pile, got %d", n, len(cs))
		}
		var want, got [53]int
		for _, c := range s.pile[:n] {
			want[idx(c)]++
		}
		for _, c := range cs {
			i := idx(c)
			if i < 0 {
				return badChance("shuffle: %s is not a card of this game", game.Standard.Format(c))
			}
			got[i]++
			if got[i] > want[i] {
				return badChance("shuffle: %s is not (or not that often) under the top of the discard pile", game.Standard.Format(c))
			}
		}
		var d [maxCards]game.Card
		copy(d[:], cs)
		s.applyShuffle(d[:n])
	}
	return nil
}

func (s *State) parseDeal(head []string, rest []string) error {
	if len(head) != 1 {
		return badChance("deal: the cards go on continuation lines")
	}
	var hands [maxSeats][handSize]game.Card
	var seen [maxSeats]bool
	var stock [maxCards]game.Card
	ns := -1
	var count [53]int
	var limit [53]int
	for i := 0; i < 53; i++ {
		if s.full1.Has(i) {
			limit[i]++
		}
		if s.full2.Has(i) {
			limit[i]++
		}
	}
	take := func(cs []game.Card) error {
		for _, c := range cs {
			i := idx(c)
			if i < 0 || limit[i] == 0 {
				return badChance("deal: %s is not a card of this game", game.Standard.Format(c))
			}
			count[i]++
			if count[i] > limit[i] {
				return badChance("deal: %s dealt more than %d times", game.Standard.Format(c), limit[i])
			}
		}
		return nil
	}
	for _, line := range rest {
		line = strings.TrimSpace(line)
		if cards, ok := strings.CutPrefix(line, "stock"); ok && (cards == "" || cards[0] == ' ') {
			if ns >= 0 {
				return badChance("deal: stock given twice")
			}
			cs, err := game.Standard.ParseList(cards)
			if err != nil {
				return badChance("deal: stock: %v", err)
			}
			if len(cs) != s.total-handSize*s.n {
				return badChance("deal: the stock must hold %d cards, got %d", s.total-handSize*s.n, len(cs))
			}
			if err := take(cs); err != nil {
				return err
			}
			ns = len(cs)
			for i, c := range cs { // top first in the text
				stock[ns-1-i] = c
			}
			continue
		}
		num, cards, ok := strings.Cut(line, ":")
		p, err := strconv.Atoi(num)
		if !ok || err != nil || p < 0 || p >= s.n || num != strconv.Itoa(p) {
			return badChance("deal: want \"<seat>: <cards>\" or \"stock <cards>\", got %q", line)
		}
		if seen[p] {
			return badChance("deal: seat %d given twice", p)
		}
		seen[p] = true
		cs, err := game.Standard.ParseList(cards)
		if err != nil {
			return badChance("deal: seat %d: %v", p, err)
		}
		if len(cs) != handSize {
			return badChance("deal: seat %d must get %d cards, got %d", p, handSize, len(cs))
		}
		if err := take(cs); err != nil {
			return err
		}
		copy(hands[p][:], cs)
	}
	for p := 0; p < s.n; p++ {
		if !seen[p] {
			return badChance("deal: no cards for seat %d", p)
		}
	}
	if ns < 0 {
		return badChance("deal: no stock line")
	}
	s.applyDeal(&hands, &stock, ns)
	return nil
}

func (s *State) applyDealer(d int) {
	s.dealer = d
	s.chance = ChanceDeal
	s.ph = PhaseDeal
}

func (s *State) applyDeal(hands *[maxSeats][handSize]game.Card, stock *[maxCards]game.Card, ns int) {
	if s.hasCur {
		s.hist = append(s.hist, s.cur)
		s.hasCur = false
	}
	s.cur = result{}
	s.hand++
	s.h1, s.h2, s.hn = [maxSeats]game.Mask{}, [maxSeats]game.Mask{}, [maxSeats]int{}
	for p := 0; p < s.n; p++ {
		for _, c := range hands[p] {
			s.add(p, c)
		}
	}
	s.stock = *stock
	s.stockN = ns
	s.pileN = 0
	s.pool1, s.pool2 = s.full1, s.full2
	s.suit, s.rank, s.anyFollows, s.chain, s.chainK = 0, 0, false, ChainNone, 0
	s.ph = PhaseOpening
	s.chance = ChanceNone
	s.turn, s.why = s.cw(s.dealer), ReasonFirst
	s.dir, s.dead, s.openLeft, s.drawn = 1, 0, s.n, game.NoCard
	s.job = DrawNone
	s.voids = [maxSeats][2]void{}
	s.soft = [maxSeats][softSlots]softVoid{}
}

// applyShuffle makes d (top first) the new stock; the top of the pile stays.
func (s *State) applyShuffle(d []game.Card) {
	n := len(d)
	s.pool1, s.pool2 = 0, 0
	for i, c := range d {
		s.stock[n-1-i] = c
		msAdd(&s.pool1, &s.pool2, idx(c))
	}
	s.stockN = n
	s.pile[0] = s.pile[s.pileN-1]
	s.plays[0] = s.plays[s.pileN-1]
	s.pileN = 1
	s.chance = ChanceNone
	s.run()
}
