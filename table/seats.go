package table

import (
	"cardroom/bot"
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"context"
	"slices"
	"time"
)

// Seats and players: who sits where, who is connected, and the seat
// changes that are stored before they are announced.

func (t *Table) seatsOf(player string) []game.Seat {
	return t.appendSeatsOf(nil, player)
}

// appendSeatsOf appends the seats player holds to out.
func (t *Table) appendSeatsOf(out []game.Seat, player string) []game.Seat {
	if player == "" {
		return out
	}
	for i, s := range t.meta.Seats {
		if s.Player == player {
			out = append(out, game.Seat(i))
		}
	}
	return out
}

// seatInfo describes seat i of meta, without presence.
func seatInfo(i int, s store.Seat) SeatInfo {
	si := SeatInfo{Seat: game.Seat(i), Name: s.Name, Player: s.Player}
	switch {
	case s.Bot != "":
		si.Kind, si.Level, si.Connected = protocol.SeatBot, s.Bot, true
	case s.Player != "":
		si.Kind, si.Account = protocol.SeatHuman, s.Account
	default:
		si.Kind = protocol.SeatEmpty
	}
	return si
}

func (t *Table) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(t.meta.Seats))
	for i := range t.meta.Seats {
		out[i] = t.seatInfoAt(i)
	}
	return out
}

// seatInfoAt describes seat i as seatInfos does.
func (t *Table) seatInfoAt(i int) SeatInfo {
	s := t.meta.Seats[i]
	si := seatInfo(i, s)
	if si.Kind == protocol.SeatHuman {
		si.Connected = t.presence[s.Player] > 0
		si.Away = t.seats[i].away
		si.BotAccount = t.cfg.BotAccount != nil && t.cfg.BotAccount(s.Player)
	}
	return si
}

// seatsUnchanged reports whether seatInfos would equal the seats last
// sent (seatsSent), without building it (a broadcast's usual case).
func (t *Table) seatsUnchanged() bool {
	if len(t.seatsSent) != len(t.meta.Seats) {
		return false
	}
	for i := range t.seatsSent {
		if t.seatInfoAt(i) != t.seatsSent[i] {
			return false
		}
	}
	return true
}

// summarize builds the summary of meta with its seats described.
func summarize(meta store.Table, seats []SeatInfo, seq int) *Summary {
	opts, _ := game.ParseOptions(meta.Options)
	s := &Summary{
		ID: meta.ID, Game: meta.Game, Options: opts, Private: meta.Private, ClockMS: meta.ClockMS,
		BotLevel: meta.BotLevel, Status: meta.Status, Owner: meta.Owner, Created: meta.Created,
		Seats: seats, Seq: seq, Invite: meta.Invite, Rated: meta.Rated, WhenEmpty: meta.WhenEmpty,
	}
	for _, si := range s.Seats {
		switch si.Kind {
		case protocol.SeatHuman:
			s.Humans++
		case protocol.SeatBot:
			s.Bots++
		default:
			s.Free++
		}
	}
	return s
}

// SummaryOf is the summary of a stored table that is not in memory (a
// finished one): nobody is connected to it.
func SummaryOf(meta store.Table) *Summary {
	seats := make([]SeatInfo, len(meta.Seats))
	for i, s := range meta.Seats {
		seats[i] = seatInfo(i, s)
		seats[i].Connected = false
	}
	return summarize(meta, seats, 0)
}

func (t *Table) publish() {
	s := summarize(t.meta, t.seatInfos(), t.log.len())
	s.Status = t.wireStatus() // paused: the lobby says why nothing moves
	t.summary.Store(s)
	if t.cfg.OnChange != nil {
		t.cfg.OnChange(s)
	}
}

// saveMeta stores t.meta (status, result, seats). Callers that change
// seats for a player revert their change when it fails, so an acknowledged
// seat change is always durable.
func (t *Table) saveMeta() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	if err := t.cfg.Store.UpdateTable(ctx, t.meta); err != nil {
		t.cfg.Metrics.StoreErrors.Add(1)
		t.cfg.Log.Error("store table", "table", t.id, "err", err)
		return err
	}
	t.metaDirty = false
	return nil
}

// snapshot copies t.meta, seats included, so a refused change can be undone.
func (t *Table) snapshot() store.Table {
	m := t.meta
	m.Seats = slices.Clone(t.meta.Seats)
	return m
}

// Subscribe adds a watcher: a seated player's connection gets its seats'
// views (and takes its seats back from stand-in bots), anyone else the
// spectator view. It returns the seats the player holds.
func (t *Table) Subscribe(ctx context.Context, sub Subscriber) ([]game.Seat, error) {
	var seats []game.Seat
	err := t.do(ctx, func() {
		seats = t.seatsOf(sub.Player())
		if _, ok := t.subs[sub]; !ok {
			t.subs[sub] = struct{}{}
			t.arrive(sub.Player())
		}
		t.sendState(sub)
	})
	return seats, err
}

// Unsubscribe removes a watcher (a closed connection, or unwatch). It never
// blocks and is never refused: departures have their own queue, which the
// table drains before its next command.
func (t *Table) Unsubscribe(sub Subscriber) {
	t.leaveMu.Lock()
	t.leaving = append(t.leaving, sub)
	t.leaveMu.Unlock()
	// Not inline: the caller (a connection's last reader, say) is not
	// held up by the table's events. One waiting stepLeave covers every
	// departure queued before it runs.
	t.deliver(event{kind: stepLeave}, false)
}

// departures handles the queued Unsubscribes.
func (t *Table) departures() {
	t.leaveMu.Lock()
	subs := t.leaving
	t.leaving = nil
	t.leaveMu.Unlock()
	for _, sub := range subs {
		if _, ok := t.subs[sub]; ok {
			delete(t.subs, sub)
			t.depart(sub.Player())
		}
	}
}

func (t *Table) arrive(player string) {
	t.presence[player]++
	if t.presence[player] == 1 {
		t.checkEmpty() // a seated player back at a paused table resumes it
	}
	changed := false
	for _, i := range t.seatsOf(player) {
		ss := &t.seats[i]
		if ss.away || !ss.absentSince.IsZero() {
			ss.away = false
			ss.absentSince = time.Time{}
			changed = true
		}
	}
	if changed || t.presence[player] == 1 && len(t.seatsOf(player)) > 0 {
		t.publish()
		t.broadcast()
	}
}

func (t *Table) depart(player string) {
	t.presence[player]--
	if t.presence[player] > 0 {
		return
	}
	delete(t.presence, player)
	seats := t.seatsOf(player)
	if len(seats) == 0 {
		return
	}
	t.openIdle = time.Now()
	if t.meta.Status == store.StatusPlaying {
		now := time.Now()
		for _, i := range seats {
			t.seats[i].absentSince = now
		}
	}
	t.checkEmpty() // the last human gone starts the grace period
	t.publish()
	t.broadcast()
}

// Join seats a player (who: Player, Name and Account; no Bot) at seat (-1:
// the first empty seat) and returns the seat. A player who already holds a
// seat here gets it back, as they sat down the first time.
func (t *Table) Join(ctx context.Context, who store.Seat, seat game.Seat) (game.Seat, error) {
	if who.Player == "" || who.Bot != "" {
		return 0, errorf(protocol.BadRequest, "a seat is joined by a player")
	}
	var got game.Seat
	var e error
	err := t.do(ctx, func() { got, e = t.join(who, seat) })
	if err != nil {
		return 0, err
	}
	return got, e
}

func (t *Table) join(who store.Seat, seat game.Seat) (game.Seat, error) {
	player := who.Player
	if seat < -1 || int(seat) >= len(t.meta.Seats) {
		return 0, errorf(protocol.BadSeat, "seat %d: the table has seats 0 to %d (or -1: the first free seat)", seat, len(t.meta.Seats)-1)
	}
	if held := t.seatsOf(player); len(held) > 0 && (seat < 0 || slices.Contains(held, seat)) {
		s := held[0]
		if seat >= 0 {
			s = seat
		}
		if t.seats[s].away || !t.seats[s].absentSince.IsZero() {
			t.seats[s].away = false
			t.seats[s].absentSince = time.Time{}
			t.publish()
			t.broadcast()
		}
		return s, nil
	}
	if t.meta.Status != store.StatusOpen {
		return 0, errorf(protocol.NotOpen, "the game has started")
	}
	if int(seat) >= len(t.meta.Seats) {
		return 0, errorf(protocol.BadSeat, "seat %d: the table has %d seats", seat, len(t.meta.Seats))
	}
	if seat < 0 {
		seat = -1
		for i, s := range t.meta.Seats {
			if s.Player == "" && s.Bot == "" {
				seat = game.Seat(i)
				break
			}
		}
		if seat < 0 {
			return 0, errorf(protocol.TableFull, "no empty seat")
		}
	} else if s := t.meta.Seats[seat]; s.Player != "" || s.Bot != "" {
		return 0, errorf(protocol.SeatTaken, "seat %d is taken", seat)
	}
	prev := t.snapshot()
	t.meta.Seats[seat] = store.Seat{Player: player, Name: who.Name, Account: who.Account}
	if err := t.seatsChanged(prev); err != nil {
		return 0, err
	}
	return seat, nil
}

// seatsChanged stores the seats, starts the game when every seat is
// filled, and tells everyone.
func (t *Table) full() bool {
	for _, s := range t.meta.Seats {
		if s.Player == "" && s.Bot == "" {
			return false
		}
	}
	return true
}

// startFull starts the game of a table created full (quick play, all
// bots); if the start cannot be stored, tick tries again.
func (t *Table) startFull() {
	if err := t.seatsChanged(t.snapshot()); err != nil {
		t.retryAt = time.Now().Add(time.Second)
	}
}

// seatsChanged is called after a change of t.meta.Seats; prev is t.meta
// before it. The change (and the start of the game when it fills the
// table) is stored first: if that fails, t.meta goes back to prev, nothing
// is announced, and the error is the caller's answer.
func (t *Table) seatsChanged(prev store.Table) error {
	start := t.full() && t.meta.Status == store.StatusOpen
	if start {
		t.meta.Status = store.StatusPlaying
	}
	if err := t.saveMeta(); err != nil {
		t.meta = prev
		return unavailable("the seat change", err)
	}
	t.openIdle = time.Now()
	if start {
		t.cfg.Metrics.Playing.Add(1)
		now := time.Now()
		for i, s := range t.meta.Seats {
			if s.Player != "" && t.presence[s.Player] == 0 {
				t.seats[i].absentSince = now
			}
		}
		t.checkEmpty() // a game started with nobody connected
		t.publish()
		if !t.advance() {
			t.broadcast()
		}
		return nil
	}
	t.publish()
	t.broadcast()
	return nil
}

// Leave gives up player's seats: before the start they become empty;
// after it a bot plays them until the player joins or watches again.
// With graced (a table where hints are refused: rated, or a tournament's
// deal), the bot starts only after the grace period, as for a lost
// connection: at once, "leave, take the bot's move, join again" would be
// a hint where the table allows none.
func (t *Table) Leave(ctx context.Context, player string, graced bool) error {
	var e error
	err := t.do(ctx, func() {
		seats := t.seatsOf(player)
		if len(seats) == 0 {
			e = errorf(protocol.NotSeated, "you hold no seat at table %s", t.id)
			return
		}
		if t.meta.Status == store.StatusOpen {
			prev := t.snapshot()
			for _, i := range seats {
				t.meta.Seats[i] = store.Seat{}
			}
			e = t.seatsChanged(prev)
			return
		}
		now := time.Now()
		for _, i := range seats {
			ss := &t.seats[i]
			switch {
			case !graced:
				ss.away = true
			case !ss.away && ss.absentSince.IsZero():
				ss.absentSince = now // the grace clock of a lost connection
			}
		}
		t.publish()
		t.broadcast()
	})
	if err != nil {
		return err
	}
	return e
}

// SetBot puts a bot of level at seat (-1: every empty seat), or removes the
// bot when level is "". Only the owner may, and only before the start.
func (t *Table) SetBot(ctx context.Context, player string, seat game.Seat, level string) error {
	if level != "" {
		if _, err := bot.New(level, 0); err != nil {
			return errorf(protocol.BadLevel, "%v", err)
		}
	}
	var e error
	err := t.do(ctx, func() { e = t.setBot(player, seat, level) })
	if err != nil {
		return err
	}
	return e
}

func (t *Table) setBot(player string, seat game.Seat, level string) error {
	if player != t.meta.Owner {
		return errorf(protocol.Forbidden, "only the table's owner may seat or remove bots")
	}
	if t.meta.Status != store.StatusOpen {
		return errorf(protocol.NotOpen, "the game has started")
	}
	if seat < -1 || int(seat) >= len(t.meta.Seats) || (seat < 0 && level == "") {
		return errorf(protocol.BadSeat, "seat %d: the table has %d seats", seat, len(t.meta.Seats))
	}
	prev := t.snapshot()
	if level == "" {
		if t.meta.Seats[seat].Bot == "" {
			return errorf(protocol.BadSeat, "seat %d has no bot", seat)
		}
		t.meta.Seats[seat] = store.Seat{}
		return t.seatsChanged(prev)
	}
	if seat >= 0 {
		if s := t.meta.Seats[seat]; s.Player != "" || s.Bot != "" {
			return errorf(protocol.SeatTaken, "seat %d is taken", seat)
		}
		t.meta.Seats[seat] = store.Seat{Bot: level, Name: "bot:" + level}
	} else {
		for i, s := range t.meta.Seats {
			if s.Player == "" && s.Bot == "" {
				t.meta.Seats[i] = store.Seat{Bot: level, Name: "bot:" + level}
			}
		}
	}
	return t.seatsChanged(prev)
}
