package papayoo

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// An independent model of papayoo.md written from the spec alone (hands as
// card lists, tricks as lists), played in lockstep with the engine over
// random games of every size: the legal moves, the hands, the player to
// move, the trick winners and the scores must agree after every step. Only
// the chance outcomes (first dealer, deal, die) come from the engine.
type refPapayoo struct {
	n, rounds, round, dealer int
	hands                    [][]game.Card
	passes                   [][]game.Card
	passed                   []bool
	papayoo                  game.Card
	trick                    []game.Card
	leader, turn             int
	points, totals           []int
	tricksLeft               int
}

func (r *refPapayoo) value(c game.Card) int {
	v := 0
	if c.Suit() == Payoo {
		v = c.Rank()
	}
	if c == r.papayoo {
		v += 40
	}
	return v
}

func (r *refPapayoo) legal(seat int) []string {
	var out []string
	if r.passes != nil { // the pass phase: K-subsets, counted, not listed
		return nil
	}
	if seat != r.turn {
		return nil
	}
	follow := false
	if len(r.trick) > 0 {
		for _, c := range r.hands[seat] {
			follow = follow || c.Suit() == r.trick[0].Suit()
		}
	}
	for _, c := range r.hands[seat] {
		if !follow || c.Suit() == r.trick[0].Suit() {
			out = append(out, "play "+Deck.Format(c))
		}
	}
	sort.Strings(out)
	return out
}

func (r *refPapayoo) play(c game.Card) {
	h := r.hands[r.turn]
	for i, x := range h {
		if x == c {
			r.hands[r.turn] = append(h[:i:i], h[i+1:]...)
		}
	}
	r.trick = append(r.trick, c)
	r.turn = (r.turn + 1) % r.n
	if len(r.trick) < r.n {
		return
	}
	win, best := r.leader, r.trick[0]
	pts := 0
	for i, x := range r.trick {
		pts += r.value(x)
		if x.Suit() == best.Suit() && x.Rank() > best.Rank() {
			win, best = (r.leader+i)%r.n, x
		}
	}
	r.points[win] += pts
	r.trick = nil
	r.leader, r.turn = win, win
	r.tricksLeft--
	if r.tricksLeft == 0 {
		sum := 0
		for i := range r.points {
			r.totals[i] += r.points[i]
			sum += r.points[i]
		}
		if sum != 250 {
			panic("model: a round is not 250 points")
		}
		r.dealer = (r.dealer + 1) % r.n
	}
}

func TestAuditModel(t *testing.T) {
	binomial := func(n, k int) int {
		b := 1
		for i := 0; i < k; i++ {
			b = b * (n - i) / (i + 1)
		}
		return b
	}
	games := 0
	for n := 3; n <= 8; n++ {
		for seed := uint64(0); seed < 20; seed++ {
			rounds := 1 + int(seed%3)
			s := mustNew(t, "players="+strconv.Itoa(n)+" rounds="+strconv.Itoa(rounds))
			rng := game.NewRand(seed*17 + uint64(n))
			ref := &refPapayoo{n: n, rounds: rounds, dealer: -1, totals: make([]int, n)}
			where := func() string { return fmt.Sprintf("N=%d seed %d round %d", n, seed, ref.round) }
			for !s.Over() {
				if s.ChancePending() {
					text := s.SampleChance(&rng)
					mustChance(t, s, text)
					switch f := strings.Fields(text); f[0] {
					case "dealer":
						ref.dealer, _ = strconv.Atoi(f[1])
					case "deal":
						ref.round++
						ref.hands = make([][]game.Card, n)
						for _, line := range strings.Split(text, "\n")[1:] {
							num, cs, _ := strings.Cut(strings.TrimSpace(line), ": ")
							p, _ := strconv.Atoi(num)
							ref.hands[p], _ = Deck.ParseList(cs)
							if len(ref.hands[p]) != []int{3: 20, 15, 12, 10, 8, 7}[n] {
								t.Fatalf("%s: §4.2 seat %d dealt %d", where(), p, len(ref.hands[p]))
							}
						}
						ref.passes, ref.passed = make([][]game.Card, n), make([]bool, n)
						ref.points = make([]int, n)
						ref.tricksLeft = len(ref.hands[0])
						if int(s.dealer) != ref.dealer {
							t.Fatalf("%s: §4 dealer %d, model %d", where(), s.dealer, ref.dealer)
						}
					case "die":
						ref.papayoo = game.NewCard(mustSuit(t, f[1]), 7)
						ref.leader, ref.turn = ref.dealer, ref.dealer
					}
					continue
				}
				seats := s.ToAct(nil)
				seat := seats[rng.IntN(len(seats))]
				buf := s.Legal(seat, nil)
				m := buf[rng.IntN(len(buf))]
				if m.Op == OpPass {
					k := []int{3: 5, 5, 4, 3, 3, 3}[n]
					if want := binomial(len(ref.hands[seat]), k); len(buf) != want {
						t.Fatalf("%s: §4.3 %d legal passes, model %d", where(), len(buf), want)
					}
					mustApplyMove(t, s, seat, m)
					ref.passes[seat], _ = Deck.ParseList(strings.TrimPrefix(FormatMove(m), "pass "))
					ref.passed[seat] = true
					done := true
					for _, p := range ref.passed {
						done = done && p
					}
					if done { // §4.3 all at once, to the left neighbour
						for i := 0; i < n; i++ {
							for _, c := range ref.passes[i] {
								h := ref.hands[i]
								for j, x := range h {
									if x == c {
										ref.hands[i] = append(h[:j:j], h[j+1:]...)
									}
								}
							}
						}
						for i := 0; i < n; i++ {
							ref.hands[(i+1)%n] = append(ref.hands[(i+1)%n], ref.passes[i]...)
						}
						ref.passes = nil
					}
				} else {
					if got, want := legalTexts(s, int(seat)), ref.legal(int(seat)); !reflect.DeepEqual(sortedCopy(got), want) {
						t.Fatalf("%s: §4.5 legal plays of seat %d %v, model %v", where(), seat, got, want)
					}
					mustApplyMove(t, s, seat, m)
					ref.play(m.Card)
				}
				for p := 0; p < n; p++ {
					want := game.Mask(0)
					for _, c := range ref.hands[p] {
						want |= game.Bit(Deck.Index(c))
					}
					if s.hands[p] != want {
						t.Fatalf("%s: seat %d holds %s, model %s", where(), p, s.hands[p].Format(deck), want.Format(deck))
					}
				}
				if s.phase == phPlay && int(s.turn) != ref.turn {
					t.Fatalf("%s: §4.5 seat %d to play, model %d", where(), s.turn, ref.turn)
				}
			}
			res := s.Result()
			var want []game.Seat
			best := ref.totals[0]
			for _, x := range ref.totals {
				best = min(best, x)
			}
			for p, x := range ref.totals {
				if x == best {
					want = append(want, game.Seat(p))
				}
			}
			if !reflect.DeepEqual(res.Totals, ref.totals) || !reflect.DeepEqual(res.Winners, want) || len(res.Rounds) != rounds || ref.round != rounds {
				t.Fatalf("N=%d seed %d: §4.6/§4.7 totals %v winners %v, model %v %v", n, seed, res.Totals, res.Winners, ref.totals, want)
			}
			games++
		}
	}
	if games != 120 {
		t.Fatalf("%d games", games)
	}
}

func mustSuit(t *testing.T, s string) game.Suit {
	t.Helper()
	su, err := game.ParseSuit(s)
	if err != nil {
		t.Fatal(err)
	}
	return su
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}
