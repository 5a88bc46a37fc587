package table

import (
	"strings"

	"cardroom/game"
	"cardroom/record"
)

// eventLog is the table's copy of its event log: every step of the game,
// the same entries the store holds (a resync compares them, a failed
// append rebuilds the state from them, the history is rebuilt from them).
// It grows with every step of the game (the history keeps at most
// histKeep entries; the log keeps them all), so it is kept compact: the texts back to back in one buffer, and per entry
// its end there, its seat and whether it is chance: 6 bytes and the
// text, where a []record.Entry took 40 bytes and a string of its own
// (16 more) per entry. Entries are rebuilt as record.Entry when read.
type eventLog struct {
	text []byte
	ends []uint32 // ends[i]: where entry i's text ends in text
	meta []logMeta
}

type logMeta struct {
	seat   int8 // game.Seat; chance steps have game.Spectator
	chance bool
}

// newEventLog copies events.
func newEventLog(events []record.Entry) eventLog {
	var l eventLog
	for _, e := range events {
		l.add(e)
	}
	return l
}

// len is the number of entries.
func (l *eventLog) len() int { return len(l.ends) }

// add appends e (its Text, Seat and Chance: the fields the store keeps).
func (l *eventLog) add(e record.Entry) {
	l.text = append(l.text, e.Text...)
	l.ends = append(l.ends, uint32(len(l.text)))
	l.meta = append(l.meta, logMeta{seat: int8(e.Seat), chance: e.Chance})
}

// truncate keeps the first n entries.
func (l *eventLog) truncate(n int) {
	if n >= l.len() {
		return
	}
	start := 0
	if n > 0 {
		start = int(l.ends[n-1])
	}
	l.text, l.ends, l.meta = l.text[:start], l.ends[:n], l.meta[:n]
}

// textAt is entry i's text, in the log's buffer (valid until the log
// changes).
func (l *eventLog) textAt(i int) []byte {
	start := 0
	if i > 0 {
		start = int(l.ends[i-1])
	}
	return l.text[start:l.ends[i]]
}

// at is entry i.
func (l *eventLog) at(i int) record.Entry {
	m := l.meta[i]
	return record.Entry{Chance: m.chance, Seat: game.Seat(m.seat), Text: string(l.textAt(i))}
}

// same reports whether entry i is e (sameEntry's test).
func (l *eventLog) same(i int, e record.Entry) bool {
	m := l.meta[i]
	return m.chance == e.Chance && game.Seat(m.seat) == e.Seat && string(l.textAt(i)) == e.Text
}

// entries rebuilds every entry (a replay's input).
func (l *eventLog) entries() []record.Entry {
	out := make([]record.Entry, l.len())
	var b strings.Builder
	b.Grow(len(l.text))
	b.Write(l.text)
	all := b.String() // one string for every text
	start := 0
	for i := range out {
		m := l.meta[i]
		end := int(l.ends[i])
		out[i] = record.Entry{Chance: m.chance, Seat: game.Seat(m.seat), Text: all[start:end]}
		start = end
	}
	return out
}
