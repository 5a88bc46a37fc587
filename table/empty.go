package table

import (
	"time"

	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
)

// Empty tables: when every human seated at a game in progress has been
// gone (no connection to the table) for the grace period, the bots stop
// instead of playing the game out among themselves for nobody: the table
// pauses, and the lobby lists it as paused, until a seated human watches
// or joins again; or, if its owner chose so at its creation
// (when_empty "end"), the game ends unfinished. A table that never had a
// human seat (bots only) is a game someone asked to watch, and plays on.
//
// A table paused for Config.PausedTTL ends the same way. The pause is not
// stored: a restarted room resumes the table as playing, nobody is
// connected, and it pauses again after the grace period (its PausedTTL
// starts again).

// CheckWhenEmpty validates a table's when_empty choice ("" is the default,
// pause).
func CheckWhenEmpty(v string) error {
	switch v {
	case "", protocol.WhenEmptyPause, protocol.WhenEmptyEnd:
		return nil
	}
	return errorf(protocol.BadRequest, "when_empty %.20q: want %q or %q", v, protocol.WhenEmptyPause, protocol.WhenEmptyEnd)
}

// Paused reports whether the table waits for a human (safe from any
// goroutine: it reads the summary).
func (t *Table) Paused() bool { return t.Summary().Status == protocol.StatusPaused }

// humansGone reports whether the table has human seats and none of their
// players is connected to it.
func (t *Table) humansGone() bool {
	humans := false
	for _, s := range t.meta.Seats {
		if s.Player == "" {
			continue
		}
		if t.presence[s.Player] > 0 {
			return false
		}
		humans = true
	}
	return humans
}

// checkEmpty brings the empty-table state up to date; it runs whenever a
// seated player's presence or the seats change, when the game starts, and
// when the grace period set by an earlier call is over.
func (t *Table) checkEmpty() {
	if t.meta.Status != store.StatusPlaying || t.st.Over() || !t.humansGone() {
		t.emptySince = time.Time{}
		t.emptyTimer.Stop()
		if t.emptyPaused {
			t.resumeEmpty()
		}
		return
	}
	now := time.Now()
	if t.emptySince.IsZero() {
		t.emptySince = now
	}
	if at := t.emptySince.Add(t.cfg.Grace); now.Before(at) {
		t.emptyTimer.Reset(at.Sub(now))
		return
	}
	if t.meta.WhenEmpty == protocol.WhenEmptyEnd {
		t.endUnfinished("every human has left", true)
		return
	}
	if !t.emptyPaused {
		t.pauseEmpty(now)
	}
	if t.cfg.PausedTTL > 0 {
		// A paused table holds memory and a place under MaxTables and its
		// owner's quota: one nobody comes back to ends after PausedTTL.
		if at := t.pausedAt.Add(t.cfg.PausedTTL); now.Before(at) {
			t.emptyTimer.Reset(at.Sub(now))
		} else {
			t.endUnfinished("paused for longer than the paused TTL", true)
		}
	}
}

// pauseEmpty stops the bots. The turn clocks are cleared, so a player who
// comes back has a whole turn; every human seat is away (its player has
// been gone for the grace period), as tick would mark it; bot decisions
// already running are dropped when they arrive (dropBot).
func (t *Table) pauseEmpty(now time.Time) {
	t.emptyPaused, t.pausedAt = true, now
	for i, s := range t.meta.Seats {
		ss := &t.seats[i]
		ss.deadline, ss.expired = time.Time{}, false
		if s.Player != "" {
			// Gone for the grace period at least: if another human
			// resumes the table, a bot plays this seat.
			ss.away = true
		}
	}
	t.cfg.Metrics.Paused.Add(1)
	t.cfg.Log.Info("table paused: every human has left", "table", t.id, "grace", t.cfg.Grace)
	t.publish()
	t.broadcast()
}

// resumeEmpty lets the bots play again (a seated human is back, or the
// game no longer needs the pause).
func (t *Table) resumeEmpty() {
	t.emptyPaused = false
	t.cfg.Metrics.Paused.Add(-1)
	t.cfg.Log.Info("table resumed", "table", t.id)
	t.publish()
	t.broadcast()
}

// endUnfinished ends the game unfinished: the table is finished with
// result "*" (the record's mark of an unfinished game) and no winner,
// leaves the lobby, and stays in memory for Linger like any finished
// table; abandoned says its humans had gone (else it reached MaxSteps).
// If the row cannot be stored, the table pauses instead, so nothing plays
// on, and tries again a minute later.
func (t *Table) endUnfinished(why string, abandoned bool) {
	prev := t.snapshot()
	t.meta.Status = store.StatusFinished
	t.meta.Result = record.ResultText(t.st)
	t.meta.Winners = nil
	t.meta.Finished = time.Now().UTC()
	if err := t.saveMeta(); err != nil {
		t.meta = prev
		t.emptyTimer.Reset(time.Minute) // checkEmpty tries again
		if !t.emptyPaused {
			t.pauseEmpty(time.Now())
		}
		return
	}
	if t.emptyPaused {
		t.emptyPaused = false
		t.cfg.Metrics.Paused.Add(-1)
	}
	t.finished = time.Now()
	t.emptySince = time.Time{}
	t.cfg.Metrics.Playing.Add(-1)
	if abandoned {
		t.cfg.Metrics.Abandoned.Add(1)
	} else {
		t.cfg.Metrics.TooLong.Add(1)
	}
	for i := range t.seats {
		t.seats[i].deadline = time.Time{}
	}
	t.cfg.Log.Info("table ended unfinished: "+why, "table", t.id, "grace", t.cfg.Grace)
	t.unfinished.Store(true)
	t.publish()
	t.broadcast()
}

// dropBot forgets a bot decision that arrives while the table is paused:
// the seat decides again once the table resumes.
func (t *Table) dropBot(r botResult) {
	ss := &t.seats[r.seat]
	ss.pending = false
	ss.pendingView = nil
}

// scheduleOrWait is schedule, except on a paused table: no bot starts and
// no turn clock runs, and the timer wakes the loop only for a store retry.
func (t *Table) scheduleOrWait() {
	if !t.emptyPaused && !t.emptySince.IsZero() && !time.Now().Before(t.emptySince.Add(t.cfg.Grace)) {
		// The grace period is over (the clock may have woken the loop for
		// the absent seats first): pause, or end, before a bot starts.
		t.checkEmpty()
	}
	if !t.emptyPaused {
		t.schedule()
		return
	}
	d := time.Hour
	if !t.retryAt.IsZero() {
		d = max(time.Until(t.retryAt), 0)
	}
	t.timer.Reset(d)
}

// wireStatus is the status in state messages: the stored one, or paused
// while the table waits for a human (the lobby's summary says the same).
func (t *Table) wireStatus() protocol.TableStatus {
	if t.emptyPaused && t.meta.Status == store.StatusPlaying {
		return protocol.StatusPaused
	}
	return t.meta.Status
}
