package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
)

func init() {
	register("replay", "check every move of a record; print round scores and totals, or the first illegal move", cmdReplay)
	register("legal", "list the legal moves of every seat that must act at the end of a record", cmdLegal)
	register("view", "show what a seat (or a spectator) sees at the end of a record", cmdView)
	register("selfplay", "play a whole game of random legal moves and write its record", cmdSelfplay)
}

// parseInterleaved parses flags that may stand before or after positional
// arguments ("replay FILE --json" as well as "replay --json FILE").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// loadRecord reads a record file ("-" for standard input) and finds its engine.
func loadRecord(path string) (*record.Record, game.Engine, error) {
	var rd io.Reader
	if path == "-" {
		rd = os.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		rd = f
	}
	rec, err := record.Parse(rd)
	if err != nil {
		return nil, nil, err
	}
	name, ok := rec.Get("Game")
	if !ok {
		return nil, nil, errors.New("record has no Game tag")
	}
	e, err := games.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	return rec, e, nil
}

// replayFailure is the JSON form of the first refused step of a record.
type replayFailure struct {
	Move   int    `json:"move"`             // 1-based seat-move number (0 for a chance outcome)
	Line   int    `json:"line,omitempty"`   // source line
	Seat   *int   `json:"seat,omitempty"`   // the seat, for moves
	Text   string `json:"text"`             // the refused move or chance outcome
	Code   string `json:"code,omitempty"`   // the engine's error code
	Reason string `json:"reason"`           // why
	Chance bool   `json:"chance,omitempty"` // a chance outcome was refused
}

func failureOf(err error) (*replayFailure, bool) {
	var re *record.ReplayError
	if !errors.As(err, &re) {
		return nil, false
	}
	f := &replayFailure{Line: re.Line, Text: re.Entry.Text, Code: string(game.Code(re.Err)), Reason: re.Err.Error(), Chance: re.Entry.Chance}
	var me *game.MoveError
	if errors.As(re.Err, &me) {
		f.Reason = me.Reason
	}
	if !re.Entry.Chance {
		s := int(re.Entry.Seat)
		f.Seat, f.Move = &s, re.Move
	}
	return f, true
}

func (f *replayFailure) String() string {
	if f.Chance {
		return fmt.Sprintf("line %d: chance outcome %q refused: %s", f.Line, firstLine(f.Text), f.Reason)
	}
	return fmt.Sprintf("move %d (line %d): seat %d %q is illegal: %s", f.Move, f.Line, *f.Seat, f.Text, f.Reason)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// replayFile replays a record and reports a refused step in the chosen form.
// It returns the final state and an exit code (0 ok, 1 refused, 2 unreadable).
func replayFile(path string, asJSON bool, stdout, stderr io.Writer) (game.State, game.Engine, int) {
	rec, e, err := loadRecord(path)
	if err != nil {
		fmt.Fprintf(stderr, "cardroom: %s: %v\n", path, err)
		return nil, nil, 2
	}
	st, err := record.Replay(e, rec, nil)
	if err != nil {
		if f, ok := failureOf(err); ok {
			if asJSON {
				writeJSON(stdout, map[string]any{"ok": false, "game": e.Name(), "error": f})
			}
			fmt.Fprintf(stderr, "cardroom: %s: %s\n", path, f)
			return st, e, 1
		}
		fmt.Fprintf(stderr, "cardroom: %s: %v\n", path, err)
		return nil, nil, 2
	}
	return st, e, 0
}

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: cardroom replay FILE [--json]")
		return 2
	}
	st, e, code := replayFile(pos[0], *asJSON, stdout, stderr)
	if code != 0 {
		return code
	}
	res := st.Result()
	if *asJSON {
		writeJSON(stdout, map[string]any{"ok": true, "game": e.Name(), "over": st.Over(), "rounds": res.Rounds, "totals": res.Totals, "winners": res.Winners})
		return 0
	}
	fmt.Fprintf(stdout, "%s, %d seats: every move is legal\n", e.Name(), st.Seats())
	for i, r := range res.Rounds {
		fmt.Fprintf(stdout, "round %d: %s\n", i+1, ints(r))
	}
	fmt.Fprintf(stdout, "totals: %s\n", ints(res.Totals))
	if st.Over() {
		fmt.Fprintf(stdout, "game over; winners: %s\n", seats(res.Winners))
	} else {
		fmt.Fprintln(stdout, "the game goes on")
	}
	return 0
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

func seats(v []game.Seat) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(int(x))
	}
	return strings.Join(s, " ")
}

func cmdLegal(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("legal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: cardroom legal FILE [--json]")
		return 2
	}
	st, _, code := replayFile(pos[0], *asJSON, stdout, stderr)
	if code != 0 {
		return code
	}
	type seatMoves struct {
		Seat  int      `json:"seat"`
		Moves []string `json:"moves"`
	}
	out := struct {
		Over   bool        `json:"over"`
		Chance bool        `json:"chance"`
		Seats  []seatMoves `json:"seats"`
	}{Over: st.Over(), Chance: st.ChancePending(), Seats: []seatMoves{}}
	for _, s := range st.ToAct(nil) {
		sm := seatMoves{Seat: int(s), Moves: []string{}}
		for _, m := range st.Legal(s, nil) {
			sm.Moves = append(sm.Moves, st.FormatMove(m))
		}
		out.Seats = append(out.Seats, sm)
	}
	if *asJSON {
		writeJSON(stdout, out)
		return 0
	}
	switch {
	case out.Over:
		fmt.Fprintln(stdout, "the game is over: nobody has a move")
	case out.Chance:
		fmt.Fprintln(stdout, "chance is to act next (a deal, the die or a reshuffle): no seat has a move")
	}
	for _, sm := range out.Seats {
		fmt.Fprintf(stdout, "seat %d (%d moves):\n", sm.Seat, len(sm.Moves))
		for _, m := range sm.Moves {
			fmt.Fprintf(stdout, "  %s\n", m)
		}
	}
	return 0
}

func cmdView(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	seat := fs.Int("seat", -1, "the seat whose view to show")
	spectator := fs.Bool("spectator", false, "show the spectator's view")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || (*seat < 0) == !*spectator {
		fmt.Fprintln(stderr, "usage: cardroom view FILE (--seat N | --spectator) [--json]")
		return 2
	}
	st, _, code := replayFile(pos[0], *asJSON, stdout, stderr)
	if code != 0 {
		return code
	}
	s := game.Spectator
	if !*spectator {
		if *seat >= st.Seats() {
			fmt.Fprintf(stderr, "cardroom: seat %d: the game has seats 0 to %d\n", *seat, st.Seats()-1)
			return 2
		}
		s = game.Seat(*seat)
	}
	v := st.View(s)
	if *asJSON {
		writeJSON(stdout, v)
		return 0
	}
	fmt.Fprintln(stdout, v.String())
	return 0
}

func cmdSelfplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("game", games.Names()[0], "the game: "+strings.Join(games.Names(), ", "))
	players := fs.Int("players", 0, "number of players (0: the game's default)")
	seed := fs.Uint64("seed", 1, "seed of the random generator (chance and moves)")
	rounds := fs.Int("rounds", 0, "rounds (Papayoo) or hands (Pis Yedili); 0: the game's default")
	opts := fs.String("options", "", "more options, e.g. \"target=200 jokers=2\"")
	date := fs.String("date", "", "Date tag to write (none by default, so output depends on the seed alone)")
	asJSON := fs.Bool("json", false, "print JSON (the record text and the result)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "usage: cardroom selfplay --game NAME [--players N] [--seed S] [--rounds R] [--options \"k=v …\"]")
		return 2
	}
	e, err := games.Lookup(*name)
	if err != nil {
		fmt.Fprintf(stderr, "cardroom: %v\n", err)
		return 2
	}
	o, err := game.ParseOptions(*opts)
	if err != nil {
		fmt.Fprintf(stderr, "cardroom: %v\n", err)
		return 2
	}
	// A negative count goes to the game, which refuses it by name (it
	// was taken for the default).
	if *players != 0 {
		o["players"] = fmt.Sprint(*players)
	}
	if *rounds != 0 {
		g, _ := games.Get(e.Name())
		if g.Rounds == "" {
			fmt.Fprintf(stderr, "cardroom: %s has no rounds or hands option\n", e.Name())
			return 2
		}
		o[g.Rounds] = fmt.Sprint(*rounds)
	}
	st, err := e.New(o)
	if err != nil {
		fmt.Fprintf(stderr, "cardroom: %v\n", err)
		return 2
	}
	names := make([]string, st.Seats())
	for i := range names {
		names[i] = "random"
	}
	rng := game.NewRand(*seed)
	rc := record.NewRecorder(e, st.Options(), names, *date)
	if err := record.Play(st, &rng, record.RandomPolicy(&rng), rc, 1_000_000); err != nil {
		fmt.Fprintf(stderr, "cardroom: %v\n", err)
		return 1
	}
	if !st.Over() {
		fmt.Fprintln(stderr, "cardroom: the game did not end within a million steps")
		return 1
	}
	if *asJSON {
		res := st.Result()
		writeJSON(stdout, map[string]any{"game": e.Name(), "record": rc.Rec.String(), "rounds": res.Rounds, "totals": res.Totals, "winners": res.Winners})
		return 0
	}
	rc.Rec.WriteTo(stdout)
	return 0
}
