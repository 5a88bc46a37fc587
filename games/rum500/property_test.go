package rum500

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// checkInvariants verifies the state's bookkeeping.
func checkInvariants(t *testing.T, s *State, where string) {
	t.Helper()
	if s.handNo == 0 {
		return
	}
	n := s.cfg.n
	// Cards are conserved: deck = stock + pile + hands + table.
	var counts [53]int
	var full [maxCards]uint8
	total := s.fullDeck(&full)
	for _, c := range full[:total] {
		counts[c]++
	}
	for i := 0; i < s.stockN; i++ {
		counts[s.stock[i]]--
	}
	for i := 0; i < s.pileN; i++ {
		counts[s.pile[i]]--
	}
	for i := 0; i < n; i++ {
		for _, c := range s.hands[i].Indices(nil) {
			counts[c]--
		}
	}
	var table [maxSeats]int
	for k := 0; k < s.meldsN; k++ {
		m := &s.melds[k]
		for x := m.faces &^ m.jokers; x != 0; x &= x - 1 {
			counts[x.Lowest()]--
		}
		counts[jokerIx] -= m.jokers.Count()
		// Every meld on the table is valid.
		nm, reason := shape(m.faces, m.jokers, aceEnd(m.faces, m.lo))
		if reason != "" || nm.run != m.run || nm.lo != m.lo || nm.hi != m.hi || nm.rank != m.rank || nm.suit != m.suit {
			t.Fatalf("%s: meld %d invalid: %s (%s)", where, k+1, reason, meldOwners(s, k))
		}
		for _, sl := range m.order(nil) {
			o := int(m.owner[sl])
			if o < 0 || o >= n {
				t.Fatalf("%s: meld %d has a card without owner", where, k+1)
			}
			f := m.slotFace(sl)
			table[o] += m.points(f, m.jokers.Has(f), sl)
		}
	}
	for c, k := range counts {
		if k != 0 {
			t.Fatalf("%s: card %s count off by %d", where, cardStr(c), k)
		}
	}
	for i := 0; i < n; i++ {
		if table[i] != s.table[i] {
			t.Fatalf("%s: seat %d credited %d, melds say %d", where, i, s.table[i], table[i])
		}
		for _, c := range s.known[i].Indices(nil) {
			if s.hands[i].Has(c) < s.known[i].Has(c) {
				t.Fatalf("%s: seat %d known to hold %s but does not", where, i, cardStr(c))
			}
		}
	}
	if s.phase == phDraw && s.pileN == 0 && s.stockN == 0 {
		t.Fatalf("%s: nothing to draw from", where)
	}
}

// checkLegalExact checks that the legal list has no duplicates, that every
// listed move is accepted, and that moves near them which are not listed
// are refused without a change.
func checkLegalExact(t *testing.T, s *State, r *game.Rand, where string) {
	t.Helper()
	seat := game.Seat(s.toMove)
	legal := s.Legal(seat, nil)
	set := map[game.Move]bool{}
	for _, m := range legal {
		if set[m] {
			t.Fatalf("%s: %s listed twice", where, FormatMove(m))
		}
		set[m] = true
		c := *s
		c.hist = append([]histEntry(nil), s.hist...)
		c.rounds = append([]int(nil), s.rounds...)
		if err := c.Apply(seat, m); err != nil {
			t.Fatalf("%s: legal %s refused: %v", where, FormatMove(m), err)
		}
		back, err := ParseMove(FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("%s: %s parses back to %+v (%v), want %+v", where, FormatMove(m), back, err, m)
		}
	}
	try := func(m game.Move) {
		if set[m] {
			return
		}
		c := s.Clone().(*State)
		if err := c.Apply(seat, m); err == nil {
			t.Fatalf("%s: unlisted move %s (%+v) accepted; legal %v", where, FormatMove(m), m, legalTexts(s))
		}
		if !reflect.DeepEqual(c, s.Clone()) {
			t.Fatalf("%s: refused %s changed the state", where, FormatMove(m))
		}
	}
	for _, m := range legal {
		for k := 0; k < 4; k++ {
			v := m
			switch r.IntN(6) {
			case 0:
				v.Card = card(r.IntN(53))
			case 1:
				v.A = uint8(r.IntN(5))
			case 2:
				v.B = uint8(r.IntN(3))
			case 3:
				v.Set ^= game.Bit(r.IntN(52))
			case 4:
				v.Set2 ^= game.Bit(r.IntN(52))
			case 5:
				v.Op = uint8(1 + r.IntN(8))
			}
			try(v)
		}
	}
	// Oracle for melds: every subset of the hand (after the take, for
	// takes) that forms a valid natural meld is listed.
	h := s.hands[s.toMove]
	faces := h.One
	if faces.Count() > 11 {
		return
	}
	var idx []int
	for x := faces; x != 0; x &= x - 1 {
		idx = append(idx, x.Lowest())
	}
	for sub := 1; sub < 1<<len(idx); sub++ {
		if bits.OnesCount(uint(sub)) < 3 {
			continue
		}
		var ms game.Mask
		for j := range idx {
			if sub>>j&1 != 0 {
				ms |= game.Bit(idx[j])
			}
		}
		for b := EndNone; b <= EndHigh; b++ {
			if _, reason := shape(ms, 0, b); reason != "" {
				continue
			}
			m := game.Move{Op: OpMeld, Set: ms, B: b}
			wantOK := s.phase == phPlay && (!s.cfg.mustDisc || h.Count() > ms.Count())
			if set[m] != wantOK {
				t.Fatalf("%s: meld %s listed=%v, want %v", where, FormatMove(m), set[m], wantOK)
			}
		}
	}
}

type propConfig struct {
	opts  string
	games int
}

// TestRandomGames plays many random games, checking after every step that
// cards are conserved, every meld is valid, credited points match the melds,
// each hand's score is table − hand, and every hand ends.
func TestRandomGames(t *testing.T) {
	cfgs := []propConfig{
		{"players=2", 6}, {"players=3", 6}, {"players=4", 6}, {"players=5", 4}, {"players=8", 3},
		{"players=3 jokers=2", 4}, {"players=5 jokers=2", 3},
		{"players=4 must_discard_to_go_out=true top_discard_free=true", 3},
		{"players=4 stock_exhausted=end_immediately go_out_bonus=10", 3},
		{"players=4 stock_exhausted=turn_over_discards", 4},
		{"players=2 two_player_hand=10 tie_resolution=play_on", 3},
	}
	if testing.Short() {
		for i := range cfgs {
			cfgs[i].games = 1
		}
	}
	for ci, c := range cfgs {
		t.Run(strings.ReplaceAll(c.opts, " ", ","), func(t *testing.T) {
			o, err := game.ParseOptions(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			for g := 0; g < c.games; g++ {
				randomGame(t, o, uint64(ci*100+g))
			}
		})
	}
}

func randomGame(t *testing.T, o game.Options, seed uint64) {
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := game.NewRand(seed)
	cr := game.NewRand(seed + 1)
	var buf []game.Move
	steps, handSteps := 0, 0
	for !s.Over() {
		steps++
		where := fmt.Sprintf("seed %d step %d hand %d", seed, steps, s.handNo)
		if s.ChancePending() {
			s.RollChance(&r)
			handSteps = 0
			checkInvariants(t, s, where)
			continue
		}
		handSteps++
		if handSteps > 3000 {
			t.Fatalf("%s: the hand does not end", where)
		}
		if steps%5 == 0 {
			checkLegalExact(t, s, &cr, where)
		}
		buf = s.Legal(game.Seat(s.toMove), buf[:0])
		if len(buf) == 0 {
			t.Fatalf("%s: no legal move", where)
		}
		hand := s.handNo
		pre := *s // the tables and hands before the move
		m := buf[r.IntN(len(buf))]
		if err := s.Apply(game.Seat(s.toMove), m); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		checkInvariants(t, s, where)
		if (s.phase == phDeal || s.phase == phOver) && s.handNo == hand {
			// The hand ended with this move: score = credited − hand (+bonus).
			n := s.cfg.n
			last := s.rounds[len(s.rounds)-n:]
			for i := 0; i < n; i++ {
				want := s.table[i] - s.hands[i].points()
				if i == s.out {
					want += s.cfg.bonus
					if s.hands[i].Count() != 0 {
						t.Fatalf("%s: seat %d went out holding cards", where, i)
					}
				}
				if last[i] != want || s.totals[i] != pre.totals[i]+want {
					t.Fatalf("%s: seat %d scored %d (total %d), want %d", where, i, last[i], s.totals[i], want)
				}
			}
		}
		if steps > 200000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
	}
	res := s.Result()
	if len(res.Winners) == 0 || !res.HigherWins {
		t.Fatalf("seed %d: result %+v", seed, res)
	}
	for _, w := range res.Winners {
		if s.totals[w] < s.cfg.target {
			t.Fatalf("seed %d: winner %d below the target", seed, w)
		}
	}
}

// TestRecordReplay writes records of random games and replays them.
func TestRecordReplay(t *testing.T) {
	for i, o := range []string{"players=2", "players=3 jokers=2", "players=4", "players=5", "players=8 target=200", "players=4 stock_exhausted=turn_over_discards"} {
		opts, _ := game.ParseOptions(o)
		st, err := Engine{}.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(uint64(i + 40))
		rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
		if err := record.Play(st, &r, record.RandomPolicy(&r), rc, 0); err != nil {
			t.Fatal(err)
		}
		text := rc.Rec.String()
		if !strings.Contains(text, "\ndeal\n  0: ") || !strings.Contains(text, "\n  up ") || !strings.Contains(text, "\n  stock ") {
			t.Fatalf("%s: the record lacks the deal:\n%.300s", o, text)
		}
		rec, err := record.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		back, err := record.Replay(Engine{}, rec, nil)
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		if !reflect.DeepEqual(back.Result(), st.Result()) {
			t.Fatalf("%s: replay result %+v, want %+v", o, back.Result(), st.Result())
		}
		for seat := game.Spectator; int(seat) < st.Seats(); seat++ {
			if !reflect.DeepEqual(back.View(seat), st.View(seat)) {
				t.Fatalf("%s: replayed view of %d differs", o, seat)
			}
		}
	}
}
