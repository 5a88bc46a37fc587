package table

import (
	"context"
	"runtime"
	"testing"
	"time"

	"cardroom/store"
)

// TestEventsOffTheTableGoroutine: the table's events run on goroutines
// of their own (deep.go), one at a time and in order, and a command that
// ends its goroutine (runtime.Goexit, as a test's FailNow does) still
// releases the table, which stops, as it did when commands ran on the
// table's own goroutine.
func TestEventsOffTheTableGoroutine(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, newMeta("t_deep", botSeats("a", 4)[:4], 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	// Posted commands run in order, never two at once.
	var order []int
	running := 0
	for i := range 50 {
		if err := tb.post(func() {
			running++
			if running != 1 {
				t.Errorf("command %d runs beside another", i)
			}
			order = append(order, i)
			runtime.Gosched()
			running--
		}); err != nil {
			t.Fatal(err)
		}
	}
	tb.do(context.Background(), func() {})
	for i, v := range order {
		if v != i {
			t.Fatalf("commands ran in the order %v", order)
		}
	}
	if len(order) != 50 {
		t.Fatalf("%d of 50 commands ran", len(order))
	}
	tb.do(context.Background(), func() { runtime.Goexit() })
	select {
	case <-tb.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the table runs on after a command ended its goroutine")
	}
}
