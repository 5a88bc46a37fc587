// Package record reads, writes and replays game records: a plain-text,
// diffable account of a whole game, like PGN for chess. A header of tags
// names the game, its options, the seats and the result; the body lists every
// chance outcome (deals, the die, reshuffles) and every move in notation, in
// the order they happened. A record replays without a random generator, and
// can be written by hand to set up any position. docs/records.md describes
// the format.
package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cardroom/game"
)

// Tag is one header line: [Name "Value"].
type Tag struct {
	Name, Value string
}

// Entry is one step of the body: a seat's move, or a chance outcome.
type Entry struct {
	Chance  bool      // a chance outcome (its text starts with a keyword)
	Comment bool      // a comment line ("# text"), kept so records round-trip
	Seat    game.Seat // the seat that moved (moves only)
	Text    string    // the move, or the chance outcome; continuation lines joined by "\n"
	Line    int       // line number in the source (1-based), 0 if built in memory
}

// Record is a parsed record.
type Record struct {
	Tags    []Tag
	Entries []Entry
}

// Get returns a tag's value and whether it is present.
func (r *Record) Get(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Set sets a tag, replacing an existing one or appending.
func (r *Record) Set(name, value string) {
	for i, t := range r.Tags {
		if t.Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// SyntaxError reports a line that is not part of the format.
type SyntaxError struct {
	Line   int
	Reason string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("record line %d: %s", e.Line, e.Reason) }

// MaxLine bounds one line of a record, so a corrupt file cannot exhaust memory.
const MaxLine = 1 << 16

// Parse reads a record. It checks the syntax only; Replay checks the game.
func Parse(rd io.Reader) (*Record, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 4096), MaxLine)
	rec := &Record{}
	n := 0
	inBody := false
	// A chance outcome's continuation lines are joined once, when the
	// next entry starts (or at the end), and tag names are checked against
	// a set: appending line by line, or scanning the tags for each, made a
	// crafted record of a megabyte take minutes.
	var cont []string
	join := func() {
		if len(cont) > 0 {
			e := &rec.Entries[len(rec.Entries)-1]
			e.Text = e.Text + "\n" + strings.Join(cont, "\n")
			cont = cont[:0]
		}
	}
	tags := map[string]bool{}
	for sc.Scan() {
		n++
		raw := sc.Text()
		line := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if strings.HasPrefix(trimmed, "#") {
			join()
			rec.Entries = append(rec.Entries, Entry{Comment: true, Seat: game.Spectator, Text: strings.TrimSpace(trimmed[1:]), Line: n})
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			// A continuation of the previous chance outcome.
			if len(rec.Entries) == 0 || !rec.Entries[len(rec.Entries)-1].Chance {
				return nil, &SyntaxError{n, "indented line outside a chance outcome"}
			}
			cont = append(cont, trimmed)
			continue
		}
		join()
		if line[0] == '[' {
			if inBody {
				return nil, &SyntaxError{n, "tag after the first move"}
			}
			t, err := parseTag(line)
			if err != nil {
				return nil, &SyntaxError{n, err.Error()}
			}
			if tags[t.Name] {
				return nil, &SyntaxError{n, fmt.Sprintf("tag %s given twice", t.Name)}
			}
			tags[t.Name] = true
			rec.Tags = append(rec.Tags, t)
			continue
		}
		inBody = true
		if c := line[0]; c >= '0' && c <= '9' {
			num, rest, _ := strings.Cut(line, " ")
			s, err := strconv.Atoi(num)
			if err != nil || s > 99 || strings.TrimSpace(rest) == "" {
				return nil, &SyntaxError{n, fmt.Sprintf("want \"<seat> <move>\", got %q", line)}
			}
			rec.Entries = append(rec.Entries, Entry{Seat: game.Seat(s), Text: strings.Join(strings.Fields(rest), " "), Line: n})
			continue
		}
		if c := line[0]; c >= 'a' && c <= 'z' {
			rec.Entries = append(rec.Entries, Entry{Chance: true, Seat: game.Spectator, Text: strings.Join(strings.Fields(line), " "), Line: n})
			continue
		}
		return nil, &SyntaxError{n, fmt.Sprintf("not a tag, a move or a chance outcome: %q", line)}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{n + 1, fmt.Sprintf("line longer than %d bytes", MaxLine)}
		}
		return nil, err
	}
	join()
	return rec, nil
}

// ParseString reads a record from a string.
func ParseString(s string) (*Record, error) { return Parse(strings.NewReader(s)) }

func parseTag(line string) (Tag, error) {
	if !strings.HasSuffix(line, "]") {
		return Tag{}, errors.New("tag without closing ]")
	}
	inner := line[1 : len(line)-1]
	name, val, ok := strings.Cut(inner, " ")
	if !ok || name == "" {
		return Tag{}, errors.New(`want [Name "value"]`)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return Tag{}, fmt.Errorf("bad tag name %q", name)
		}
	}
	v, err := strconv.Unquote(strings.TrimSpace(val))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(val), `"`) {
		return Tag{}, fmt.Errorf("tag %s: value must be a quoted string", name)
	}
	return Tag{name, v}, nil
}

// String prints the record in canonical form.
func (r *Record) String() string {
	var b strings.Builder
	r.WriteTo(&b)
	return b.String()
}

// WriteTo writes the record in canonical form.
func (r *Record) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, strconv.Quote(t.Value))
	}
	if len(r.Tags) > 0 {
		b.WriteByte('\n')
	}
	for _, e := range r.Entries {
		if e.Comment {
			b.WriteString("# " + e.Text + "\n")
			continue
		}
		if e.Chance {
			first, rest, _ := strings.Cut(e.Text, "\n")
			b.WriteString(first)
			b.WriteByte('\n')
			if rest != "" {
				for _, l := range strings.Split(rest, "\n") {
					b.WriteString("  " + l + "\n")
				}
			}
			continue
		}
		fmt.Fprintf(&b, "%d %s\n", e.Seat, e.Text)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ReplayError locates the first step of a record that the engine refused.
type ReplayError struct {
	Index int   // 0-based entry index
	Line  int   // source line, 0 if unknown
	Move  int   // 1-based number of the seat move (not counting chance)
	Entry Entry // the refused entry
	Err   error // the engine's error (a *game.MoveError for moves and chance)
}

func (e *ReplayError) Error() string {
	where := fmt.Sprintf("entry %d", e.Index+1)
	if e.Line > 0 {
		where = fmt.Sprintf("line %d", e.Line)
	}
	if e.Entry.Chance {
		return fmt.Sprintf("%s: chance %q: %v", where, firstLine(e.Entry.Text), e.Err)
	}
	return fmt.Sprintf("%s: move %d: seat %d %q: %v", where, e.Move, e.Entry.Seat, e.Entry.Text, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}

// Options reads the Options tag.
func (r *Record) Options() (game.Options, error) {
	v, _ := r.Get("Options")
	return game.ParseOptions(v)
}

// Start creates the game a record describes, before its first entry.
func (r *Record) Start(e game.Engine) (game.State, error) {
	if g, ok := r.Get("Game"); ok && g != e.Name() {
		return nil, fmt.Errorf("record is a %q game, not %q", g, e.Name())
	}
	o, err := r.Options()
	if err != nil {
		return nil, err
	}
	return e.New(o)
}

// Step applies one entry to st.
func Step(st game.State, e Entry) error {
	if e.Comment {
		return nil
	}
	if e.Chance {
		return st.ApplyChance(e.Text)
	}
	if int(e.Seat) >= st.Seats() {
		return game.Errorf(game.ErrBadSeat, e.Seat, e.Text, "the game has %d seats", st.Seats())
	}
	m, err := st.ParseMove(e.Text)
	if err != nil {
		return err
	}
	return st.Apply(e.Seat, m)
}

// Replay plays a record through the engine and returns the final state. On
// the first refused step it returns the state just before that step and a
// *ReplayError. The callback, if not nil, is called after every applied entry.
func Replay(e game.Engine, r *Record, after func(i int, st game.State)) (game.State, error) {
	st, err := r.Start(e)
	if err != nil {
		return nil, err
	}
	moves := 0
	for i, en := range r.Entries {
		if !en.Chance && !en.Comment {
			moves++
		}
		if err := Step(st, en); err != nil {
			return st, &ReplayError{Index: i, Line: en.Line, Move: moves, Entry: en, Err: err}
		}
		if after != nil {
			after(i, st)
		}
	}
	return st, nil
}

// Recorder builds a record while a game is played.
type Recorder struct {
	Rec *Record
}

// NewRecorder starts a record for a game with the given options and seat names.
func NewRecorder(e game.Engine, o game.Options, names []string, date string) *Recorder {
	r := &Record{}
	r.Set("Game", e.Name())
	r.Set("Options", o.String())
	for i, n := range names {
		r.Set(fmt.Sprintf("Seat%d", i), n)
	}
	if date != "" {
		r.Set("Date", date)
	}
	r.Set("Result", "*")
	return &Recorder{Rec: r}
}

// Chance records a chance outcome.
func (rc *Recorder) Chance(text string) {
	rc.Rec.Entries = append(rc.Rec.Entries, Entry{Chance: true, Seat: game.Spectator, Text: text})
}

// Comment records a comment line.
func (rc *Recorder) Comment(text string) {
	rc.Rec.Entries = append(rc.Rec.Entries, Entry{Comment: true, Seat: game.Spectator, Text: text})
}

// Move records a seat's move.
func (rc *Recorder) Move(s game.Seat, text string) {
	rc.Rec.Entries = append(rc.Rec.Entries, Entry{Seat: s, Text: text})
}

// Finish writes the Result tag from the state.
func (rc *Recorder) Finish(st game.State) {
	rc.Rec.Set("Result", ResultText(st))
}

// ResultText prints a state's result for the Result tag: "*" while the game
// goes on, else "totals 60 80 50 60; winners 2" (seats, space-separated).
func ResultText(st game.State) string {
	if !st.Over() {
		return "*"
	}
	res := st.Result()
	var b strings.Builder
	b.WriteString("totals")
	for _, t := range res.Totals {
		fmt.Fprintf(&b, " %d", t)
	}
	b.WriteString("; winners")
	for _, w := range res.Winners {
		fmt.Fprintf(&b, " %d", w)
	}
	return b.String()
}

// Policy chooses a move for one of the seats that must act.
type Policy func(st game.State, s game.Seat) game.Move

// Play runs a game to its end (or until maxSteps steps, leaving it
// unfinished: that is no error here), drawing chance from rng and moves from
// policy, recording every step.
func Play(st game.State, rng *game.Rand, policy Policy, rc *Recorder, maxSteps int) error {
	_, err := PlayWith(st, rng, func(st game.State, s game.Seat) (game.Move, error) { return policy(st, s), nil }, rc, maxSteps)
	if errors.Is(err, ErrMaxSteps) {
		return nil
	}
	return err
}

// ErrMaxSteps is returned by PlayWith when the game has not ended in
// maxSteps steps.
var ErrMaxSteps = errors.New("the game did not end in the steps allowed")

// PlayWith is Play with a chooser that may fail (a bot whose search was
// cancelled): the first error stops the game and is returned. It returns the
// number of steps played, chance steps included. With maxSteps > 0, a game
// still going after maxSteps steps is ErrMaxSteps.
func PlayWith(st game.State, rng *game.Rand, choose func(st game.State, s game.Seat) (game.Move, error), rc *Recorder, maxSteps int) (int, error) {
	var seats []game.Seat
	rounds := len(st.Result().Rounds)
	// comment notes a round scored by the step just recorded (a move, or
	// a chance outcome: a Pis Yedili hand can end in a reshuffle). A round
	// ends with the next deal pending or the game over, so only then is
	// Result (a copy of every round's points) read: read after every step,
	// it made a long game quadratic.
	comment := func() {
		if !st.ChancePending() && !st.Over() {
			return
		}
		if res := st.Result(); len(res.Rounds) > rounds {
			rounds = len(res.Rounds)
			rc.Comment(fmt.Sprintf("round %d: %s; totals %s", rounds, joinInts(res.Rounds[rounds-1]), joinInts(res.Totals)))
		}
	}
	step := 0
	for ; !st.Over(); step++ {
		if maxSteps > 0 && step >= maxSteps {
			if rc != nil {
				rc.Finish(st)
			}
			return step, ErrMaxSteps
		}
		if st.ChancePending() {
			text := st.SampleChance(rng)
			if err := st.ApplyChance(text); err != nil {
				return step, fmt.Errorf("engine refused its own chance outcome %q: %w", text, err)
			}
			if rc != nil {
				rc.Chance(text)
				comment()
			}
			continue
		}
		seats = st.ToAct(seats[:0])
		if len(seats) == 0 {
			return step, errors.New("no seat to act, no chance pending, and the game is not over")
		}
		// One seat per step: after a move the set of seats to act may change.
		s := seats[0]
		m, err := choose(st, s)
		if err != nil {
			return step, fmt.Errorf("seat %d: %w", s, err)
		}
		text := st.FormatMove(m)
		if err := st.Apply(s, m); err != nil {
			return step, fmt.Errorf("move %q for seat %d refused: %w", text, s, err)
		}
		if rc != nil {
			rc.Move(s, text)
			comment()
		}
	}
	if rc != nil {
		rc.Finish(st)
	}
	return step, nil
}

// RandomPolicy plays uniformly random legal moves from rng.
func RandomPolicy(rng *game.Rand) Policy {
	var buf []game.Move
	return func(st game.State, s game.Seat) game.Move {
		buf = st.Legal(s, buf[:0])
		return buf[rng.IntN(len(buf))]
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
