package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
)

var update = flag.Bool("update", false, "rewrite golden files")

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// selfplay is reproducible from its seed, and its output is pinned by a
// golden record (go test ./cmd/cardroom -update rewrites it).
func TestSelfplayGolden(t *testing.T) {
	out, errOut, code := runCLI(t, "selfplay", "--game", "papayoo", "--players", "4", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	again, _, _ := runCLI(t, "selfplay", "--game", "papayoo", "--players", "4", "--seed", "7")
	if again != out {
		t.Fatal("selfplay with the same seed gave another game")
	}
	other, _, _ := runCLI(t, "selfplay", "--game", "papayoo", "--players", "4", "--seed", "8")
	if other == out {
		t.Fatal("selfplay with another seed gave the same game")
	}
	golden := filepath.Join("testdata", "papayoo-4p-seed7.rec")
	if *update {
		os.WriteFile(golden, []byte(out), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != out {
		t.Fatalf("selfplay output differs from %s (run with -update if the change is intended)", golden)
	}
}

// Every engine's selfplay record replays cleanly through `cardroom replay`.
func TestSelfplayReplayEveryGame(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "selfplay", "--game", name, "--seed", "3")
			if code != 0 {
				t.Fatalf("selfplay exit %d: %s", code, errOut)
			}
			p := writeTemp(t, name+".rec", out)
			js, errOut, code := runCLI(t, "replay", p, "--json")
			if code != 0 {
				t.Fatalf("replay exit %d: %s", code, errOut)
			}
			var res struct {
				OK      bool  `json:"ok"`
				Over    bool  `json:"over"`
				Totals  []int `json:"totals"`
				Winners []int `json:"winners"`
			}
			if err := json.Unmarshal([]byte(js), &res); err != nil {
				t.Fatal(err)
			}
			if !res.OK || !res.Over || len(res.Winners) == 0 {
				t.Fatalf("replay result %+v", res)
			}
			rec, _ := record.ParseString(out)
			if tag, _ := rec.Get("Result"); !strings.HasPrefix(tag, "totals") {
				t.Fatalf("Result tag %q", tag)
			}
		})
	}
}

// A selfplay record's round comment ("# round N: …") comes right after the
// step that scored the round, whether a move or a chance outcome (a Pis
// Yedili hand can end in the reshuffle a draw needs; its comment came after
// the next hand's first move), and nowhere else.
func TestSelfplayRoundComments(t *testing.T) {
	for _, name := range games.Names() {
		for seed := 1; seed <= 4; seed++ {
			out, errOut, code := runCLI(t, "selfplay", "--game", name, "--seed", fmt.Sprint(seed))
			if code != 0 {
				t.Fatalf("%s seed %d: selfplay exit %d: %s", name, seed, code, errOut)
			}
			rec, err := record.ParseString(out)
			if err != nil {
				t.Fatal(err)
			}
			e, _ := games.Lookup(name)
			st, err := rec.Start(e)
			if err != nil {
				t.Fatal(err)
			}
			rounds, comments := 0, 0
			for i, en := range rec.Entries {
				if en.Comment {
					if !strings.HasPrefix(en.Text, "round ") {
						continue
					}
					comments++
					if want := fmt.Sprintf("round %d:", rounds); !strings.HasPrefix(en.Text, want) || comments != rounds {
						t.Fatalf("%s seed %d: entry %d is %q with %d rounds scored and %d comments so far", name, seed, i, en.Text, rounds, comments)
					}
					continue
				}
				if err := record.Step(st, en); err != nil {
					t.Fatal(err)
				}
				if n := len(st.Result().Rounds); n > rounds {
					rounds = n
					if i+1 >= len(rec.Entries) || !rec.Entries[i+1].Comment {
						t.Fatalf("%s seed %d: entry %d (%q) scored round %d, and no comment follows it", name, seed, i, en.Text, n)
					}
				}
			}
			if rounds == 0 || comments != rounds {
				t.Fatalf("%s seed %d: %d rounds scored, %d round comments", name, seed, rounds, comments)
			}
		}
	}
}

func papayooRecord(t *testing.T) (string, *record.Record) {
	t.Helper()
	out, _, code := runCLI(t, "selfplay", "--game", "papayoo", "--players", "4", "--seed", "11", "--rounds", "1")
	if code != 0 {
		t.Fatal("selfplay failed")
	}
	rec, err := record.ParseString(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, rec
}

// replay names the first illegal move: move number, line, seat, move, why; exit 1.
func TestReplayReportsFirstIllegalMove(t *testing.T) {
	_, rec := papayooRecord(t)
	// Find the 2nd card of the first trick and replace it with a card of
	// another suit from the same seat's hand, while it holds the led suit.
	e, _ := games.Lookup("papayoo")
	var bad *record.Entry
	var badMove int
	moves := 0
	st, _ := rec.Start(e)
	for i := range rec.Entries {
		en := rec.Entries[i]
		if !en.Chance && !en.Comment {
			moves++
		}
		if !en.Chance && !en.Comment && strings.HasPrefix(en.Text, "play") && bad == nil {
			// Try every card of the seat's hand; keep one the engine refuses.
			v := st.View(en.Seat)
			js, _ := json.Marshal(v)
			var hv struct {
				Hand []string `json:"hand"`
			}
			json.Unmarshal(js, &hv)
			for _, c := range hv.Hand {
				m, err := st.ParseMove("play " + c)
				if err != nil {
					t.Fatal(err)
				}
				if err := st.Clone().Apply(en.Seat, m); game.Code(err) == game.ErrIllegal {
					rec.Entries[i].Text = "play " + c
					bad, badMove = &rec.Entries[i], moves
					break
				}
			}
			if bad != nil {
				break
			}
		}
		if err := record.Step(st, en); err != nil {
			t.Fatal(err)
		}
	}
	if bad == nil {
		t.Fatal("no position with an illegal card found")
	}
	p := writeTemp(t, "bad.rec", rec.String())
	reparsed, _ := record.ParseString(rec.String())
	line := 0
	for _, en := range reparsed.Entries {
		if en.Text == bad.Text && en.Seat == bad.Seat && !en.Chance {
			line = en.Line
			break
		}
	}
	_, errOut, code := runCLI(t, "replay", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errOut)
	}
	for _, want := range []string{"move " + itoa(badMove), "line " + itoa(line), "seat " + itoa(int(bad.Seat)), bad.Text, "must follow"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	js, _, code := runCLI(t, "replay", "--json", p)
	var res struct {
		OK    bool
		Error struct {
			Move int
			Seat int
			Text string
			Code string
		}
	}
	if err := json.Unmarshal([]byte(js), &res); err != nil || code != 1 || res.OK || res.Error.Move != badMove || res.Error.Code != "illegal" || res.Error.Text != bad.Text {
		t.Fatalf("json %s (exit %d)", js, code)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// legal lists exactly the engine's legal moves for the seats to act.
func TestLegalOnPartialRecord(t *testing.T) {
	out, rec := papayooRecord(t)
	lines := strings.Split(out, "\n")
	e, _ := games.Lookup("papayoo")
	for _, cut := range []int{9, 14, 16, 19, 20, 27, 40} {
		partial := strings.Join(lines[:cut], "\n") + "\n"
		p := writeTemp(t, "partial.rec", partial)
		js, errOut, code := runCLI(t, "legal", "--json", p)
		if code != 0 {
			t.Fatalf("cut %d: exit %d %s", cut, code, errOut)
		}
		var got struct {
			Seats []struct {
				Seat  int
				Moves []string
			}
		}
		json.Unmarshal([]byte(js), &got)
		r, _ := record.ParseString(partial)
		st, err := record.Replay(e, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := st.ToAct(nil)
		if len(got.Seats) != len(want) {
			t.Fatalf("cut %d: %d seats listed, want %v", cut, len(got.Seats), want)
		}
		for i, s := range want {
			if got.Seats[i].Seat != int(s) || len(got.Seats[i].Moves) != len(st.Legal(s, nil)) {
				t.Fatalf("cut %d: seat %d lists %d moves, engine has %d", cut, s, len(got.Seats[i].Moves), len(st.Legal(s, nil)))
			}
		}
	}
	_ = rec
}

// view --seat N shows only what N may know: never another seat's hand.
func TestViewHidesOtherHands(t *testing.T) {
	out, _ := papayooRecord(t)
	lines := strings.Split(out, "\n")
	partial := strings.Join(lines[:40], "\n") + "\n"
	p := writeTemp(t, "partial.rec", partial)
	e, _ := games.Lookup("papayoo")
	r, _ := record.ParseString(partial)
	st, _ := record.Replay(e, r, nil)
	hands := make([][]string, st.Seats())
	for s := range hands {
		js, _ := json.Marshal(st.View(game.Seat(s)))
		var v struct{ Hand []string }
		json.Unmarshal(js, &v)
		hands[s] = v.Hand
	}
	for s := 0; s < st.Seats(); s++ {
		js, errOut, code := runCLI(t, "view", p, "--seat", itoa(s), "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var v struct{ Hand []string }
		json.Unmarshal([]byte(js), &v)
		if strings.Join(v.Hand, " ") != strings.Join(hands[s], " ") {
			t.Fatalf("seat %d sees hand %v, want %v", s, v.Hand, hands[s])
		}
	}
	spec, _, code := runCLI(t, "view", p, "--spectator", "--json")
	var sv struct{ Hand []string }
	json.Unmarshal([]byte(spec), &sv)
	if code != 0 || len(sv.Hand) != 0 {
		t.Fatalf("spectator sees a hand: %v", sv.Hand)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{"replay"},
		{"view", "x.rec"},
		{"view", "x.rec", "--seat", "1", "--spectator"},
		{"replay", "/nonexistent/file.rec"},
		{"selfplay", "--game", "chess"},
		{"selfplay", "--game", "papayoo", "--players", "9"},
		{"nosuchcommand"},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, c...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q: want an error", c, code, errOut)
		}
	}
	bad := writeTemp(t, "garbage.rec", "[Game \"papayoo\"]\n!!!\n")
	if _, errOut, code := runCLI(t, "replay", bad); code != 2 || !strings.Contains(errOut, "line 2") {
		t.Errorf("garbage record: exit %d, %q", code, errOut)
	}
}

// A record written by hand sets up a position (docs/records.md): seat 1 has
// no spade after the pass (papayoo.md §4.5: void, so any card is legal) and
// holds the five Payoo cards seat 0 passed it (§4.3).
func TestHandWrittenRecord(t *testing.T) {
	p := filepath.Join("testdata", "papayoo-handwritten.rec")
	js, errOut, code := runCLI(t, "legal", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Seats []struct {
			Seat  int
			Moves []string
		}
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Seats) != 1 || got.Seats[0].Seat != 1 || len(got.Seats[0].Moves) != 20 {
		t.Fatalf("want seat 1 with all 20 cards legal, got %+v", got.Seats)
	}
	joined := strings.Join(got.Seats[0].Moves, ",")
	for _, m := range []string{"play 1P", "play 5P", "play 6H"} {
		if !strings.Contains(joined, m) {
			t.Errorf("legal moves lack %q", m)
		}
	}
	if strings.Contains(joined, "play 6P") {
		t.Error("seat 1 still holds a card it passed")
	}
}

// TestSelfplayBadCounts: a negative player or round count is refused with
// the option's name (it was taken for the game's default).
func TestSelfplayBadCounts(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "papayoo", "--rounds", "-5"}, `rounds="-5"`},
		{[]string{"--game", "papayoo", "--players", "-2"}, `players="-2"`},
		{[]string{"--game", "pisyedili", "--rounds", "0", "--players", "1"}, `players="1"`},
	} {
		var out, errb bytes.Buffer
		if code := cmdSelfplay(tc.args, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("selfplay %v: exit %d, %d bytes out, stderr %q; want 2, nothing, %s", tc.args, code, out.Len(), errb.String(), tc.want)
		}
	}
}
