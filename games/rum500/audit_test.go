package rum500

// Independent audit of the engine against rum500.md and notation.md. The
// oracle below re-derives every legal move of a position from the rules
// alone (its own meld shapes and lay-off ends, no engine helpers but the
// state's fields) and compares it with Legal and Apply, over random games
// and random built positions with large hands, two decks and jokers.

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cardroom/game"
)

// refMeld is one candidate new meld: its faces, the faces jokers stand for
// and B (the ace end of a 13-card run).
type refMeld struct {
	faces  game.Mask // every face, the jokers' included
	jokers game.Mask
	b      uint8
}

// refFace is the face at run position p (0 low ace .. 13 high ace) of suit s.
func refFace(s, p int) int {
	if p == 13 {
		return s * 13
	}
	return s*13 + p
}

// refCandidates lists every valid new meld shape (§5): sets of 3 or 4
// distinct suits of one rank, runs of 3..13 consecutive positions of one
// suit with the ace low (position 0) or high (13) but not both, each with
// jokers standing for any of its cards (§12), by their number of jokers
// (0 to 4: two decks of two; option meld_jokers=one keeps 0 and 1).
var refCandidates = func() (out [5][]refMeld) {
	add := func(faces game.Mask, b uint8) {
		// Every subset of the faces, by bit count.
		var idx []int
		for x := faces; x != 0; x &= x - 1 {
			idx = append(idx, x.Lowest())
		}
		var rec func(i int, j game.Mask, n int)
		rec = func(i int, j game.Mask, n int) {
			if i == len(idx) {
				out[n] = append(out[n], refMeld{faces, j, b})
				return
			}
			rec(i+1, j, n)
			if n < 4 {
				rec(i+1, j|game.Bit(idx[i]), n+1)
			}
		}
		rec(0, 0, 0)
	}
	for r := 0; r < 13; r++ {
		for sub := 1; sub < 16; sub++ {
			n := 0
			var m game.Mask
			for s := 0; s < 4; s++ {
				if sub>>s&1 != 0 {
					n++
					m |= game.Bit(s*13 + r)
				}
			}
			if n >= 3 {
				add(m, EndNone)
			}
		}
	}
	for s := 0; s < 4; s++ {
		for lo := 0; lo <= 13; lo++ {
			for hi := lo + 2; hi <= 13; hi++ {
				if hi-lo+1 > 13 {
					continue
				}
				var m game.Mask
				for p := lo; p <= hi; p++ {
					m |= game.Bit(refFace(s, p))
				}
				b := EndNone
				if hi-lo+1 == 13 {
					b = EndHigh
					if lo == 0 {
						b = EndLow
					}
				}
				add(m, b)
			}
		}
	}
	return out
}()

// refMeldMove is the move of a candidate.
func refMeldMove(op uint8, x game.Card, c refMeld) game.Move {
	return game.Move{Op: op, Card: x, Set: c.faces, Set2: c.jokers, B: c.b}
}

// refEnd is one face a table meld accepts and the B a lay-off move names.
type refEnd struct {
	face int
	b    uint8
}

// refAccepts derives what meld k accepts (§5 lay-off) from its cards.
func refAccepts(m *meld) []refEnd {
	if !m.run {
		if m.faces.Count() != 3 {
			return nil
		}
		for s := 0; s < 4; s++ {
			f := s*13 + int(m.rank) - 1
			if !m.faces.Has(f) {
				return []refEnd{{f, EndNone}}
			}
		}
		return nil
	}
	lo, hi, s := int(m.lo), int(m.hi), int(m.suit)
	lowOK := lo >= 1 && !(lo-1 == 0 && hi == 13)
	highOK := hi <= 12 && !(hi+1 == 13 && lo == 0)
	if lowOK && highOK && refFace(s, lo-1) == refFace(s, hi+1) {
		return []refEnd{{refFace(s, 0), EndLow}, {refFace(s, 0), EndHigh}}
	}
	var out []refEnd
	if lowOK {
		out = append(out, refEnd{refFace(s, lo-1), EndNone})
	}
	if highOK {
		out = append(out, refEnd{refFace(s, hi+1), EndNone})
	}
	return out
}

// refLegal re-derives the legal moves of the seat to move (§6, §7, §8).
func refLegal(s *State) map[game.Move]bool {
	out := map[game.Move]bool{}
	if s.phase != phDraw && s.phase != phPlay {
		return out
	}
	h := s.hands[s.toMove]
	var cnt [53]int
	total := 0
	for _, c := range h.Indices(nil) {
		cnt[c]++
		total++
	}
	var accepts [][]refEnd
	for k := 0; k < s.meldsN; k++ {
		accepts = append(accepts, refAccepts(&s.melds[k]))
	}
	holds := func(c [53]int, m refMeld) bool {
		for x := m.faces &^ m.jokers; x != 0; x &= x - 1 {
			if c[x.Lowest()] == 0 {
				return false
			}
		}
		return m.jokers.Count() <= c[jokerIx]
	}
	// candidates are the shapes with at most j jokers, and at most one
	// with meld_jokers=one.
	candidates := func(j int) func(func(refMeld) bool) {
		if s.cfg.oneJoker {
			j = min(j, 1)
		}
		return func(yield func(refMeld) bool) {
			for n := 0; n <= min(j, 4); n++ {
				for _, c := range refCandidates[n] {
					if !yield(c) {
						return
					}
				}
			}
		}
	}
	if s.phase == phPlay {
		for c := range candidates(cnt[jokerIx]) {
			left := total - c.faces.Count()
			if holds(cnt, c) && (left >= 1 || !s.cfg.mustDisc) {
				out[refMeldMove(OpMeld, game.NoCard, c)] = true
			}
		}
		if total >= 2 || !s.cfg.mustDisc {
			for k, acc := range accepts {
				for _, e := range acc {
					if cnt[e.face] > 0 {
						out[game.Move{Op: OpLayoff, Card: card(e.face), A: uint8(k + 1), B: e.b, Set: game.Bit(e.face)}] = true
					}
					if cnt[jokerIx] > 0 {
						out[game.Move{Op: OpLayoff, Card: game.Joker, A: uint8(k + 1), B: e.b, Set: game.Bit(e.face)}] = true
					}
				}
			}
		}
		for c := 0; c < 53; c++ {
			if cnt[c] > 0 {
				out[game.Move{Op: OpDiscard, Card: card(c)}] = true
			}
		}
		return out
	}
	if s.stockN > 0 {
		out[game.Move{Op: OpDraw}] = true
		if s.cfg.topFree && s.pileN > 0 {
			out[game.Move{Op: OpTake, Card: card(int(s.pile[s.pileN-1]))}] = true
		}
	} else {
		out[game.Move{Op: OpDecline}] = true
	}
	for i := 0; i < s.pileN; i++ {
		x := int(s.pile[i])
		upper := true
		for j := i + 1; j < s.pileN; j++ {
			if int(s.pile[j]) == x {
				upper = false // §13 #18: only the upper copy is offered
			}
		}
		if !upper {
			continue
		}
		after := cnt
		for j := i; j < s.pileN; j++ {
			after[s.pile[j]]++
		}
		size := total + s.pileN - i
		for c := range candidates(after[jokerIx]) {
			if x == jokerIx {
				if c.jokers == 0 {
					continue
				}
			} else if !c.faces.Has(x) || c.jokers.Has(x) {
				continue
			}
			if holds(after, c) && (size-c.faces.Count() >= 1 || !s.cfg.mustDisc) {
				out[refMeldMove(OpTakeMeld, card(x), c)] = true
			}
		}
		for k, acc := range accepts {
			for _, e := range acc {
				if x == jokerIx || x == e.face {
					out[game.Move{Op: OpTakeLayoff, Card: card(x), A: uint8(k + 1), B: e.b, Set: game.Bit(e.face)}] = true
				}
			}
		}
	}
	return out
}

// checkOracle compares Legal with the oracle and Apply with both: every
// oracle move is listed once and accepted, nothing else is listed, and (with
// applyAll) every candidate move the oracle rejects is refused unchanged.
func checkOracle(t *testing.T, s *State, where string, applyAll bool) {
	t.Helper()
	seat := game.Seat(s.toMove)
	ref := refLegal(s)
	legal := s.Legal(seat, nil)
	got := map[game.Move]bool{}
	for _, m := range legal {
		if got[m] {
			t.Fatalf("%s: %s listed twice", where, FormatMove(m))
		}
		got[m] = true
		if !ref[m] {
			t.Fatalf("%s: %s listed but not legal by the rules\n%s", where, FormatMove(m), s.View(seat))
		}
	}
	for m := range ref {
		if !got[m] {
			t.Fatalf("%s: %s legal by the rules but not listed\n%s", where, FormatMove(m), s.View(seat))
		}
		c := s.Clone().(*State)
		if err := c.Apply(seat, m); err != nil {
			t.Fatalf("%s: legal %s refused: %v", where, FormatMove(m), err)
		}
		back, err := ParseMove(FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("%s: %s does not parse back (%v)", where, FormatMove(m), err)
		}
		if m.Op == OpTakeMeld || m.Op == OpTakeLayoff || m.Op == OpTake {
			// X and every card above it (upper copy) leave the pile.
			x := ix(m.Card)
			i := s.pileN - 1
			for int(s.pile[i]) != x {
				i--
			}
			if c.pileN != i {
				t.Fatalf("%s: %s leaves a pile of %d, want %d", where, FormatMove(m), c.pileN, i)
			}
		}
	}
	if !applyAll {
		return
	}
	try := func(m game.Move) {
		if ref[m] {
			return
		}
		c := *s // the slices are only appended to by accepted moves
		if err := c.Apply(seat, m); err == nil {
			t.Fatalf("%s: %s accepted but not legal by the rules", where, FormatMove(m))
		} else if code := game.Code(err); code != game.ErrIllegal && code != game.ErrMalformed {
			t.Fatalf("%s: %s refused with %s", where, FormatMove(m), code)
		}
		if !sameState(&c, s) {
			t.Fatalf("%s: refused %s changed the state", where, FormatMove(m))
		}
	}
	try(game.Move{Op: OpDraw})
	try(game.Move{Op: OpDecline})
	for c := 0; c < 53; c++ {
		try(game.Move{Op: OpDiscard, Card: card(c)})
		try(game.Move{Op: OpTake, Card: card(c)})
	}
	// Every shape with up to two jokers (the candidates with more number
	// over a hundred thousand: Legal's side of them is checked above).
	tried := func(yield func(refMeld) bool) {
		for n := 0; n <= 2; n++ {
			for _, c := range refCandidates[n] {
				if !yield(c) {
					return
				}
			}
		}
	}
	for c := range tried {
		try(refMeldMove(OpMeld, game.NoCard, c))
		for b := EndNone; b <= EndHigh; b++ {
			if b != c.b {
				w := c
				w.b = b
				try(refMeldMove(OpMeld, game.NoCard, w))
			}
		}
	}
	for i := 0; i < s.pileN; i++ {
		x := int(s.pile[i])
		for c := range tried {
			if (x == jokerIx) == (c.jokers != 0) && (x == jokerIx || c.faces.Has(x)) {
				try(refMeldMove(OpTakeMeld, card(x), c))
			}
		}
	}
	for k := 1; k <= s.meldsN+1; k++ {
		for f := 0; f < 52; f++ {
			for b := EndNone; b <= EndHigh; b++ {
				for _, op := range []uint8{OpLayoff, OpTakeLayoff} {
					try(game.Move{Op: op, Card: card(f), A: uint8(k), B: b, Set: game.Bit(f)})
					try(game.Move{Op: op, Card: game.Joker, A: uint8(k), B: b, Set: game.Bit(f)})
				}
			}
		}
	}
}

// TestAuditOracleRandomGames: §6–§8, Legal equals the rules' move list at
// every step of random games over every option.
func TestAuditOracleRandomGames(t *testing.T) {
	for gi, o := range []string{
		"players=2", "players=3", "players=4", "players=5", "players=8",
		"players=2 decks=2 two_player_hand=10", "players=3 jokers=2", "players=6 jokers=2",
		"players=4 must_discard_to_go_out=true top_discard_free=true",
		"players=3 must_discard_to_go_out=true jokers=2", "players=6 jokers=2 meld_jokers=one",
		"players=4 stock_exhausted=end_immediately",
		"players=3 stock_exhausted=turn_over_discards top_discard_free=true",
	} {
		opts, err := game.ParseOptions(o + " target=100")
		if err != nil {
			t.Fatal(err)
		}
		st, err := Engine{}.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := game.NewRand(uint64(700 + gi))
		steps := 0
		for !s.Over() && steps < 1500 {
			steps++
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			checkOracle(t, s, fmt.Sprintf("%s step %d", o, steps), steps%25 == 0)
			legal := s.Legal(game.Seat(s.toMove), nil)
			// Prefer melds and lay-offs so the table fills up.
			var pick []game.Move
			for _, m := range legal {
				if m.Op != OpDiscard && m.Op != OpDraw && m.Op != OpDecline && m.Op != OpTake {
					pick = append(pick, m)
				}
			}
			if len(pick) == 0 || r.IntN(3) == 0 {
				pick = legal
			}
			if err := s.Apply(game.Seat(s.toMove), pick[r.IntN(len(pick))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// randomPosition builds a random position in the middle of a hand: melds
// (extended by lay-offs) credited to random seats, a large hand for the
// seat to move, a pile of up to 30 cards, a stock that may be empty.
func randomPosition(t *testing.T, r *game.Rand, opts string) *State {
	o, err := game.ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	n := s.cfg.n
	var deck [maxCards]uint8
	total := s.fullDeck(&deck)
	for i := total - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	var pool [53]int
	for _, c := range deck[:total] {
		pool[c]++
	}
	// Melds: random valid candidates from the pool.
	for tries := 0; tries < 400 && s.meldsN < 12; tries++ {
		nj := 0 // melds on the table with up to two jokers
		if s.cfg.hasJokers() {
			nj = r.IntN(3)
		}
		c := refCandidates[nj][r.IntN(len(refCandidates[nj]))]
		ok := true
		for x := c.faces &^ c.jokers; x != 0; x &= x - 1 {
			if pool[x.Lowest()] == 0 {
				ok = false
			}
		}
		if c.jokers.Count() > pool[jokerIx] {
			ok = false
		}
		if !ok {
			continue
		}
		jk := c.jokers
		pool[jokerIx] -= jk.Count()
		for x := c.faces &^ jk; x != 0; x &= x - 1 {
			pool[x.Lowest()]--
		}
		nm, reason := shape(c.faces, jk, c.b)
		if reason != "" {
			t.Fatalf("candidate %v refused by shape: %s", c, reason)
		}
		s.place(nm, r.IntN(n))
		// Lay-offs.
		for k := r.IntN(4); k > 0; k-- {
			acc := refAccepts(&s.melds[s.meldsN-1])
			if len(acc) == 0 {
				break
			}
			e := acc[r.IntN(len(acc))]
			end := e.b
			if end == EndNone {
				end, _ = s.melds[s.meldsN-1].fit(e.face, EndNone)
			}
			if pool[e.face] > 0 {
				pool[e.face]--
				s.layoff(s.meldsN-1, e.face, false, end, r.IntN(n))
			} else if pool[jokerIx] > 0 {
				pool[jokerIx]--
				s.layoff(s.meldsN-1, e.face, true, end, r.IntN(n))
			}
		}
	}
	var rest []int
	for c := 0; c < 53; c++ {
		for k := 0; k < pool[c]; k++ {
			rest = append(rest, c)
		}
	}
	for i := len(rest) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		rest[i], rest[j] = rest[j], rest[i]
	}
	take := func(k int) []int {
		k = min(k, len(rest))
		out := rest[:k]
		rest = rest[k:]
		return out
	}
	s.handNo = 1
	s.toMove = r.IntN(n)
	s.dealer = (s.toMove + n - 1) % n
	s.phase = phDraw
	if r.IntN(2) == 0 {
		s.phase = phPlay
	}
	for i := 0; i < n; i++ {
		k := 1 + r.IntN(5)
		if i == s.toMove {
			k = 1 + r.IntN(30)
		}
		for _, c := range take(k) {
			s.hands[i].add(c)
		}
	}
	pk := 1 + r.IntN(30)
	if s.phase == phPlay {
		pk = r.IntN(30)
	}
	for _, c := range take(pk) {
		s.pile[s.pileN] = uint8(c)
		s.pileN++
	}
	if r.IntN(3) > 0 {
		for _, c := range rest {
			s.stock[s.stockN] = uint8(c)
			s.stockN++
		}
	}
	return s
}

// sameState compares the game-state fields of two states (cheaply).
func sameState(a, b *State) bool {
	return a.phase == b.phase && a.toMove == b.toMove && a.hands == b.hands && a.known == b.known &&
		a.table == b.table && a.pile == b.pile && a.pileN == b.pileN && a.stock == b.stock &&
		a.stockN == b.stockN && a.melds == b.melds && a.meldsN == b.meldsN && a.totals == b.totals &&
		len(a.hist) == len(b.hist) && len(a.rounds) == len(b.rounds) && a.turned == b.turned && a.out == b.out
}

func (c config) hasJokers() bool { return c.jokers > 0 }

// TestAuditOracleRandomPositions: the same oracle over random positions
// with large hands and piles (§6.1 deep take, §5 melds and lay-offs, two
// decks, jokers, must_discard_to_go_out, top_discard_free).
func TestAuditOracleRandomPositions(t *testing.T) {
	optsList := []string{
		"players=3", "players=2", "players=5", "players=4 jokers=2", "players=6 jokers=2",
		"players=3 must_discard_to_go_out=true", "players=5 top_discard_free=true must_discard_to_go_out=true jokers=2",
		"players=2 decks=2", "players=6 jokers=2 meld_jokers=one", "players=2 decks=2 jokers=2",
	}
	r := game.NewRand(4242)
	n := 400
	if testing.Short() {
		n = 100
	}
	for i := 0; i < n; i++ {
		o := optsList[i%len(optsList)]
		s := randomPosition(t, &r, o)
		checkOracle(t, s, fmt.Sprintf("position %d (%s)", i, o), i%6 == 0)
	}
}

// TestAuditShapeExhaustive: §5, every subset of one suit, with every B,
// is a valid new meld exactly when the rules say so; and sets need 3–4
// different suits of one rank. Runs: ace low or high, never round the
// corner, 13 cards at most, at most one ace; B names the ace end of a
// 13-card run only.
func TestAuditShapeExhaustive(t *testing.T) {
	valid := map[refMeld]bool{}
	for _, c := range refCandidates[0] {
		valid[c] = true
	}
	for s := 0; s < 4; s++ {
		for sub := 0; sub < 1<<13; sub++ {
			m := game.Mask(uint64(sub) << (13 * uint(s)))
			for b := EndNone; b <= EndHigh; b++ {
				_, reason := shape(m, 0, b)
				want := valid[refMeld{m, 0, b}]
				if (reason == "") != want {
					t.Fatalf("§5 shape(%s, B=%d): %q, want valid=%v", meldList(m, 0, b), b, reason, want)
				}
			}
		}
	}
	for r := 0; r < 13; r++ {
		for sub := 0; sub < 16; sub++ {
			var m game.Mask
			for st := 0; st < 4; st++ {
				if sub>>st&1 != 0 {
					m |= game.Bit(st*13 + r)
				}
			}
			_, reason := shape(m, 0, EndNone)
			if (reason == "") != valid[refMeld{m, 0, EndNone}] {
				t.Fatalf("§5 set %s: %q", meldList(m, 0, 0), reason)
			}
		}
	}
	// Mixed rank and suit is never a meld.
	for _, l := range []string{"7S 7H 8H", "7S 8S 9H", "AS 2S 3H", "KS AS 2S", "QS KS AS 2S", "AS 2S 3S KS"} {
		mv, err := ParseMove("meld " + l)
		if err != nil {
			t.Fatal(err)
		}
		if _, reason := shape(mv.Set, 0, mv.B); reason == "" {
			t.Errorf("§5 %s accepted as a meld", l)
		}
	}
}

// TestAuditDeepTake pins the deep take (§6.1, §13 #7, #16, #18).
func TestAuditDeepTake(t *testing.T) {
	cases := []struct {
		name  string
		p     pos
		want  []string // exact legal list (sorted), or nil
		has   []string
		not   []string
		after string // a move to play, then hand check
		hand  string
		pile  string
	}{
		{
			// §6.1: the ace taken from the pile makes a high run with cards
			// from hand (this was missing from Legal: audit bug 1).
			name: "§6.1 ace taken for Q K A",
			p:    pos{hands: []string{"QS KS 9D", "2C", "3C"}, pile: "AS", stock: "rest"},
			want: []string{"draw", "take AS meld QS KS AS"},
		},
		{
			name: "§6.1 ace taken for J Q K A and Q K A, and A 2 3",
			p:    pos{hands: []string{"JS QS KS 2S 3S", "2C", "3C"}, pile: "5H AS", stock: "rest"},
			want: []string{"draw", "take AS meld AS 2S 3S", "take AS meld JS QS KS AS", "take AS meld QS KS AS"},
		},
		{
			// §6.1: the meld may use the other taken cards (and only with X).
			name: "§6.1 meld X with the cards taken above it",
			p:    pos{hands: []string{"2D 9C", "2C", "3C"}, pile: "KH 5S 6S 4S 3S", stock: "rest"},
			has:  []string{"take 5S meld 3S 4S 5S", "take 5S meld 4S 5S 6S", "take 5S meld 3S 4S 5S 6S"},
			// 4S takes only 4S and 3S: 5S and 6S stay in the pile.
			not:   []string{"take 4S meld 3S 4S 5S 6S", "take 3S meld 3S 4S 5S", "take KH meld 4S 5S 6S", "take 6S meld 4S 5S 6S 7S"},
			after: "take 5S meld 4S 5S 6S", hand: "3S 2D 9C", pile: "KH",
		},
		{
			// §6.1: X laid off, the cards above kept; taken cards may be
			// discarded (§6.3, §13 #16), X may not (it is on the table).
			name: "§6.1 lay-off of X then discard a taken card",
			p: pos{hands: []string{"9S KH", "2H 3H 4S", "8D 9H 10H"}, pile: "7D 2C QC",
				melds: []mspec{{"4D 5D 6D", 1}}, stock: "rest"},
			want:  []string{"draw", "take 7D layoff 1"},
			after: "take 7D layoff 1", hand: "9S KH 2C QC", pile: "",
		},
		{
			// §13 #18: two decks, two copies of X in the pile: only the
			// upper one is offered and taken.
			name:  "§13 #18 the upper copy",
			p:     pos{opts: "players=5", hands: []string{"8S 8D", "2C", "3C", "4C", "5C"}, pile: "8H 9C 8H 10C", stock: "rest"},
			want:  []string{"draw", "take 8H meld 8S 8H 8D"},
			after: "take 8H meld 8S 8H 8D", hand: "10C", pile: "8H 9C",
		},
		{
			// §6.1: X may be used in a lay-off on any meld, both ends of an
			// ace: low/high only when the card fits both.
			name: "§6.1 take an ace onto a 2…K run: low and high",
			p: pos{hands: []string{"9D", "2C", "3C"}, pile: "AS",
				melds: []mspec{{"2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 1}}, stock: "rest"},
			want: []string{"draw", "take AS layoff 1 high", "take AS layoff 1 low"},
		},
		{
			name: "§6.1 X fits several melds: every lay-off listed",
			p: pos{opts: "players=5", hands: []string{"9C", "2C", "3C", "4C", "5C"}, pile: "7D",
				melds: []mspec{{"4D 5D 6D", 1}, {"7S 7H 7C", 2}, {"8D 9D 10D", 3}, {"7S 7H 7C", 0}}, stock: "rest"},
			want: []string{"draw", "take 7D layoff 1", "take 7D layoff 2", "take 7D layoff 3", "take 7D layoff 4"},
		},
		{
			// §6.1 + §6.4: the take's meld may empty the hand: the player
			// goes out at once (allowed by default).
			name: "§6.4 go out by a take",
			p:    pos{hands: []string{"8S 8D", "2C", "3C"}, pile: "8H", stock: "rest"},
			want: []string{"draw", "take 8H meld 8S 8H 8D"},
		},
		{
			// §6.4 must_discard_to_go_out: a take whose meld would empty
			// the hand is illegal, but a bigger pile leaves a card.
			name: "§6.4 must discard: take that empties the hand",
			p:    pos{opts: "players=3 must_discard_to_go_out=true", hands: []string{"8S 8D", "2C", "3C"}, pile: "8H", stock: "rest"},
			want: []string{"draw"},
		},
		{
			name: "§6.4 must discard: take keeping a taken card",
			p:    pos{opts: "players=3 must_discard_to_go_out=true", hands: []string{"8S 8D", "2C", "3C"}, pile: "8H 4C", stock: "rest"},
			want: []string{"draw", "take 8H meld 8S 8H 8D"},
		},
		{
			// §6.1 top_discard_free: the top card alone, and X may still be
			// taken with a use; a deeper card still needs one.
			name: "§6.1 top_discard_free",
			p:    pos{opts: "players=3 top_discard_free=true", hands: []string{"5C 6C", "2D", "3D"}, pile: "9H 4C", stock: "rest"},
			want: []string{"draw", "take 4C", "take 4C meld 4C 5C 6C"},
		},
		{
			// §8 + decision: with the stock empty the free take is not
			// offered (the immediate-use rule applies).
			name: "§8 top_discard_free with an empty stock",
			p:    pos{opts: "players=3 top_discard_free=true", hands: []string{"5C 9D", "2D", "3D"}, pile: "9H 4C", stock: ""},
			want: []string{"decline"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, c.p)
			checkLegal(t, s, c.want, c.has, c.not)
			checkOracle(t, s, c.name, true)
			if c.after != "" {
				play(t, s, c.after)
				if h := handStr(s, s.toMove); h != c.hand {
					t.Errorf("hand after %s: %q, want %q", c.after, h, c.hand)
				}
				if p := cardList(s.View(game.Spectator).(*View).Pile); p != c.pile {
					t.Errorf("pile after %s: %q, want %q", c.after, p, c.pile)
				}
			}
		})
	}
}

// TestAuditDealSizes: §4 counts for every player count, hand option, deck
// count and jokers; §3 decks default; the deal goes one card at a time
// clockwise from the dealer's left, then the upcard, then the stock.
func TestAuditDealSizes(t *testing.T) {
	for n := 2; n <= 8; n++ {
		for _, extra := range []string{"", " jokers=2", " two_player_hand=10", " decks=2", " decks=1"} {
			o, _ := game.ParseOptions(fmt.Sprintf("players=%d%s", n, extra))
			st, err := Engine{}.New(o)
			if n >= 5 && extra == " decks=1" {
				// 1 deck is refused only when the cards do not suffice.
				if (err == nil) != (n*7+2 <= 52) {
					t.Errorf("§12 %v: %v", o, err)
				}
				if err != nil {
					continue
				}
			}
			if err != nil {
				t.Fatalf("§12 %v: %v", o, err)
			}
			s := st.(*State)
			decks := 1
			if n >= 5 {
				decks = 2
			}
			if strings.Contains(extra, "decks=") {
				decks = int(extra[len(extra)-1] - '0')
			}
			size := 7
			if n == 2 {
				size = 13
				if strings.Contains(extra, "two_player_hand=10") {
					size = 10
				}
			}
			jk := 0
			if strings.Contains(extra, "jokers=2") {
				jk = 2
			}
			total := decks * (52 + jk)
			r := game.NewRand(uint64(n))
			st.RollChance(&r)
			st.RollChance(&r)
			if s.cfg.decks != decks {
				t.Errorf("§3 %v: %d decks, want %d", o, s.cfg.decks, decks)
			}
			for i := 0; i < n; i++ {
				if s.hands[i].Count() != size {
					t.Errorf("§4 %v: seat %d holds %d, want %d", o, i, s.hands[i].Count(), size)
				}
			}
			if s.pileN != 1 || s.stockN != total-n*size-1 {
				t.Errorf("§4 %v: pile %d stock %d, want 1 and %d", o, s.pileN, s.stockN, total-n*size-1)
			}
		}
	}
	// The spec's figures.
	for _, c := range []struct{ n, dealt, stock int }{{2, 26, 25}, {3, 21, 30}, {4, 28, 23}, {5, 35, 68}, {8, 56, 47}} {
		o, _ := game.ParseOptions(fmt.Sprintf("players=%d", c.n))
		st, _ := Engine{}.New(o)
		r := game.NewRand(1)
		st.RollChance(&r)
		st.RollChance(&r)
		s := st.(*State)
		dealt := 0
		for i := 0; i < c.n; i++ {
			dealt += s.hands[i].Count()
		}
		if dealt != c.dealt || s.stockN != c.stock {
			t.Errorf("§4 %d players: %d dealt + 1 + %d stock, want %d + 1 + %d", c.n, dealt, s.stockN, c.dealt, c.stock)
		}
	}
	// Deal order: deck top first, one card at a time from the dealer's left.
	o, _ := game.ParseOptions("players=3")
	st, _ := Engine{}.New(o)
	s := st.(*State)
	s.dealer, s.handNo = 1, 0
	var deck [maxCards]uint8
	for i := range deck[:52] {
		deck[i] = uint8(i)
	}
	s.startHand(&deck, 52)
	if got := handStr(s, 2); got != "AS 4S 7S 10S KS 3H 6H" {
		t.Errorf("§4 the dealer's left (seat 2) gets cards 1, 4, 7…: %s", got)
	}
	if got := handStr(s, 1); got != "3S 6S 9S QS 2H 5H 8H" {
		t.Errorf("§4 the dealer gets every third card from the third: %s", got)
	}
	if s.pile[0] != 21 || s.stock[s.stockN-1] != 22 || s.toMove != 2 {
		t.Errorf("§4 upcard %s, stock top %s, first to play %d", cardStr(int(s.pile[0])), cardStr(int(s.stock[s.stockN-1])), s.toMove)
	}
}

// TestAuditDealerRotation: §3 the next dealer is the left neighbour, the
// dealer's left plays first, across several hands (and through records:
// ApplyChance deals to the same seats).
func TestAuditDealerRotation(t *testing.T) {
	// The largest target: six hands of at most 396 points (one deck) cannot reach it.
	o, _ := game.ParseOptions("players=4 target=10000")
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if err := s.ApplyChance("dealer 3"); err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(11)
	for hand := 1; hand <= 6; hand++ {
		text := s.SampleChance(&r)
		if err := s.ApplyChance(text); err != nil {
			t.Fatal(err)
		}
		wantDealer := (3 + hand - 1) % 4
		if s.dealer != wantDealer || s.toMove != (wantDealer+1)%4 || s.handNo != hand {
			t.Fatalf("§3 hand %d: dealer %d (want %d), first %d", hand, s.dealer, wantDealer, s.toMove)
		}
		if s.dealText() != text {
			t.Fatalf("§4 hand %d: the deal text does not round-trip", hand)
		}
		// End the hand quickly: everyone draws and discards until the
		// stock runs out, then decline.
		for s.phase == phDraw || s.phase == phPlay {
			legal := s.Legal(game.Seat(s.toMove), nil)
			var m game.Move
			for _, x := range legal {
				if x.Op == OpDraw || x.Op == OpDecline || (x.Op == OpDiscard && m.Op == 0) {
					m = x
				}
			}
			if m.Op == 0 {
				m = legal[0]
			}
			if err := s.Apply(game.Seat(s.toMove), m); err != nil {
				t.Fatal(err)
			}
		}
		if s.phase != phDeal {
			t.Fatalf("hand %d did not end", hand)
		}
	}
}

// TestAuditNotation: notation.md, canonical printing and parsing.
func TestAuditNotation(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"draw", "draw"},
		{"decline", "decline"},
		{"discard ks", "discard KS"},
		{"discard T♦", "discard 10D"},
		{"meld 8D 8S 8H", "meld 8S 8H 8D"},         // a set by suit S H D C
		{"meld 7c 7d 7h 7s", "meld 7S 7H 7D 7C"},   // aliases, lower case
		{"meld KS AS QS", "meld QS KS AS"},         // ace last when high
		{"meld 3H AH 2H", "meld AH 2H 3H"},         // ace first when low
		{"meld 10C 9C JC 8C", "meld 8C 9C 10C JC"}, // any order in
		{"meld 6♣ 4♣ 5♣", "meld 4C 5C 6C"},         // suit symbols
		{"take 8h meld 8d 8s 8h", "take 8H meld 8S 8H 8D"},
		{"take AS meld AS KS QS", "take AS meld QS KS AS"},
		{"take 7D layoff 2", "take 7D layoff 2"},
		{"take AS layoff 1 low", "take AS layoff 1 low"},
		{"take 4C", "take 4C"},
		{"layoff 9D 3", "layoff 9D 3"},
		{"layoff AS 3 high", "layoff AS 3 high"},
		{"layoff td 12", "layoff 10D 12"},
		{"meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"},
		{"meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"},
		{"meld AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"},
		{"meld KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS", "meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"},
		{"meld JK=AH 2H 3H", "meld JK=AH 2H 3H"},
		{"take jk meld 8h jk=8d 8s", "take JK meld 8S 8H JK=8D"},
		{"take JK=9D layoff 3", "take JK=9D layoff 3"},
	} {
		m, err := ParseMove(c.in)
		if err != nil {
			t.Errorf("notation: %q refused: %v", c.in, err)
			continue
		}
		if got := FormatMove(m); got != c.out {
			t.Errorf("notation: %q prints %q, want %q", c.in, got, c.out)
		}
	}
	for _, c := range []struct {
		in, token string
		code      game.ErrorCode
	}{
		{"dance", "dance", game.ErrMalformed},
		{"draw 7H", "7H", game.ErrMalformed},
		{"decline now", "now", game.ErrMalformed},
		{"discard 1S", "1S", game.ErrMalformed},
		{"discard KS QS", "QS", game.ErrMalformed},
		{"meld 5C 6C 7X", "7X", game.ErrMalformed},
		{"meld 5C 6C JK", "JK", game.ErrMalformed},
		{"layoff 9D x", "x", game.ErrMalformed},
		{"layoff 9D 0", "0", game.ErrMalformed},
		{"layoff 9D 3 middle", "middle", game.ErrMalformed},
		{"layoff 9D 3 low now", "now", game.ErrMalformed},
		{"take 8H fly", "fly", game.ErrMalformed},
		{"take 8Z meld 8S 8H 8D", "8Z", game.ErrMalformed},
		{"take 8Z", "8Z", game.ErrMalformed},
		{"take 7D layoff 2 sideways", "sideways", game.ErrMalformed},
		{"meld 2S 3S AS 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS", game.ErrMalformed},
		{"meld 7H 7H 7C", "7H", game.ErrIllegal},
		// Verbs and their words are lower case only: the aliases of
		// notation.md are the cards' (notation.md, "Moves").
		{"DRAW", "DRAW", game.ErrMalformed},
		{"Discard KS", "Discard", game.ErrMalformed},
		{"take 8H MELD 8S 8H 8D", "MELD", game.ErrMalformed},
		{"take AS layoff 1 LOW", "LOW", game.ErrMalformed},
		{"layoff AS 3 High", "High", game.ErrMalformed},
	} {
		_, err := ParseMove(c.in)
		if game.Code(err) != c.code || !strings.Contains(err.Error(), `"`+c.token+`"`) && !strings.Contains(err.Error(), c.token+" ") {
			t.Errorf("notation: %q: want %s quoting %q, got %v", c.in, c.code, c.token, err)
		}
	}
}

// TestAuditLayoffs: §5 lay-offs on any meld, onto earlier lay-offs, the
// ace rule, credit to the layer and the card's points (ace low = 1).
func TestAuditLayoffs(t *testing.T) {
	cases := []struct {
		name   string
		opts   string
		melds  []mspec
		hand   string
		moves  []string // played in order by seat 0
		bad    []string // then refused
		meld   int      // meld number to check
		owners string
		points int // seat 0's table points
	}{
		{name: "§5 fourth card on a set of three", melds: []mspec{{"7S 7H 7D", 1}}, hand: "7C 9D",
			moves: []string{"layoff 7C 1"}, meld: 1, owners: "7S:1 7H:1 7D:1 7C:0", points: 7},
		{name: "§5 nothing on a set of four", melds: []mspec{{"7S 7H 7D 7C", 1}}, hand: "7C 9D", opts: "players=5",
			bad: []string{"layoff 7C 1", "layoff 7C 1 low"}, meld: 1, owners: "7S:1 7H:1 7D:1 7C:1"},
		{name: "§5 both ends of a run, then onto the lay-offs", melds: []mspec{{"5H 6H 7H", 2}}, hand: "3H 4H 8H 9H KS",
			moves: []string{"layoff 4H 1", "layoff 8H 1", "layoff 3H 1", "layoff 9H 1"}, meld: 1,
			owners: "3H:0 4H:0 5H:2 6H:2 7H:2 8H:0 9H:0", points: 24},
		{name: "§2 ace laid low scores 1, high scores 15", melds: []mspec{{"2S 3S 4S", 1}, {"QD KD JD", 2}}, hand: "AS AD 9C",
			moves: []string{"layoff AS 1", "layoff AD 2"}, meld: 2, owners: "JD:2 QD:2 KD:2 AD:0", points: 16},
		{name: "§5 nothing beyond an ace", melds: []mspec{{"AH 2H 3H", 1}, {"QC KC AC", 1}}, hand: "KH 2C 4H JC 9S",
			bad: []string{"layoff KH 1", "layoff 2C 2", "layoff KH 1 low"}, moves: []string{"layoff 4H 1", "layoff JC 2"},
			meld: 1, owners: "AH:1 2H:1 3H:1 4H:0", points: 14},
		{name: "§5 an ace on 2…K names its end", melds: []mspec{{"2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", 1}}, hand: "AC 9S",
			bad: []string{"layoff AC 1"}, moves: []string{"layoff AC 1 low"}, meld: 1,
			owners: "AC:0 2C:1 3C:1 4C:1 5C:1 6C:1 7C:1 8C:1 9C:1 10C:1 JC:1 QC:1 KC:1", points: 1},
		{name: "§5 low/high refused when the card fits one end", melds: []mspec{{"5H 6H 7H", 2}}, hand: "4H 8H 9S",
			bad: []string{"layoff 4H 1 low", "layoff 8H 1 high", "layoff 9S 1"}, meld: 1, owners: "5H:2 6H:2 7H:2"},
		{name: "§5 no meld 2", melds: []mspec{{"5H 6H 7H", 2}}, hand: "4H 8H 9S",
			bad: []string{"layoff 4H 2"}, meld: 1, owners: "5H:2 6H:2 7H:2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, pos{opts: c.opts, hands: []string{c.hand, "2D", "3D", "4D", "5D"}[:max(3, nSeats(c.opts))],
				melds: c.melds, pile: "QH", stock: "rest", play: true})
			for _, m := range c.moves {
				play(t, s, m)
			}
			for _, m := range c.bad {
				refused(t, s, m, game.ErrIllegal)
			}
			if got := meldOwners(s, c.meld-1); got != c.owners {
				t.Errorf("owners %q, want %q", got, c.owners)
			}
			if s.table[0] != c.points {
				t.Errorf("seat 0 credited %d, want %d", s.table[0], c.points)
			}
			checkOracle(t, s, c.name, true)
		})
	}
}

func nSeats(opts string) int {
	if strings.Contains(opts, "players=5") {
		return 5
	}
	return 3
}

// TestAuditGoingOut: §6.4 the hand ends as soon as a hand is empty (meld,
// lay-off, last discard); must_discard_to_go_out; §9 go_out_bonus only to
// the player who went out, and never on a stock-exhaustion end.
func TestAuditGoingOut(t *testing.T) {
	cases := []struct {
		name, opts string
		hand       string
		melds      []mspec
		moves      []string
		bad        []string
		out        int // -1: the hand goes on
		score      int // seat 0's hand score when it ended
	}{
		{name: "§6.4 out by a lay-off", hand: "9D", melds: []mspec{{"6D 7D 8D", 1}}, moves: []string{"layoff 9D 1"}, out: 0, score: 9},
		{name: "§6.4 out by discarding the last card", hand: "9D", moves: []string{"discard 9D"}, out: 0, score: 0},
		{name: "§6.4 out by a meld", hand: "9D 9S 9C", moves: []string{"meld 9S 9D 9C"}, out: 0, score: 27},
		{name: "§6.4 out by a meld and a lay-off of the whole hand", hand: "5S 6S 7S 9D", melds: []mspec{{"6D 7D 8D", 1}},
			moves: []string{"meld 5S 6S 7S", "layoff 9D 1"}, out: 0, score: 18 + 9},
		{name: "§6.4 must discard: no lay-off of the last card", opts: "must_discard_to_go_out=true", hand: "9D",
			melds: []mspec{{"6D 7D 8D", 1}}, bad: []string{"layoff 9D 1"}, moves: []string{"discard 9D"}, out: 0, score: 0},
		{name: "§6.4 must discard: meld keeping a card, then discard it", opts: "must_discard_to_go_out=true", hand: "9D 9S 9C 2H",
			bad: []string{"meld 9S 9D 9C 2H"}, moves: []string{"meld 9S 9D 9C", "discard 2H"}, out: 0, score: 27},
		{name: "§6.4 must discard: lay-off keeping a card", opts: "must_discard_to_go_out=true", hand: "9D 10D",
			melds: []mspec{{"6D 7D 8D", 1}}, moves: []string{"layoff 9D 1"}, bad: []string{"layoff 10D 1"}, out: -1},
		{name: "§9 go_out_bonus", opts: "go_out_bonus=30", hand: "9D", moves: []string{"discard 9D"}, out: 0, score: 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := "players=3"
			if c.opts != "" {
				opts += " " + c.opts
			}
			s := build(t, pos{opts: opts, hands: []string{c.hand, "2C 3C", "4C KH"}, melds: c.melds, pile: "QH", stock: "rest", play: true})
			for i, m := range c.moves {
				if i == len(c.moves)-1 {
					for _, b := range c.bad {
						refused(t, s, b, game.ErrIllegal)
					}
				}
				play(t, s, m)
			}
			if c.out < 0 {
				if s.phase != phPlay {
					t.Fatalf("the hand should go on: %v", s.phase)
				}
				for _, b := range c.bad {
					refused(t, s, b, game.ErrIllegal)
				}
				return
			}
			if s.phase != phDeal || s.out != c.out || len(s.ToAct(nil)) != 0 {
				t.Fatalf("the hand should end at once with seat %d out: phase %v out %d", c.out, s.phase, s.out)
			}
			if want := []int{c.score, s.table[1] - 5, s.table[2] - 14}; !reflect.DeepEqual(s.rounds, want) {
				t.Errorf("scores %v, want %v", s.rounds, want)
			}
		})
	}
	// No bonus when the stock runs out (§9, decision).
	s := build(t, pos{opts: "players=3 go_out_bonus=30", hands: []string{"2C", "3C", "4C"}, pile: "QH", stock: ""})
	play(t, s, "decline")
	if want := []int{-2, -3, -4}; !reflect.DeepEqual(s.rounds, want) || s.out != -1 {
		t.Errorf("§9 decline: scores %v out %d", s.rounds, s.out)
	}
}

// TestAuditStockExhausted: §8 in all three option values.
func TestAuditStockExhausted(t *testing.T) {
	// end_when_declined: with cards left in the stock there is no decline;
	// with none there is no draw; a take continues the hand.
	s := build(t, pos{hands: []string{"2C 9D", "3C", "4C"}, pile: "QH", stock: "5S"})
	refused(t, s, "decline", game.ErrIllegal)
	play(t, s, "draw")
	play(t, s, "discard 9D")
	if s.phase != phDraw || s.toMove != 1 {
		t.Fatalf("§8 end_when_declined: the hand goes on with an empty stock")
	}
	refused(t, s, "draw", game.ErrIllegal)
	play(t, s, "decline")
	if s.phase != phDeal || !reflect.DeepEqual(s.rounds, []int{-7, -3, -4}) {
		t.Errorf("§8 decline ends the hand, all scored: %v", s.rounds)
	}

	// end_immediately: the turn that draws the last card ends the hand,
	// unless the player goes out first (then it is a normal going out).
	s = build(t, pos{opts: "players=3 stock_exhausted=end_immediately go_out_bonus=5", hands: []string{"9C 10C", "3C", "4C"}, pile: "QH", stock: "JC"})
	play(t, s, "draw")
	play(t, s, "meld 9C 10C JC")
	if s.phase != phDeal || s.out != 0 || s.rounds[0] != 29+5 {
		t.Errorf("§8 end_immediately, going out on the last card: out %d scores %v", s.out, s.rounds)
	}
	s = build(t, pos{opts: "players=3 stock_exhausted=end_immediately", hands: []string{"9C 10C", "3C", "4C"}, pile: "QH", stock: "JC 2S"})
	play(t, s, "draw")
	play(t, s, "discard JC")
	if s.phase != phDraw {
		t.Fatalf("§8 end_immediately: one card left, the hand goes on")
	}
	if hasLegal(s, "decline") {
		t.Errorf("§8 end_immediately: decline is never legal")
	}
	play(t, s, "draw")
	play(t, s, "discard 2S")
	if s.phase != phDeal || s.out != -1 || !reflect.DeepEqual(s.rounds, []int{-19, -3, -4}) {
		t.Errorf("§8 end_immediately: the turn that drew the last card ends the hand: out %d scores %v", s.out, s.rounds)
	}

	// turn_over_discards: once a hand; the pile but its top becomes the
	// stock, not shuffled, its bottom card on top.
	s = build(t, pos{opts: "players=3 stock_exhausted=turn_over_discards", hands: []string{"4C 9S", "8C 10H", "2C 5H"}, pile: "5S 7D 3H", stock: "KD"})
	play(t, s, "draw")
	play(t, s, "discard KD")
	if !s.turned || s.stockN != 3 || s.pileN != 1 || s.pile[0] != uint8(ix(game.NewCard(game.Diamonds, 13))) {
		t.Fatalf("§8 turn over: stock %d pile %d", s.stockN, s.pileN)
	}
	for _, want := range []string{"5S", "7D", "3H"} {
		play(t, s, "draw")
		if s.known[s.toMove].Has(ix(mustCard(t, want))) == 0 || s.hands[s.toMove].Has(ix(mustCard(t, want))) == 0 {
			t.Fatalf("§8 turned stock: drew the wrong card, want %s", want)
		}
		if s.stockN > 0 {
			legal := s.Legal(game.Seat(s.toMove), nil)
			for _, m := range legal {
				if m.Op == OpDiscard {
					play(t, s, FormatMove(m))
					break
				}
			}
		}
	}
	h := s.hands[s.toMove]
	play(t, s, "discard "+cardStr(h.Indices(nil)[0]))
	if s.phase != phDeal || s.out != -1 {
		t.Errorf("§8 the second exhaustion ends the hand")
	}
	// The stock only empties by a draw, so the pile then holds at least
	// two cards (the pile before the turn, and the discard): there is always
	// something to turn over.
}

func mustCard(t *testing.T, s string) game.Card {
	t.Helper()
	c, err := game.Standard.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAuditHiddenInformation: §11 a view (JSON and String) never depends on
// another seat's unknown cards or on the stock order: changing them leaves
// every other observer's view identical.
func TestAuditHiddenInformation(t *testing.T) {
	for gi, o := range []string{"players=3", "players=5 jokers=2", "players=4 stock_exhausted=turn_over_discards", "players=2"} {
		opts, _ := game.ParseOptions(o + " target=200")
		st, _ := Engine{}.New(opts)
		s := st.(*State)
		r := game.NewRand(uint64(90 + gi))
		for steps := 0; !s.Over() && steps < 600; steps++ {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			n := s.cfg.n
			if s.phase == phDraw || s.phase == phPlay {
				// Swap an unknown card of seat a with a stock card, and
				// reverse the stock (when its order is private).
				a := r.IntN(n)
				var free []int
				for _, c := range s.hands[a].Indices(nil) {
					if s.hands[a].Has(c) > s.known[a].Has(c) {
						free = append(free, c)
					}
				}
				if !s.turned && s.stockN > 1 && len(free) > 0 {
					x := s.Clone().(*State)
					c := free[r.IntN(len(free))]
					j := r.IntN(x.stockN)
					d := int(x.stock[j])
					x.hands[a].remove(c)
					x.hands[a].add(d)
					x.stock[j] = uint8(c)
					for i, k := 0, x.stockN-1; i < k; i, k = i+1, k-1 {
						x.stock[i], x.stock[k] = x.stock[k], x.stock[i]
					}
					for obs := game.Spectator; int(obs) < n; obs++ {
						if int(obs) == a {
							continue
						}
						v1, v2 := s.View(obs).(*View), x.View(obs).(*View)
						if !reflect.DeepEqual(v1, v2) || v1.String() != v2.String() {
							t.Fatalf("§11 %s step %d: seat %d's hidden card or the stock order shows in the view of %d:\n%s\n%s", o, steps, a, obs, v1, v2)
						}
					}
					if c != d && reflect.DeepEqual(s.View(game.Seat(a)), x.View(game.Seat(a))) {
						t.Fatalf("§11 seat %d does not see its own hand", a)
					}
				}
			}
			legal := s.Legal(game.Seat(s.toMove), nil)
			if err := s.Apply(game.Seat(s.toMove), legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The spectator's text never shows a hand during play.
	s := scenario2(t)
	txt := s.View(game.Spectator).String()
	if strings.Contains(txt, "hand:") || strings.Contains(txt, "2H") {
		t.Errorf("§11 spectator text shows a hand:\n%s", txt)
	}
	if txt := s.View(1).String(); !strings.Contains(txt, "hand: 4S 2H 3H") || strings.Contains(txt, "KH") {
		t.Errorf("§11 seat 1's text: own hand only:\n%s", txt)
	}
}

// TestAuditTarget: §10 end of game, winners, play_on, settlement (§13 #20).
func TestAuditTarget(t *testing.T) {
	end := func(opts string, totals ...int) *State {
		s := build(t, pos{opts: opts, hands: []string{"", "", ""}, pile: "5S", stock: ""})
		copy(s.totals[:], totals)
		play(t, s, "decline")
		return s
	}
	cases := []struct {
		name, opts string
		totals     []int
		over       bool
		winners    []game.Seat
		pay        []Payment
	}{
		{"§10 exactly the target", "", []int{500, 10, -20}, true, []game.Seat{0}, []Payment{{1, 0, 490}, {2, 0, 520}}},
		{"§10 two reach it, highest wins", "", []int{505, 620, 499}, true, []game.Seat{1}, []Payment{{0, 1, 115}, {2, 1, 121}}},
		{"§10 below the target", "", []int{499, 499, 499}, false, nil, nil},
		{"§10 custom target", "players=3 target=50", []int{50, 49, 0}, true, []game.Seat{0}, []Payment{{1, 0, 1}, {2, 0, 50}}},
		{"§13 #20 three co-winners", "", []int{600, 600, 600}, true, []game.Seat{0, 1, 2}, nil},
		{"§13 #20 two co-winners", "", []int{510, 300, 510}, true, []game.Seat{0, 2}, []Payment{{1, 0, 210}, {1, 2, 210}}},
		{"§10 play_on: tie for the top goes on", "players=3 tie_resolution=play_on", []int{510, 300, 510}, false, nil, nil},
		{"§10 play_on: a unique top ends it", "players=3 tie_resolution=play_on", []int{510, 509, 510 - 1}, true, []game.Seat{0}, []Payment{{1, 0, 1}, {2, 0, 1}}},
		{"§10 play_on: tie below the top is fine", "players=3 tie_resolution=play_on", []int{700, 510, 510}, true, []game.Seat{0}, []Payment{{1, 0, 190}, {2, 0, 190}}},
	}
	for _, c := range cases {
		s := end(c.opts, c.totals...)
		if s.Over() != c.over {
			t.Errorf("%s: over %v", c.name, s.Over())
			continue
		}
		res := s.Result()
		if !reflect.DeepEqual(res.Winners, c.winners) || !reflect.DeepEqual(s.Settlement(), c.pay) {
			t.Errorf("%s: winners %v settlement %v, want %v %v", c.name, res.Winners, s.Settlement(), c.winners, c.pay)
		}
		if c.over {
			v := s.View(game.Spectator).(*View)
			if v.Phase != "over" || len(v.Winners) != len(c.winners) || !reflect.DeepEqual(v.Settlement, c.pay) {
				t.Errorf("%s: view %+v", c.name, v)
			}
			if s.Legal(0, nil) != nil || game.Code(s.Apply(0, game.Move{Op: OpDraw})) != game.ErrGameOver {
				t.Errorf("%s: moves after the end", c.name)
			}
		} else if s.phase != phDeal {
			t.Errorf("%s: a new deal should follow", c.name)
		}
	}
	// play_on goes on to the next hand, which can settle it.
	s := end("players=3 tie_resolution=play_on", 510, 300, 510)
	r := game.NewRand(3)
	s.RollChance(&r)
	if s.phase != phDraw || s.handNo != 2 {
		t.Fatalf("§10 play_on: the next hand is dealt")
	}
}

// TestAuditOracleHugeHands: the enumeration stays exact with very large
// hands and piles (two decks, jokers): bigPosition and random 60-card hands.
func TestAuditOracleHugeHands(t *testing.T) {
	checkOracle(t, bigPosition(t, false), "bigPosition draw", true)
	checkOracle(t, bigPosition(t, true), "bigPosition play", true)
	r := game.NewRand(77)
	for i := 0; i < 40; i++ {
		o := []string{"players=2 decks=2 jokers=2", "players=2 decks=2 must_discard_to_go_out=true", "players=2 decks=2 jokers=2 top_discard_free=true"}[i%3]
		opts, _ := game.ParseOptions(o)
		st, _ := Engine{}.New(opts)
		s := st.(*State)
		var deck [maxCards]uint8
		total := s.fullDeck(&deck)
		for k := total - 1; k > 0; k-- {
			j := r.IntN(k + 1)
			deck[k], deck[j] = deck[j], deck[k]
		}
		s.handNo, s.toMove, s.dealer = 1, 0, 1
		s.phase = phase(phDraw + phase(i%2))
		hk := 40 + r.IntN(30)
		pk := 1 + r.IntN(total-hk-2)
		for _, c := range deck[:hk] {
			s.hands[0].add(int(c))
		}
		s.hands[1].add(int(deck[hk]))
		for _, c := range deck[hk+1 : hk+1+pk] {
			s.pile[s.pileN] = c
			s.pileN++
		}
		for _, c := range deck[hk+1+pk : total] {
			s.stock[s.stockN] = c
			s.stockN++
		}
		// A few melds from the first player's hand, to have lay-offs.
		if s.phase == phPlay {
			for k := 0; k < 3; k++ {
				legal := s.Legal(0, nil)
				var melds []game.Move
				for _, m := range legal {
					if m.Op == OpMeld || m.Op == OpLayoff {
						melds = append(melds, m)
					}
				}
				if len(melds) > 0 {
					if err := s.Apply(0, melds[r.IntN(len(melds))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if s.phase != phDraw && s.phase != phPlay {
			continue
		}
		checkOracle(t, s, fmt.Sprintf("huge %d (%s)", i, o), i < 6)
	}
}

// TestAuditDiscardAfterTake: §6.3, §13 #16 — after a deep take the cards
// taken above X may be discarded; X is on the table and cannot be; the
// discard is mandatory and ends the turn (§14.10). With top_discard_free the
// card taken alone is in hand (engine decision: it may be discarded again).
func TestAuditDiscardAfterTake(t *testing.T) {
	s := build(t, pos{hands: []string{"9S KH", "2H 3H 4S", "8D 9H 10H"}, pile: "7D 2C QC",
		melds: []mspec{{"4D 5D 6D", 1}}, stock: "rest"})
	play(t, s, "take 7D layoff 1")
	refused(t, s, "discard 7D", game.ErrIllegal)
	want := []string{"discard 2C", "discard 9S", "discard KH", "discard QC"}
	var got []string
	for _, l := range legalTexts(s) {
		if strings.HasPrefix(l, "discard") {
			got = append(got, l)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("§6.3 discards %v, want %v", got, want)
	}
	play(t, s, "discard QC")
	if s.toMove != 1 || s.phase != phDraw || s.pile[s.pileN-1] != uint8(ix(mustCard(t, "QC"))) {
		t.Errorf("§6.3 the discard ends the turn")
	}
	s = build(t, pos{opts: "players=3 top_discard_free=true", hands: []string{"9S KH", "2H", "3H"}, pile: "7D 2C", stock: "rest"})
	play(t, s, "take 2C")
	play(t, s, "discard 2C")
	if s.toMove != 1 || cardList(s.View(1).(*View).Pile) != "7D 2C" {
		t.Errorf("top_discard_free: the card taken alone may be discarded")
	}
}

// TestAuditJokers: §12 jokers — a fixed stand-in scoring 15 on the table
// (also as a low ace) and in hand; never exchanged.
func TestAuditJokers(t *testing.T) {
	s := build(t, pos{opts: "players=3 jokers=2", hands: []string{"JK 2S 3S JK 9D 9H", "2C", "3C"}, pile: "KD", stock: "rest", play: true})
	play(t, s, "meld JK=AS 2S 3S")
	if s.table[0] != 15+2+3 {
		t.Errorf("§12 a joker as a low ace scores 15: %d", s.table[0])
	}
	// §12 "a joker may stand for any card in a meld": two in one meld, the
	// meld_jokers=one house rule refuses them.
	one := build(t, pos{opts: "players=3 jokers=2 meld_jokers=one", hands: []string{"JK 9D JK 9H 2C", "2D", "3C"}, pile: "KD", stock: "rest", play: true})
	refused(t, one, "meld 9D JK=9S JK=9C", game.ErrIllegal)
	two := build(t, pos{opts: "players=3 jokers=2", hands: []string{"JK 9D JK 9H 2C", "2D", "3C"}, pile: "KD", stock: "rest", play: true})
	if !slices.Contains(legalTexts(two), "meld JK=9S 9D JK=9C") {
		t.Errorf("§12 a meld of two jokers and a 9 is not offered: %v", legalTexts(two))
	}
	play(t, two, "meld JK=9S 9D JK=9C")
	if two.table[0] != 9+15+15 {
		t.Errorf("§12 two jokers in a meld score 15 each: %d", two.table[0])
	}
	refused(t, two, "meld JK=4S JK=4H JK=4D", game.ErrIllegal) // no joker left
	// Four jokers (two decks): melds of up to four, jokers alone too, as the
	// oracle derives them from the rules; and one fewer under meld_jokers=one.
	for _, o := range []string{"players=6 jokers=2", "players=6 jokers=2 meld_jokers=one"} {
		four := build(t, pos{opts: o, hands: []string{"JK JK JK JK 3S 4S 5S 7S 9H 10H JH 5D 5C", "2C", "3C", "4C", "5H", "6H"},
			pile: "KD", stock: "rest", play: true})
		checkOracle(t, four, o, true)
		alone := slices.Contains(legalTexts(four), "meld JK=2H JK=3H JK=4H")
		if alone != (o == "players=6 jokers=2") {
			t.Errorf("%s: a meld of three jokers offered: %v", o, alone)
		}
	}
	play(t, s, "layoff JK=4S 1")
	if s.table[0] != 15+2+3+15 {
		t.Errorf("§12 a laid-off joker scores 15: %d", s.table[0])
	}
	v := s.View(2).(*View)
	if m := v.Melds[0]; cardList(m.Cards(nil)) != "JK 2S 3S JK" || m.Text() != "JK=AS 2S 3S JK=4S" {
		t.Errorf("§12 joker view %+v", m)
	}
	// A natural card never replaces a joker: AS and 4S do not fit.
	s2 := build(t, pos{opts: "players=3 jokers=2", hands: []string{"AS 4S 5S", "2C", "3C"}, pile: "KD", stock: "rest", play: true,
		melds: []mspec{{"JK=AS 2S 3S JK=4S", 1}}})
	refused(t, s2, "layoff AS 1", game.ErrIllegal)
	refused(t, s2, "layoff 4S 1", game.ErrIllegal)
	play(t, s2, "layoff 5S 1")
	checkOracle(t, s2, "jokers", true)
}

// FuzzAuditOracle: for any seed, the random position it builds has exactly
// the legal moves the rules give (§5–§8), and Apply agrees.
func FuzzAuditOracle(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 500, 1 << 40} {
		f.Add(seed, uint8(0))
	}
	opts := []string{"players=3", "players=5 jokers=2", "players=2 decks=2 must_discard_to_go_out=true", "players=4 top_discard_free=true jokers=2",
		"players=2 decks=2 jokers=2", "players=6 jokers=2 meld_jokers=one"}
	f.Fuzz(func(t *testing.T, seed uint64, oi uint8) {
		r := game.NewRand(seed)
		o := opts[int(oi)%len(opts)]
		s := randomPosition(t, &r, o)
		checkOracle(t, s, fmt.Sprintf("seed %d (%s)", seed, o), true)
	})
}
