package table

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"cardroom/store"
)

// A table has no goroutine of its own. Its events (commands, bots'
// decisions, its timers, departures, the end) go into its mailbox, and
// the goroutine that finds the table idle when it posts an event runs the
// events, one at a time and in order, until the mailbox is empty: a
// connection's reader runs its player's move (and whatever else arrived
// meanwhile), a timer's goroutine the tick, a caller of do its command.
// The state is touched by one goroutine at a time, as with a goroutine
// per table, but a move no longer wakes a table goroutine and a handler
// goroutine and waits for them to hand the table back: each of those
// hand-offs woke an idle thread (a futex call) and cost a few
// microseconds of CPU a move. And a table holds no goroutine, so no
// stack, between its events: the stacks that grow in handling an event
// (a move's views and JSON, a seat change's SQLite update: 8 KiB and
// more) are those of goroutines that end (a reader's goroutine ends with
// its message; server's conn.read).
//
// Events that come from goroutines that must not be held up run on a
// goroutine started for them when the table is idle: a bot's decision
// (its worker runs at a lower priority, and the pool's), departures
// (Unsubscribe never blocks), the start and the end.

// stepKind is the kind of a table event.
type stepKind uint8

const (
	stepStart stepKind = iota // the table's start
	stepLeave                 // departures queued (Unsubscribe)
	stepCmd                   // a command (post, do)
	stepBot                   // a bot's decision
	stepTick                  // the timer
	stepEmpty                 // the empty-table timer
	stepEnd                   // Stop
)

// event is one entry of the mailbox.
type event struct {
	kind stepKind
	f    func()
	r    botResult
}

// mailbox holds a table's events until they run.
type mailbox struct {
	mu      sync.Mutex
	events  []event // waiting, oldest first (events[head:])
	head    int
	cmds    int  // commands waiting: at most Config.QueueSize
	leave   bool // departures are waiting: they run before the next event
	running bool // a goroutine is running the events
	ended   bool // the table has stopped: nothing more runs
}

// deliver puts an event in the mailbox. When the table is idle, the
// caller runs the events (inline) or a goroutine is started to. A
// command is refused with ErrBusy when QueueSize are waiting, and every
// event with ErrStopped once the table has ended.
func (t *Table) deliver(ev event, inline bool) error {
	m := &t.mb
	m.mu.Lock()
	if m.ended {
		m.mu.Unlock()
		return ErrStopped
	}
	switch ev.kind {
	case stepCmd:
		if m.cmds >= t.cfg.QueueSize {
			m.mu.Unlock()
			t.cfg.Metrics.Busy.Add(1)
			return ErrBusy
		}
		m.cmds++
	case stepLeave:
		// Departures go first (next), and one covers all that are queued.
		m.leave = true
	}
	if ev.kind != stepLeave {
		m.events = append(m.events, ev)
	}
	run := !m.running
	m.running = true
	m.mu.Unlock()
	if run {
		if inline {
			t.drain()
		} else {
			go t.drain()
		}
	}
	return nil
}

// next takes the oldest event, or reports that there is none (and the
// caller stops running the table's events).
func (m *mailbox) next() (event, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.leave && !m.ended {
		m.leave = false
		return event{kind: stepLeave}, true
	}
	if m.ended || m.head == len(m.events) {
		m.running = false
		// Keep no array between bursts, unless it is small.
		if cap(m.events) > 16 {
			m.events = nil
		} else {
			clear(m.events)
			m.events = m.events[:0]
		}
		m.head = 0
		return event{}, false
	}
	ev := m.events[m.head]
	m.events[m.head] = event{} // keep no command or move alive
	m.head++
	if ev.kind == stepCmd {
		m.cmds--
	}
	return ev, true
}

// drain runs the waiting events in order until the mailbox is empty, or
// the table ends. Only the goroutine that set running calls it.
func (t *Table) drain() {
	exited := true
	defer func() {
		// A handler that panicked (a bug: an engine's, the table's) ends
		// the table, not the room: its state may be half changed, and
		// what it stored (every accepted move) restores it at the next
		// start. The stack goes to the log only.
		if r := recover(); r != nil {
			t.cfg.Metrics.Panics.Add(1)
			t.cfg.Log.Error("table stopped: an event's handling panicked", "table", t.id, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			exited = true
		}
		// A handler that ended its goroutine (runtime.Goexit: a test's
		// FailNow inside a command) ends the table: its state may be half
		// changed.
		if exited {
			t.flush()
			t.end()
		}
	}()
	for {
		ev, ok := t.mb.next()
		if !ok {
			exited = false
			return
		}
		stop := t.handle(ev.kind, ev.f, ev.r)
		t.flush() // the event's messages leave together (Queuer)
		if stop {
			exited = false
			t.end()
			return
		}
	}
}

// end stops the table: what is still in the mailbox never runs (do's
// callers see Done), its timers are stopped, and OnStop is called.
func (t *Table) end() {
	t.mb.mu.Lock()
	if t.mb.ended {
		t.mb.mu.Unlock()
		return
	}
	t.mb.ended = true
	t.mb.running = false
	clear(t.mb.events)
	t.mb.events, t.mb.head = nil, 0
	t.mb.mu.Unlock()
	t.cancel()
	t.timer.Stop()
	t.emptyTimer.Stop()
	t.cfg.Metrics.Tables.Add(-1)
	if t.meta.Status == store.StatusPlaying {
		t.cfg.Metrics.Playing.Add(-1)
	}
	if t.emptyPaused {
		t.cfg.Metrics.Paused.Add(-1)
	}
	close(t.stopped)
	if t.cfg.OnStop != nil {
		t.cfg.OnStop(t.id)
	}
}

// Timers run the table's events from their own goroutines (time.AfterFunc),
// so a timer holds no goroutine while it waits. A timer may fire just as
// an event re-arms it: the tick then comes once more than needed, which
// tick and checkEmpty allow (they act on what is due, by the clock).
func (t *Table) newTimers() {
	t.timer = time.AfterFunc(time.Hour, func() { t.deliver(event{kind: stepTick}, true) })
	t.emptyTimer = time.AfterFunc(time.Hour, func() { t.deliver(event{kind: stepEmpty}, true) })
	t.emptyTimer.Stop()
}
