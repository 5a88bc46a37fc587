package rum500

import (
	"reflect"
	"testing"

	"cardroom/game"
)

// Conformance scenarios of rum500.md §14, one test each.

// §14.1 Deep take must be melded at once.
func TestScenario01DeepTake(t *testing.T) {
	s := build(t, pos{
		hands: []string{"8S 8D 5C", "2H 3H 4S", "9H 10H 6S"},
		pile:  "8H KC 3S QD",
		stock: "rest",
	})
	want := []string{"draw", "take 8H meld 8S 8H 8D"}
	if got := legalTexts(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("§14.1 legal draws: got %v, want %v", got, want)
	}
	for _, bad := range []string{"take KC meld KC QD 3S", "take 3S layoff 1", "take QD meld QD KC 8S", "take 8H meld 8S 8H"} {
		code := game.ErrIllegal
		refused(t, s, bad, code)
	}
	play(t, s, "take 8H meld 8S 8H 8D")
	if got := handStr(s, 0); got != "3S QD 5C KC" {
		t.Errorf("§14.1 hand after the take: %q, want 3S QD 5C KC", got)
	}
	if s.pileN != 0 {
		t.Errorf("§14.1 the pile should be empty until the discard, has %d", s.pileN)
	}
	if got := meldOwners(s, 0); got != "8S:0 8H:0 8D:0" {
		t.Errorf("§14.1 meld credit: %q", got)
	}
	if s.table[0] != 24 {
		t.Errorf("§14.1 table points %d, want 24", s.table[0])
	}
	if got := s.known[0].strs(); !reflect.DeepEqual(got, []string{"3S", "QD", "KC"}) {
		t.Errorf("§14.1 cards known to be held: %v", got)
	}
	// The take is one compound move: the seat is in its play phase at once.
	if s.phase != phPlay || s.toMove != 0 {
		t.Errorf("§14.1 after the take: phase %v, to move %d", s.phase, s.toMove)
	}
}

// scenario2 is the position after §14.2's take.
func scenario2(t *testing.T) *State {
	s := build(t, pos{
		hands: []string{"9S KH", "2H 3H 4S", "8D 9H 10H"},
		pile:  "7D 2C",
		melds: []mspec{{"4D 5D 6D", 1}},
		stock: "rest",
	})
	if !hasLegal(s, "take 7D layoff 1") {
		t.Fatalf("§14.2 take 7D layoff 1 not legal: %v", legalTexts(s))
	}
	play(t, s, "take 7D layoff 1")
	return s
}

// §14.2 Deep take for a lay-off on an opponent's meld.
func TestScenario02DeepTakeLayoff(t *testing.T) {
	s := scenario2(t)
	if got := handStr(s, 0); got != "9S KH 2C" {
		t.Errorf("§14.2 hand %q, want 9S KH 2C", got)
	}
	if got := meldOwners(s, 0); got != "4D:1 5D:1 6D:1 7D:0" {
		t.Errorf("§14.2 owners %q", got)
	}
	if s.table[0] != 7 || s.table[1] != 15 {
		t.Errorf("§14.2 credited points A=%d B=%d, want 7 and 15", s.table[0], s.table[1])
	}
}

// §14.3 Top card rule.
func TestScenario03TopCard(t *testing.T) {
	s := build(t, pos{hands: []string{"5C 6C JD", "2H", "3H"}, pile: "4C", stock: "rest"})
	if !hasLegal(s, "take 4C meld 4C 5C 6C") {
		t.Fatalf("§14.3 take 4C meld 4C 5C 6C should be legal: %v", legalTexts(s))
	}
	s = build(t, pos{hands: []string{"JD 9S 2H", "2C", "3H"}, pile: "4C", stock: "rest"})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw"}) {
		t.Fatalf("§14.3 with no use only draw is legal, got %v", got)
	}
	refused(t, s, "take 4C", game.ErrIllegal)
	refused(t, s, "take 4C meld 4C 5C 6C", game.ErrIllegal)
	s = build(t, pos{opts: "players=3 top_discard_free=true", hands: []string{"JD 9S 2H", "2C", "3H"}, pile: "4C", stock: "rest"})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw", "take 4C"}) {
		t.Fatalf("§14.3 top_discard_free: legal %v", got)
	}
	play(t, s, "take 4C")
	if got := handStr(s, 0); got != "9S 2H JD 4C" || s.phase != phPlay {
		t.Errorf("§14.3 after the free take: hand %q phase %v", got, s.phase)
	}
}

// §14.4 Ace scoring.
func TestScenario04AceScoring(t *testing.T) {
	for _, c := range []struct {
		meld string
		pts  int
	}{
		{"AH 2H 3H", 6},
		{"QH KH AH", 35},
		{"AS AD AC", 45},
	} {
		s := build(t, pos{hands: []string{c.meld + " 9S", "2C", "3C"}, pile: "5D", stock: "rest", play: true})
		play(t, s, "meld "+c.meld)
		if s.table[0] != c.pts {
			t.Errorf("§14.4 meld %s scores %d, want %d", c.meld, s.table[0], c.pts)
		}
	}
	// An ace held in hand at the end counts -15.
	s := build(t, pos{hands: []string{"2C", "AS", "3D"}, pile: "9H", stock: ""})
	play(t, s, "decline")
	if got := s.rounds[1]; got != -15 {
		t.Errorf("§14.4 ace in hand: %d, want -15", got)
	}
}

// §14.5 K-A-2 forbidden.
func TestScenario05NoRoundTheCorner(t *testing.T) {
	s := build(t, pos{hands: []string{"KC AC 2C 2S KH 4H", "5C", "6C"}, pile: "9H", stock: "rest", play: true,
		melds: []mspec{{"QS KS AS", 1}, {"AH 2H 3H", 1}}})
	refused(t, s, "meld KC AC 2C", game.ErrIllegal)
	refused(t, s, "layoff 2S 1", game.ErrIllegal)
	refused(t, s, "layoff KH 2", game.ErrIllegal)
	play(t, s, "layoff 4H 2")
	if got := meldOwners(s, 1); got != "AH:1 2H:1 3H:1 4H:0" {
		t.Errorf("§14.5 after 4H: %q", got)
	}
}

// §14.6 Ace laid off low.
func TestScenario06AceLow(t *testing.T) {
	s := build(t, pos{hands: []string{"AS 9D", "5C", "6C"}, pile: "9H", stock: "rest", play: true,
		melds: []mspec{{"2S 3S 4S", 1}}})
	refused(t, s, "layoff AS 1 high", game.ErrIllegal)
	play(t, s, "layoff AS 1")
	if s.table[0] != 1 {
		t.Errorf("§14.6 the low ace credits %d, want 1", s.table[0])
	}
	if got := meldOwners(s, 0); got != "AS:0 2S:1 3S:1 4S:1" {
		t.Errorf("§14.6 owners %q", got)
	}
	// The ace fits both ends of a 2…K run: the end must be named.
	s = build(t, pos{hands: []string{"AS 9D", "5C", "6C"}, pile: "9H", stock: "rest", play: true,
		melds: []mspec{{"2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 1}}})
	refused(t, s, "layoff AS 1", game.ErrIllegal)
	play(t, s, "layoff AS 1 high")
	if s.table[0] != 15 || FormatMove(game.Move{Op: OpMeld, Set: s.melds[0].faces, B: aceEnd(s.melds[0].faces, s.melds[0].lo)}) != "meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS" {
		t.Errorf("§14.6 high ace: %d points, meld %v", s.table[0], meldOwners(s, 0))
	}
}

// §14.7 Lay-off on a lay-off.
func TestScenario07LayoffOnLayoff(t *testing.T) {
	s := scenario2(t)
	play(t, s, "discard 9S")
	play(t, s, "draw")
	play(t, s, "discard 2H")
	play(t, s, "draw")
	if s.toMove != 2 {
		t.Fatalf("seat 2 should play, got %d", s.toMove)
	}
	play(t, s, "layoff 8D 1")
	if got := meldOwners(s, 0); got != "4D:1 5D:1 6D:1 7D:0 8D:2" {
		t.Errorf("§14.7 owners %q", got)
	}
	if s.table[2] != 8 {
		t.Errorf("§14.7 C credited %d, want 8", s.table[2])
	}
}

// §14.8 Set limits.
func TestScenario08SetLimits(t *testing.T) {
	s := build(t, pos{hands: []string{"7S 7H 7D 7C 2D", "5C", "6C"}, pile: "9H", stock: "rest", play: true})
	play(t, s, "meld 7S 7H 7D")
	play(t, s, "layoff 7C 1")
	if got := meldOwners(s, 0); got != "7S:0 7H:0 7D:0 7C:0" {
		t.Errorf("§14.8 four sevens: %q", got)
	}
	// Two decks (5 players): suits must differ; a fifth seven never fits.
	s = build(t, pos{opts: "players=5", hands: []string{"7H 7H 7C 7S 7D 7S 2D", "5C", "6C", "8C", "9C"},
		pile: "9H", stock: "rest", play: true})
	if s.cfg.decks != 2 {
		t.Fatalf("5 players should use 2 decks")
	}
	refused(t, s, "meld 7H 7H 7C", game.ErrIllegal)
	for _, l := range legalTexts(s) {
		m, _ := ParseMove(l)
		if m.Op == OpMeld && m.Set.Count() > 4 && m.Set&^rankMask[7] == 0 {
			t.Fatalf("§14.8 a set of more than 4: %s", l)
		}
	}
	play(t, s, "meld 7S 7H 7D 7C")
	refused(t, s, "layoff 7S 1", game.ErrIllegal)
	refused(t, s, "layoff 7H 1", game.ErrIllegal)
}

// §14.9 Going out without discarding.
func TestScenario09GoOut(t *testing.T) {
	s := build(t, pos{hands: []string{"9C 10C", "5C 2D", "6C 3D"}, pile: "9H", stock: "JC 4S 4H"})
	play(t, s, "draw")
	play(t, s, "meld 9C 10C JC")
	if s.phase != phDeal || s.out != 0 {
		t.Fatalf("§14.9 the hand should end at once: phase %v out %d", s.phase, s.out)
	}
	if len(s.ToAct(nil)) != 0 {
		t.Fatalf("§14.9 nobody plays after going out")
	}
	if s.rounds[0] != 29 {
		t.Errorf("§14.9 A scores %d, want 29 (hand value 0)", s.rounds[0])
	}
	s = build(t, pos{opts: "players=3 must_discard_to_go_out=true", hands: []string{"9C 10C", "5C 2D", "6C 3D"}, pile: "9H", stock: "JC 4S 4H"})
	play(t, s, "draw")
	refused(t, s, "meld 9C 10C JC", game.ErrIllegal)
	// §14.12 note: nor a take whose use empties the hand.
	s = build(t, pos{opts: "players=3 must_discard_to_go_out=true", hands: []string{"9C 10C", "5C 2D", "6C 3D"}, pile: "JC", stock: "4S 4H"})
	refused(t, s, "take JC meld 9C 10C JC", game.ErrIllegal)
	s = build(t, pos{hands: []string{"9C 10C", "5C 2D", "6C 3D"}, pile: "JC", stock: "4S 4H"})
	play(t, s, "take JC meld 9C 10C JC")
	if s.phase != phDeal || s.out != 0 {
		t.Errorf("§14.9 going out by a take ends the hand")
	}
}

// §14.10 Discard obligation.
func TestScenario10DiscardObligation(t *testing.T) {
	s := build(t, pos{hands: []string{"9C 10C 2S 2H 2D", "5C 2C", "6C 3D"}, pile: "9H", stock: "JC 4S 4H"})
	play(t, s, "draw")
	discards := 0
	for _, m := range s.Legal(0, nil) {
		c := s.Clone().(*State)
		if err := c.Apply(0, m); err != nil {
			t.Fatal(err)
		}
		if m.Op == OpDiscard {
			discards++
			if c.toMove != 1 || c.phase != phDraw {
				t.Errorf("§14.10 a discard ends the turn")
			}
		} else if c.toMove != 0 || c.phase != phPlay {
			t.Errorf("§14.10 %s ended the turn", FormatMove(m))
		}
	}
	if discards != 6 {
		t.Errorf("§14.10 %d discards, want one per card (6)", discards)
	}
	refused(t, s, "draw", game.ErrIllegal)
	play(t, s, "discard JC")
	refused(t, s, "discard 5C", game.ErrIllegal) // must draw first
}

// §14.11 Stock exhausted.
func TestScenario11StockExhausted(t *testing.T) {
	s := build(t, pos{hands: []string{"4C", "8C", "2C 9D"}, pile: "5S JH", stock: "", toMove: 2,
		melds: []mspec{{"2H 3H 4H", 0}}})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"decline"}) {
		t.Fatalf("§14.11 only decline is legal, got %v", got)
	}
	refused(t, s, "draw", game.ErrIllegal)
	play(t, s, "decline")
	if s.phase != phDeal {
		t.Fatalf("§14.11 decline ends the hand")
	}
	want := []int{9 - 4, -8, -11}
	if got := s.rounds; !reflect.DeepEqual(got, want) {
		t.Errorf("§14.11 scores %v, want %v", got, want)
	}
	s = build(t, pos{hands: []string{"4C", "8C", "JS JD"}, pile: "5S JH", stock: "", toMove: 2})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"decline", "take JH meld JS JH JD"}) {
		t.Fatalf("§14.11 legal %v", got)
	}
	play(t, s, "take JH meld JS JH JD")
	if s.phase != phDeal || s.out != 2 {
		// C went out (the take used the whole hand).
		t.Errorf("§14.11 phase %v out %d", s.phase, s.out)
	}
	s = build(t, pos{hands: []string{"4C", "8C", "JS JD 3C 9S"}, pile: "5S JH", stock: "", toMove: 2})
	play(t, s, "take JH meld JS JH JD")
	play(t, s, "discard 3C")
	if s.phase != phDraw || s.toMove != 0 {
		t.Errorf("§14.11 play continues with an empty stock")
	}
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"decline"}) {
		t.Errorf("§14.11 next seat: %v", got)
	}
}

// §14.12 Hand scoring: the worked examples of §9.
func TestScenario12HandScoring(t *testing.T) {
	// Two decks: the example has an 8D in A's set and another in B's run.
	s := build(t, pos{
		opts:  "players=3 decks=2",
		hands: []string{"9D", "KH AH 4C", "AD 10C 3D"},
		pile:  "5S",
		melds: []mspec{{"8S 8H 8D", 0}, {"AC 2C 3C", 0}, {"6D 7D 8D", 1}, {"QS KS AS", 1}},
		stock: "rest", play: true,
	})
	play(t, s, "layoff 9D 3")
	if want := []int{39, 27, -28}; !reflect.DeepEqual(s.rounds, want) {
		t.Errorf("§14.12 hand scores %v, want %v", s.rounds, want)
	}
	// The seed's example: 87 on the table, 90 in hand: -3.
	s = build(t, pos{hands: []string{"2C", "KS KH KD KC QS QH QD QC JS", "3C"}, pile: "5S", stock: ""})
	s.table[1] = 87
	play(t, s, "decline")
	if s.rounds[1] != -3 {
		t.Errorf("§14.12 seed example: %d, want -3", s.rounds[1])
	}
}

// §14.13 Reaching the target.
func TestScenario13Target(t *testing.T) {
	end := func(opts string, totals ...int) *State {
		s := build(t, pos{opts: opts, hands: []string{"", "", ""}, pile: "5S", stock: ""})
		copy(s.totals[:], totals)
		play(t, s, "decline")
		return s
	}
	s := end("", 512, 530, 480)
	if !s.Over() {
		t.Fatal("§14.13 game should be over")
	}
	if w := s.Result().Winners; !reflect.DeepEqual(w, []game.Seat{1}) {
		t.Errorf("§14.13 winners %v, want [1]", w)
	}
	if p := s.Settlement(); !reflect.DeepEqual(p, []Payment{{0, 1, 18}, {2, 1, 50}}) {
		t.Errorf("§14.13 settlement %v", p)
	}
	s = end("", 520, 520, 100)
	if w := s.Result().Winners; !s.Over() || !reflect.DeepEqual(w, []game.Seat{0, 1}) {
		t.Errorf("§14.13 co-winners: over %v winners %v", s.Over(), w)
	}
	if p := s.Settlement(); !reflect.DeepEqual(p, []Payment{{2, 0, 420}, {2, 1, 420}}) {
		t.Errorf("§14.13 co-winners' settlement %v", p)
	}
	s = end("players=3 tie_resolution=play_on", 520, 520, 100)
	if s.Over() || s.phase != phDeal {
		t.Errorf("§14.13 play_on: a tie for the top goes on")
	}
	s = end("", 400, 499, 100)
	if s.Over() {
		t.Errorf("§14.13 nobody reached 500")
	}
}

// §14.14 Deal sizes.
func TestScenario14DealSizes(t *testing.T) {
	for _, c := range []struct {
		players, hand, stock, decks int
	}{{2, 13, 25, 1}, {3, 7, 30, 1}, {4, 7, 23, 1}, {5, 7, 68, 2}, {8, 7, 47, 2}} {
		st, err := Engine{}.New(game.Options{"players": itoa(c.players)})
		if err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(5)
		st.RollChance(&r)
		st.RollChance(&r)
		s := st.(*State)
		for i := 0; i < c.players; i++ {
			if s.hands[i].Count() != c.hand {
				t.Errorf("§14.14 %d players: seat %d has %d cards", c.players, i, s.hands[i].Count())
			}
		}
		if s.pileN != 1 || s.stockN != c.stock || s.cfg.decks != c.decks {
			t.Errorf("§14.14 %d players: pile %d stock %d decks %d", c.players, s.pileN, s.stockN, s.cfg.decks)
		}
		if s.toMove != (s.dealer+1)%c.players {
			t.Errorf("§14.14 the dealer's left neighbour plays first")
		}
	}
}
