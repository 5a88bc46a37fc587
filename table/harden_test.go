package table

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/bot/pool"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
)

// faultStore wraps a store with switchable faults.
type faultStore struct {
	store.Store
	mu         sync.Mutex
	failUpdate error
}

func (f *faultStore) UpdateTable(ctx context.Context, t store.Table) error {
	f.mu.Lock()
	err := f.failUpdate
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.Store.UpdateTable(ctx, t)
}

func (f *faultStore) setFail(err error) {
	f.mu.Lock()
	f.failUpdate = err
	f.mu.Unlock()
}

// TestWithdrawnCommandNotApplied: a join whose caller gave up while it
// waited in the table's queue is never carried out (a timed-out request
// must not be applied later).
func TestWithdrawnCommandNotApplied(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory()}, newMeta("t_wd", nil, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	release := make(chan struct{})
	if err := tb.post(func() { <-release }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := tb.Join(ctx, store.Seat{Player: "bob", Name: "bob"}, 2); err != ErrTimeout {
		t.Fatalf("join with an expired context: %v, want ErrTimeout", err)
	}
	close(release)
	// A later command runs after the withdrawn one would have.
	if _, err := tb.Join(context.Background(), store.Seat{Player: "carol", Name: "carol"}, 1); err != nil {
		t.Fatal(err)
	}
	if s := tb.Summary().Seats[2]; s.Kind != "empty" {
		t.Fatalf("seat 2 is %+v: the withdrawn join was applied", s)
	}
}

// TestSeatChangeDurableOrRefused: when the seats cannot be stored, a join
// or a bot is refused with unavailable and nothing changes, in memory or
// in the store; once storage works, the same join succeeds and is stored.
func TestSeatChangeDurableOrRefused(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		fs := &faultStore{Store: store.NewMemory()}
		tb, err := Create(ctx, Config{Store: fs, Grace: time.Hour}, newMeta("t_dur", nil, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		fs.setFail(errors.New("disk full"))
		var te *Error
		if _, err := tb.Join(ctx, store.Seat{Player: "bob", Name: "bob"}, 0); !errors.As(err, &te) || te.Code != protocol.Unavailable {
			t.Fatalf("join on a failing store: %v, want %s", err, protocol.Unavailable)
		}
		if err := tb.SetBot(ctx, "p_owner", -1, "random"); !errors.As(err, &te) || te.Code != protocol.Unavailable {
			t.Fatalf("bots on a failing store: %v, want %s", err, protocol.Unavailable)
		}
		for i, s := range tb.Summary().Seats {
			if s.Kind != "empty" {
				t.Fatalf("seat %d is %+v after refused changes", i, s)
			}
		}
		if m := mustTable(t, fs, "t_dur"); m.Seats[0].Player != "" || m.Seats[1].Bot != "" {
			t.Fatalf("stored seats %+v after refused changes", m.Seats)
		}
		fs.setFail(nil)
		if _, err := tb.Join(ctx, store.Seat{Player: "bob", Name: "bob"}, 0); err != nil {
			t.Fatal(err)
		}
		if m := mustTable(t, fs, "t_dur"); m.Seats[0].Player != "bob" {
			t.Fatalf("stored seat 0 = %+v after an acknowledged join", m.Seats[0])
		}
		// Filling the table starts the game only if the start is stored.
		fs.setFail(errors.New("disk full"))
		if err := tb.SetBot(ctx, "p_owner", -1, "random"); !errors.As(err, &te) || te.Code != protocol.Unavailable {
			t.Fatalf("bots filling the table on a failing store: %v", err)
		}
		if st := tb.Summary().Status; st != store.StatusOpen {
			t.Fatalf("status %s after a refused start, want open", st)
		}
		fs.setFail(nil)
		if err := tb.SetBot(ctx, "p_owner", -1, "random"); err != nil {
			t.Fatal(err)
		}
		if m := mustTable(t, fs, "t_dur"); m.Status != store.StatusPlaying {
			t.Fatalf("stored status %s after the start, want playing", m.Status)
		}
	})
}

// TestConflictResyncs: when the log holds a step the table does not (a
// second writer), the table's next append conflicts, it adopts the stored
// step, and it moves on from there instead of wedging.
func TestConflictResyncs(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st := store.NewMemory()
		seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
		tb, err := Create(ctx, Config{Store: st, Grace: time.Hour}, newMeta("t_cf", seats, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		subs := make([]*fakeSub, 4)
		for i, p := range []string{"a", "b", "c", "d"} {
			subs[i] = &fakeSub{player: p}
			tb.Subscribe(ctx, subs[i])
		}
		synctest.Wait()
		legal := func(i int) []string {
			var m struct {
				Legal []string `json:"legal"`
			}
			json.Unmarshal(mustJSON(subs[i].last("state")), &m)
			return m.Legal
		}
		seq := tb.Summary().Seq
		// Another writer logs seat 0's pass behind the table's back.
		if err := st.Append(ctx, "t_cf", seq, record.Entry{Seat: 0, Text: legal(0)[0]}); err != nil {
			t.Fatal(err)
		}
		tb.Move(subs[1], json.RawMessage(`1`), -1, legal(1)[0])
		synctest.Wait()
		if e := subs[1].last("error"); e == nil || e["code"] != string(protocol.Unavailable) {
			t.Fatalf("the conflicting move: %v, want %s", e, protocol.Unavailable)
		}
		if got := tb.Summary().Seq; got != seq+1 {
			t.Fatalf("seq %d after resync, want %d (the stored step adopted)", got, seq+1)
		}
		if l := legal(0); len(l) != 0 {
			t.Fatalf("seat 0 still has %d legal moves: its stored pass was not adopted", len(l))
		}
		tb.Move(subs[1], json.RawMessage(`2`), -1, legal(1)[0])
		synctest.Wait()
		if a := subs[1].last("ack"); a == nil || int(a["seq"].(float64)) != seq+2 {
			t.Fatalf("ack after resync = %v, want seq %d", a, seq+2)
		}
		ev, _ := st.Events(ctx, "t_cf")
		if len(ev) != seq+2 {
			t.Fatalf("log has %d steps, want %d", len(ev), seq+2)
		}
	})
}

// TestUnsubscribeNeverLost: a departure is handled even when the command
// queue is full (it has its own queue).
func TestUnsubscribeNeverLost(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), QueueSize: 2, Grace: time.Hour},
		newMeta("t_un", botSeats("alice", 4), 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	sub := &fakeSub{player: "alice"}
	if _, err := tb.Subscribe(context.Background(), sub); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	tb.post(func() { <-release })
	for tb.post(func() {}) == nil {
	}
	done := make(chan struct{})
	go func() { tb.Unsubscribe(sub); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Unsubscribe blocked on a full queue")
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for tb.Summary().Seats[0].Connected {
		if time.Now().After(deadline) {
			t.Fatal("alice still connected after Unsubscribe")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestOpenTableExpires: an open table nobody seated is connected to closes
// after OpenTTL; it is stored as closed, leaves memory, and is not among the
// unfinished tables a restart restores.
func TestOpenTableExpires(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st := store.NewMemory()
		m := NewMetrics()
		cfg := Config{Store: st, Metrics: m, OpenTTL: 10 * time.Minute}
		tb, err := Create(ctx, cfg, newMeta("t_exp", nil, 0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Join(ctx, store.Seat{Player: "bob", Name: "bob"}, 0); err != nil {
			t.Fatal(err)
		}
		sub := &fakeSub{player: "bob"}
		tb.Subscribe(ctx, sub)
		time.Sleep(time.Hour) // bob is connected: the table stays
		synctest.Wait()
		if tb.Summary().Status != store.StatusOpen {
			t.Fatalf("status %s while its seated player is connected", tb.Summary().Status)
		}
		tb.Unsubscribe(sub)
		time.Sleep(9 * time.Minute)
		synctest.Wait()
		if tb.Summary().Status != store.StatusOpen {
			t.Fatalf("status %s before OpenTTL", tb.Summary().Status)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		select {
		case <-tb.Done():
		default:
			t.Fatal("the expired table still runs")
		}
		if got := mustTable(t, st, "t_exp").Status; got != store.StatusClosed {
			t.Fatalf("stored status %s, want %s", got, store.StatusClosed)
		}
		if m.Expired.Load() != 1 {
			t.Errorf("expired = %d, want 1", m.Expired.Load())
		}
		ids, _ := st.UnfinishedIDs(ctx)
		for _, id := range ids {
			if id == "t_exp" {
				t.Error("a closed table is listed as unfinished")
			}
		}
	})
}

// TestBotsThroughFullPool: with a pool of one worker and a queue of one,
// three all-bot tables still finish: decisions the pool refuses are tried
// again, never dropped.
func TestBotsThroughFullPool(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		p := pool.New(1, 1)
		defer p.Close()
		m := NewMetrics()
		cfg := Config{Store: store.NewMemory(), Metrics: m, Pool: p}
		var tbs []*Table
		for _, id := range []string{"t_p1", "t_p2", "t_p3"} {
			tb, err := Create(context.Background(), cfg, newMeta(id, botSeats("", 4), 0))
			if err != nil {
				t.Fatal(err)
			}
			tbs = append(tbs, tb)
		}
		for i := 0; i < 600; i++ {
			time.Sleep(100 * time.Millisecond)
			synctest.Wait()
		}
		for _, tb := range tbs {
			if st := tb.Summary().Status; st != store.StatusFinished {
				t.Errorf("%s: %s, want finished", tb.ID(), st)
			}
			tb.Stop()
		}
		if m.BotRetries.Load() == 0 {
			t.Error("no decision was refused by a pool of queue 1: the test did not exercise the retry")
		}
	})
}

// TestFinishedTableLeavesMemory: a finished table leaves memory after
// Linger once nobody watches, and after 5 × Linger even if someone does.
func TestFinishedTableLeavesMemory(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		cfg := Config{Store: store.NewMemory(), Linger: time.Minute}
		tb, err := Create(context.Background(), cfg, newMeta("t_lg", botSeats("", 4), 0))
		if err != nil {
			t.Fatal(err)
		}
		sub := &fakeSub{player: "watcher"}
		tb.Subscribe(context.Background(), sub)
		synctest.Wait()
		if tb.Summary().Status != store.StatusFinished {
			t.Fatalf("status %s, want the bots' game finished", tb.Summary().Status)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		select {
		case <-tb.Done():
			t.Fatal("left memory while watched, before 5 × Linger")
		default:
		}
		time.Sleep(4 * time.Minute)
		synctest.Wait()
		select {
		case <-tb.Done():
		default:
			t.Fatal("a watched finished table is still in memory after 5 × Linger")
		}
	})
}

// The appends' deadline is one context reused until half the store
// timeout has passed, and then a fresh one: a step's append always has
// between half the timeout and the whole of it.
func TestStoreCtxRenews(t *testing.T) {
	const d = 10 * time.Second
	tb := &Table{cfg: Config{StoreTimeout: d}}
	now := time.Now()
	c1 := tb.storeCtx(now)
	dl, ok := c1.Deadline()
	if !ok || dl.Before(now.Add(d-time.Second)) || dl.After(time.Now().Add(d)) {
		t.Fatalf("first deadline %v (ok %v), want about %v from now", dl, ok, d)
	}
	if c := tb.storeCtx(now.Add(d / 2)); c != c1 {
		t.Error("a new context before half the timeout")
	}
	c2 := tb.storeCtx(now.Add(d/2 + time.Millisecond))
	if c2 == c1 || c1.Err() == nil {
		t.Errorf("after half the timeout: the same context (%v), or the old one not cancelled (%v)", c2 == c1, c1.Err())
	}
	if dl2, _ := c2.Deadline(); !dl2.After(dl) {
		t.Errorf("renewed deadline %v, not after %v", dl2, dl)
	}
}
