package table

import (
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Views for hints, and records.

// SeatView returns the engine and the current view of player's seat (for
// hints), or an error if the player does not hold it.
func (t *Table) SeatView(ctx context.Context, player string, seat game.Seat) (game.Engine, game.View, game.Seat, error) {
	var v game.View
	var e *Error
	var s game.Seat
	err := t.do(ctx, func() {
		s, e = t.resolveSeat(player, seat)
		if e != nil {
			return
		}
		if t.meta.Status != store.StatusPlaying {
			e = errorf(protocol.NotYourTurn, "the game is %s", t.meta.Status)
			return
		}
		v = t.st.View(game.Seat(s))
	})
	if err != nil {
		return nil, nil, 0, err
	}
	if e != nil {
		return nil, nil, 0, e
	}
	return t.eng, v, s, nil
}

// SetSeatsTag sets tag to the numbers of the seats that have the mark
// ("0 2"), only when some do, so a record without any is what it always
// was.
func SetSeatsTag(r *record.Record, tag string, seats []store.Seat, has func(store.Seat) bool) {
	var marked []string
	for i, s := range seats {
		if has(s) {
			marked = append(marked, strconv.Itoa(i))
		}
	}
	if len(marked) > 0 {
		r.Set(tag, strings.Join(marked, " "))
	}
}

// Record builds the record of a table from its row and event log.
func Record(meta store.Table, events []record.Entry) *record.Record {
	r := &record.Record{}
	r.Set("Game", meta.Game)
	r.Set("Options", meta.Options)
	for i, s := range meta.Seats {
		r.Set(fmt.Sprintf("Seat%d", i), s.Name)
	}
	// Which names were accounts' when their players sat down, so a
	// replay marks them as the table did (docs/records.md).
	SetSeatsTag(r, "Accounts", meta.Seats, func(s store.Seat) bool { return s.Account })
	r.Set("Date", meta.Created.UTC().Format("2006-01-02"))
	r.Set("Table", meta.ID)
	res := meta.Result
	if res == "" {
		res = "*"
	}
	r.Set("Result", res)
	r.Entries = append([]record.Entry(nil), events...)
	return r
}
