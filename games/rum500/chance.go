package rum500

import (
	"strconv"
	"strings"

	"cardroom/game"
)

// Chance outcomes (record lines):
//
//	dealer 2                 the first dealer (random)
//	deal                     a hand's deal, with continuation lines:
//	  0: <cards>             each seat's hand, sorted
//	  1: <cards>
//	  up <card>              the first discard
//	  stock <cards>          the stock, top card first
//
// Turning the discard pile over (stock_exhausted=turn_over_discards) needs no
// chance: the pile is not shuffled.

func (s *State) badChance(format string, args ...any) error {
	return game.Errorf(game.ErrBadChance, game.Spectator, "", format, args...)
}

// fullDeck fills buf with every card of the game's deck(s) in a fixed order.
func (s *State) fullDeck(buf *[maxCards]uint8) int {
	n := 0
	for d := 0; d < s.cfg.decks; d++ {
		for i := 0; i < 52; i++ {
			buf[n] = uint8(i)
			n++
		}
		for j := 0; j < s.cfg.jokers; j++ {
			buf[n] = jokerIx
			n++
		}
	}
	return n
}

// RollChance implements game.State.
func (s *State) RollChance(r *game.Rand) {
	switch s.phase {
	case phDealer:
		s.dealer = r.IntN(s.cfg.n)
		s.phase = phDeal
	case phDeal:
		var deck [maxCards]uint8
		n := s.fullDeck(&deck)
		for i := n - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			deck[i], deck[j] = deck[j], deck[i]
		}
		s.startHand(&deck, n)
	}
}

// startHand deals deck (top first): one card at a time clockwise from the
// dealer's left, then the upcard, then the stock.
func (s *State) startHand(deck *[maxCards]uint8, n int) {
	if s.handNo > 0 {
		s.dealer = (s.dealer + 1) % s.cfg.n
	}
	s.handNo++
	for i := range s.hands {
		s.hands[i] = hand{}
		s.known[i] = hand{}
		s.table[i] = 0
	}
	p := s.cfg.n
	dealt := p * s.cfg.handSize
	for k := 0; k < dealt; k++ {
		s.hands[(s.dealer+1+k)%p].add(int(deck[k]))
	}
	s.pile[0] = deck[dealt]
	s.pileN = 1
	s.stockN = n - dealt - 1
	for j := 0; j < s.stockN; j++ {
		s.stock[s.stockN-1-j] = deck[dealt+1+j]
	}
	s.meldsN = 0
	s.turned = false
	s.out = -1
	s.hist = s.hist[:0]
	s.toMove = (s.dealer + 1) % p
	s.phase = phDraw
}

// SampleChance implements game.State.
func (s *State) SampleChance(r *game.Rand) string {
	switch s.phase {
	case phDealer:
		return "dealer " + strconv.Itoa(r.IntN(s.cfg.n))
	case phDeal:
		c := *s
		c.hist = nil
		c.RollChance(r)
		return c.dealText()
	}
	return ""
}

// dealText prints the current hand's deal (valid right after the deal).
func (s *State) dealText() string {
	var b strings.Builder
	b.WriteString("deal")
	for i := 0; i < s.cfg.n; i++ {
		b.WriteString("\n" + strconv.Itoa(i) + ":")
		for _, c := range s.hands[i].Indices(nil) {
			b.WriteString(" " + cardStr(c))
		}
	}
	b.WriteString("\nup " + cardStr(int(s.pile[0])))
	b.WriteString("\nstock")
	for j := s.stockN - 1; j >= 0; j-- {
		b.WriteString(" " + cardStr(int(s.stock[j])))
	}
	return b.String()
}

// ApplyChance implements game.State.
func (s *State) ApplyChance(text string) error {
	if !s.ChancePending() {
		return game.Errorf(game.ErrNoChance, game.Spectator, firstLine(text), "no chance event is pending")
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head := strings.Fields(lines[0])
	if len(head) == 0 {
		return s.badChance("empty chance outcome")
	}
	switch s.phase {
	case phDealer:
		if head[0] != "dealer" || len(head) != 2 || len(lines) != 1 {
			return s.badChance("want \"dealer N\" (the first dealer), got %q", firstLine(text))
		}
		d, err := strconv.Atoi(head[1])
		if err != nil || d < 0 || d >= s.cfg.n || head[1] != strconv.Itoa(d) {
			return s.badChance("dealer %q: want a seat 0..%d", head[1], s.cfg.n-1)
		}
		s.dealer = d
		s.phase = phDeal
		return nil
	}
	if head[0] != "deal" || len(head) != 1 {
		return s.badChance("want a deal (\"deal\" then a line per seat, \"up\" and \"stock\"), got %q", firstLine(text))
	}
	p := s.cfg.n
	hands := make([][]int, p)
	var up, stock []int
	seenUp, seenStock := false, false
	for _, ln := range lines[1:] {
		ln = strings.TrimSpace(ln)
		key, rest, _ := strings.Cut(ln, " ")
		cards, err := parseIdxList(rest)
		if err != nil {
			return s.badChance("deal line %q: %v", ln, err)
		}
		switch {
		case key == "up":
			if seenUp {
				return s.badChance("deal: up given twice")
			}
			seenUp, up = true, cards
		case key == "stock":
			if seenStock {
				return s.badChance("deal: stock given twice")
			}
			seenStock, stock = true, cards
		case strings.HasSuffix(key, ":"):
			i, err := strconv.Atoi(strings.TrimSuffix(key, ":"))
			if err != nil || i < 0 || i >= p || key != strconv.Itoa(i)+":" {
				return s.badChance("deal: bad seat %q (seats 0..%d)", key, p-1)
			}
			if hands[i] != nil {
				return s.badChance("deal: seat %d given twice", i)
			}
			if cards == nil {
				cards = []int{}
			}
			hands[i] = cards
		default:
			return s.badChance("deal: unknown line %q (want \"N: cards\", \"up C\" or \"stock cards\")", ln)
		}
	}
	for i, h := range hands {
		if h == nil {
			return s.badChance("deal: seat %d missing", i)
		}
		if len(h) != s.cfg.handSize {
			return s.badChance("deal: seat %d has %d cards, want %d", i, len(h), s.cfg.handSize)
		}
	}
	if !seenUp || len(up) != 1 {
		return s.badChance("deal: want exactly one upcard (\"up C\")")
	}
	want := s.cfg.totalCards - p*s.cfg.handSize - 1
	if !seenStock || len(stock) != want {
		return s.badChance("deal: the stock has %d cards, want %d", len(stock), want)
	}
	var counts [53]int
	var full [maxCards]uint8
	n := s.fullDeck(&full)
	for _, c := range full[:n] {
		counts[c]++
	}
	use := func(c int) bool { counts[c]--; return counts[c] >= 0 }
	var deck [maxCards]uint8
	// Rebuild a deck order that startHand deals back into these hands.
	next := make([]int, p)
	for k := 0; k < p*s.cfg.handSize; k++ {
		seat := (s.nextDealer() + 1 + k) % p
		c := hands[seat][next[seat]]
		next[seat]++
		if !use(c) {
			return s.badChance("deal: too many %s", cardStr(c))
		}
		deck[k] = uint8(c)
	}
	k := p * s.cfg.handSize
	if !use(up[0]) {
		return s.badChance("deal: too many %s", cardStr(up[0]))
	}
	deck[k] = uint8(up[0])
	for j, c := range stock {
		if !use(c) {
			return s.badChance("deal: too many %s", cardStr(c))
		}
		deck[k+1+j] = uint8(c)
	}
	// Every count is now zero (the totals match and none went negative).
	s.startHand(&deck, n)
	return nil
}

// nextDealer is the dealer of the hand about to be dealt.
func (s *State) nextDealer() int {
	if s.handNo > 0 {
		return (s.dealer + 1) % s.cfg.n
	}
	return s.dealer
}

func parseIdxList(t string) ([]int, error) {
	cs, err := game.Standard.ParseList(t)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, c := range cs {
		out = append(out, ix(c))
	}
	return out, nil
}

func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}
