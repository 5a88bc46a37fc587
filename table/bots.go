package table

import (
	"cardroom/bot"
	"cardroom/game"
	"cardroom/store"
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"
)

// Bots, the turn clock, absence and expiry: what the table does on its own.

// controlledByBot reports whether a bot makes seat i's next move.
func (t *Table) controlledByBot(i int) (string, bool) {
	s := t.meta.Seats[i]
	if s.Bot != "" {
		return s.Bot, true
	}
	ss := &t.seats[i]
	if ss.away {
		return t.meta.BotLevel, true
	}
	if ss.expired {
		return timeoutLevel, true
	}
	return "", false
}

// timeoutLevel is the bot that plays a move when a player's clock runs
// out: a sensible move, whatever the table's level for absent players
// (a random stand-in would take a whole pile or break up a hand).
const timeoutLevel = "medium"

// schedule starts bot decisions, sets turn clocks and arms the timer.
func (t *Table) schedule() {
	now := time.Now()
	var next time.Time
	consider := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if t.meta.Status == store.StatusPlaying && !t.st.Over() {
		if !t.retryAt.IsZero() {
			consider(t.retryAt)
		}
		t.toAct = t.st.ToAct(t.toAct[:0])
		for i := range t.seats {
			ss := &t.seats[i]
			acting := false
			for _, s := range t.toAct {
				if int(s) == i {
					acting = true
				}
			}
			if !acting {
				ss.deadline, ss.expired, ss.wasToAct = time.Time{}, false, false
				continue
			}
			if t.meta.ClockMS > 0 && t.meta.Seats[i].Bot == "" && ss.deadline.IsZero() && !ss.expired {
				ss.deadline = now.Add(time.Duration(t.meta.ClockMS) * time.Millisecond)
			}
			ss.wasToAct = true
			if level, ok := t.controlledByBot(i); ok {
				if !ss.pending && !now.Before(ss.botRetry) {
					t.startBot(i, level)
				} else if !ss.pending {
					consider(ss.botRetry)
				}
			} else {
				consider(ss.deadline)
			}
		}
		for i := range t.seats {
			ss := &t.seats[i]
			if !ss.away && !ss.absentSince.IsZero() {
				consider(ss.absentSince.Add(t.cfg.Grace))
			}
		}
	}
	if t.meta.Status == store.StatusOpen {
		if !t.retryAt.IsZero() {
			consider(t.retryAt)
		}
		if t.cfg.OpenTTL > 0 && !t.seatedPresent() {
			consider(t.openIdle.Add(t.cfg.OpenTTL))
		}
	}
	if t.metaDirty && !t.retryAt.IsZero() {
		consider(t.retryAt)
	}
	if !t.finished.IsZero() {
		// The deadlines still ahead (one that has passed with a watcher
		// present must not wake the loop again and again).
		for _, at := range []time.Time{t.finished.Add(t.cfg.Linger + time.Millisecond), t.finished.Add(5*t.cfg.Linger + time.Millisecond)} {
			if at.After(now) {
				consider(at)
			}
		}
	}
	if next.IsZero() {
		next = now.Add(time.Hour)
	}
	d := next.Sub(now)
	if d < 0 {
		d = 0
	}
	t.timer.Reset(d)
}

func (t *Table) startBot(i int, level string) {
	ss := &t.seats[i]
	if ss.bot == nil || ss.botLevel != level {
		b, err := bot.New(level, t.meta.Seed^uint64(i+1)*0x2545f4914f6cdd1d)
		if err != nil {
			b = bot.NewRandom(t.meta.Seed ^ uint64(i+1))
		}
		if h, ok := b.(*bot.Hard); ok {
			b = h.WithWorkers(1) // one pool worker, one core
		}
		ss.bot, ss.botLevel = b, level
	}
	v := t.st.View(game.Seat(i))
	ss.pending, ss.pendingView, ss.pendingGen = true, v, t.log.len()
	b, eng, gen := ss.bot, t.eng, t.log.len()
	ctx, timeout, p := t.ctx, t.cfg.BotTimeout, t.cfg.Pool
	// Not inline: the decision's goroutine is a pool worker's, which runs
	// at a lower priority (and others wait for it).
	deliver := func(r botResult) { t.deliver(event{kind: stepBot, r: r}, false) }
	// The decision runs on the shared pool; the pause before it (BotDelay)
	// holds no worker and no goroutine.
	decide := func(ctx context.Context) {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		m, err := choose(cctx, b, eng, v)
		cancel()
		if errors.Is(err, errBotPanic) {
			t.cfg.Metrics.Panics.Add(1)
		}
		deliver(botResult{seat: i, gen: gen, move: m, err: err})
	}
	submit := func() {
		if p == nil {
			go decide(ctx)
			return
		}
		if err := p.Submit(ctx, decide); err != nil {
			go deliver(botResult{seat: i, gen: gen, err: errPoolFull})
		}
	}
	// After a trick, a round's end or a chain, people need longer to take
	// it in than the ordinary pause (histStep sets pauseUntil).
	delay := max(t.cfg.BotDelay, time.Until(t.pauseUntil))
	if delay > 0 {
		time.AfterFunc(delay, submit)
	} else {
		submit()
	}
}

// errBotPanic is the error of a bot decision that panicked: the table
// answers it as any failed decision.
var errBotPanic = errors.New("the bot's decision panicked")

// choose is b.Choose, with a panic turned into errBotPanic: the decision
// runs on a pool worker, and the table waits for its answer.
func choose(ctx context.Context, b bot.Bot, eng game.Engine, v game.View) (m game.Move, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = game.Move{}, fmt.Errorf("%w: %v", errBotPanic, r)
		}
	}()
	return b.Choose(ctx, eng, v)
}

func (t *Table) onBot(r botResult) {
	ss := &t.seats[r.seat]
	ss.pending = false
	view := ss.pendingView
	ss.pendingView = nil
	if t.meta.Status != store.StatusPlaying {
		return
	}
	if _, ok := t.controlledByBot(r.seat); !ok {
		return // the player came back
	}
	timedOut := ss.expired && !ss.away && t.meta.Seats[r.seat].Bot == ""
	if errors.Is(r.err, errPoolFull) && !timedOut {
		t.cfg.Metrics.BotRetries.Add(1)
		ss.botRetry = time.Now().Add(100 * time.Millisecond)
		return
	}
	if r.err != nil {
		if !errors.Is(r.err, errPoolFull) {
			t.cfg.Log.Warn("bot failed", "table", t.id, "seat", r.seat, "err", r.err)
		}
		// Fall back to a legal move so the table never stalls: the first
		// for a player whose time ran out (the pool refused the medium
		// bot, and the player has waited long enough), a random one for a
		// bot.
		t.moveBuf = t.st.Legal(game.Seat(r.seat), t.moveBuf[:0])
		if len(t.moveBuf) == 0 {
			return
		}
		r.move = t.moveBuf[0]
		if !timedOut {
			rng := game.NewRand(t.meta.Seed ^ uint64(t.log.len()))
			r.move = t.moveBuf[rng.IntN(len(t.moveBuf))]
		}
	} else if r.gen != t.log.len() && !reflect.DeepEqual(view, t.st.View(game.Seat(r.seat))) {
		return // the position changed under the bot: schedule decides again
	}
	clock := t.seats[r.seat].expired
	if err := t.apply(game.Seat(r.seat), t.st.FormatMove(r.move), true); err != nil {
		t.cfg.Log.Warn("bot move refused", "table", t.id, "seat", r.seat, "err", err)
		return
	}
	if clock {
		t.cfg.Metrics.ClockMoves.Add(1)
	}
	t.broadcast()
	t.advance()
}

func (t *Table) tick() {
	now := time.Now()
	changed := false
	if !t.retryAt.IsZero() && !now.Before(t.retryAt) {
		t.retryAt = time.Time{}
		switch {
		case t.metaDirty:
			if t.saveMeta() != nil {
				t.retryAt = now.Add(time.Second)
			}
		case t.meta.Status == store.StatusOpen && t.full():
			t.startFull()
		default:
			t.advance()
		}
	}
	if t.meta.Status == store.StatusOpen && t.cfg.OpenTTL > 0 && !t.seatedPresent() && !now.Before(t.openIdle.Add(t.cfg.OpenTTL)) {
		t.expire()
		return
	}
	for i := range t.seats {
		ss := &t.seats[i]
		if !ss.deadline.IsZero() && !now.Before(ss.deadline) && !ss.expired {
			ss.expired = true
			ss.deadline = time.Time{}
			changed = true
		}
		if !ss.away && !ss.absentSince.IsZero() && !now.Before(ss.absentSince.Add(t.cfg.Grace)) {
			ss.away = true
			changed = true
		}
	}
	if changed {
		t.publish()
		t.broadcast()
	}
}

// seatedPresent reports whether a player holding a seat is connected.
func (t *Table) seatedPresent() bool {
	for _, s := range t.meta.Seats {
		if s.Player != "" && t.presence[s.Player] > 0 {
			return true
		}
	}
	return false
}

// expire closes an open table that nobody has joined or watched from a
// seat for OpenTTL: it leaves the lobby and memory and is not restored.
func (t *Table) expire() {
	prev := t.snapshot()
	t.meta.Status = store.StatusClosed
	t.meta.Finished = time.Now().UTC()
	if err := t.saveMeta(); err != nil {
		t.meta = prev
		t.openIdle = time.Now().Add(time.Minute - t.cfg.OpenTTL) // try again in a minute
		return
	}
	t.cfg.Metrics.Expired.Add(1)
	t.cfg.Log.Info("open table expired", "table", t.id, "idle", t.cfg.OpenTTL)
	t.publish()
	t.broadcast()
	t.quit = true
}
