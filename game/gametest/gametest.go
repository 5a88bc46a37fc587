// Package gametest checks the properties every engine must have, through the
// game contract alone: random games end; at every step the seats to act have
// legal moves and the others have none; refused moves and chance outcomes
// leave the state exactly as it was; clones are independent; moves print and
// parse back; a state sampled from a view shows that view again to its
// observer; a record written from a game replays to the same game; and
// every option has a range that New enforces (CheckOptions).
//
// Engines call Check from their own tests, so the same rules of the contract
// are enforced on all of them.
package gametest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// Config says which games to play.
type Config struct {
	Options  []game.Options // one entry per configuration to try
	Games    int            // random games per configuration (default 3)
	Seed     uint64         // base seed
	MaxSteps int            // a game longer than this fails (default 20000)
	// Policy, if set, replaces the uniform random policy (for games where
	// pure random play can last very long, such as voluntary draws).
	Policy func(rng *game.Rand) record.Policy
	// SampleEvery checks determinization every n steps (default 7).
	SampleEvery int
}

// Check runs every contract property on random games of the engine.
func Check(t *testing.T, e game.Engine, cfg Config) {
	t.Helper()
	if cfg.Games == 0 {
		cfg.Games = 3
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 20000
	}
	if cfg.SampleEvery == 0 {
		cfg.SampleEvery = 7
	}
	t.Run(e.Name()+"/options", func(t *testing.T) { CheckOptions(t, e) })
	for ci, o := range cfg.Options {
		for g := 0; g < cfg.Games; g++ {
			seed := cfg.Seed + uint64(ci*1000+g)
			name := fmt.Sprintf("%s/%s/seed%d", e.Name(), o.String(), seed)
			t.Run(name, func(t *testing.T) { checkGame(t, e, o, seed, cfg) })
		}
	}
}

// Snapshot is everything observable about a state through the contract: the
// views of every seat and of a spectator, the result, the seats to act and
// whether chance is pending. Two states with equal snapshots are the same to
// every client.
func Snapshot(t testing.TB, st game.State) string {
	t.Helper()
	type snap struct {
		Views   []json.RawMessage
		Text    []string
		Result  game.Result
		ToAct   []game.Seat
		Chance  bool
		Over    bool
		Options string
	}
	var s snap
	for seat := game.Spectator; int(seat) < st.Seats(); seat++ {
		v := st.View(seat)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("view of seat %d does not marshal: %v", seat, err)
		}
		s.Views = append(s.Views, b)
		s.Text = append(s.Text, v.String())
	}
	s.Result, s.ToAct, s.Chance, s.Over, s.Options = st.Result(), st.ToAct(nil), st.ChancePending(), st.Over(), st.Options().String()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkGame(t *testing.T, e game.Engine, o game.Options, seed uint64, cfg Config) {
	st, err := e.New(o)
	if err != nil {
		t.Fatalf("New(%s): %v", o, err)
	}
	norm := st.Options()
	// Normalized options are accepted again and are a fixed point.
	if st2, err := e.New(norm); err != nil || st2.Options().String() != norm.String() {
		t.Fatalf("normalized options %q not stable: %v", norm, err)
	}
	rng := game.NewRand(seed)
	checkRng := game.NewRand(seed ^ 0xabcdef)
	var policy record.Policy
	if cfg.Policy != nil {
		policy = cfg.Policy(&rng)
	} else {
		policy = record.RandomPolicy(&rng)
	}
	rc := record.NewRecorder(e, norm, nil, "")
	var toAct []game.Seat
	var legal []game.Move
	var lastMove *game.Move // a well-formed move, to try where it must be refused
	var lastSeat game.Seat
	for step := 0; !st.Over(); step++ {
		if step > cfg.MaxSteps {
			t.Fatalf("game did not end in %d steps", cfg.MaxSteps)
		}
		deep := step%cfg.SampleEvery == 0
		if msg := CheckHeader(st); msg != "" {
			t.Fatalf("step %d: %s", step, msg)
		}
		if st.ChancePending() {
			if len(st.ToAct(nil)) != 0 {
				t.Fatalf("step %d: chance pending but seats %v to act", step, st.ToAct(nil))
			}
			if deep {
				before := Snapshot(t, st)
				for _, bad := range []string{"", "nonsense", "die", "deal\n0: ", "shuffle XX"} {
					if err := st.ApplyChance(bad); err == nil {
						t.Fatalf("step %d: chance %q accepted", step, bad)
					}
					if Snapshot(t, st) != before {
						t.Fatalf("step %d: refused chance %q changed the state", step, bad)
					}
				}
				if lastMove != nil {
					if err := st.Apply(lastSeat, *lastMove); game.Code(err) != game.ErrNoChance {
						t.Fatalf("step %d: a move while chance is pending: want %s, got %v", step, game.ErrNoChance, err)
					}
				}
				if Snapshot(t, st) != before {
					t.Fatalf("step %d: refused move during chance changed the state", step)
				}
			}
			text := st.SampleChance(&rng)
			if text == "" {
				t.Fatalf("step %d: chance pending but SampleChance gave nothing", step)
			}
			if err := st.ApplyChance(text); err != nil {
				t.Fatalf("step %d: engine refused its own chance outcome %q: %v", step, text, err)
			}
			rc.Chance(text)
			continue
		}
		toAct = st.ToAct(toAct[:0])
		if len(toAct) == 0 {
			t.Fatalf("step %d: no seat to act, no chance, not over", step)
		}
		if err := st.ApplyChance("die H"); game.Code(err) != game.ErrNoChance {
			t.Fatalf("step %d: chance while seats must act: want %s, got %v", step, game.ErrNoChance, err)
		}
		acting := map[game.Seat]bool{}
		for _, s := range toAct {
			acting[s] = true
		}
		for s := game.Seat(0); int(s) < st.Seats(); s++ {
			legal = st.Legal(s, legal[:0])
			if acting[s] && len(legal) == 0 {
				t.Fatalf("step %d: seat %d must act but has no legal move", step, s)
			}
			if !acting[s] && len(legal) != 0 {
				t.Fatalf("step %d: seat %d need not act but has %d legal moves", step, s, len(legal))
			}
		}
		s := toAct[0]
		if deep {
			checkStep(t, st, s, toAct, acting, &checkRng, e, step)
		}
		m := policy(st, s)
		text := st.FormatMove(m)
		if err := st.Apply(s, m); err != nil {
			t.Fatalf("step %d: legal move %q of seat %d refused: %v", step, text, s, err)
		}
		rc.Move(s, text)
		lastMove, lastSeat = &m, s
	}
	if msg := CheckHeader(st); msg != "" {
		t.Fatalf("game over: %s", msg)
	}
	// Over: nobody acts, nothing is legal, no chance.
	if len(st.ToAct(nil)) != 0 || st.ChancePending() {
		t.Fatalf("game over but ToAct=%v chance=%v", st.ToAct(nil), st.ChancePending())
	}
	res := st.Result()
	if len(res.Winners) == 0 {
		t.Fatal("game over without winners")
	}
	if err := st.Apply(lastSeat, *lastMove); game.Code(err) != game.ErrGameOver {
		t.Fatalf("a move after the end: want %s, got %v", game.ErrGameOver, err)
	}
	checkWinners(t, res)
	// The record replays to the same game.
	rc.Finish(st)
	text := rc.Rec.String()
	parsed, err := record.ParseString(text)
	if err != nil {
		t.Fatalf("record does not parse: %v", err)
	}
	if parsed.String() != text {
		t.Fatal("record text not stable through parse")
	}
	replayed, err := record.Replay(e, parsed, nil)
	if err != nil {
		t.Fatalf("record does not replay: %v", err)
	}
	if Snapshot(t, replayed) != Snapshot(t, st) {
		t.Fatal("replayed game differs from the played game")
	}
	if record.ResultText(replayed) != record.ResultText(st) {
		t.Fatal("replayed result differs")
	}
}

func checkWinners(t *testing.T, res game.Result) {
	best := res.Totals[0]
	for _, v := range res.Totals {
		if (res.HigherWins && v > best) || (!res.HigherWins && v < best) {
			best = v
		}
	}
	var want []game.Seat
	for i, v := range res.Totals {
		if v == best {
			want = append(want, game.Seat(i))
		}
	}
	if !reflect.DeepEqual(want, res.Winners) {
		// Engines with a play-on tie rule may differ; they must still name a best total.
		for _, w := range res.Winners {
			if res.Totals[w] != best {
				t.Fatalf("winner %d has %d, best is %d (totals %v)", w, res.Totals[w], best, res.Totals)
			}
		}
	}
}

func checkStep(t *testing.T, st game.State, s game.Seat, toAct []game.Seat, acting map[game.Seat]bool, r *game.Rand, e game.Engine, step int) {
	t.Helper()
	before := Snapshot(t, st)
	legal := st.Legal(s, nil)
	// Every legal move prints and parses back to a move that prints the same.
	for _, m := range legal {
		text := st.FormatMove(m)
		back, err := st.ParseMove(text)
		if err != nil {
			t.Fatalf("step %d: legal move %q does not parse: %v", step, text, err)
		}
		if st.FormatMove(back) != text {
			t.Fatalf("step %d: %q parses to a move printed %q", step, text, st.FormatMove(back))
		}
	}
	// A Pick, where the state offers one, describes the same moves.
	// A seat that need not act has no Pick.
	if p := PickProblem(st, s); p != "" {
		t.Fatalf("step %d: %s", step, p)
	}
	if pk, ok := st.(game.Picker); ok {
		for o := game.Seat(0); int(o) < st.Seats(); o++ {
			if _, ok := pk.Pick(o); ok && !acting[o] {
				t.Fatalf("step %d: seat %d need not act but has a Pick", step, o)
			}
		}
	}
	// A clone is independent: playing on it leaves the original alone.
	c := st.Clone()
	if Snapshot(t, c) != before {
		t.Fatalf("step %d: clone differs from the original", step)
	}
	if err := c.Apply(s, legal[r.IntN(len(legal))]); err != nil {
		t.Fatalf("step %d: clone refused a legal move: %v", step, err)
	}
	if Snapshot(t, st) != before {
		t.Fatalf("step %d: a move on a clone changed the original", step)
	}
	// CopyInto (game.Copier) into a used state of the engine (the clone,
	// one move on) is Clone: deeply equal, and as independent.
	if cp, ok := st.(game.Copier); ok {
		want := st.Clone()
		d := cp.CopyInto(c)
		if d != c {
			t.Fatalf("step %d: CopyInto did not reuse a state of its own engine", step)
		}
		if !reflect.DeepEqual(d, want) {
			t.Fatalf("step %d: CopyInto differs from Clone:\n%#v\n%#v", step, d, want)
		}
		if err := d.Apply(s, legal[r.IntN(len(legal))]); err != nil {
			t.Fatalf("step %d: a copy refused a legal move: %v", step, err)
		}
		if Snapshot(t, st) != before || !reflect.DeepEqual(st.Clone(), want) {
			t.Fatalf("step %d: a move on a copy changed the original", step)
		}
		if n := cp.CopyInto(nil); Snapshot(t, n) != before {
			t.Fatalf("step %d: CopyInto(nil) is not a clone", step)
		}
	}
	// Refused moves change nothing: a seat that need not act, a bad seat, garbage.
	for o := game.Seat(0); int(o) < st.Seats(); o++ {
		if acting[o] {
			continue
		}
		err := st.Apply(o, legal[0])
		if err == nil {
			t.Fatalf("step %d: seat %d moved out of turn", step, o)
		}
		if game.Code(err) != game.ErrNotYourTurn && game.Code(err) != game.ErrIllegal {
			t.Fatalf("step %d: out-of-turn move: want not_your_turn, got %v", step, err)
		}
	}
	for _, bad := range []game.Seat{-1, game.Seat(st.Seats()), 99} {
		if err := st.Apply(bad, legal[0]); game.Code(err) != game.ErrBadSeat {
			t.Fatalf("step %d: seat %d: want bad_seat, got %v", step, bad, err)
		}
	}
	if err := st.Apply(s, game.Move{Op: 250}); err == nil {
		t.Fatalf("step %d: a nonsense move was accepted", step)
	} else {
		var me *game.MoveError
		if !errors.As(err, &me) {
			t.Fatalf("step %d: refused move gives %T, want *game.MoveError", step, err)
		}
	}
	for _, bad := range []string{"", "fly", "play", "play 99Z", "pass pass"} {
		if _, err := st.ParseMove(bad); err == nil {
			t.Fatalf("step %d: ParseMove(%q) accepted", step, bad)
		}
	}
	if Snapshot(t, st) != before {
		t.Fatalf("step %d: a refused move changed the state", step)
	}
	// Determinization: a state sampled from any seat's view (and the
	// spectator's) shows that same view to that observer.
	for o := game.Spectator; int(o) < st.Seats(); o++ {
		v := st.View(o)
		sampled, err := e.Sample(v, r)
		if err != nil {
			t.Fatalf("step %d: Sample(view of %d): %v", step, o, err)
		}
		got, want := mustJSON(t, sampled.View(o)), mustJSON(t, v)
		if got != want {
			t.Fatalf("step %d: sampled state shows seat %d another view:\n got %s\nwant %s", step, o, got, want)
		}
		if !reflect.DeepEqual(sampled.View(o), v) {
			t.Fatalf("step %d: sampled view of seat %d not deep-equal", step, o)
		}
		// The sampled state has the same legal moves for the observer.
		if o >= 0 {
			a, b := moveTexts(sampled, sampled.Legal(o, nil)), moveTexts(st, st.Legal(o, nil))
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("step %d: sampled state gives seat %d other legal moves:\n got %v\nwant %v", step, o, a, b)
			}
		}
	}
	if Snapshot(t, st) != before {
		t.Fatalf("step %d: sampling changed the state", step)
	}
}

func moveTexts(st game.State, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = st.FormatMove(m)
	}
	sort.Strings(out)
	return out
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
