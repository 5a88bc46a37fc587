package papayoo

import (
	"encoding/json"
	"strconv"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// FuzzParseMove: the move parser never panics, and what it accepts prints
// back to a text that parses to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"play 7H", "play p13", "play T♠", "pass 10S 7H 20P 3C 12P", "pass 7h 7h", "PLAY 20p", "play", "pass", "", "play 21P", "play 0S", "play 11H", "pass 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1P"} {
		f.Add(s)
	}
	s := mustNew(f, "players=4")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := s.ParseMove(text)
		if err != nil {
			if game.Code(err) != game.ErrMalformed {
				t.Fatalf("%q: error without the malformed code: %v", text, err)
			}
			return
		}
		out := s.FormatMove(m)
		m2, err := s.ParseMove(out)
		if err != nil || m2 != m {
			t.Fatalf("%q → %q → %v, %v", text, out, m2, err)
		}
	})
}

// FuzzApplyChance: chance texts never panic; a refused outcome changes
// nothing and has the bad_chance code.
func FuzzApplyChance(f *testing.F) {
	r := game.NewRand(1)
	for n := 3; n <= 8; n++ {
		s := mustNew(f, "players="+strconv.Itoa(n)+" first_dealer=0")
		f.Add(uint8(n), uint8(1), s.SampleChance(&r))
	}
	for _, s := range []string{"dealer 0", "dealer 9", "dealer -1", "die H", "die P", "die", "deal", "deal\n0: 1S", "deal x\n0: 1S", "dealer 01"} {
		f.Add(uint8(4), uint8(0), s)
		f.Add(uint8(4), uint8(2), s)
	}
	f.Fuzz(func(t *testing.T, n, phase uint8, text string) {
		n = 3 + n%6
		s := mustNew(t, "players="+strconv.Itoa(int(n)))
		rr := game.NewRand(uint64(phase))
		for k := 0; k < int(phase%3); k++ { // 0: dealer, 1: deal, 2: die pending
			s.RollChance(&rr)
			if k == 1 {
				for seat := 0; seat < int(n); seat++ {
					s.SubmitPass(seat, rr.RandomBits(s.hands[seat], int(s.ks)))
				}
			}
		}
		before := s.Clone().(*State)
		if err := s.ApplyChance(text); err != nil {
			if game.Code(err) != game.ErrBadChance {
				t.Fatalf("%q: %v", text, err)
			}
			if !sameState(before, s) {
				t.Fatal("a refused chance outcome changed the state")
			}
			return
		}
		checkInvariants(t, s)
	})
}

// FuzzReplay: record texts never make the parser or the replay panic.
func FuzzReplay(f *testing.F) {
	st, _ := Engine{}.New(game.Options{"players": "3", "rounds": "1"})
	r := game.NewRand(2)
	rc := record.NewRecorder(Engine{}, st.Options(), nil, "")
	_ = record.Play(st, &r, record.RandomPolicy(&r), rc, 40)
	f.Add(rc.Rec.String())
	f.Add("[Game \"papayoo\"]\n[Options \"players=3 first_dealer=1\"]\n\ndeal\n  0: 1S\n0 play 7H\n")
	f.Add("[Game \"papayoo\"]\n[Options \"players=9\"]\n")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := record.ParseString(text)
		if err != nil {
			return
		}
		st, err := record.Replay(Engine{}, rec, nil)
		if err == nil && st != nil {
			checkInvariants(t, st.(*State))
		}
	})
}

// FuzzSample: Sample never panics on any view (here decoded from JSON),
// and for a view it accepts, the sampled state's view is the input view
// whenever the input came from a real game.
func FuzzSample(f *testing.F) {
	r := game.NewRand(3)
	s := mustNew(f, "players=4 rounds=1")
	for !s.Over() {
		if s.ChancePending() {
			s.RollChance(&r)
		} else {
			seat := s.ToAct(nil)[0]
			ms := s.Legal(seat, nil)
			_ = s.Apply(seat, ms[r.IntN(len(ms))])
		}
		if r.IntN(8) == 0 {
			b, _ := json.Marshal(s.view(game.Seat(r.IntN(5) - 1)))
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v View
		if json.Unmarshal(b, &v) != nil {
			return
		}
		rr := game.NewRand(1)
		st, err := Engine{}.Sample(&v, &rr)
		// A Sampler of the same view agrees: it refuses what Sample
		// refuses on reading the view, and deals the same state or the
		// same refusal from the same generator.
		z, zerr := NewSampler(&v)
		if zerr != nil && err == nil {
			t.Fatalf("NewSampler refused a view Sample accepts: %v", zerr)
		}
		if zerr == nil {
			rz := game.NewRand(1)
			zs, err2 := z.Sample(&rz)
			if (err == nil) != (err2 == nil) || err == nil && !sameState(zs, st.(*State)) {
				t.Fatalf("Sampler and Sample disagree: %v / %v", err2, err)
			}
		}
		if err != nil {
			return
		}
		_ = st.View(v.Seat)
		checkInvariants(t, st.(*State))
	})
}

// FuzzRandomGame: random games from any seed and player count keep every
// card in one place and score 250 points a round.
func FuzzRandomGame(f *testing.F) {
	f.Add(uint64(1), uint8(3))
	f.Add(uint64(2), uint8(8))
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		s := mustNew(t, "players="+strconv.Itoa(3+int(n%6))+" rounds=1")
		r := game.NewRand(seed)
		playRandom(t, s, &r, nil)
		sum := 0
		for _, p := range s.Result().Rounds[0] {
			sum += p
		}
		if sum != 250 {
			t.Fatalf("round points %d, want 250", sum)
		}
	})
}
