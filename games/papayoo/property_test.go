package papayoo

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// playRandom plays s to the end through the generic API (Legal, Apply,
// SampleChance, ApplyChance), checking the card invariants after every step;
// onChance, if set, sees the state and each chance text before it applies.
func playRandom(t testing.TB, s *State, r *game.Rand, onChance func(*State, string)) {
	t.Helper()
	var buf []game.Move
	var seats []game.Seat
	for steps := 0; !s.Over(); steps++ {
		if steps > 100000 {
			t.Fatal("game does not end")
		}
		if s.ChancePending() {
			text := s.SampleChance(r)
			if onChance != nil {
				onChance(s, text)
			}
			if err := s.ApplyChance(text); err != nil {
				t.Fatalf("own chance %q refused: %v", text, err)
			}
			checkInvariants(t, s)
			continue
		}
		seats = s.ToAct(seats[:0])
		if len(seats) == 0 {
			t.Fatal("nobody to act and no chance pending")
		}
		seat := seats[r.IntN(len(seats))]
		buf = s.Legal(seat, buf[:0])
		if len(buf) == 0 {
			t.Fatalf("seat %d must act but has no legal move", seat)
		}
		if s.phase == phPass {
			if want := int(binom[s.hs][s.ks]); len(buf) != want {
				t.Fatalf("%d legal passes, want C(%d,%d) = %d", len(buf), s.hs, s.ks, want)
			}
		}
		if err := s.Apply(seat, buf[r.IntN(len(buf))]); err != nil {
			t.Fatalf("legal move refused: %v", err)
		}
		checkInvariants(t, s)
	}
}

var cardToken = regexp.MustCompile(`"(\d{1,2}[SHDCP])"`)

// checkView checks that obs's view shows no card it may not know: only its
// own hand, its own pass, what it received once the pass resolved, and the
// cards played this round.
func checkView(t testing.TB, s *State, obs game.Seat) {
	t.Helper()
	n := int(s.n)
	var allowed game.Mask
	for k := 0; k < int(s.tricks)*n+int(s.inTrick); k++ {
		allowed |= game.Bit(int(s.plays[k]))
	}
	if s.phase == phOver || (s.phase == phDeal && s.round > 0) {
		allowed = s.deck // the whole round has been played
	}
	if s.pap >= 0 {
		allowed |= game.Bit(int(s.pap)) // the Papayoo's name is public
	}
	if obs >= 0 {
		allowed |= s.hands[obs]
		if s.passed&(1<<uint(obs)) != 0 {
			allowed |= s.pass[obs]
			if s.phase != phPass {
				allowed |= s.pass[game.Prev(obs, n)]
			}
		}
	}
	v := s.view(obs)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	// The server's path writes the same bytes from reused memory (which
	// the previous views of other games, sizes and phases used before).
	if d := s.AppendViewJSON([]byte("x"), obs); string(d[1:]) != string(b) {
		t.Fatalf("AppendViewJSON of %d:\n%s\nwant the view's JSON:\n%s", obs, d[1:], b)
	}
	for _, m := range cardToken.FindAllStringSubmatch(string(b), -1) {
		i, err := parseCard(m[1])
		if err != nil {
			t.Fatalf("view shows a bad card %q", m[1])
		}
		if !allowed.Has(i) {
			t.Fatalf("view of %d leaks %s (phase %s): %s", obs, m[1], v.Phase, b)
		}
	}
	if obs >= 0 && v.Hand != s.hands[obs] {
		t.Fatalf("view of %d: hand %s", obs, v.Hand.Format(deck))
	}
	if obs < 0 && (v.Hand != 0 || v.MyPass != 0 || v.Received != 0 || !bytes.Contains(b, []byte(`"hand":null,`)) ||
		!bytes.Contains(b, []byte(`"my_pass":null,"received":null,`))) {
		t.Fatalf("spectator view has private parts: %s", b)
	}
}

// TestAppendViewJSONAllocs: once its memory has grown, writing a view
// allocates nothing (game.ViewJSONAppender; the server writes every
// seat's view on every move).
func TestAppendViewJSONAllocs(t *testing.T) {
	s := mustNew(t, "players=4 rounds=3")
	r := game.NewRand(5)
	var buf []game.Move
	var seats []game.Seat
	for steps := 0; steps < 40; steps++ { // into the trick play
		if s.ChancePending() {
			if err := s.ApplyChance(s.SampleChance(&r)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		seats = s.ToAct(seats[:0])
		buf = s.Legal(seats[0], buf[:0])
		mustApplyMove(t, s, seats[0], buf[r.IntN(len(buf))])
	}
	if s.phase != phPlay || s.tricks == 0 {
		t.Fatalf("phase %s after 40 steps, %d tricks: want trick play", s.phaseName(), s.tricks)
	}
	out := make([]byte, 0, 8192)
	obs := game.Seat(0)
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items: no allocation count")
	}
	allocs := testing.AllocsPerRun(100, func() {
		out = s.AppendViewJSON(out[:0], obs)
		if obs++; obs > 3 { // every seat, then the spectator (-1)
			obs = game.Spectator
		}
	})
	if allocs != 0 {
		t.Fatalf("AppendViewJSON: %.1f allocations a view, want 0", allocs)
	}
}

// checkSample checks Sample(v).View(obs) == v and the sampled state's own
// invariants.
func checkSample(t testing.TB, s *State, obs game.Seat, r *game.Rand) {
	t.Helper()
	v := s.view(obs)
	st, err := Engine{}.Sample(v, r)
	if err != nil {
		t.Fatalf("Sample(view of %d, phase %s): %v\n%s", obs, v.Phase, err, v)
	}
	got := st.View(obs)
	if !reflect.DeepEqual(got, v) {
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(got)
		t.Fatalf("Sample(v).View(%d) != v\nwant %s\ngot  %s", obs, a, b)
	}
	checkInvariants(t, st.(*State))
}

// TestPropertyRandomGames plays many random games of every player count
// and checks after every step: every card in exactly one place, each
// round's points sum to 250 (§4.6), no view shows a card its observer may
// not know, Sample(v).View(obs) == v, refused moves change nothing, and
// clones are independent.
func TestPropertyRandomGames(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for n := 3; n <= 8; n++ {
		for g := 0; g < games; g++ {
			r := game.NewRand(uint64(n*1000 + g))
			sr := game.NewRand(uint64(n*7777 + g))
			s := mustNew(t, "players="+strconv.Itoa(n)+" rounds=2")
			step := 0
			var buf []game.Move
			check := func() {
				step++
				for obs := game.Seat(-1); int(obs) < n; obs++ {
					checkView(t, s, obs)
				}
				if step%3 == 0 {
					checkSample(t, s, game.Seat(sr.IntN(n+1)-1), &sr)
				}
				if s.phase == phOver || s.phase == phDeal && s.round > 0 || s.phase == phDie {
					for obs := game.Seat(-1); int(obs) < n; obs++ {
						checkSample(t, s, obs, &sr)
					}
				}
				// A refused move leaves the state exactly as it was.
				before := s.Clone().(*State)
				bad := []struct {
					seat game.Seat
					m    game.Move
				}{
					{game.Seat(n), game.Move{Op: OpPlay, Card: cardOf[0]}},
					{0, game.Move{Op: 9}},
					{0, game.Move{Op: OpPlay, Card: 0}},
					{0, game.Move{Op: OpPass, Set: 1<<62 | 1}},
				}
				if other := game.Seat((int(s.turn) + 1) % n); s.phase == phPlay && s.hands[other] != 0 {
					bad = append(bad, struct {
						seat game.Seat
						m    game.Move
					}{other, game.Move{Op: OpPlay, Card: cardOf[s.hands[other].Lowest()]}})
					if notLegal := s.deck &^ s.LegalPlays(); notLegal != 0 {
						bad = append(bad, struct {
							seat game.Seat
							m    game.Move
						}{game.Seat(s.turn), game.Move{Op: OpPlay, Card: cardOf[notLegal.Lowest()]}})
					}
				}
				for _, b := range bad {
					if err := s.Apply(b.seat, b.m); err == nil || game.Code(err) == "" {
						t.Fatalf("bad move %+v by %d accepted or untyped error: %v", b.m, b.seat, err)
					}
				}
				if !s.ChancePending() {
					if err := s.ApplyChance("die H"); game.Code(err) != game.ErrNoChance {
						t.Fatalf("chance while none pending: %v", err)
					}
				} else if err := s.ApplyChance("die X\n"); game.Code(err) != game.ErrBadChance {
					t.Fatalf("bad chance: %v", err)
				}
				if !sameState(before, s) {
					t.Fatal("a refused move changed the state")
				}
				// Clones are independent.
				c := s.Clone().(*State)
				if !sameState(c, s) {
					t.Fatal("clone differs")
				}
				if !c.Over() {
					if c.ChancePending() {
						c.RollChance(&sr)
					} else {
						seat := c.ToAct(nil)[0]
						buf = c.Legal(seat, buf[:0])
						if err := c.Apply(seat, buf[0]); err != nil {
							t.Fatal(err)
						}
					}
					if !sameState(before, s) {
						t.Fatal("moving a clone changed the original")
					}
				}
			}
			check()
			for !s.Over() {
				if s.ChancePending() {
					s.RollChance(&r)
				} else {
					seats := s.ToAct(nil)
					seat := seats[r.IntN(len(seats))]
					buf = s.Legal(seat, buf[:0])
					if err := s.Apply(seat, buf[r.IntN(len(buf))]); err != nil {
						t.Fatal(err)
					}
				}
				checkInvariants(t, s)
				check()
			}
			res := s.Result()
			if len(res.Rounds) != 2 {
				t.Fatalf("N=%d: %d rounds scored, want 2", n, len(res.Rounds))
			}
			for i, row := range res.Rounds {
				sum := 0
				for _, p := range row {
					sum += p
				}
				if sum != 250 {
					t.Fatalf("§4.6 N=%d round %d: points sum to %d, want 250", n, i+1, sum)
				}
			}
			low := res.Totals[res.Winners[0]]
			for i, tot := range res.Totals {
				isW := false
				for _, w := range res.Winners {
					isW = isW || int(w) == i
				}
				if tot < low || (tot == low) != isW {
					t.Fatalf("§4.7 winners %v for totals %v", res.Winners, res.Totals)
				}
			}
		}
	}
}

// TestRecordReplay writes random games as records, parses them back and
// replays them: the replay reproduces the game exactly.
func TestRecordReplay(t *testing.T) {
	for n := 3; n <= 8; n++ {
		for g := 0; g < 3; g++ {
			o := game.Options{"players": strconv.Itoa(n)}
			if g == 1 {
				o["first_dealer"] = "2"
				o["rounds"] = "1"
			}
			st, err := Engine{}.New(o)
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRand(uint64(100*n + g))
			rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
			if err := record.Play(st, &r, record.RandomPolicy(&r), rc, 0); err != nil {
				t.Fatal(err)
			}
			text := rc.Rec.String()
			rec, err := record.ParseString(text)
			if err != nil {
				t.Fatalf("parse own record: %v", err)
			}
			got, err := record.Replay(Engine{}, rec, nil)
			if err != nil {
				t.Fatalf("replay: %v\n%s", err, text)
			}
			if !reflect.DeepEqual(got, st) {
				t.Fatalf("N=%d: replayed state differs", n)
			}
			if record.ResultText(got) != record.ResultText(st) || !got.Over() {
				t.Fatalf("results differ: %s vs %s", record.ResultText(got), record.ResultText(st))
			}
		}
	}
}

// TestSampleUniform plays random 4-player rounds to a late position, then
// checks that Sample, from one seat's view, produces every hidden layout that
// fits the view (sizes, shown voids, the cards passed left) about equally
// often, and nothing else; the layouts are counted by brute force.
func TestSampleUniform(t *testing.T) {
	for seed := uint64(0); seed < 4; seed++ {
		r := game.NewRand(seed)
		s := mustNew(t, "players=4 rounds=1 first_dealer=0")
		var buf []game.Move
		for s.phase != phPlay || s.tricks < 12 || s.inTrick != int8(seed%3) {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			seat := s.ToAct(nil)[0]
			buf = s.Legal(seat, buf[:0])
			mustApplyMove(t, s, seat, buf[r.IntN(len(buf))])
		}
		obs := game.Seat(seed % 4)
		v := s.view(obs)
		n := 4
		var played [8]game.Mask
		var voids [8]uint8
		var all game.Mask
		for k := 0; k < int(s.tricks)*n+int(s.inTrick); k++ {
			t0 := k / n
			seat := (int(s.leaders[t0]) + k%n) % n
			c := int(s.plays[k])
			played[seat] |= game.Bit(c)
			all |= game.Bit(c)
			if led := suitOf[s.plays[t0*n]]; suitOf[c] != led {
				voids[seat] |= 1 << led
			}
		}
		pool := s.deck &^ all &^ s.hands[obs]
		left := (int(obs) + 1) % n
		forced := s.pass[obs] &^ all
		var others []int
		for j := 0; j < n; j++ {
			if j != int(obs) {
				others = append(others, j)
			}
		}
		// Brute force the layouts.
		layouts := map[[4]game.Mask]bool{}
		var rec func(k int, rest game.Mask, cur [4]game.Mask)
		rec = func(k int, rest game.Mask, cur [4]game.Mask) {
			if k == len(others) {
				if rest == 0 {
					layouts[cur] = true
				}
				return
			}
			j := others[k]
			need := s.hands[j].Count()
			for a := rest; ; a = (a - 1) & rest {
				if a.Count() == need {
					ok := true
					for su := 0; su < 5; su++ {
						if voids[j]&(1<<uint(su)) != 0 && a&suitMask[su] != 0 {
							ok = false
						}
					}
					if j == left && a&forced != forced {
						ok = false
					}
					if ok {
						cur[j] = a
						rec(k+1, rest&^a, cur)
					}
				}
				if a == 0 {
					break
				}
			}
		}
		rec(0, pool, [4]game.Mask{})
		var truth [4]game.Mask
		copy(truth[:], s.hands[:4])
		truth[obs] = 0
		if !layouts[truth] {
			t.Fatalf("seed %d: the true layout is not among the %d counted", seed, len(layouts))
		}
		counts := map[[4]game.Mask]int{}
		trials := 200 * len(layouts)
		for i := 0; i < trials; i++ {
			st, err := Engine{}.Sample(v, &r)
			if err != nil {
				t.Fatal(err)
			}
			var h [4]game.Mask
			copy(h[:], st.(*State).hands[:4])
			h[obs] = 0
			if !layouts[h] {
				t.Fatalf("seed %d: Sample dealt a layout that does not fit the view", seed)
			}
			counts[h]++
		}
		if len(counts) != len(layouts) {
			t.Fatalf("seed %d: %d of %d layouts seen", seed, len(counts), len(layouts))
		}
		chi, exp := 0.0, float64(trials)/float64(len(layouts))
		for _, c := range counts {
			d := float64(c) - exp
			chi += d * d / exp
		}
		if df := float64(len(layouts) - 1); chi > df+6*sqrtf(2*df)+10 {
			t.Errorf("seed %d: chi-square %.1f over %d layouts: not uniform", seed, chi, len(layouts))
		}
	}
}

func mustApplyMove(t testing.TB, s *State, seat game.Seat, m game.Move) {
	t.Helper()
	if err := s.Apply(seat, m); err != nil {
		t.Fatal(err)
	}
}

// TestSampleVoidsUniform counts layouts in a position with voids in two
// suits and checks each fitting layout appears about equally often.
func TestSampleVoidsUniform(t *testing.T) {
	r := game.NewRand(9)
	pool := mustMask(t, "1S 2S 3S 1H 2H 3H 1P 2P")
	var caps [8]int
	caps[1], caps[2], caps[3] = 3, 3, 2
	var voids [8]uint8
	voids[1] = 1 << 0 // seat 1 void in S
	voids[2] = 1 << 1 // seat 2 void in H
	seats := []int{1, 2, 3}
	counts := map[[3]game.Mask]int{}
	const trials = 60000
	for i := 0; i < trials; i++ {
		h, ok := dealHidden(&r, pool, seats, caps, voids, 3, mustMask(t, "1P"))
		if !ok {
			t.Fatal("no layout")
		}
		for _, j := range seats {
			if h[j].Count() != caps[j] {
				t.Fatal("wrong size")
			}
		}
		if h[1]&suitMask[0] != 0 || h[2]&suitMask[1] != 0 || !h[3].Has(40) {
			t.Fatal("constraint broken")
		}
		counts[[3]game.Mask{h[1], h[2], h[3]}]++
	}
	// Brute force: every way to give seat 1 three non-spades and seat 2
	// three non-hearts from the rest, seat 3 the last card plus 1P.
	want := 0
	rest := pool &^ mustMask(t, "1P")
	for a := rest; a != 0; a = (a - 1) & rest {
		if a.Count() != 3 || a&suitMask[0] != 0 {
			continue
		}
		r2 := rest &^ a
		for b := r2; b != 0; b = (b - 1) & r2 {
			if b.Count() == 3 && b&suitMask[1] == 0 {
				want++
			}
		}
	}
	if len(counts) != want {
		t.Fatalf("%d layouts seen, %d exist", len(counts), want)
	}
	exp := float64(trials) / float64(want)
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - exp
		chi += d * d / exp
	}
	// Very loose bound: df = want-1; mean df, sd sqrt(2 df).
	if df := float64(want - 1); chi > df+6*sqrtf(2*df) {
		t.Errorf("chi-square %.1f with %d layouts: not uniform", chi, want)
	}
}

func sqrtf(x float64) float64 {
	z := x
	for i := 0; i < 50; i++ {
		z = (z + x/z) / 2
	}
	return z
}
