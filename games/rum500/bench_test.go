package rum500

import (
	"os"
	"testing"
	"time"

	"cardroom/cputime"
	"cardroom/game"
)

// handPlayer plays whole random hands through the game.State API.
type handPlayer struct {
	s     *State
	fresh State
	g     game.State
	rng   game.Rand
	buf   []game.Move
	seats []game.Seat
	moves int
}

func newHandPlayer(tb testing.TB, seed uint64) *handPlayer {
	st, err := Engine{}.New(game.Options{"players": "4"})
	if err != nil {
		tb.Fatal(err)
	}
	s := st.(*State)
	return &handPlayer{s: s, fresh: *s, g: st, rng: game.NewRand(seed), buf: make([]game.Move, 0, 256)}
}

// hand plays one hand with uniformly random legal moves.
func (p *handPlayer) hand(tb testing.TB) {
	g, s := p.g, p.s
	if g.Over() {
		// A new game, keeping the buffers.
		hist, rounds := s.hist[:0], s.rounds[:0]
		*s = p.fresh
		s.hist, s.rounds = hist, rounds
	}
	for g.ChancePending() {
		g.RollChance(&p.rng)
	}
	n := s.handNo
	for !g.ChancePending() && !g.Over() && s.handNo == n {
		p.seats = g.ToAct(p.seats[:0])
		p.buf = g.Legal(p.seats[0], p.buf[:0])
		if err := g.Apply(p.seats[0], p.buf[p.rng.IntN(len(p.buf))]); err != nil {
			tb.Fatal(err)
		}
		p.moves++
	}
}

// BenchmarkRandomHand plays one full 4-player hand per op with uniformly
// random legal moves, through the game.State API (ToAct, Legal, Apply,
// RollChance). When a game ends a fresh one is started.
func BenchmarkRandomHand(b *testing.B) {
	p := newHandPlayer(b, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.hand(b)
	}
	b.ReportMetric(float64(p.moves)/float64(b.N), "moves/hand")
}

// TestCPUPerHand measures process CPU time (not wall time) per random
// hand, which stays meaningful on a loaded machine. Run with RUM500_CPU=1.
func TestCPUPerHand(t *testing.T) {
	if os.Getenv("RUM500_CPU") == "" {
		t.Skip("set RUM500_CPU=1")
	}
	cpu := cputime.Process
	const hands = 100000
	p := newHandPlayer(t, 1)
	t0, w0 := cpu(), time.Now()
	for i := 0; i < hands; i++ {
		p.hand(t)
	}
	t.Logf("%d hands: CPU %v/hand, wall %v/hand, %.1f moves/hand", hands, (cpu()-t0)/hands, time.Since(w0)/hands, float64(p.moves)/hands)
}

// bigPosition: a 22-card hand (two decks) facing a 30-card discard pile and
// eight melds on the table.
func bigPosition(tb testing.TB, play bool) *State {
	return build(tb, pos{
		opts: "players=5",
		hands: []string{
			"AS 2S 3S 4S 5S 6S 7S 9H 9D 9C 10H JH QH KH AD 2D 3D 5C 6C 7C 8C 8S",
			"2C", "3C", "4C", "9S",
		},
		pile: "KS QS JS 10S 9S 8H 7H 6H 5H 4H 3H 2H AH KD QD JD 10D 9D 8D 7D 6D 5D 4D KC QC JC 10C 9C 4C 3C",
		melds: []mspec{{"AS AH AD", 1}, {"2H 2D 2C", 2}, {"8S 8H 8D", 3}, {"10S 10D 10C", 4},
			{"5S 6S 7S", 1}, {"JH QH KH", 2}, {"4D 5D 6D", 3}, {"6C 7C 8C", 4}},
		stock:  "rest",
		toMove: 0,
		play:   play,
	})
}

// BenchmarkLegalDeepTake lists the draws of a seat holding 22 cards with a
// 30-card pile (every take and each of its uses).
func BenchmarkLegalDeepTake(b *testing.B) {
	benchLegal(b, bigPosition(b, false))
}

// BenchmarkLegalBigHand lists the melds, lay-offs and discards of a seat
// holding 22 cards.
func BenchmarkLegalBigHand(b *testing.B) {
	benchLegal(b, bigPosition(b, true))
}

// BenchmarkLegalFourJokers is the widest play a seat can have under §12's
// "a joker may stand for any card in a meld" (meld_jokers=any): all four
// jokers of two decks in a hand of runs, each joker free to stand for a
// gap or for any held card of a window.
func BenchmarkLegalFourJokers(b *testing.B) {
	benchLegal(b, build(b, pos{opts: "players=6 jokers=2", hands: []string{"JK JK JK JK 3S 4S 5S 7S 9H 10H JH 5D 5C", "2C", "3C", "4C", "5H", "6H"},
		pile: "KD", stock: "rest", play: true}))
}

// benchLegal lists the moves of seat 0 of s, reporting how many.
func benchLegal(b *testing.B, s *State) {
	buf := s.Legal(0, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = s.Legal(0, buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "moves")
}
