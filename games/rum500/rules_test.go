package rum500

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"cardroom/game"
)

// §12 options: defaults and validation.
func TestOptions(t *testing.T) {
	st, err := Engine{}.New(game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "decks=1 go_out_bonus=0 jokers=0 meld_jokers=any must_discard_to_go_out=false players=4 stock_exhausted=end_when_declined target=500 tie_resolution=shared top_discard_free=false two_player_hand=13"
	if got := st.Options().String(); got != want {
		t.Errorf("§12 defaults:\n got %s\nwant %s", got, want)
	}
	st, _ = Engine{}.New(game.Options{"players": "6"})
	if st.Options()["decks"] != "2" {
		t.Errorf("§3 6 players use 2 decks")
	}
	for _, bad := range []string{
		"players=1", "players=9", "players=x", "decks=3", "players=8 decks=1", "two_player_hand=12",
		"jokers=1", "target=0", "target=-5", "top_discard_free=yes", "must_discard_to_go_out=1",
		"stock_exhausted=reshuffle", "go_out_bonus=-1", "tie_resolution=split", "colour=red",
	} {
		o, err := game.ParseOptions(bad)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (Engine{}).New(o); err == nil {
			t.Errorf("§12 option %q accepted", bad)
		}
	}
	for _, good := range []string{"players=7 decks=1", "players=2 decks=2 two_player_hand=10", "players=8 jokers=2", "target=1 go_out_bonus=50"} {
		o, _ := game.ParseOptions(good)
		if _, err := (Engine{}).New(o); err != nil {
			t.Errorf("§12 option %q refused: %v", good, err)
		}
	}
}

// Jokers (§1, §2, §12): a joker stands for one fixed card, scores 15.
func TestJokers(t *testing.T) {
	s := build(t, pos{opts: "players=3 jokers=2", hands: []string{"5C 7C JK 8S 8H 9D", "2C", "3C"}, pile: "KD", stock: "rest", play: true})
	for _, l := range []string{"meld 5C JK=6C 7C", "meld 8S 8H JK=8D", "meld 8S 8H JK=8C"} {
		if !hasLegal(s, l) {
			t.Fatalf("%s should be legal: %v", l, legalTexts(s))
		}
	}
	refused(t, s, "meld 5C JK=6C JK=7C", game.ErrIllegal)
	refused(t, s, "meld 5C JK 7C", game.ErrMalformed)
	play(t, s, "meld 5C JK=6C 7C")
	if s.table[0] != 27 {
		t.Errorf("joker scores 15 on the table: %d", s.table[0])
	}
	v := s.View(1).(*View)
	if m := v.Melds[0]; cardList(m.Cards(nil)) != "5C JK 7C" || cardList(m.Stands) != "5C 6C 7C" || m.Text() != "5C JK=6C 7C" {
		t.Errorf("joker in the view: %+v", m)
	}
	// The natural 6C can no longer go where the joker is.
	s = build(t, pos{opts: "players=3 jokers=2", hands: []string{"6C JK 9D", "2C", "3C"}, pile: "KD", stock: "rest", play: true,
		melds: []mspec{{"5C JK=6C 7C", 1}}})
	refused(t, s, "layoff 6C 1", game.ErrIllegal)
	for _, l := range []string{"layoff JK=4C 1", "layoff JK=8C 1"} {
		if !hasLegal(s, l) {
			t.Errorf("%s should be legal: %v", l, legalTexts(s))
		}
	}
	play(t, s, "layoff JK=8C 1")
	if s.table[0] != 15 || s.hands[0].Jokers != 0 {
		t.Errorf("laid-off joker: table %d", s.table[0])
	}
	// Taking a joker from the pile: it must be used at once.
	s = build(t, pos{opts: "players=3 jokers=2", hands: []string{"5C 7C 9D", "2C", "3C"}, pile: "KD JK", stock: "rest"})
	if got := legalTexts(s); !reflect.DeepEqual(got, []string{"draw", "take JK meld 5C JK=6C 7C"}) {
		t.Errorf("joker take: %v", got)
	}
	// A joker held in hand at the end counts -15.
	s = build(t, pos{opts: "players=3 jokers=2", hands: []string{"2C", "JK", "3D"}, pile: "9H", stock: ""})
	play(t, s, "decline")
	if s.rounds[1] != -15 {
		t.Errorf("joker in hand: %d", s.rounds[1])
	}
}

// §5 runs: the 13-card run and where its ace is.
func TestThirteenCardRun(t *testing.T) {
	all := "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
	s := build(t, pos{hands: []string{all + " 9D", "2C", "3C"}, pile: "KD", stock: "rest", play: true})
	low, high := "meld "+all, "meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
	if !hasLegal(s, low) || !hasLegal(s, high) {
		t.Fatalf("both 13-card runs should be legal")
	}
	if _, err := ParseMove("meld 2S 3S AS 4S 5S 6S 7S 8S 9S 10S JS QS KS"); game.Code(err) != game.ErrMalformed {
		t.Errorf("a 13-card run must show its ace: %v", err)
	}
	c := s.Clone().(*State)
	play(t, c, low)
	if c.table[0] != 1+2+3+4+5+6+7+8+9+10+30 {
		t.Errorf("low 13-card run scores %d", c.table[0])
	}
	play(t, s, high)
	if s.table[0] != 15+2+3+4+5+6+7+8+9+10+30 {
		t.Errorf("high 13-card run scores %d", s.table[0])
	}
	// Nothing fits a 13-card run, whatever the number of decks.
	s = build(t, pos{opts: "players=5", hands: []string{"AS KS 2S 9D", "2C", "3C", "4C", "5C"}, pile: "KD", stock: "rest", play: true,
		melds: []mspec{{"2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 1}}})
	play(t, s, "layoff AS 1 low")
	for _, l := range legalTexts(s) {
		if strings.HasPrefix(l, "layoff") {
			t.Errorf("%s on a full run", l)
		}
	}
}

// §8 stock_exhausted=end_immediately and turn_over_discards.
func TestStockExhaustedOptions(t *testing.T) {
	s := build(t, pos{opts: "players=3 stock_exhausted=end_immediately", hands: []string{"4C 9S", "8C", "2C"}, pile: "5S", stock: "KD"})
	play(t, s, "draw")
	play(t, s, "discard KD")
	if s.phase != phDeal || s.out != -1 {
		t.Errorf("§8 end_immediately: the hand ends after the turn that drew the last card")
	}

	s = build(t, pos{opts: "players=3 stock_exhausted=turn_over_discards", hands: []string{"4C 9S", "8C 10H", "2C 5H"}, pile: "5S 7D 3H", stock: "KD"})
	play(t, s, "draw")
	play(t, s, "discard KD")
	if s.phase != phDraw || s.toMove != 1 || !s.turned || s.stockN != 3 || s.pileN != 1 {
		t.Fatalf("§8 turn_over: phase %v stock %d pile %d", s.phase, s.stockN, s.pileN)
	}
	v := s.View(2).(*View)
	if cardList(v.StockCards) != "5S 7D 3H" || cardList(v.Pile) != "KD" {
		t.Fatalf("§8 turned-over stock (bottom card on top): %v, pile %v", v.StockCards, v.Pile)
	}
	play(t, s, "draw")
	if got := s.View(2).(*View).Known[1].strs(); !reflect.DeepEqual(got, []string{"5S"}) {
		t.Errorf("a card drawn from the public stock is known: %v", got)
	}
	play(t, s, "discard 5S")
	play(t, s, "draw")
	play(t, s, "discard 2C")
	play(t, s, "draw")
	if s.stockN != 0 {
		t.Fatalf("stock %d", s.stockN)
	}
	play(t, s, "discard 9S")
	if s.phase != phDeal {
		t.Errorf("§8 the pile is turned over once a hand: the hand ends")
	}
}

// §9 go_out_bonus.
func TestGoOutBonus(t *testing.T) {
	s := build(t, pos{opts: "players=3 go_out_bonus=25", hands: []string{"9C 10C JC", "5C", "6C"}, pile: "9H", stock: "rest", play: true})
	play(t, s, "meld 9C 10C JC")
	if s.rounds[0] != 29+25 {
		t.Errorf("§9 bonus: %d", s.rounds[0])
	}
}

// §11 views: what is public and what is private.
func TestViews(t *testing.T) {
	s := scenario2(t)
	for seat := game.Spectator; seat < 3; seat++ {
		v := s.View(seat).(*View)
		if seat >= 0 && strings.Join(v.Hand.strs(), " ") != handStr(s, int(seat)) {
			t.Errorf("seat %d sees hand %v", seat, v.Hand)
		}
		if seat < 0 && (v.HasHand() || v.Hand != Hand{}) {
			t.Errorf("a spectator sees a hand")
		}
		if v.Shown != nil || v.StockCards != nil {
			t.Errorf("hidden cards shown during play")
		}
		if !reflect.DeepEqual(v.HandSizes, []int{3, 3, 3}) || v.Stock != s.stockN || len(v.Pile) != 0 {
			t.Errorf("public sizes: %+v", v)
		}
		if !reflect.DeepEqual(v.Known[0].strs(), []string{"2C"}) || !reflect.DeepEqual(v.Moves, []Played{{0, mustMove(t, "take 7D layoff 1")}}) {
			t.Errorf("known %v moves %v", v.Known, v.Moves)
		}
		if m := v.Melds[0]; !reflect.DeepEqual(m.Owners, []game.Seat{1, 1, 1, 0}) || m.Text() != "4D 5D 6D 7D" || m.Kind() != "run" {
			t.Errorf("meld view %+v", m)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		// Nobody else's hand leaks: seat 1 holds 2H 3H 4S.
		if seat != 1 && strings.Contains(string(b), "3H") {
			t.Errorf("seat 1's hand leaks into the view of %d: %s", seat, b)
		}
		if v.String() == "" {
			t.Error("empty text view")
		}
	}
	// Sample respects the known cards and the hand sizes.
	r := game.NewRand(9)
	for i := 0; i < 50; i++ {
		st, err := Engine{}.Sample(s.View(2), &r)
		if err != nil {
			t.Fatal(err)
		}
		x := st.(*State)
		if x.hands[0].Has(ix(game.NewCard(game.Clubs, 2))) == 0 || x.hands[2] != s.hands[2] {
			t.Fatalf("sample ignores known cards or the own hand")
		}
		if !reflect.DeepEqual(x.View(2), s.View(2)) {
			t.Fatalf("Sample(v).View != v")
		}
	}
}

// The chance texts: a deal replays exactly, and bad deals are refused.
func TestChanceTexts(t *testing.T) {
	st, _ := Engine{}.New(game.Options{"players": "3"})
	if err := st.ApplyChance("deal"); game.Code(err) != game.ErrBadChance {
		t.Errorf("a deal before the dealer: %v", err)
	}
	if err := st.ApplyChance("dealer 3"); game.Code(err) != game.ErrBadChance {
		t.Errorf("dealer 3 of 3 seats: %v", err)
	}
	if err := st.ApplyChance("dealer 2"); err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(1)
	text := st.SampleChance(&r)
	lines := strings.Split(text, "\n")
	if lines[0] != "deal" || !strings.HasPrefix(lines[1], "0: ") || !strings.HasPrefix(lines[4], "up ") || !strings.HasPrefix(lines[5], "stock ") {
		t.Fatalf("deal text:\n%s", text)
	}
	for _, bad := range []string{
		strings.Replace(text, lines[4], "up "+strings.Fields(lines[5])[1], 1), // a card twice
		strings.Replace(text, lines[1], lines[1]+" 2S", 1),                    // too many cards
		strings.Join(append(append([]string{}, lines[:3]...), lines[4:]...), "\n"),
		text + "\nup 2S",
		"dealer 1",
	} {
		if err := st.ApplyChance(bad); game.Code(err) != game.ErrBadChance {
			t.Errorf("bad deal accepted (%v):\n%s", err, bad)
		}
	}
	if err := st.ApplyChance(text); err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if got := s.dealText(); got != text {
		t.Errorf("deal does not round-trip:\n got %s\nwant %s", got, text)
	}
	if s.toMove != 0 || s.dealer != 2 {
		t.Errorf("the dealer's left plays first: dealer %d to move %d", s.dealer, s.toMove)
	}
	if err := st.ApplyChance(text); game.Code(err) != game.ErrNoChance {
		t.Errorf("a deal while play goes on: %v", err)
	}
}
