package table

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
)

// TestMailboxOrder: commands posted from many goroutines at once run one
// at a time (never two beside each other), each exactly once, and those
// of one goroutine in the order it posted them (mailbox.go).
func TestMailboxOrder(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour, QueueSize: 1000}, newMeta("t_mb", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	const posters, each = 8, 100
	var order [posters][]int
	running, ran := 0, 0
	var wg sync.WaitGroup
	for p := range posters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				for tb.post(func() {
					running++
					if running != 1 {
						t.Errorf("poster %d's command %d runs beside another", p, i)
					}
					order[p] = append(order[p], i)
					ran++
					runtime.Gosched()
					running--
				}) == ErrBusy {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	if err := tb.do(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	var total int
	tb.do(context.Background(), func() { total = ran })
	if total != posters*each {
		t.Fatalf("%d of %d commands ran", total, posters*each)
	}
	for p, o := range order {
		for i, v := range o {
			if v != i {
				t.Fatalf("poster %d's commands ran in the order %v", p, o)
			}
		}
	}
}

// TestMailboxGoexit: a command that ends its goroutine (runtime.Goexit,
// as a test's FailNow inside a command does) stops the table, whose
// state may be half changed, and releases every caller.
func TestMailboxGoexit(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, newMeta("t_mbx", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		tb.do(context.Background(), func() { runtime.Goexit() })
	}()
	<-exited
	select {
	case <-tb.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the table runs on after a command ended its goroutine")
	}
	if err := tb.do(context.Background(), func() { t.Error("a command ran after the table stopped") }); err != ErrStopped {
		t.Fatalf("do after the stop: %v, want ErrStopped", err)
	}
	if err := tb.post(func() { t.Error("a command ran after the table stopped") }); err != ErrStopped {
		t.Fatalf("post after the stop: %v, want ErrStopped", err)
	}
	tb.Stop() // returns at once
}

// TestMailboxBusy: at most QueueSize commands wait; the next is refused
// with ErrBusy and counted, and none of those accepted is lost.
func TestMailboxBusy(t *testing.T) {
	needPapayoo(t)
	m := NewMetrics()
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour, QueueSize: 3, Metrics: m}, newMeta("t_mbb", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	release, started := make(chan struct{}), make(chan struct{})
	go tb.do(context.Background(), func() { close(started); <-release }) // holds the table
	<-started
	ran := 0
	for i := range 3 {
		if err := tb.post(func() { ran++ }); err != nil {
			t.Fatalf("command %d of 3: %v", i, err)
		}
	}
	busy := m.Busy.Load()
	if err := tb.post(func() { t.Error("a refused command ran") }); err != ErrBusy {
		t.Fatalf("a fourth waiting command: %v, want ErrBusy", err)
	}
	if m.Busy.Load() != busy+1 {
		t.Errorf("busy counted %d times, want %d", m.Busy.Load(), busy+1)
	}
	// Departures are not commands: never refused.
	tb.Unsubscribe(&fakeSub{player: "x"})
	close(release)
	var got int
	err = ErrBusy
	for err == ErrBusy { // until the three have left the queue
		runtime.Gosched()
		err = tb.do(context.Background(), func() { got = ran })
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != 3 {
		t.Fatalf("%d of the 3 accepted commands ran", got)
	}
}

// TestMailboxDeparturesFirst: departures queued while the table is busy
// run before the commands that wait (a flood of commands cannot delay
// them).
func TestMailboxDeparturesFirst(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, newMeta("t_mbd", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	sub := &fakeSub{player: "watcher"}
	if _, err := tb.Subscribe(context.Background(), sub); err != nil {
		t.Fatal(err)
	}
	release, started := make(chan struct{}), make(chan struct{})
	go tb.do(context.Background(), func() { close(started); <-release })
	<-started
	subscribed := true
	tb.post(func() { _, subscribed = tb.subs[sub] })
	tb.Unsubscribe(sub)
	close(release)
	tb.do(context.Background(), func() {})
	if subscribed {
		t.Fatal("a command queued before the departure saw the watcher still subscribed")
	}
}

// TestTableHoldsNoGoroutine: an idle table keeps no goroutine (mailbox.go):
// a thousand tables of people waiting for their moves add none.
func TestTableHoldsNoGoroutine(t *testing.T) {
	needPapayoo(t)
	st := store.NewMemory()
	before := runtime.NumGoroutine()
	var tables []*Table
	for i := range 1000 {
		tb, err := Create(context.Background(), Config{Store: st, Grace: time.Hour}, newMeta(idOf(i), humanSeats(4), 0))
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	deadline := time.Now().Add(5 * time.Second)
	n := runtime.NumGoroutine()
	for n-before > 50 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // start events still finishing
		n = runtime.NumGoroutine()
	}
	if n-before > 50 {
		t.Errorf("1,000 idle tables hold %d goroutines", n-before)
	}
	for _, tb := range tables {
		tb.Stop()
	}
}

func idOf(i int) string {
	return "t_idle" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
}

func humanSeats(n int) []store.Seat {
	seats := make([]store.Seat, n)
	for i := range seats {
		seats[i] = store.Seat{Player: "p" + string(rune('a'+i)), Name: "n"}
	}
	return seats
}

// TestMailboxPanic: a command that panics (a bug) stops its table, not
// the process: the panic is recovered, counted and logged, the caller is
// told the table stopped (not that the command was done), and later
// commands are refused.
func TestMailboxPanic(t *testing.T) {
	needPapayoo(t)
	m := NewMetrics()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour, Metrics: m, Log: quiet}, newMeta("t_mbp", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.do(context.Background(), func() { panic("a bug") }); err != ErrStopped {
		t.Errorf("do of a command that panicked: %v, want ErrStopped", err)
	}
	select {
	case <-tb.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the table runs on after a command panicked")
	}
	if n := m.Panics.Load(); n != 1 {
		t.Errorf("Panics = %d, want 1", n)
	}
	if err := tb.do(context.Background(), func() { t.Error("a command ran after the table stopped") }); err != ErrStopped {
		t.Fatalf("do after the stop: %v, want ErrStopped", err)
	}
}

// panicBot is a bot whose every decision panics.
type panicBot struct{}

func (panicBot) Level() string { return "panic" }
func (panicBot) Choose(context.Context, game.Engine, game.View) (game.Move, error) {
	panic("a bot bug")
}

// TestChoosePanic: a bot decision that panics is an errBotPanic error (the
// table then plays a legal move for the seat), not a crash of the worker.
func TestChoosePanic(t *testing.T) {
	if _, err := choose(context.Background(), panicBot{}, nil, nil); !errors.Is(err, errBotPanic) {
		t.Errorf("choose of a panicking bot: %v, want errBotPanic", err)
	}
}
