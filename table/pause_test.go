package table

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
)

// humansAndBots is a papayoo table whose first seats are the players and
// the rest random bots.
func humansAndBots(id, whenEmpty string, players ...string) store.Table {
	seats := botSeats("", 4)
	for i, p := range players {
		seats[i] = store.Seat{Player: p, Name: p}
	}
	m := newMeta(id, seats, 0)
	m.WhenEmpty = whenEmpty
	return m
}

// TestEmptyTablePausesAndResumes: once the only human has been gone for
// the grace period the bots stop (no move for ten minutes, the lobby says
// paused, the gauge counts it); the human's return resumes the table.
func TestEmptyTablePausesAndResumes(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		m := NewMetrics()
		st := store.NewMemory()
		cfg := Config{Store: st, Metrics: m, Grace: 30 * time.Second}
		tb, err := Create(context.Background(), cfg, humansAndBots("t_pause", "", "alice"))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		alice := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), alice)
		synctest.Wait()
		tb.Unsubscribe(alice)
		time.Sleep(29 * time.Second)
		synctest.Wait()
		if got := tb.Summary().Status; got != store.StatusPlaying {
			t.Fatalf("status %s before the grace period ended, want playing", got)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if got := tb.Summary().Status; got != protocol.StatusPaused || !tb.Paused() {
			t.Fatalf("status %s after the grace period, want paused", got)
		}
		if got := m.Paused.Load(); got != 1 {
			t.Errorf("paused gauge %d, want 1", got)
		}
		seq, botMoves := tb.Summary().Seq, m.BotMoves.Load()
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if tb.Summary().Seq != seq || m.BotMoves.Load() != botMoves {
			t.Fatalf("the paused table moved: seq %d → %d, bot moves %d → %d", seq, tb.Summary().Seq, botMoves, m.BotMoves.Load())
		}
		if row := mustTable(t, st, "t_pause"); row.Status != store.StatusPlaying {
			t.Errorf("stored status %s: the pause is not stored, the game is still playing", row.Status)
		}
		// A spectator does not resume it.
		watcher := &fakeSub{player: "zed"}
		tb.Subscribe(context.Background(), watcher)
		synctest.Wait()
		if !tb.Paused() {
			t.Error("a spectator resumed the table")
		}
		if s := watcher.last("state"); s == nil || s["status"] != "paused" {
			t.Errorf("the spectator's state of the paused table: %v, want status paused", s)
		}
		back := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), back)
		synctest.Wait()
		if got := tb.Summary().Status; got != store.StatusPlaying {
			t.Fatalf("status %s after alice came back, want playing", got)
		}
		if got := m.Paused.Load(); got != 0 {
			t.Errorf("paused gauge %d after the return, want 0", got)
		}
		if s := back.last("state"); s == nil || s["status"] != "playing" {
			t.Errorf("alice's state after her return: %v", s)
		}
		// The game goes on: alice plays her moves, the bots theirs.
		for i := 0; i < 400 && tb.Summary().Status == store.StatusPlaying; i++ {
			playFirstLegal(t, tb, back)
			synctest.Wait()
		}
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Errorf("status %s, want the game finished after the return", got)
		}
	})
}

// playFirstLegal plays sub's first legal move when it has one.
func playFirstLegal(t *testing.T, tb *Table, sub *fakeSub) {
	t.Helper()
	s := sub.last("state")
	legal, _ := s["legal"].([]any)
	if len(legal) == 0 {
		time.Sleep(time.Second)
		return
	}
	seat := int(s["seat"].(float64))
	tb.Move(sub, nil, game.Seat(seat), legal[0].(string))
}

// TestEmptyTableEnds: with when_empty "end" the game ends unfinished once
// the humans have been gone for the grace period: stored as finished with
// the unfinished result "*" and no winner, counted, and out of memory
// after Linger.
func TestEmptyTableEnds(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		m := NewMetrics()
		st := store.NewMemory()
		cfg := Config{Store: st, Metrics: m, Grace: 30 * time.Second, Linger: time.Minute}
		tb, err := Create(context.Background(), cfg, humansAndBots("t_end", protocol.WhenEmptyEnd, "alice"))
		if err != nil {
			t.Fatal(err)
		}
		alice := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), alice)
		synctest.Wait()
		tb.Unsubscribe(alice)
		time.Sleep(31 * time.Second)
		synctest.Wait()
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Fatalf("status %s, want finished", got)
		}
		row := mustTable(t, st, "t_end")
		if row.Status != store.StatusFinished || row.Result != "*" || len(row.Winners) != 0 || row.Finished.IsZero() {
			t.Errorf("stored row: status %s, result %q, winners %v, finished %v", row.Status, row.Result, row.Winners, row.Finished)
		}
		if m.Abandoned.Load() != 1 || m.Playing.Load() != 0 || m.Paused.Load() != 0 || m.Finished.Load() != 0 {
			t.Errorf("metrics: abandoned %d playing %d paused %d finished %d; want 1 0 0 0",
				m.Abandoned.Load(), m.Playing.Load(), m.Paused.Load(), m.Finished.Load())
		}
		// Coming back is too late: the table is over (and refuses moves).
		back := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), back)
		synctest.Wait()
		if s := back.last("state"); s == nil || s["status"] != "finished" {
			t.Errorf("state after the end: %v", s)
		} else if legal, _ := s["legal"].([]any); len(legal) != 0 || len(s["to_act"].([]any)) != 0 {
			t.Errorf("the ended game still offers moves: to_act %v, legal %v", s["to_act"], legal)
		}
		tb.Move(back, nil, 0, "play 1S")
		synctest.Wait()
		if e := back.last("error"); e == nil || e["code"] != string(protocol.GameOver) {
			t.Errorf("a move after the end: %v, want game_over", e)
		}
		tb.Unsubscribe(back)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		select {
		case <-tb.Done():
		default:
			t.Error("the ended table is still in memory after Linger")
		}
	})
}

// TestPauseCases: who must be gone, and for how long, before a table
// pauses; bots-only tables and open tables never do.
func TestPauseCases(t *testing.T) {
	needPapayoo(t)
	cases := []struct {
		name    string
		meta    store.Table
		connect []string      // subscribe these players first
		leave   []string      // then unsubscribe these
		wait    time.Duration // then wait this long
		want    protocol.TableStatus
	}{
		{"one of two humans gone", humansAndBots("t_c1", "", "alice", "bob"), []string{"alice", "bob"}, []string{"alice"}, time.Hour, store.StatusPlaying},
		{"both humans gone", humansAndBots("t_c2", "", "alice", "bob"), []string{"alice", "bob"}, []string{"alice", "bob"}, time.Minute, protocol.StatusPaused},
		{"nobody ever connected", humansAndBots("t_c3", "", "alice"), nil, nil, time.Minute, protocol.StatusPaused},
		{"still within the grace period", humansAndBots("t_c4", "", "alice"), []string{"alice"}, []string{"alice"}, 20 * time.Second, store.StatusPlaying},
		{"an open table waits as before (seat 2 empty)", humansAndBots("t_c5", "", "alice", "bob", ""), []string{"alice"}, []string{"alice"}, time.Minute, store.StatusOpen},
		{"explicit pause choice", humansAndBots("t_c6", protocol.WhenEmptyPause, "alice"), nil, nil, time.Minute, protocol.StatusPaused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := Config{Store: store.NewMemory(), Grace: 30 * time.Second, OpenTTL: -1}
				tb, err := Create(context.Background(), cfg, c.meta)
				if err != nil {
					t.Fatal(err)
				}
				defer tb.Stop()
				subs := map[string]*fakeSub{}
				for _, p := range c.connect {
					subs[p] = &fakeSub{player: p}
					tb.Subscribe(context.Background(), subs[p])
				}
				synctest.Wait()
				for _, p := range c.leave {
					tb.Unsubscribe(subs[p])
				}
				time.Sleep(c.wait)
				synctest.Wait()
				if got := tb.Summary().Status; got != c.want {
					t.Errorf("status %s, want %s", got, c.want)
				}
			})
		})
	}
}

// A table of bots only has no human to wait for: it plays to its end.
func TestBotsOnlyTablePlaysOn(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		cfg := Config{Store: store.NewMemory(), Grace: time.Second}
		tb, err := Create(context.Background(), cfg, newMeta("t_bots", botSeats("", 4), 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		for i := 0; i < 100 && tb.Summary().Status != store.StatusFinished; i++ {
			time.Sleep(time.Minute)
			synctest.Wait()
		}
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Errorf("status %s, want finished", got)
		}
	})
}

// A restored table has nobody connected: it pauses after the grace period
// like any other, and the stored choice "end" survives the restart.
func TestRestoredTablePausesOrEnds(t *testing.T) {
	needPapayoo(t)
	for _, whenEmpty := range []string{"", protocol.WhenEmptyEnd} {
		synctest.Test(t, func(t *testing.T) {
			st := store.NewMemory()
			cfg := Config{Store: st, Grace: 30 * time.Second}
			tb, err := Create(context.Background(), cfg, humansAndBots("t_rest", whenEmpty, "alice"))
			if err != nil {
				t.Fatal(err)
			}
			alice := &fakeSub{player: "alice"}
			tb.Subscribe(context.Background(), alice)
			synctest.Wait()
			tb.Stop()
			meta := mustTable(t, st, "t_rest")
			if meta.WhenEmpty != whenEmpty {
				t.Fatalf("stored when_empty %q, want %q", meta.WhenEmpty, whenEmpty)
			}
			ev, _ := st.Events(context.Background(), "t_rest")
			tb2, err := Restore(cfg, meta, ev)
			if err != nil {
				t.Fatal(err)
			}
			defer tb2.Stop()
			time.Sleep(31 * time.Second)
			synctest.Wait()
			want := protocol.StatusPaused
			if whenEmpty == protocol.WhenEmptyEnd {
				want = store.StatusFinished
			}
			if got := tb2.Summary().Status; got != want {
				t.Errorf("when_empty %q: restored table %s after the grace period, want %s", whenEmpty, got, want)
			}
		})
	}
}

// A bad when_empty is refused before anything is stored.
func TestWhenEmptyValidated(t *testing.T) {
	needPapayoo(t)
	for _, v := range []string{"sometimes", "PAUSE", " end", "pause\x00"} {
		st := store.NewMemory()
		_, err := Create(context.Background(), Config{Store: st}, humansAndBots("t_bad", v, "alice"))
		var te *Error
		if !errors.As(err, &te) || te.Code != protocol.BadRequest {
			t.Errorf("when_empty %q: %v, want bad_request", v, err)
		}
		if _, err := st.Table(context.Background(), "t_bad"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("when_empty %q: a refused table was stored (%v)", v, err)
		}
	}
	for _, v := range []string{"", "pause", "end"} {
		if err := CheckWhenEmpty(v); err != nil {
			t.Errorf("CheckWhenEmpty(%q): %v", v, err)
		}
	}
}

// A paused table nobody comes back to ends after PausedTTL (a spectator
// does not extend it), so such games cannot fill the room.
func TestPausedTableEndsAfterTTL(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		m := NewMetrics()
		st := store.NewMemory()
		cfg := Config{Store: st, Metrics: m, Grace: 30 * time.Second, PausedTTL: time.Hour}
		tb, err := Create(context.Background(), cfg, humansAndBots("t_ttl", "", "alice"))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		time.Sleep(31 * time.Second)
		synctest.Wait()
		if !tb.Paused() {
			t.Fatalf("status %s, want paused", tb.Summary().Status)
		}
		time.Sleep(50 * time.Minute)
		tb.Subscribe(context.Background(), &fakeSub{player: "zed"})
		synctest.Wait()
		time.Sleep(9 * time.Minute)
		synctest.Wait()
		if !tb.Paused() {
			t.Fatalf("status %s before PausedTTL, want paused", tb.Summary().Status)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Fatalf("status %s after PausedTTL, want finished", got)
		}
		if row := mustTable(t, st, "t_ttl"); row.Status != store.StatusFinished || row.Result != "*" {
			t.Errorf("stored %s %q, want finished *", row.Status, row.Result)
		}
		if m.Abandoned.Load() != 1 || m.Paused.Load() != 0 {
			t.Errorf("abandoned %d paused %d, want 1 0", m.Abandoned.Load(), m.Paused.Load())
		}
	})
}

// TestMaxSteps: a game that reaches Config.MaxSteps unfinished is ended
// unfinished (result "*", no winner), counted apart from abandoned ones,
// and its log holds exactly the bound's steps: the rules bound no game's
// length, and a table of bots would otherwise play for ever.
func TestMaxSteps(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		m := NewMetrics()
		st := store.NewMemory()
		cfg := Config{Store: st, Metrics: m, Grace: time.Hour, MaxSteps: 25}
		tb, err := Create(context.Background(), cfg, newMeta("t_long", botSeats("", 4), 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := tb.Summary().Status; got != store.StatusFinished {
			t.Fatalf("status %s, want finished", got)
		}
		row := mustTable(t, st, "t_long")
		if row.Result != "*" || len(row.Winners) != 0 {
			t.Errorf("stored row: result %q, winners %v; want * and none", row.Result, row.Winners)
		}
		if ev, err := st.Events(context.Background(), "t_long"); err != nil || len(ev) != 25 {
			t.Errorf("%d steps logged (%v), want the bound's 25", len(ev), err)
		}
		if m.TooLong.Load() != 1 || m.Abandoned.Load() != 0 || m.Finished.Load() != 0 || m.Playing.Load() != 0 {
			t.Errorf("metrics: too long %d abandoned %d finished %d playing %d; want 1 0 0 0",
				m.TooLong.Load(), m.Abandoned.Load(), m.Finished.Load(), m.Playing.Load())
		}
		if !tb.EndedUnfinished() {
			t.Error("EndedUnfinished is false")
		}
	})
}
