package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
)

func init() {
	register("hint", "rate the moves of the seat to act in a record with the hard bot", runHint)
}

// The hint command's search bounds.
const (
	maxHintIterations = 10_000_000
	maxHintTime       = 10 * time.Minute
)

func runHint(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	iters := fs.Int("iterations", bot.DefaultIterations, "search iterations")
	dur := fs.Duration("time", 0, "search time instead of iterations (e.g. 200ms)")
	seat := fs.Int("seat", -1, "the seat to advise (default: the first seat to act)")
	seed := fs.Uint64("seed", 1, "the bot's seed")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cardroom hint [flags] RECORD")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fs.Usage()
		return 2
	}
	// (A mistyped count would search for hours; a negative one meant the default.)
	if *iters < 1 || *iters > maxHintIterations {
		fmt.Fprintf(stderr, "hint: --iterations %d: want 1 to %d\n", *iters, maxHintIterations)
		return 2
	}
	if *dur < 0 || *dur > maxHintTime {
		fmt.Fprintf(stderr, "hint: --time %v: want 0 (iterations) to %v\n", *dur, maxHintTime)
		return 2
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "hint:", err)
		return 1
	}
	rec, err := record.ParseString(string(data))
	if err != nil {
		fmt.Fprintln(stderr, "hint:", err)
		return 1
	}
	name, _ := rec.Get("Game")
	e, err := games.Lookup(name)
	if err != nil {
		fmt.Fprintln(stderr, "hint:", err)
		return 1
	}
	st, err := record.Replay(e, rec, nil)
	if err != nil {
		fmt.Fprintln(stderr, "hint:", err)
		return 1
	}
	s := game.Seat(*seat)
	to := st.ToAct(nil)
	switch {
	case *seat < -1 || *seat >= st.Seats():
		fmt.Fprintf(stderr, "hint: --seat %d: the game has seats 0 to %d\n", *seat, st.Seats()-1)
		return 2
	case len(to) == 0:
		fmt.Fprintln(stderr, "hint: no seat has to act at the end of the record")
		return 1
	case s < 0:
		s = to[0]
	case !slices.Contains(to, s):
		fmt.Fprintf(stderr, "hint: seat %d does not have to act at the end of the record (seats to act: %v)\n", s, to)
		return 1
	}
	cfg := bot.HardConfig{Iterations: *iters}
	if *dur > 0 {
		cfg = bot.HardConfig{Duration: *dur}
	}
	start := time.Now()
	rs, err := bot.NewHard(*seed, cfg).Hint(context.Background(), e, st.View(s))
	if err != nil {
		fmt.Fprintln(stderr, "hint:", err)
		return 1
	}
	fmt.Fprintf(stdout, "seat %d, %s of search:\n", s, time.Since(start).Round(time.Millisecond))
	for _, r := range rs {
		fmt.Fprintf(stdout, "  %-40s value %.3f  visits %d\n", r.Move, r.Value, r.Visits)
	}
	return 0
}
