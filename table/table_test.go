package table

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
)

// fakeSub records what a table sends to one connection.
type fakeSub struct {
	player string
	mu     sync.Mutex
	msgs   [][]byte
	full   bool // refuse messages (a slow client)
}

func (f *fakeSub) Player() string { return f.player }
func (f *fakeSub) Send(b []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.full {
		return false
	}
	f.msgs = append(f.msgs, b)
	return true
}

func (f *fakeSub) last(typ string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.msgs) - 1; i >= 0; i-- {
		var m map[string]any
		json.Unmarshal(f.msgs[i], &m)
		if m["type"] == typ {
			return m
		}
	}
	return nil
}

func needPapayoo(t *testing.T) {
	t.Helper()
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
}

func newMeta(id string, seats []store.Seat, clockMS int) store.Table {
	return store.Table{ID: id, Game: "papayoo", Options: "rounds=1 first_dealer=0", Seed: 42, ClockMS: clockMS, Owner: "p_owner", Seats: seats}
}

func botSeats(human string, n int) []store.Seat {
	s := make([]store.Seat, n)
	for i := range s {
		s[i] = store.Seat{Bot: "random"}
	}
	if human != "" {
		s[0] = store.Seat{Player: human, Name: human}
	}
	return s
}

// TestClockExpiryMakesBotMove: a present human who never moves is played by
// a bot when the turn clock runs out, and the game runs to its end.
func TestClockExpiryMakesBotMove(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		st := store.NewMemory()
		m := NewMetrics()
		cfg := Config{Store: st, Metrics: m, Grace: time.Hour}
		tb, err := Create(context.Background(), cfg, newMeta("t_clock", botSeats("alice", 4), 5000))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		sub := &fakeSub{player: "alice"}
		if _, err := tb.Subscribe(context.Background(), sub); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		start := time.Now()
		for i := 0; i < 200 && tb.Summary().Status != store.StatusFinished; i++ {
			time.Sleep(5 * time.Second)
			synctest.Wait()
		}
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Fatalf("status %s after %v of fake time, want finished", got, time.Since(start))
		}
		// Papayoo with 4 players: alice makes 1 pass + 15 plays, all by clock.
		if got := m.ClockMoves.Load(); got != 16 {
			t.Errorf("clock moves = %d, want 16 (every move of the silent player)", got)
		}
		ev, _ := st.Events(context.Background(), "t_clock")
		if _, err := record.Replay(mustEngine(t), Record(mustTable(t, st, "t_clock"), ev), nil); err != nil {
			t.Errorf("the event log does not replay: %v", err)
		}
	})
}

// TestClockRemainingInState: the state message shows the time left.
func TestClockRemainingInState(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		cfg := Config{Store: store.NewMemory(), Grace: time.Hour}
		tb, err := Create(context.Background(), cfg, newMeta("t_rem", botSeats("alice", 4), 30000))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		sub := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), sub)
		synctest.Wait()
		time.Sleep(10 * time.Second)
		synctest.Wait()
		sub.mu.Lock()
		sub.msgs = nil
		sub.mu.Unlock()
		tb.Subscribe(context.Background(), sub) // resend the state
		msg := sub.last("state")
		clock, _ := msg["clock"].(map[string]any)
		rem, _ := clock["remaining"].(map[string]any)
		if v, _ := rem["0"].(float64); v != 20000 {
			t.Errorf("remaining for seat 0 = %v, want 20000 (30 s clock, 10 s elapsed); clock=%v", rem["0"], clock)
		}
		tb.Stop()
	})
}

// TestGraceAbsence: a player who disconnects is replaced by a bot after the
// grace period, and takes the seat back on return.
func TestGraceAbsence(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		m := NewMetrics()
		cfg := Config{Store: store.NewMemory(), Metrics: m, Grace: 30 * time.Second}
		// Bob stays: with every human gone the table would pause instead
		// (pause_test.go).
		seats := botSeats("alice", 4)
		seats[1] = store.Seat{Player: "bob", Name: "bob"}
		tb, err := Create(context.Background(), cfg, newMeta("t_grace", seats, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		tb.Subscribe(context.Background(), &fakeSub{player: "bob"})
		sub := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), sub)
		synctest.Wait()
		botMoves := m.BotMoves.Load()
		tb.Unsubscribe(sub)
		time.Sleep(29 * time.Second)
		synctest.Wait()
		if tb.Summary().Seats[0].Away {
			t.Fatal("seat 0 away before the grace period ended")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if !tb.Summary().Seats[0].Away {
			t.Fatal("seat 0 not away after the grace period")
		}
		if m.BotMoves.Load() == botMoves {
			t.Fatal("no bot move for the absent player")
		}
		sub2 := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), sub2)
		synctest.Wait()
		if s := tb.Summary().Seats[0]; s.Away || !s.Connected {
			t.Fatalf("seat 0 after return: %+v, want present", s)
		}
		tb.Stop()
	})
}

func mustEngine(t *testing.T) game.Engine {
	e, err := games.Lookup("papayoo")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustTable(t *testing.T, st store.Store, id string) store.Table {
	m, err := st.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRefusedMovesChangeNothing: illegal, malformed, out-of-turn and
// foreign-seat moves get an error and leave the log as it was.
func TestRefusedMovesChangeNothing(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		st := store.NewMemory()
		seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
		tb, err := Create(context.Background(), Config{Store: st, Grace: time.Hour}, newMeta("t_bad", seats, 0))
		if err != nil {
			t.Fatal(err)
		}
		subs := map[string]*fakeSub{}
		for _, p := range []string{"a", "b", "c", "d", "x"} {
			subs[p] = &fakeSub{player: p}
			tb.Subscribe(context.Background(), subs[p])
		}
		synctest.Wait()
		before, _ := st.Events(context.Background(), "t_bad")
		cases := []struct{ player, move, code string }{
			{"a", "dance", "malformed"},
			{"a", "play 7H", "illegal"}, // pass phase: plays are illegal (or not_your_turn)
			{"x", "play 7H", "not_seated"},
			{"a", "pass 1S", "illegal"},
		}
		for _, c := range cases {
			tb.Move(subs[c.player], json.RawMessage(`1`), -1, c.move)
			synctest.Wait()
			e := subs[c.player].last("error")
			if e == nil {
				t.Fatalf("%s %q: no error", c.player, c.move)
			}
			if code := e["code"].(string); code != c.code && !(c.code == "illegal" && (code == "not_your_turn" || code == "malformed")) {
				t.Errorf("%s %q: code %s, want %s (%v)", c.player, c.move, code, c.code, e["message"])
			}
			after, _ := st.Events(context.Background(), "t_bad")
			if len(after) != len(before) {
				t.Fatalf("%s %q: log grew from %d to %d", c.player, c.move, len(before), len(after))
			}
		}
		tb.Stop()
	})
}

// TestStoreFailureChangesNothing: when the log append fails the move is
// refused with unavailable and the state is as before.
func TestStoreFailureChangesNothing(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		st := store.NewMemory()
		seats := []store.Seat{{Player: "a", Name: "a"}, {Bot: "random"}, {Bot: "random"}, {Bot: "random"}}
		cfg := Config{Store: st, Grace: time.Hour, BotDelay: time.Hour}
		tb, err := Create(context.Background(), cfg, newMeta("t_fail", seats, 0))
		if err != nil {
			t.Fatal(err)
		}
		sub := &fakeSub{player: "a"}
		tb.Subscribe(context.Background(), sub)
		synctest.Wait()
		var sm StateMsg
		var raw struct {
			Legal []string `json:"legal"`
			Seq   int      `json:"seq"`
		}
		json.Unmarshal(mustJSON(sub.last("state")), &raw)
		_ = sm
		if len(raw.Legal) == 0 {
			t.Fatal("no legal move for seat 0")
		}
		st.FailAppend = errors.New("disk full")
		tb.Move(sub, nil, -1, raw.Legal[0])
		synctest.Wait()
		if e := sub.last("error"); e == nil || e["code"] != string(protocol.Unavailable) {
			tb.Stop()
			t.Fatalf("error = %v, want %s", e, protocol.Unavailable)
		}
		st.FailAppend = nil
		tb.Move(sub, nil, -1, raw.Legal[0])
		synctest.Wait()
		if a := sub.last("ack"); a == nil || int(a["seq"].(float64)) != raw.Seq+1 {
			t.Fatalf("ack = %v, want seq %d (the refused move left no trace)", a, raw.Seq+1)
		}
		tb.Stop()
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestQueueBounded: a flood of commands is refused with busy, not queued.
func TestQueueBounded(t *testing.T) {
	needPapayoo(t)
	st := store.NewMemory()
	cfg := Config{Store: st, QueueSize: 4}
	tb, err := Create(context.Background(), cfg, newMeta("t_q", make([]store.Seat, 4), 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	// Block the goroutine, then flood.
	release := make(chan struct{})
	if err := tb.post(func() { <-release }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	busy := 0
	sub := &fakeSub{player: "z"}
	for i := 0; i < 100; i++ {
		if err := tb.Move(sub, nil, -1, "play 1S"); err == ErrBusy {
			busy++
		}
	}
	close(release)
	if busy != 100-4 {
		t.Errorf("busy = %d, want %d (queue of 4)", busy, 96)
	}
}

// TestRestoreSameCards: a table rebuilt from its log has the same views.
func TestRestoreSameCards(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		st := store.NewMemory()
		seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
		meta := newMeta("t_rs", seats, 0)
		tb, err := Create(context.Background(), Config{Store: st, Grace: time.Hour}, meta)
		if err != nil {
			t.Fatal(err)
		}
		sub := &fakeSub{player: "a"}
		tb.Subscribe(context.Background(), sub)
		synctest.Wait()
		before := sub.last("state")
		tb.Stop()
		m2, _ := st.Table(context.Background(), "t_rs")
		ev, _ := st.Events(context.Background(), "t_rs")
		tb2, err := Restore(Config{Store: st, Grace: time.Hour}, m2, ev)
		if err != nil {
			t.Fatal(err)
		}
		sub2 := &fakeSub{player: "a"}
		tb2.Subscribe(context.Background(), sub2)
		synctest.Wait()
		after := sub2.last("state")
		bv, av := mustJSON(before["view"]), mustJSON(after["view"])
		if string(bv) != string(av) {
			t.Errorf("view after restore differs:\n%s\n%s", bv, av)
		}
		tb2.Stop()
	})
}

// TestLeaveAndBots: leaving before the start frees the seat; the owner
// fills seats with bots and the game starts when the last seat fills;
// leaving after the start hands the seat to a bot until the player returns.
func TestLeaveAndBots(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m := NewMetrics()
		tb, err := Create(ctx, Config{Store: store.NewMemory(), Metrics: m, Grace: time.Hour}, newMeta("t_lv", nil, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		if s, err := tb.Join(ctx, store.Seat{Player: "bob", Name: "bob"}, -1); err != nil || s != 0 {
			t.Fatalf("join: %d %v", s, err)
		}
		if err := tb.Leave(ctx, "bob", false); err != nil || tb.Summary().Seats[0].Kind != "empty" {
			t.Fatalf("leave before start: %v %+v", err, tb.Summary().Seats[0])
		}
		if err := tb.SetBot(ctx, "bob", 1, "random"); err == nil {
			t.Error("a non-owner seated a bot")
		}
		tb.Join(ctx, store.Seat{Player: "alice", Name: "alice"}, 0)
		sub := &fakeSub{player: "alice"}
		tb.Subscribe(ctx, sub)
		if err := tb.SetBot(ctx, "p_owner", -1, "random"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st := tb.Summary().Status; st != store.StatusPlaying {
			t.Fatalf("status %s after filling every seat, want playing", st)
		}
		if _, err := tb.Join(ctx, store.Seat{Player: "carol", Name: "carol"}, -1); err == nil {
			t.Error("joined a started table")
		}
		if err := tb.Leave(ctx, "alice", false); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if !tb.Summary().Seats[0].Away || m.BotMoves.Load() < 4 {
			t.Fatalf("after leaving: seat %+v, bot moves %d (want the pass made by a bot)", tb.Summary().Seats[0], m.BotMoves.Load())
		}
		if s, err := tb.Join(ctx, store.Seat{Player: "alice", Name: "alice"}, -1); err != nil || s != 0 || tb.Summary().Seats[0].Away {
			t.Fatalf("rejoin: %d %v %+v", s, err, tb.Summary().Seats[0])
		}
	})
}

// TestLeaveGraced: where hints are refused (a rated or tournament table:
// Leave with graced), a seat its player leaves is not played by the
// stand-in at once but after the grace period, as for a lost connection;
// a player back within it finds the seat as they left it, with no move
// made for them. (At once, leave, take the bot's move and join again
// would be a hint.)
func TestLeaveGraced(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m := NewMetrics()
		const grace = time.Minute
		tb, err := Create(ctx, Config{Store: store.NewMemory(), Metrics: m, Grace: grace}, newMeta("t_lg", nil, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		tb.Join(ctx, store.Seat{Player: "alice", Name: "alice"}, 0)
		sub := &fakeSub{player: "alice"}
		tb.Subscribe(ctx, sub)
		if err := tb.SetBot(ctx, "p_owner", -1, "random"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		bots := m.BotMoves.Load() // the bots' passes: alice's is hers to make
		if err := tb.Leave(ctx, "alice", true); err != nil {
			t.Fatal(err)
		}
		time.Sleep(grace - time.Second)
		synctest.Wait()
		if tb.Summary().Seats[0].Away || m.BotMoves.Load() != bots {
			t.Fatalf("within the grace period after leaving: seat %+v, %d bot moves (want none for her)", tb.Summary().Seats[0], m.BotMoves.Load()-bots)
		}
		if s, err := tb.Join(ctx, store.Seat{Player: "alice", Name: "alice"}, -1); err != nil || s != 0 {
			t.Fatalf("rejoin: %d %v", s, err)
		}
		time.Sleep(2 * grace)
		synctest.Wait()
		if tb.Summary().Seats[0].Away || m.BotMoves.Load() != bots {
			t.Fatalf("back within the grace period: seat %+v, %d bot moves for her", tb.Summary().Seats[0], m.BotMoves.Load()-bots)
		}
		// Leaving for good: the stand-in after the grace period.
		if err := tb.Leave(ctx, "alice", true); err != nil {
			t.Fatal(err)
		}
		time.Sleep(grace + time.Second)
		synctest.Wait()
		if !tb.Summary().Seats[0].Away || m.BotMoves.Load() == bots {
			t.Fatalf("past the grace period: seat %+v, %d bot moves (want her pass made)", tb.Summary().Seats[0], m.BotMoves.Load()-bots)
		}
	})
}

var gamesLookup = games.Lookup
