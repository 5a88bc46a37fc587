package pisyedili

import (
	"fmt"
	"reflect"
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/record"
)

// conserved checks that the hands, the stock and the pile hold exactly the
// game's cards (§1: 106 or 104 physical cards) while a hand is in play.
func conserved(s *State) error {
	if s.ph == PhaseDeal || s.ph == PhaseOver {
		return nil
	}
	var count [53]int
	n := 0
	for p := 0; p < s.n; p++ {
		if got := s.h1[p].Count() + s.h2[p].Count(); got != s.hn[p] {
			return fmt.Errorf("seat %d: hand size %d but %d cards", p, s.hn[p], got)
		}
		if s.h2[p]&^s.h1[p] != 0 {
			return fmt.Errorf("seat %d: a second copy without a first", p)
		}
		for i := 0; i < 53; i++ {
			if s.h1[p].Has(i) {
				count[i]++
				n++
			}
			if s.h2[p].Has(i) {
				count[i]++
				n++
			}
		}
	}
	for _, c := range s.stock[:s.stockN] {
		count[idx(c)]++
		n++
	}
	for _, c := range s.pile[:s.pileN] {
		count[idx(c)]++
		n++
	}
	if n != s.total {
		return fmt.Errorf("%d cards in play, want %d", n, s.total)
	}
	for i := 0; i < 53; i++ {
		want := 0
		if s.full1.Has(i) {
			want++
		}
		if s.full2.Has(i) {
			want++
		}
		if count[i] != want {
			return fmt.Errorf("%s: %d copies, want %d", game.Standard.Format(faceCard[i]), count[i], want)
		}
	}
	return nil
}

// voidsHold checks the public inferences of §6/§7 against the true hands:
// a seat holds at most k cards of a shown void.
func voidsHold(s *State) error {
	for p := 0; p < s.n; p++ {
		for w, vd := range s.voids[p] {
			if n := msCount(s.h1[p], s.h2[p], vd.f); vd.f != 0 && n > vd.k {
				return fmt.Errorf("seat %d holds %d cards of its %s void, received %d since", p, n, voidNames[w], vd.k)
			}
		}
	}
	return nil
}

// checkScores checks a finished hand's penalties (§11): the finisher scores 0
// and holds nothing; everyone else scores the multiplier times their cards.
func checkScores(s *State, r *result) error {
	want := 1
	if r.finisher >= 0 {
		want = Multiplier(r.card)
	}
	if r.mult != want {
		return fmt.Errorf("multiplier %d, want %d for %v", r.mult, want, r.card)
	}
	for p := 0; p < s.n; p++ {
		if int(r.finisher) == p {
			if r.points[p] != 0 || r.final1[p] != 0 {
				return fmt.Errorf("finisher %d scores %d", p, r.points[p])
			}
			continue
		}
		if got := r.mult * msValue(r.final1[p], r.final2[p]); got != r.points[p] {
			return fmt.Errorf("seat %d: %d points, want %d × value = %d", p, r.points[p], r.mult, got)
		}
	}
	return nil
}

var propertyConfigs = []game.Options{
	{"players": "2"},
	{"players": "2", "jokers": "false"},
	{"players": "4"},
	{"players": "4", "jokers": "false"},
	{"players": "7"},
	{"players": "7", "jokers": "false"},
	{"players": "4", "seven_stack": "doubling", "penalty_ends_turn": "false", "joker_follow": "any", "finishing_card_effects": "true", "ten_mode": "reverse"},
	{"players": "3", "jack_wild": "false", "jack_on_jack": "false", "play_any_after_draw": "true", "draw_until_playable": "true"},
}

// TestRandomGames: many random games for 2, 4 and 7 players, with and without
// jokers: cards are conserved at every step (§1), every hand ends (§9),
// penalties are the card values times the multiplier (§11), and the record
// replays to the same game (records).
func TestRandomGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	for _, o := range propertyConfigs {
		totalShuffles := 0
		for g := 0; g < games; g++ {
			s, rc, sh := playGameRecorded(t, o, uint64(100+g))
			totalShuffles += sh
			// Record → parse → replay reproduces the game.
			text := rc.Rec.String()
			parsed, err := record.ParseString(text)
			if err != nil {
				t.Fatalf("%s: record does not parse: %v", o, err)
			}
			re, err := record.Replay(Engine{}, parsed, nil)
			if err != nil {
				t.Fatalf("%s: record does not replay: %v", o, err)
			}
			if !reflect.DeepEqual(re.(*State).Result(), s.Result()) || gametest.Snapshot(t, re) != gametest.Snapshot(t, s) {
				t.Fatalf("%s: the replayed game differs", o)
			}
		}
		if totalShuffles == 0 {
			t.Errorf("%s: no reshuffle in %d games: the test does not exercise §10", o, games)
		}
	}
}

// playGameRecorded is playGame with the seats recorded properly.
func playGameRecorded(t *testing.T, o game.Options, seed uint64) (*State, *record.Recorder, int) {
	t.Helper()
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	rng := game.NewRand(seed)
	rc := record.NewRecorder(Engine{}, s.Options(), nil, "")
	var buf []game.Move
	scored, hand, moves, shuffles := 0, 0, 0, 0
	for step := 0; !s.Over(); step++ {
		if step > 200000 {
			t.Fatalf("%s seed %d: no end after %d steps", o, seed, step)
		}
		if s.ChancePending() {
			if s.chance == ChanceShuffle {
				shuffles++
			}
			text := s.SampleChance(&rng)
			if err := s.ApplyChance(text); err != nil {
				t.Fatalf("%s seed %d: own chance %q refused: %v", o, seed, text, err)
			}
			rc.Chance(text)
		} else {
			if s.hand != hand {
				hand, moves = s.hand, 0
			}
			seat := game.Seat(s.turn)
			buf = s.Legal(seat, buf[:0])
			var m game.Move
			if moves < 300 {
				m = buf[rng.IntN(len(buf))]
			} else {
				m = playFirst(buf, &rng)
			}
			moves++
			text := s.FormatMove(m)
			if err := s.Apply(seat, m); err != nil {
				t.Fatalf("%s seed %d: legal move %q refused: %v", o, seed, text, err)
			}
			rc.Move(seat, text)
		}
		if err := conserved(s); err != nil {
			t.Fatalf("%s seed %d step %d: §1 conservation: %v", o, seed, step, err)
		}
		if err := voidsHold(s); err != nil {
			t.Fatalf("%s seed %d step %d: %v", o, seed, step, err)
		}
		if s.hasCur && len(s.hist)+1 != scored {
			scored = len(s.hist) + 1
			if err := checkScores(s, &s.cur); err != nil {
				t.Fatalf("%s seed %d hand %d: §11: %v", o, seed, scored, err)
			}
		}
	}
	rc.Finish(s)
	if scored != s.cfg.hands || len(s.Result().Rounds) != s.cfg.hands {
		t.Fatalf("%s: %d hands scored, want %d", o, scored, s.cfg.hands)
	}
	return s, rc, shuffles
}

// TestUniformHandsEnd: with uniformly random moves (voluntary draws
// included, so hands run to thousands of moves and many reshuffles) every
// hand still ends (§9).
func TestUniformHandsEnd(t *testing.T) {
	for _, o := range []game.Options{{"players": "2"}, {"players": "4"}, {"players": "7", "jokers": "false"}, {"players": "4", "draw_until_playable": "true"}} {
		st, _ := Engine{}.New(o)
		proto := st.(*State)
		proto.ApplyChance("dealer 0")
		rng := game.NewRand(3)
		buf := make([]game.Move, 0, 128)
		for h := 0; h < 20; h++ {
			s := *proto
			moves := 0
			for s.ph != PhaseDeal || s.hand == 0 {
				if s.Over() {
					break
				}
				if s.ChancePending() {
					s.RollChance(&rng)
					continue
				}
				buf = s.Legal(game.Seat(s.turn), buf[:0])
				if err := s.Apply(game.Seat(s.turn), buf[rng.IntN(len(buf))]); err != nil {
					t.Fatal(err)
				}
				moves++
				if moves > 2_000_000 {
					t.Fatalf("%s: a uniform random hand did not end in %d moves", o, moves)
				}
				if moves%97 == 0 {
					if err := conserved(&s); err != nil {
						t.Fatalf("%s: %v", o, err)
					}
				}
			}
			if !s.hasCur {
				t.Fatalf("%s: hand not scored", o)
			}
		}
	}
}

// TestOptions: every option of §13 is validated.
func TestOptions(t *testing.T) {
	st, err := Engine{}.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "draw_until_playable=false finishing_card_effects=false hands=4 jack_on_jack=true jack_wild=true joker_follow=transparent jokers=true penalty_ends_turn=true play_any_after_draw=false players=4 seven_stack=linear ten_mode=bounce"
	if got := st.Options().String(); got != want {
		t.Fatalf("§13 defaults:\n got %s\nwant %s", got, want)
	}
	if got := must(t, game.Options{"players": "6"}).Options()["hands"]; got != "6" {
		t.Fatalf("§12: hands defaults to players, got %s", got)
	}
	for _, bad := range []game.Options{
		{"players": "1"}, {"players": "8"}, {"players": "x"},
		{"jokers": "yes"}, {"hands": "0"}, {"hands": "-2"},
		{"seven_stack": "triple"}, {"penalty_ends_turn": "1"}, {"jack_wild": ""},
		{"jack_on_jack": "no"}, {"joker_follow": "wild"}, {"play_any_after_draw": "True"},
		{"draw_until_playable": "2"}, {"finishing_card_effects": "maybe"}, {"ten_mode": "skip"},
		{"colour": "red"},
	} {
		if _, err := (Engine{}).New(bad); err == nil {
			t.Errorf("§13: options %s accepted", bad)
		}
	}
	s := must(t, game.Options{"jokers": "false"}).(*State)
	if s.total != 104 {
		t.Fatalf("§1: jokers=false gives %d cards", s.total)
	}
}

func must(t *testing.T, o game.Options) game.State {
	t.Helper()
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDealValidation: the deal outcome must give 7 cards to each seat and be
// a permutation of the game's cards (§3).
func TestDealValidation(t *testing.T) {
	s := must(t, game.Options{"jokers": "false"}).(*State)
	if err := s.ApplyChance("dealer 4"); game.Code(err) != game.ErrBadChance {
		t.Fatalf("dealer 4 with 4 players: %v", err)
	}
	if err := s.ApplyChance("deal"); game.Code(err) != game.ErrBadChance {
		t.Fatalf("deal before dealer: %v", err)
	}
	if err := s.ApplyChance("dealer 1"); err != nil {
		t.Fatal(err)
	}
	good := fullDeal(t, s, nil, "")
	before := *s
	for name, bad := range map[string]string{
		"joker in a 104-card game": replaceFirst(good, "AS", "JK"),
		"a card three times":       replaceFirst(good, "KC", "AS"),
		"six cards":                replaceFirst(good, "AS AS ", "AS "),
		"no stock":                 good[:len(good)-len(lastLine(good))-1],
		"seat twice":               replaceFirst(good, "1:", "0:"),
		"seat 4":                   good + "\n4: 2S",
		"garbage":                  good + "\nfoo",
	} {
		if err := s.ApplyChance(bad); game.Code(err) != game.ErrBadChance {
			t.Errorf("%s: want bad_chance, got %v", name, err)
		}
		if !reflect.DeepEqual(before, *s) {
			t.Fatalf("%s: refused deal changed the state", name)
		}
	}
	if err := s.ApplyChance(good); err != nil {
		t.Fatal(err)
	}
	if err := conserved(s); err != nil {
		t.Fatal(err)
	}
	if s.turn != 2 || s.stockN != 104-28 {
		t.Fatalf("§3: dealer 1 → seat 2 opens; stock %d", s.stockN)
	}
}

func replaceFirst(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func lastLine(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			return s[i+1:]
		}
	}
	return s
}
