package table

// A table's goroutine lives as long as the table and is parked nearly all
// the time, waiting for its next event; a goroutine's stack grows to its
// deepest call and keeps that size until a collection halves it (only
// while less than a quarter of it is in use), and the next move grows it
// again. Handling an event is deep (a move's views and their JSON, a seat
// change's SQLite update: 8 KiB and more), waiting is not. So run only
// waits and dispatches: each event is handled on a goroutine of its own,
// which ends with it, while run waits. The table's own goroutine keeps
// the least stack between events, and the deep stacks live only as long
// as the events. The state is still touched by one goroutine at a time,
// in order: run hands over an event and takes the table back when it has
// been handled.
//
// The handling goroutines are not kept waiting for the next event (a pool
// of idle workers): a goroutine started inside a testing/synctest bubble
// belongs to it, so workers shared by every table could not serve a
// bubble's tables, nor let a bubble end.

// stepKind is the kind of a run loop event.
type stepKind uint8

const (
	stepStart stepKind = iota // the goroutine's start
	stepLeave                 // departures queued (leaveSig)
	stepCmd                   // a command (cmds)
	stepBot                   // a bot's decision (botRes)
	stepTick                  // the timer
	stepEmpty                 // the empty-table timer
)

// step is the event that run hands over; done (one slot) says it has
// been handled. run makes one for the table's life (about 200 bytes): a
// channel made inside a testing/synctest bubble may not be used outside
// it, so steps are not shared between tables.
type step struct {
	t    *Table
	kind stepKind
	f    func()
	r    botResult
	stop bool // set by the handler: the loop ends
	done chan struct{}
}

func newStep(t *Table) *step { return &step{t: t, done: make(chan struct{}, 1)} }

// exec has the event handled on a goroutine of its own and waits for it;
// it reports whether the loop must end.
func (s *step) exec(kind stepKind, f func(), r botResult) bool {
	s.kind, s.f, s.r = kind, f, r
	go s.handle()
	<-s.done
	s.f, s.r = nil, botResult{} // keep no command or move alive
	return s.stop
}

func (s *step) handle() {
	ended := true
	defer func() {
		// A handler that ended its goroutine (runtime.Goexit: a test's
		// FailNow inside a command) stops the table, as it did when
		// events ran on the table's own goroutine; run is released
		// either way.
		s.stop = s.stop || ended
		s.done <- struct{}{}
	}()
	s.stop = s.t.handle(s.kind, s.f, s.r)
	ended = false
}
