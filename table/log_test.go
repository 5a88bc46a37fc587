package table

import (
	"slices"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// TestEventLog: the compact log gives back exactly the entries it was
// given (the fields the store keeps: chance, seat, text, continuation
// lines included), after truncation too, and the entries it returned stay
// as they were when the log goes on.
func TestEventLog(t *testing.T) {
	in := []record.Entry{
		{Chance: true, Seat: game.Spectator, Text: "deal 2H 3H 4H\n5H 6H"},
		{Seat: 0, Text: "pass 2H 3H 4H 5H 6H"},
		{Seat: 3, Text: "play 10D"},
		{Chance: true, Seat: game.Spectator, Text: "die S"},
		{Seat: 1, Text: ""},
		{Seat: 2, Text: "play 1P"},
	}
	l := newEventLog(in[:2])
	for _, e := range in[2:] {
		l.add(e)
	}
	if l.len() != len(in) {
		t.Fatalf("len %d, want %d", l.len(), len(in))
	}
	got := l.entries()
	if !slices.Equal(got, in) {
		t.Fatalf("entries %v, want %v", got, in)
	}
	for i, e := range in {
		if a := l.at(i); a != e {
			t.Errorf("at(%d) = %v, want %v", i, a, e)
		}
		if !l.same(i, e) {
			t.Errorf("same(%d, %v) is false", i, e)
		}
		other := e
		other.Text += "x"
		if l.same(i, other) {
			t.Errorf("same(%d, %v) is true", i, other)
		}
		other = e
		other.Chance = !e.Chance
		if l.same(i, other) {
			t.Errorf("same(%d) ignores chance", i)
		}
	}
	l.truncate(3)
	if l.len() != 3 || !slices.Equal(l.entries(), in[:3]) {
		t.Fatalf("after truncate(3): %v, want %v", l.entries(), in[:3])
	}
	l.add(record.Entry{Seat: 1, Text: "play 7C"})
	want := append(slices.Clone(in[:3]), record.Entry{Seat: 1, Text: "play 7C"})
	if !slices.Equal(l.entries(), want) {
		t.Fatalf("after truncate and add: %v, want %v", l.entries(), want)
	}
	if !slices.Equal(got, in) {
		t.Errorf("entries returned before changed with the log: %v", got)
	}
	l.truncate(0)
	if l.len() != 0 || len(l.entries()) != 0 {
		t.Errorf("after truncate(0): %d entries", l.len())
	}
}
