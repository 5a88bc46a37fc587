package rum500

// Spec check: rule-by-rule tests of the engine against rum500.md (and the
// move notation of notation.md), written from the spec alone for the rules,
// option values and edge cases the other test files do not pin. Each test
// cites its section.

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"cardroom/game"
)

// scDecline ends the hand of a position whose stock is empty by the seat to
// move declining, and returns the hand's scores.
func scDecline(t *testing.T, s *State) []int {
	t.Helper()
	play(t, s, "decline")
	if s.phase != phDeal && s.phase != phOver {
		t.Fatalf("decline did not end the hand: phase %v", s.phase)
	}
	return append([]int(nil), s.rounds[len(s.rounds)-s.cfg.n:]...)
}

// scNew makes a fresh game from an options string.
func scNew(t *testing.T, opts string) (*State, error) {
	t.Helper()
	o, err := game.ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Engine{}.New(o)
	if err != nil {
		return nil, err
	}
	return st.(*State), nil
}

// rum500.md §2 (card values), §9 (cards in hand count against), §13 #2 (an
// ace in hand 15), §12 (a joker in hand 15): every rank held alone at the
// end of a hand scores minus its value; a hand scores minus the sum.
func TestSpecCheck_CardValuesInHand(t *testing.T) {
	cases := []struct {
		opts, hand string
		want       int
	}{
		{"", "AS", -15}, {"", "2S", -2}, {"", "3S", -3}, {"", "4S", -4}, {"", "5S", -5},
		{"", "6S", -6}, {"", "7S", -7}, {"", "8S", -8}, {"", "9S", -9}, {"", "10S", -10},
		{"", "JS", -10}, {"", "QS", -10}, {"", "KS", -10},
		{"players=3 jokers=2", "JK", -15},
		{"players=3 jokers=2", "JK JK AH", -45},
		{"", "KH AH 4S", -29},             // §9 example 3's hand
		{"", "AD 10S 3D", -28},            // §9 example 4
		{"", "AS AH AD AC", -60},          // four aces in hand: 15 each, never 1
		{"", "AH 2H 3H", -20},             // an unmelded A-2-3 in hand: the ace is 15
		{"players=5", "AS AS KS KS", -50}, // two decks: each copy counts
	}
	for _, c := range cases {
		t.Run(c.opts+" "+c.hand, func(t *testing.T) {
			s := build(t, pos{opts: c.opts, hands: []string{"2C", c.hand, "3C", "4C", "5C"}[:max(3, nSeats(c.opts))], pile: "QC", stock: ""})
			got := scDecline(t, s)
			if got[1] != c.want {
				t.Errorf("§2 hand %s scores %d, want %d", c.hand, got[1], c.want)
			}
		})
	}
}

// rum500.md §2, §13 #1 and #3, §14.4: points of cards placed on the table —
// an ace 1 only at the low end of a run (of any length), 15 in a set and at
// the high end; J Q K 10; pips face value. Melds and lay-offs both.
func TestSpecCheck_TablePoints(t *testing.T) {
	cases := []struct {
		name  string
		melds []mspec // on the table, owned by seat 1
		hand  string  // seat 0 (in play), then moves
		moves []string
		want  int // seat 0's credited points
	}{
		{"run 2-3-4", nil, "2C 3C 4C 9D", []string{"meld 2C 3C 4C"}, 9},
		{"run 10-J-Q", nil, "10H JH QH 9D", []string{"meld 10H JH QH"}, 30},
		{"run 9..K", nil, "9S 10S JS QS KS 2D", []string{"meld 9S 10S JS QS KS"}, 49},
		{"long low run A-5: the ace is 1", nil, "AS 2S 3S 4S 5S 9D", []string{"meld AS 2S 3S 4S 5S"}, 15},
		{"high run 10-A: the ace is 15", nil, "10H JH QH KH AH 9D", []string{"meld 10H JH QH KH AH"}, 55},
		{"set of kings", nil, "KS KH KD 9D", []string{"meld KS KH KD"}, 30},
		{"set of four aces", nil, "AS AH AD AC 9D", []string{"meld AS AH AD AC"}, 60},
		{"set of three 5s", nil, "5S 5D 5C 9D", []string{"meld 5S 5D 5C"}, 15},
		{"ace laid low on a long run: 1", []mspec{{"2S 3S 4S 5S 6S 7S 8S 9S", 1}}, "AS 9D", []string{"layoff AS 1"}, 1},
		{"ace laid on a set of aces: 15", []mspec{{"AS AH AD", 1}}, "AC 9D", []string{"layoff AC 1"}, 15},
		{"king laid high: 10", []mspec{{"9S 10S JS QS", 1}}, "KS 9D", []string{"layoff KS 1"}, 10},
		{"two lay-offs on both ends", []mspec{{"5H 6H 7H", 1}}, "4H 8H 9D", []string{"layoff 4H 1", "layoff 8H 1"}, 12},
		{"melds and lay-offs add up", []mspec{{"JD QD KD", 1}}, "AD 2C 3C 4C 7S 7H 7D 9S", []string{"meld 2C 3C 4C", "layoff AD 1", "meld 7S 7H 7D"}, 9 + 15 + 21},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, pos{hands: []string{c.hand, "2H", "3H"}, melds: c.melds, pile: "QC", stock: "rest", play: true})
			before1 := s.table[1]
			for _, m := range c.moves {
				play(t, s, m)
			}
			if s.table[0] != c.want {
				t.Errorf("§2 seat 0 credited %d, want %d", s.table[0], c.want)
			}
			if s.table[1] != before1 {
				t.Errorf("§5 a lay-off credits the layer only: the meld's owner went from %d to %d", before1, s.table[1])
			}
		})
	}
}

// rum500.md §5: which new melds are valid, played from hand (Apply and
// Legal agree): sets of 3–4 of one rank, runs of 3+ of one suit, the ace
// low or high but never both nor round the corner.
func TestSpecCheck_MeldValidity(t *testing.T) {
	cases := []struct {
		opts, meld string
		ok         bool
	}{
		{"", "7S 7H 7D", true},
		{"", "7S 7H 7D 7C", true},
		{"", "7S 7H", false},               // too short
		{"", "7S 8S", false},               // too short
		{"", "7S 7H 8H", false},            // mixed
		{"", "4H 5H 6D", false},            // suits differ
		{"", "4H 5H 7H", false},            // gap
		{"", "AS 2S 3S", true},             // ace low
		{"", "QS KS AS", true},             // ace high
		{"", "JS QS KS AS", true},          // ace high, longer
		{"", "KS AS 2S", false},            // round the corner
		{"", "QS KS AS 2S 3S", false},      // round the corner
		{"", "AS 2S 3S 4S 5S 6S 7S", true}, // long low run
		{"", "4C 5C 6C 7C 8C 9C 10C JC", true},
		{"players=5", "7S 7H 7D", true},    // two decks, distinct suits
		{"players=5", "7S 7H 7D 7C", true}, // two decks, four suits
		{"players=3 decks=2", "9C 9D 9H", true},
	}
	for _, c := range cases {
		t.Run(c.opts+" "+c.meld, func(t *testing.T) {
			others := []string{"2D", "3D", "4D", "5D", "6D"}
			n := max(3, nSeats(c.opts))
			s := build(t, pos{opts: c.opts, hands: append([]string{c.meld + " 10D"}, others[:n-1]...), pile: "QD", stock: "rest", play: true})
			text := "meld " + c.meld
			m, err := ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			canon := FormatMove(m)
			if c.ok {
				play(t, s, canon)
				if s.meldsN != 1 || s.hands[0].Count() != 1 {
					t.Errorf("§5 %s: melds %d hand %d", c.meld, s.meldsN, s.hands[0].Count())
				}
			} else {
				refused(t, s, canon, game.ErrIllegal)
			}
		})
	}
}

// rum500.md §5 lay-offs: a fourth card of a new suit on a set of three (two
// decks: never a suit already there), the next card of the suit at either
// end of a run (never a duplicate, never a card that is not adjacent), on
// anyone's meld, credited to the layer; nothing beyond an ace.
func TestSpecCheck_Layoffs(t *testing.T) {
	cases := []struct {
		name   string
		opts   string
		melds  []mspec
		hand   string
		good   []string
		bad    []string
		owners []string // per meld after the good moves
	}{
		{name: "§5 two decks: set of three takes only the missing suit", opts: "players=5",
			melds: []mspec{{"7S 7H 7D", 2}}, hand: "7H 7S 7D 7C 9D",
			bad: []string{"layoff 7H 1", "layoff 7S 1", "layoff 7D 1"}, good: []string{"layoff 7C 1"},
			owners: []string{"7S:2 7H:2 7D:2 7C:0"}},
		{name: "§5 two decks: no duplicate in a run, only the ends", opts: "players=5",
			melds: []mspec{{"4D 5D 6D", 3}}, hand: "4D 5D 6D 8D 3D 9S",
			bad: []string{"layoff 4D 1", "layoff 5D 1", "layoff 6D 1", "layoff 8D 1"}, good: []string{"layoff 3D 1"},
			owners: []string{"3D:0 4D:3 5D:3 6D:3"}},
		{name: "§5 on a run of 13 (ace low) nothing fits",
			melds: []mspec{{"AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 1}}, hand: "9D",
			bad: []string{"layoff 9D 1"}, owners: []string{"AH:1 2H:1 3H:1 4H:1 5H:1 6H:1 7H:1 8H:1 9H:1 10H:1 JH:1 QH:1 KH:1"}},
		{name: "§5 nothing beyond an ace after a lay-off made it the end",
			melds: []mspec{{"JC QC KC", 1}}, hand: "AC 10C 9C 2C 4D",
			good: []string{"layoff AC 1", "layoff 10C 1", "layoff 9C 1"}, bad: []string{"layoff 2C 1"},
			owners: []string{"9C:0 10C:0 JC:1 QC:1 KC:1 AC:0"}},
		{name: "§5 low ace stops the low end, the high end stays open",
			melds: []mspec{{"2H 3H 4H", 2}}, hand: "AH KH 5H 6H 9D",
			good: []string{"layoff AH 1", "layoff 5H 1", "layoff 6H 1"}, bad: []string{"layoff KH 1"},
			owners: []string{"AH:0 2H:2 3H:2 4H:2 5H:0 6H:0"}},
		{name: "§5 lay-offs on several players' melds in one turn", opts: "players=5", // two 8C
			melds: []mspec{{"8S 8H 8D", 1}, {"5C 6C 7C", 2}}, hand: "8C 4C 8C 9D",
			good: []string{"layoff 8C 1", "layoff 4C 2"}, bad: []string{"layoff 4C 1", "layoff 9D 2"},
			owners: []string{"8S:1 8H:1 8D:1 8C:0", "4C:0 5C:2 6C:2 7C:2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := max(3, nSeats(c.opts))
			hands := append([]string{c.hand}, []string{"2D", "3S", "4S", "5S"}[:n-1]...)
			s := build(t, pos{opts: c.opts, hands: hands, melds: c.melds, pile: "QD", stock: "rest", play: true})
			for _, m := range c.bad {
				refused(t, s, m, game.ErrIllegal)
			}
			for _, m := range c.good {
				play(t, s, m)
			}
			for k, want := range c.owners {
				if got := meldOwners(s, k); got != want {
					t.Errorf("meld %d: %q, want %q", k+1, got, want)
				}
			}
		})
	}
}

// rum500.md §6 and §7: the phases of a turn. At the start of a turn only
// draw / take (/ decline with an empty stock); after drawing only meld,
// lay-off, discard; a discard passes the turn clockwise (seat+1, wrapping).
func TestSpecCheck_TurnPhases(t *testing.T) {
	s := build(t, pos{opts: "players=4", hands: []string{"2C", "3C", "4C", "5S 6S 7S 9H"}, pile: "QD", toMove: 3,
		melds: []mspec{{"8D 9D 10D", 0}}, stock: "rest"})
	for _, bad := range []string{"meld 5S 6S 7S", "discard 9H", "decline"} {
		refused(t, s, bad, game.ErrIllegal)
	}
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw"}) {
		t.Fatalf("§7 start of turn with a stock and no use: %v", got)
	}
	play(t, s, "draw")
	for _, bad := range []string{"draw", "decline", "take QD meld QS QH QD"} {
		refused(t, s, bad, game.ErrIllegal)
	}
	for _, l := range legalTexts(s) {
		if !strings.HasPrefix(l, "meld ") && !strings.HasPrefix(l, "layoff ") && !strings.HasPrefix(l, "discard ") {
			t.Errorf("§7 after drawing: %q listed", l)
		}
	}
	play(t, s, "meld 5S 6S 7S")
	play(t, s, "discard 9H")
	if s.toMove != 0 || s.phase != phDraw {
		t.Errorf("§6 play passes clockwise from seat 3 to seat 0: to move %d phase %v", s.toMove, s.phase)
	}
	// Other seats cannot act.
	if err := s.Apply(1, game.Move{Op: OpDraw}); game.Code(err) != game.ErrNotYourTurn {
		t.Errorf("a seat out of turn: %v", err)
	}
}

// rum500.md §6.2: any number of melds and lay-offs in any order after the
// draw, no minimum, including lay-offs on a meld made this turn; the turn
// ends only by the discard (§6.3).
func TestSpecCheck_SeveralMeldsOneTurn(t *testing.T) {
	s := build(t, pos{hands: []string{"3H 4H 5H 9S 9H 9D 6H 9C KD", "2C", "3C"}, pile: "QD", stock: "2H 4S"})
	play(t, s, "draw")
	for _, m := range []string{"meld 3H 4H 5H", "layoff 6H 1", "meld 9S 9H 9D", "layoff 2H 1", "layoff 9C 2"} {
		play(t, s, m)
		if s.toMove != 0 || s.phase != phPlay {
			t.Fatalf("§6.2 %s ended the turn", m)
		}
	}
	if got := meldOwners(s, 0); got != "2H:0 3H:0 4H:0 5H:0 6H:0" {
		t.Errorf("§6.2 meld 1: %s", got)
	}
	if s.table[0] != 20+36 {
		t.Errorf("§6.2 credited %d, want 56", s.table[0])
	}
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"discard KD"}) {
		t.Errorf("§6.3 the last card must be discarded: %v", got)
	}
	play(t, s, "discard KD")
	if s.phase != phDeal || s.out != 0 {
		t.Errorf("§6.4 discarding the last card goes out")
	}
}

// rum500.md §6.1: the deep take and its immediate use — a lay-off on the
// player's own meld; a meld of X with cards from hand and cards taken above
// it; a 13-card run with the ace taken either end; a card with no use above
// a usable one cannot be taken; all cards above X come into hand.
func TestSpecCheck_TakeUses(t *testing.T) {
	cases := []struct {
		name  string
		p     pos
		want  []string // exact legal list, or nil
		has   []string
		not   []string
		after string
		hand  string // seat 0's hand after
		pile  string
	}{
		{name: "§6.1 lay off X on the player's own meld",
			p:    pos{hands: []string{"2C KH", "3C", "4C"}, pile: "5S 9D JS", melds: []mspec{{"6D 7D 8D", 0}}, stock: "rest"},
			want: []string{"draw", "take 9D layoff 1"}, after: "take 9D layoff 1", hand: "JS KH 2C", pile: "5S"},
		{name: "§6.1 X with one card from hand and one taken above it",
			p:   pos{hands: []string{"7C 2D", "3C", "4C"}, pile: "KS 9C 8C", stock: "rest"},
			has: []string{"take 9C meld 7C 8C 9C"},
			// 8C alone is taken: 9C lies below it and stays in the pile.
			not:   []string{"take 8C meld 7C 8C 9C", "take KS meld KS QS JS"},
			after: "take 9C meld 7C 8C 9C", hand: "2D", pile: "KS"},
		{name: "§6.1 §13 #19 the ace taken for a 13-card run, low or high",
			p:     pos{hands: []string{"2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 4D", "3C", "4C"}, pile: "AS", stock: "rest"},
			has:   []string{"take AS meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "take AS meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"},
			after: "take AS meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", hand: "4D", pile: ""},
		{name: "§6.1 the top card has no use, a deeper one has: only the deep take",
			p:    pos{hands: []string{"5H 5D 9C", "3C", "4C"}, pile: "5S KD", stock: "rest"},
			want: []string{"draw", "take 5S meld 5S 5H 5D"}, after: "take 5S meld 5S 5H 5D", hand: "KD 9C", pile: ""},
		{name: "§6.1 X must be in the meld, not just a card taken with it",
			p:   pos{hands: []string{"QH QD 2C", "3C", "4C"}, pile: "4S QS 8H", stock: "rest"},
			has: []string{"take QS meld QS QH QD"},
			not: []string{"take 8H meld QS QH QD", "take 4S meld QS QH QD"}},
		{name: "§6.1 the use must be a valid meld",
			p:    pos{hands: []string{"QH JD 2C", "3C", "4C"}, pile: "QS", stock: "rest"},
			want: []string{"draw"},
			not:  []string{"take QS meld QS QH JD", "take QS meld QS QH"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, c.p)
			checkLegal(t, s, c.want, c.has, c.not)
			if c.after == "" {
				return
			}
			play(t, s, c.after)
			if h := handStr(s, 0); h != c.hand {
				t.Errorf("hand after %s: %q, want %q", c.after, h, c.hand)
			}
			if p := cardList(s.View(game.Spectator).(*View).Pile); p != c.pile {
				t.Errorf("pile after %s: %q, want %q", c.after, p, c.pile)
			}
			if c.hand != "" && (s.phase != phPlay || s.toMove != 0) {
				t.Errorf("§6.1 after the take the player melds or discards: phase %v", s.phase)
			}
		})
	}
}

// rum500.md §8 end_when_declined (default): with the stock empty play goes
// on while each player takes from the pile with an immediate use and
// discards; the first player who does not take declines and the hand ends
// there, everyone scored with the cards they hold, nobody out.
func TestSpecCheck_EmptyStockPlayContinues(t *testing.T) {
	s := build(t, pos{hands: []string{"5S 5H 2C", "9D 10D 4C", "KC KS"}, pile: "3S 5D 6H JD", stock: ""})
	if hasLegal(s, "draw") {
		t.Fatal("§6.1 draw with an empty stock")
	}
	play(t, s, "take 5D meld 5S 5H 5D") // hand: 2C 6H JD
	play(t, s, "discard 6H")
	if s.phase != phDraw || s.toMove != 1 {
		t.Fatalf("§8 the hand goes on after a take with an empty stock")
	}
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"decline"}) {
		t.Fatalf("§8 seat 1 has no use for 3S or 6H: %v", got)
	}
	// Seat 1 is not forced to end at once by the engine: it must say decline.
	if s.phase == phDeal {
		t.Fatal("hand ended without a decline")
	}
	got := scDecline(t, s)
	if want := []int{15 - 2 - 10, -9 - 10 - 4, -20}; !reflect.DeepEqual(got, want) {
		t.Errorf("§8 §9 scores %v, want %v", got, want)
	}
	if s.out != -1 || s.View(game.Spectator).(*View).WentOut != -1 {
		t.Errorf("§8 nobody went out")
	}
}

// rum500.md §8 stock_exhausted=end_immediately: the hand ends only when the
// last stock card has been drawn and that turn is over; a turn that takes
// from the pile with stock left does not end it; decline never exists.
func TestSpecCheck_EndImmediatelyTiming(t *testing.T) {
	s := build(t, pos{opts: "players=3 stock_exhausted=end_immediately", hands: []string{"2C 9S", "8H 8D 3C 5C", "4C 10H"},
		pile: "8S", stock: "KD JH"})
	play(t, s, "draw")
	play(t, s, "discard KD")
	play(t, s, "take 8S meld 8S 8H 8D") // takes KD too
	play(t, s, "discard 3C")
	if s.phase != phDraw || s.toMove != 2 || s.stockN != 1 {
		t.Fatalf("§8 one stock card left: the hand goes on (phase %v stock %d)", s.phase, s.stockN)
	}
	if hasLegal(s, "decline") {
		t.Errorf("§8 end_immediately: no decline")
	}
	play(t, s, "draw")
	if s.phase != phPlay {
		t.Fatalf("§8 the turn that drew the last card is played out")
	}
	play(t, s, "discard 4C")
	if s.phase != phDeal || s.out != -1 {
		t.Fatalf("§8 end_immediately: the hand ends after that turn: phase %v out %d", s.phase, s.out)
	}
	if want := []int{-11, 24 - 15, -20}; !reflect.DeepEqual(s.rounds, want) {
		t.Errorf("§9 scores %v, want %v", s.rounds, want)
	}
}

// rum500.md §8 stock_exhausted=turn_over_discards: the pile but its top
// becomes the stock (bottom card on top, not shuffled) the first time the
// stock is empty; the hand goes on with the pile's former top as the only
// discard; the second time the stock runs out the hand ends.
func TestSpecCheck_TurnOverDiscards(t *testing.T) {
	s := build(t, pos{opts: "players=2 stock_exhausted=turn_over_discards", hands: []string{"QS QH 2C", "3D 4D 9C"},
		pile: "6S 7S 8S", stock: "QD"})
	play(t, s, "draw")
	play(t, s, "discard 2C")
	if !s.turned || s.stockN != 3 || s.pileN != 1 || int(s.pile[0]) != ix(mustCard(t, "2C")) || s.phase != phDraw || s.toMove != 1 {
		t.Fatalf("§8 turn over: stock %d pile %d phase %v", s.stockN, s.pileN, s.phase)
	}
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw"}) {
		t.Fatalf("§8 after the turn-over: %v", got)
	}
	play(t, s, "draw")
	if s.hands[1].Has(ix(mustCard(t, "6S"))) != 1 {
		t.Fatalf("§8 the pile's bottom card (6S) is the new stock's top: %s", handStr(s, 1))
	}
	play(t, s, "discard 9C")
	play(t, s, "draw") // 7S
	play(t, s, "discard 7S")
	play(t, s, "draw") // 8S, the last card
	play(t, s, "discard 3D")
	if s.phase != phDeal || s.out != -1 {
		t.Fatalf("§8 the second exhaustion ends the hand: phase %v", s.phase)
	}
	if want := []int{-30, -18}; !reflect.DeepEqual(s.rounds, want) {
		t.Errorf("§9 scores %v, want %v", s.rounds, want)
	}
}

// rum500.md §3, §4, §9, §10: a game over several hands — scores add up
// (negative too), the dealer passes left each hand and the dealer's left
// plays first, and the game ends after the hand in which a total reaches
// the target, not before.
func TestSpecCheck_GameFlow(t *testing.T) {
	s, err := scNew(t, "players=3 target=40")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyChance("dealer 1"); err != nil {
		t.Fatal(err)
	}
	// Hand 1 (dealer 1, seat 2 first), a scripted deal: seat 2 melds three
	// kings and a club run, then goes out by discarding the card it drew.
	deal := func(h0, h1, h2, up string, rest string) {
		t.Helper()
		text := "deal\n0: " + h0 + "\n1: " + h1 + "\n2: " + h2 + "\nup " + up + "\nstock " + rest
		if err := s.ApplyChance(text); err != nil {
			t.Fatal(err)
		}
	}
	// A stock holding every other card, in deck order.
	stockOf := func(used string) string {
		u := map[int]bool{}
		for _, c := range mustIdx(t, used) {
			u[c] = true
		}
		var out []string
		for c := 0; c < 52; c++ {
			if !u[c] {
				out = append(out, cardStr(c))
			}
		}
		return strings.Join(out, " ")
	}
	h0, h1, h2, up := "2S 3S 4S 5S 6S 7S 8S", "2H 3H 4H 5H 6H 7H 8H", "KS KH KD QC JC 10C 9C", "2D"
	deal(h0, h1, h2, up, stockOf(h0+" "+h1+" "+h2+" "+up))
	if s.dealer != 1 || s.toMove != 2 {
		t.Fatalf("§3 dealer %d first %d", s.dealer, s.toMove)
	}
	play(t, s, "draw") // AS (top of the stock in deck order: the lowest unused)
	play(t, s, "meld KS KH KD")
	play(t, s, "meld 9C 10C JC QC")
	play(t, s, "discard AS") // seat 2 out: 30 + 39 = 69 ≥ 40
	if !s.Over() {
		t.Fatalf("§10 seat 2 reached 40: game over")
	}
	want := []int{-35, -35, 69}
	if !reflect.DeepEqual(s.Result().Totals, want) || !reflect.DeepEqual(s.Result().Winners, []game.Seat{2}) {
		t.Errorf("§9 §10 totals %v winners %v, want %v [2]", s.Result().Totals, s.Result().Winners, want)
	}
	if p := s.Settlement(); !reflect.DeepEqual(p, []Payment{{0, 2, 104}, {1, 2, 104}}) {
		t.Errorf("§10 settlement %v", p)
	}

	// Below the target: the next hand is dealt by the next seat to the left.
	s, _ = scNew(t, "players=3 target=100")
	if err := s.ApplyChance("dealer 2"); err != nil {
		t.Fatal(err)
	}
	deal(h0, h1, h2, up, stockOf(h0+" "+h1+" "+h2+" "+up))
	if s.dealer != 2 || s.toMove != 0 {
		t.Fatalf("§3 dealer %d first %d", s.dealer, s.toMove)
	}
	play(t, s, "draw")
	play(t, s, "meld 2S 3S 4S 5S 6S 7S 8S")
	play(t, s, "discard AS") // out: 35
	if s.Over() || s.phase != phDeal {
		t.Fatalf("§10 35 < 100: the game goes on")
	}
	deal(h0, h1, h2, up, stockOf(h0+" "+h1+" "+h2+" "+up))
	if s.dealer != 0 || s.toMove != 1 || s.handNo != 2 {
		t.Fatalf("§3 the next dealer is the left neighbour (0), seat 1 first: dealer %d first %d", s.dealer, s.toMove)
	}
	play(t, s, "draw")
	play(t, s, "meld 2H 3H 4H 5H 6H 7H 8H")
	play(t, s, "discard AS")
	if got := s.Result().Totals; !reflect.DeepEqual(got, []int{0, 0, -138}) /* 35−35, −35+35, −69−69 */ {
		t.Errorf("§9 cumulative totals %v", got)
	}
	if rs := s.Result().Rounds; len(rs) != 2 || !reflect.DeepEqual(rs[0], []int{35, -35, -69}) {
		t.Errorf("§9 hand scores %v", rs)
	}
}

// rum500.md §4 with option values: decks=2 for 3 players (sets then need
// distinct suits), decks=1 for 5 players, jokers in the deck, the 10-card
// two-player hand; the upcard starts the pile and the rest is the stock.
func TestSpecCheck_DealOptionValues(t *testing.T) {
	cases := []struct {
		opts              string
		hand, stock, deck int
		jokers            int
	}{
		{"players=3 decks=2", 7, 104 - 21 - 1, 104, 0},
		{"players=5 decks=1", 7, 52 - 35 - 1, 52, 0},
		{"players=2 two_player_hand=10", 10, 52 - 20 - 1, 52, 0},
		{"players=2 jokers=2", 13, 54 - 26 - 1, 54, 2},
		{"players=6 jokers=2", 7, 108 - 42 - 1, 108, 4},
		{"players=4 two_player_hand=10", 7, 52 - 28 - 1, 52, 0}, // 10 only with two players
	}
	for _, c := range cases {
		s, err := scNew(t, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.opts, err)
		}
		r := game.NewRand(3)
		s.RollChance(&r)
		s.RollChance(&r)
		var counts [53]int
		total := 0
		for i := 0; i < s.cfg.n; i++ {
			if s.hands[i].Count() != c.hand {
				t.Errorf("§4 %s: seat %d holds %d, want %d", c.opts, i, s.hands[i].Count(), c.hand)
			}
			for _, x := range s.hands[i].Indices(nil) {
				counts[x]++
				total++
			}
		}
		for j := 0; j < s.stockN; j++ {
			counts[s.stock[j]]++
			total++
		}
		counts[s.pile[0]]++
		total++
		if s.stockN != c.stock || s.pileN != 1 || total != c.deck || counts[jokerIx] != c.jokers {
			t.Errorf("§4 %s: stock %d pile %d cards %d jokers %d", c.opts, s.stockN, s.pileN, total, counts[jokerIx])
		}
	}
	// decks=2 with 3 players: two 7H never make a set.
	s := build(t, pos{opts: "players=3 decks=2", hands: []string{"7H 7H 7C 9D", "2C", "3C"}, pile: "QD", stock: "rest", play: true})
	for _, l := range legalTexts(s) {
		if strings.HasPrefix(l, "meld") {
			t.Errorf("§5 two decks: %s", l)
		}
	}
}

// rum500.md §8 with top_discard_free: while the stock lasts the top card
// may be taken alone (and a deep card still needs a use); the free take is
// kept with end_immediately and after a turn-over.
func TestSpecCheck_TopDiscardFreeOptions(t *testing.T) {
	s := build(t, pos{opts: "players=3 top_discard_free=true stock_exhausted=end_immediately", hands: []string{"2C 9S", "3C", "4C"},
		pile: "5H 8D", stock: "KD"})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw", "take 8D"}) {
		t.Fatalf("§6.1 top_discard_free: %v", got)
	}
	refused(t, s, "take 5H", game.ErrIllegal)
	play(t, s, "take 8D")
	if got := handStr(s, 0); got != "9S 8D 2C" || s.pileN != 1 {
		t.Errorf("§6.1 the top card alone: hand %q pile %d", got, s.pileN)
	}
	play(t, s, "discard 9S")
	if s.phase != phDraw || s.stockN != 1 {
		t.Errorf("§8 end_immediately: a free take does not exhaust the stock")
	}
}

// notation.md: a hand printed in the view (and in shown hands) is sorted by
// suit S H D C, then rank A 2 … 10 J Q K, jokers last; the pile bottom →
// top as it lies.
func TestSpecCheck_ViewSortOrder(t *testing.T) {
	s := build(t, pos{opts: "players=3 jokers=2", hands: []string{"KC JK AS 10H 2S QD 2H", "3C", "4C"}, pile: "9D 2D KS", stock: "rest"})
	b, err := json.Marshal(s.View(0))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Hand []string `json:"hand"`
		Pile []string `json:"pile"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Hand, " "); got != "AS 2S 2H 10H QD KC JK" {
		t.Errorf("notation sort order: %s", got)
	}
	if got := strings.Join(v.Pile, " "); got != "9D 2D KS" {
		t.Errorf("§11 pile bottom → top: %s", got)
	}
}

// rum500.md §12: target is "integer > 0" and go_out_bonus "integer ≥ 0",
// with no upper bound. The engine range-checks a client's number with
// bounds far above any real game (they were 10000 and 1000, which refused
// games the spec allows).
func TestSpecCheck_OptionUpperBounds(t *testing.T) {
	for _, o := range []string{"players=3 target=10001", "players=3 target=100000", "players=3 go_out_bonus=1001", "players=3 go_out_bonus=100000"} {
		if _, err := scNew(t, o); err != nil {
			t.Errorf("§12 %s refused, the spec allows it: %v", o, err)
		}
	}
	for _, o := range []string{"players=3 target=100001", "players=3 go_out_bonus=100001"} {
		if _, err := scNew(t, o); err == nil {
			t.Errorf("%s accepted past the engine's bound", o)
		}
	}
}

// rum500.md §12: the option values the spec lists are all accepted and the
// defaults are the spec's.
func TestSpecCheck_OptionValues(t *testing.T) {
	for _, o := range []string{
		"players=2", "players=8", "players=3 decks=1", "players=3 decks=2", "players=2 two_player_hand=13", "players=2 two_player_hand=10",
		"players=3 jokers=0", "players=3 jokers=2", "players=3 target=1", "players=3 target=500", "players=3 top_discard_free=true",
		"players=3 top_discard_free=false", "players=3 must_discard_to_go_out=true", "players=3 stock_exhausted=end_when_declined",
		"players=3 stock_exhausted=end_immediately", "players=3 stock_exhausted=turn_over_discards", "players=3 go_out_bonus=0",
		"players=3 go_out_bonus=50", "players=3 tie_resolution=shared", "players=3 tie_resolution=play_on",
	} {
		if _, err := scNew(t, o); err != nil {
			t.Errorf("§12 %s refused: %v", o, err)
		}
	}
	for n, decks := range map[int]string{2: "1", 3: "1", 4: "1", 5: "2", 6: "2", 7: "2", 8: "2"} {
		s, err := scNew(t, "players="+itoa(n))
		if err != nil {
			t.Fatal(err)
		}
		o := s.Options()
		if o["decks"] != decks || o["jokers"] != "0" || o["target"] != "500" || o["top_discard_free"] != "false" ||
			o["must_discard_to_go_out"] != "false" || o["stock_exhausted"] != "end_when_declined" || o["go_out_bonus"] != "0" ||
			o["tie_resolution"] != "shared" || o["two_player_hand"] != "13" {
			t.Errorf("§12 defaults for %d players: %v", n, o)
		}
	}
}

// scValue is a card's points from its text alone (rum500.md §2): A 15,
// J Q K 10, 2–10 face value, joker 15.
func scValue(c game.Card) int {
	t := game.Standard.Format(c)
	switch {
	case t == "JK":
		return 15
	case t[0] == 'A':
		return 15
	case t[0] == 'J' || t[0] == 'Q' || t[0] == 'K' || strings.HasPrefix(t, "10"):
		return 10
	}
	return int(t[0] - '0')
}

// scTablePoints re-derives each seat's credited table points from the
// public view (rum500.md §2, §5, §12): every card counts for the seat shown
// as its owner; an ace (a natural one) first in a run counts 1; a joker 15.
func scTablePoints(v *View) []int {
	pts := make([]int, v.Players)
	for k := range v.Melds {
		m := &v.Melds[k]
		for j, c := range m.Stands {
			p := scValue(c)
			if m.Joker(j) {
				p = 15
			} else if m.Run && j == 0 && strings.HasPrefix(game.Standard.Format(c), "A") {
				p = 1
			}
			pts[m.Owners[j]] += p
		}
	}
	return pts
}

// rum500.md §3, §4, §8, §9, §10 over random games of several option sets:
// at the end of every hand each seat's score is its credited table points
// (re-derived from the view) minus its cards left (plus the bonus for the
// seat that went out, nobody else), the totals add the hands up, the game
// is over exactly when the rules say, the dealer passes left and the deal
// sizes hold. Moves are picked at random among the legal ones.
func TestSpecCheck_RandomGamesScoringOracle(t *testing.T) {
	for gi, o := range []string{
		"players=3 target=400", "players=2 target=400 go_out_bonus=20", "players=5 target=400 jokers=2",
		"players=4 target=400 stock_exhausted=end_immediately", "players=3 target=400 stock_exhausted=turn_over_discards",
		"players=2 target=300 tie_resolution=play_on two_player_hand=10", "players=4 target=400 must_discard_to_go_out=true top_discard_free=true",
	} {
		s, err := scNew(t, o)
		if err != nil {
			t.Fatal(err)
		}
		n := s.cfg.n
		r := game.NewRand(uint64(31 + gi))
		totals := make([]int, n)
		prevDealer := -1
		hands := 0
		var lastMove game.Move
		for steps := 0; !s.Over() && steps < 4000; steps++ {
			if s.ChancePending() {
				s.RollChance(&r)
				if s.phase != phDraw {
					continue
				}
				hands++
				if prevDealer >= 0 && s.dealer != (prevDealer+1)%n {
					t.Fatalf("%s: §3 dealer %d after %d", o, s.dealer, prevDealer)
				}
				prevDealer = s.dealer
				if s.toMove != (s.dealer+1)%n || s.pileN != 1 || s.meldsN != 0 {
					t.Fatalf("%s: §4 new hand: first %d dealer %d pile %d", o, s.toMove, s.dealer, s.pileN)
				}
				for i := 0; i < n; i++ {
					if s.hands[i].Count() != s.cfg.handSize {
						t.Fatalf("%s: §4 seat %d dealt %d", o, i, s.hands[i].Count())
					}
				}
				continue
			}
			seat := game.Seat(s.toMove)
			legal := s.Legal(seat, nil)
			var pick []game.Move
			for _, m := range legal {
				if m.Op != OpDiscard && m.Op != OpDraw && m.Op != OpTake && m.Op != OpDecline {
					pick = append(pick, m)
				}
			}
			if len(pick) == 0 || r.IntN(4) == 0 {
				pick = legal
			}
			m := pick[r.IntN(len(pick))]
			stockBefore, turnedBefore := s.stockN, s.turned
			if err := s.Apply(seat, m); err != nil {
				t.Fatal(err)
			}
			lastMove = m
			if s.phase != phDeal && s.phase != phOver {
				continue
			}
			// The hand is over: check why, and its scores.
			v := s.View(game.Spectator).(*View)
			out := int(v.WentOut)
			if out >= 0 {
				if out != int(seat) || s.hands[out].Count() != 0 {
					t.Fatalf("%s: §6.4 went out %d, mover %d", o, out, seat)
				}
			} else {
				switch {
				case lastMove.Op == OpDecline:
				case s.cfg.stock == endImmediately && lastMove.Op == OpDiscard && s.stockN == 0:
				case s.cfg.stock == turnOverDiscards && lastMove.Op == OpDiscard && s.stockN == 0 && turnedBefore:
				default:
					t.Fatalf("%s: §8 the hand ended without a reason after %s (stock %d→%d)", o, FormatMove(m), stockBefore, s.stockN)
				}
			}
			tp := scTablePoints(v)
			round := s.Result().Rounds[len(s.Result().Rounds)-1]
			best := -1 << 60
			for i := 0; i < n; i++ {
				left := 0
				for _, c := range v.Shown[i].Cards(nil) {
					left += scValue(c)
				}
				want := tp[i] - left
				if i == out {
					want += s.cfg.bonus
				}
				if round[i] != want {
					t.Fatalf("%s: §9 seat %d scored %d, want %d (table %d, hand %d)", o, i, round[i], want, tp[i], left)
				}
				totals[i] += want
				best = max(best, totals[i])
			}
			if !reflect.DeepEqual(v.Totals, totals) {
				t.Fatalf("%s: §9 totals %v, want %v", o, v.Totals, totals)
			}
			ties := 0
			for i := 0; i < n; i++ {
				if totals[i] == best {
					ties++
				}
			}
			wantOver := best >= s.cfg.target && (ties == 1 || !s.cfg.playOn)
			if s.Over() != wantOver {
				t.Fatalf("%s: §10 over %v with totals %v", o, s.Over(), totals)
			}
		}
		t.Logf("%s: %d hands, over %v, totals %v", o, hands, s.Over(), totals)
		if !s.Over() {
			continue
		}
		var w []game.Seat
		best := -1 << 60
		for _, x := range totals {
			best = max(best, x)
		}
		for i, x := range totals {
			if x == best {
				w = append(w, game.Seat(i))
			}
		}
		if !reflect.DeepEqual(s.Result().Winners, w) {
			t.Errorf("%s: §10 winners %v, want %v", o, s.Result().Winners, w)
		}
	}
}

// rum500.md §12 jokers with the ace rule of §5: a joker laid off on a 2…K
// run stands for the ace at the end the player names (both fit); one taken
// from the pile may be laid off at once; it scores 15 at either end; nothing
// fits beyond it.
func TestSpecCheck_JokerAsAce(t *testing.T) {
	run := "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
	for _, end := range []string{"low", "high"} {
		s := build(t, pos{opts: "players=3 jokers=2", hands: []string{"JK 9D", "2C", "3C"}, pile: "QD",
			melds: []mspec{{run, 1}}, stock: "rest", play: true})
		refused(t, s, "layoff JK=AS 1", game.ErrIllegal)
		play(t, s, "layoff JK=AS 1 "+end)
		if s.table[0] != 15 {
			t.Errorf("§12 a joker as the %s ace scores %d, want 15", end, s.table[0])
		}
		for _, l := range legalTexts(s) {
			if strings.HasPrefix(l, "layoff") {
				t.Errorf("§5 nothing fits a 13-card run: %s", l)
			}
		}
	}
	s := build(t, pos{opts: "players=3 jokers=2", hands: []string{"9D 4H", "2C", "3C"}, pile: "QD JK",
		melds: []mspec{{run, 1}}, stock: "rest"})
	for _, l := range []string{"take JK=AS layoff 1 low", "take JK=AS layoff 1 high"} {
		if !hasLegal(s, l) {
			t.Errorf("§6.1 §12 %s not legal: %v", l, legalTexts(s))
		}
	}
}
